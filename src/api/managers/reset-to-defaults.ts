// Manager.ResetToDefaults: the controller's settings back to the factory's
// (what each ResetType keeps is the domain's, factory-reset.ts), then a
// controller reset. Answered as Manager.Reset: 200 with a Success message once
// done; every session has ended by then, the caller's too.
import {
  RESET_TO_DEFAULTS_TYPES,
  factoryAdministratorPassword,
  resetToDefaults,
  type ResetToDefaultsType,
} from '../../domain/manager/factory-reset.js';
import { vendorMessage } from '../../messages/errors.js';
import { defineAction, t } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import type { ActionContext } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export type ResetToDefaultsDeps = Pick<
  Services,
  | 'config'
  | 'uris'
  | 'store'
  | 'accounts'
  | 'accountPolicy'
  | 'directories'
  | 'ldapCas'
  | 'certificateLogin'
  | 'eventHub'
  | 'eventCas'
  | 'httpsCertificate'
  | 'https'
  | 'controller'
  | 'logs'
  | 'managerFeatures'
>;

export const ResetToDefaultsAction = defineAction({
  name: 'Manager.ResetToDefaults',
  description:
    'Reset the controller to factory settings, then restart it. ResetAll resets everything; PreserveNetworkAndUsers keeps the network settings and local accounts; PreserveNetwork keeps the network settings. Logs, license, firmware and the host are never reset.',
  parameters: { ResetType: t.enum(RESET_TO_DEFAULTS_TYPES, { required: true }) },
});

/** The vendor services a factory reset puts back. */
function vendorServicesOf(f: Services['managerFeatures']) {
  return [f.federation, f.snmp, f.sso, f.keyManager, f.securityDashboard, f.remoteSupport, { reset: () => f.cloudConnect.disable() }];
}

/** The controller's factory reset of a type, and its restart (also what a one-button secure erase ends with). */
export function factoryReset(d: ResetToDefaultsDeps) {
  return (type: ResetToDefaultsType) =>
    resetToDefaults(type, {
      ...d,
      firstAdministrator: {
        userName: d.config.adminUser,
        password: () => factoryAdministratorPassword(d.config.dataDir, d.config.adminPassword),
      },
      keepHttpsCertificate: Boolean(d.config.tlsCert),
      vendorServices: vendorServicesOf(d.managerFeatures),
    });
}

export function resetToDefaultsHandler(d: ResetToDefaultsDeps) {
  const reset = factoryReset(d);
  return async (ctx: ActionContext<'/redfish/v1/Managers/{ManagerId}/', typeof ResetToDefaultsAction>) => {
    const type = ctx.body.ResetType;
    // Recorded first: the controller reset that ends it is recorded after it.
    d.logs.write('IEL', vendorMessage('ControllerResetToDefaults', type, ctx.principal.userName), d.uris.manager());
    await reset(type);
    return success();
  };
}
