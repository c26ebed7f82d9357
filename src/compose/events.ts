// What the controller tells: the message registries it publishes, the event bus every part
// publishes to, subscriptions and their delivery, the metric report; and the license and
// certificate login, which announce through them.
import type { Services } from '../api/services.js';
import { watchAccounts, watchSessions } from '../domain/accounts/account-events.js';
import { CertificateLogin } from '../domain/accounts/certificate-login.js';
import { EventBus } from '../domain/events/bus.js';
import { EventHub } from '../domain/events/hub.js';
import { MetricReports } from '../domain/events/metric-reports.js';
import { ensureVendorLicenseKey, issueLicenseKey, newSerial } from '../domain/licensing/license-keys.js';
import { InstalledLicense } from '../domain/licensing/installed-license.js';
import { timeSourceConfigured } from '../domain/manager/network-protocol.js';
import { RegistryFiles } from '../domain/registry-files.js';
import { BASE_REGISTRY } from '../messages/registries/base.js';
import { RESOURCE_EVENT_REGISTRY } from '../messages/registries/resource-event.js';
import { STORAGE_DEVICE_REGISTRY } from '../messages/registries/storage-device.js';
import { TASK_EVENT_REGISTRY } from '../messages/registries/task-event.js';
import { VENDOR_REGISTRY } from '../messages/registries/vendor.js';
import { VENDOR_RESOURCE_EVENT_REGISTRY } from '../messages/registries/vendor-resource-event.js';
import { BIOS_REGISTRY_ID, biosRegistryDocument } from '../platform/bios-attributes.js';
import { trustedCas, type TrustedCa } from '../platform/trusted-cas.js';
import { dialect } from '../protocol/dialect.js';
import type { Naming } from '../protocol/naming.js';
import type { Access } from './access.js';
import type { Base } from './base.js';

/** The registries the Registries collection serves: the message registries, then the BIOS attribute registry. */
export function buildRegistries(naming: Naming): RegistryFiles {
  const registries = new RegistryFiles((reg) => naming.registry(reg));
  registries.addMessageRegistry(BASE_REGISTRY);
  registries.addMessageRegistry(VENDOR_REGISTRY);
  registries.addMessageRegistry(RESOURCE_EVENT_REGISTRY);
  registries.addMessageRegistry(TASK_EVENT_REGISTRY);
  registries.addMessageRegistry(VENDOR_RESOURCE_EVENT_REGISTRY);
  registries.addMessageRegistry(STORAGE_DEVICE_REGISTRY);
  registries.add(
    {
      id: BIOS_REGISTRY_ID,
      registry: BIOS_REGISTRY_ID,
      fileName: `${BIOS_REGISTRY_ID}.json`,
      description: 'BIOS attribute registry of the system ROM',
    },
    biosRegistryDocument(),
  );
  return registries;
}

export type Events = Pick<Services, 'events' | 'eventHub' | 'metricReports' | 'eventCas'>;

/**
 * The bus, and subscriptions with their durable outbox, delivery and SSE: listening from here on,
 * so no event is missed. Accounts and sessions announce their changes.
 */
export function buildEvents(
  b: Base,
  access: Access,
  registries: RegistryFiles,
  naming: Naming,
  sensors: () => Services['sensors'],
): Events {
  const { config, store, clock, log } = b;
  const spell = dialect(config.dialect).json;
  const { accounts, sessions } = access;
  const events = new EventBus(clock, log);
  const eventCas = trustedCas(store.collection<TrustedCa>('event.ca'), clock);
  const eventHub = new EventHub({
    store,
    clock,
    log,
    bus: events,
    registries,
    uris: b.uris,
    maxSubscriptions: () => config.maxSubscriptions,
    trustedCas: () => eventCas.pems(),
    maxStreamsPerAccount: () => config.maxSsePerAccount,
    isAdministrator: (id) => {
      const a = accounts.peek(id);
      return a !== undefined && accounts.roleOf(a) === 'Administrator';
    },
    outbound: b.seat?.outbound,
    // Events carry canonical vendor names (MessageIds, types) like every body, spelled as served.
    wireStyle: naming.identity ? spell : (json) => spell(naming.outwardJson(json)),
  });
  eventHub.start();
  // SSE streams end with their session, and when their account no longer allows them.
  sessions.onEnd((s) => eventHub.endSessionStreams(s.Id));
  accounts.onChange((id) => eventHub.recheckStreams(id));
  watchAccounts(events, accounts, b.uris);
  watchSessions(events, sessions, b.uris);
  // Sensors are read per report: they are built later (buildSensors).
  const metricReports = new MetricReports(store, clock, sensors, eventHub, b.uris);
  return { events, eventHub, metricReports, eventCas };
}

export type Licensing = Pick<Services, 'installedLicense' | 'certificateLogin'>;

/** The installed license (a fleet's controller may leave the factory with one), and certificate login, which it licenses. */
export function buildLicensing(b: Base, access: Access, events: Events, https: Services['https']): Licensing {
  const { store, clock, seat } = b;
  const licenses = new InstalledLicense(
    store,
    clock,
    (seat?.licenseKey ?? ensureVendorLicenseKey(b.dataDir)).publicKey,
    events.events,
    b.uris.manager('LicenseService', '1'),
  );
  if (b.firstStart && seat?.factory.license && seat.factory.license !== 'None') {
    const issued = new Date(clock.now()).toISOString();
    const payload = { tier: seat.factory.license, licensee: 'Fleet manifest', serial: newSerial(), issued };
    licenses.install(issueLicenseKey(seat.licenseKey.privateKey, payload));
  }
  const certificateLogin = new CertificateLogin(store, access.accounts, clock, {
    licenses,
    httpsSelfSigned: () => https.selfSigned,
    timeSourceConfigured: () => timeSourceConfigured(store),
  });
  return { installedLicense: licenses, certificateLogin };
}
