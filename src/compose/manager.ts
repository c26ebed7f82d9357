// The controller's own vendor services (federation, SNMP, single sign-on,
// the key manager, the cloud connection, the security dashboard): settings
// stored in the document store, each one part.
import type { Services } from '../api/services.js';
import { ActiveHealth } from '../domain/manager/active-health.js';
import { ControllerBackups } from '../domain/manager/backup.js';
import { RemoteSupport } from '../domain/manager/remote-support.js';
import { CloudConnect } from '../domain/manager/cloud-connect.js';
import { FederationGroups } from '../domain/manager/federation.js';
import { ControllerFunctionality } from '../domain/manager/functionality.js';
import { KeyManager } from '../domain/manager/key-manager.js';
import { SecurityDashboard } from '../domain/manager/security-dashboard.js';
import { SingleSignOn } from '../domain/manager/single-sign-on.js';
import { SnmpService } from '../domain/manager/snmp.js';
import type { ControllerLifecycle, HostLifecycle } from '../platform/lifecycle.js';
import { factoryReset } from '../api/managers/reset-to-defaults.js';
import { SecureErase } from '../domain/manager/secure-erase.js';
import { vendorMessage } from '../messages/errors.js';
import type { Base } from './base.js';

export function buildManagerFeatures(
  b: Base,
  { host, controller }: { host: HostLifecycle; controller: ControllerLifecycle },
  p: Pick<Services, 'firmware' | 'logs' | 'bios' | 'secureBoot'>,
  /** The whole service, once it is made (the secure erase ends with the controller's factory reset). */
  service: () => Services,
): Pick<Services, 'managerFeatures'> {
  const { store, clock, uris } = b;
  return {
    managerFeatures: {
      federation: new FederationGroups(store),
      snmp: new SnmpService(store),
      sso: new SingleSignOn(store),
      keyManager: new KeyManager(store, clock),
      cloudConnect: new CloudConnect(store),
      remoteSupport: new RemoteSupport(store, clock),
      securityDashboard: new SecurityDashboard(store),
      functionality: new ControllerFunctionality(store),
      activeHealth: new ActiveHealth(store, clock, {
        records: () => (['IML', 'IEL'] as const).flatMap((log) => p.logs.list(log).map((record) => ({ log, record }))),
      }),
      secureErase: new SecureErase({
        store,
        clock,
        host,
        resetBios: () => {
          p.bios.requestResetToDefaults();
          p.bios.applyPending();
        },
        resetSecureBootKeys: () => p.secureBoot.resetKeys('ResetAllKeysToDefault'),
        resetController: () => factoryReset(service())('ResetAll'),
        record: (what) => p.logs.write('IML', vendorMessage('SecureEraseCompleted', what), uris.system()),
      }),
      backups: new ControllerBackups(store, clock, controller, () => p.firmware.controllerVersion()),
    },
  };
}
