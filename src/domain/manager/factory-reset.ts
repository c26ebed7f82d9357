// Manager.ResetToDefaults: the controller's configuration back to how it
// left the factory, through each area's own domain object (never by removing
// the database behind the service's back), then a controller reset.
//
// What each part holds, and which reset types put it back:
//   network   NetworkProtocol (HostName, NTP, SSDP), the dedicated NIC's
//             IPv4/DHCP/DNS settings, the host interface switch
//             -> ResetAll only
//   users     local accounts (all but the first administrator are deleted;
//             it gets its factory password, the Administrator role, and is
//             enabled and unlocked) and user certificate mappings
//             -> ResetAll and PreserveNetwork
//   settings  password and lockout policy, LDAP and Active Directory,
//             the time zone, alert e-mail, remote syslog and web proxy, federation groups, SNMP, single sign-on, the
//             key manager, the security dashboard's ignored risks,
//             certificate login (off, trusted CAs removed), the HTTPS
//             certificate (a new self-signed one unless the operator gave
//             --tls-cert), event subscriptions, EventService settings and CA certificates,
//             the serial port
//             -> every type
// Kept by every type: the logs (the reset itself is recorded), the license,
// firmware and the update queue and repository, telemetry, session timeout,
// user temperature thresholds, and everything of the host (BIOS, boot, secure
// boot, storage, the UID light, the system's HostName and AssetTag).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControllerLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import { DEFAULT_ACCOUNT_POLICY, type AccountPolicy } from '../accounts/account-policy.js';
import type { Accounts } from '../accounts/accounts.js';
import type { CertificateLogin } from '../accounts/certificate-login.js';
import type { DirectorySettingsStore } from '../accounts/directory-settings.js';
import { generatePassword } from '../accounts/passwords.js';
import type { TrustedCas } from '../../platform/trusted-cas.js';
import { DEFAULT_SETTINGS as DEFAULT_EVENT_SERVICE, type EventHub } from '../events/hub.js';
import { DEFAULT_ALERTING, writeAlerting } from './alerting.js';
import { DEFAULT_DATE_TIME, writeDateTime } from './date-time.js';
import type { HttpsCertificate } from './https-certificate.js';
import {
  DEFAULT_HOST_INTERFACE,
  DEFAULT_MANAGER_NIC,
  DEFAULT_SERIAL,
  hostInterfaceSetting,
  serialSetting,
  writeManagerNic,
} from './interfaces.js';
import { DEFAULT_NETWORK_PROTOCOL, readNetworkProtocol, writeNetworkProtocol } from './network-protocol.js';

export const RESET_TO_DEFAULTS_TYPES = ['ResetAll', 'PreserveNetworkAndUsers', 'PreserveNetwork'] as const;
export type ResetToDefaultsType = (typeof RESET_TO_DEFAULTS_TYPES)[number];

/** The parts a reset type puts back (DMTF: PreserveNetworkAndUsers keeps local user names and passwords). */
export function partsReset(type: ResetToDefaultsType): { network: boolean; users: boolean; settings: true } {
  return { network: type === 'ResetAll', users: type !== 'PreserveNetworkAndUsers', settings: true };
}

/** The file the first start writes a generated administrator password to (app.ts INITIAL_PASSWORD_FILE). */
const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password';

/**
 * The first administrator's factory password: the configured one, else the
 * one written at first start (the "toe tag"), else a new one written there.
 */
export function factoryAdministratorPassword(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = join(dataDir, INITIAL_ADMIN_PASSWORD_FILE);
  const written = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (written) return written;
  const password = generatePassword();
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

export interface FactoryResetDeps {
  store: DocumentStore;
  accounts: Accounts;
  accountPolicy: AccountPolicy;
  directories: DirectorySettingsStore;
  /** The LDAP CA certificates: directory settings. */
  ldapCas: TrustedCas;
  certificateLogin: CertificateLogin;
  eventHub: EventHub;
  /** The CA certificates event delivery trusts. */
  eventCas: TrustedCas;
  httpsCertificate: HttpsCertificate;
  /** The listener's trusted client CAs (certificate login). */
  https: { setClientCAs(pems: string[]): void };
  controller: ControllerLifecycle;
  /** The first administrator's user name and factory password (asked only when users are reset). */
  firstAdministrator: { userName: string; password(): string };
  /** The operator gave the HTTPS identity (--tls-cert): it is configuration, not a setting, and stays. */
  keepHttpsCertificate: boolean;
  /** The controller's vendor services (federation, SNMP, single sign-on, key manager...): settings, reset by every type. */
  vendorServices: readonly { reset(): void }[];
}

export async function resetToDefaults(type: ResetToDefaultsType, d: FactoryResetDeps): Promise<void> {
  const parts = partsReset(type);
  // The slow part first (password hashing), so the writes below happen together.
  const admin = parts.users ? await factoryAdministrator(d) : undefined;
  d.store.transaction(() => {
    if (parts.network) {
      writeNetworkProtocol(d.store, DEFAULT_NETWORK_PROTOCOL);
      writeManagerNic(d.store, DEFAULT_MANAGER_NIC);
      hostInterfaceSetting(d.store).set(DEFAULT_HOST_INTERFACE);
    }
    if (admin) {
      for (const a of d.accounts.list()) if (a.Id !== admin.Id) d.accounts.delete(a.Id);
      d.accounts.save(admin);
      for (const m of d.certificateLogin.listMappings()) d.certificateLogin.deleteMapping(m.Id);
    }
    d.accountPolicy.update(DEFAULT_ACCOUNT_POLICY);
    d.directories.reset();
    for (const ca of d.ldapCas.list()) d.ldapCas.delete(ca.Id);
    d.certificateLogin.setEnabled(false);
    for (const ca of d.certificateLogin.listCas()) d.certificateLogin.deleteCa(ca.Id);
    for (const s of d.eventHub.list()) d.eventHub.remove(s.Id);
    for (const ca of d.eventCas.list()) d.eventCas.delete(ca.Id);
    d.eventHub.updateSettings(DEFAULT_EVENT_SERVICE);
    serialSetting(d.store).set(DEFAULT_SERIAL);
    writeDateTime(d.store, DEFAULT_DATE_TIME);
    writeAlerting(d.store, DEFAULT_ALERTING);
    for (const part of d.vendorServices) part.reset();
  });
  d.https.setClientCAs(d.certificateLogin.caPems());
  if (!d.keepHttpsCertificate) await d.httpsCertificate.regenerateSelfSigned(readNetworkProtocol(d.store).HostName);
  // As on the real controller, the reset ends with a controller restart: every session ends.
  await d.controller.reset();
}

/** The first administrator record as it left the factory (made again if it was deleted or renamed). */
async function factoryAdministrator(d: FactoryResetDeps) {
  const { userName } = d.firstAdministrator;
  const password = d.firstAdministrator.password();
  const existing =
    d.accounts.findByUserName(userName) ?? (await d.accounts.create({ UserName: userName, Password: password, RoleId: 'Administrator' }));
  const withRole = d.accounts.setRole(existing, 'Administrator');
  const { LockedUntil: _until, FailedLogins: _failed, LastFailedLogin: _last, ...rest } = await d.accounts.withPassword(withRole, password);
  return { ...rest, Enabled: true, Locked: false, PasswordChangeRequired: false };
}
