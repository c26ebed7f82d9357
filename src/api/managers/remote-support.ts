// RemoteSupportService: the controller's call home (registration, the maintenance mode that holds
// back service events) and the log of the service events it sent. The simulated controller reaches
// no remote support service (domain/manager/remote-support.ts): a registration fails, recorded as
// the last transmission, so remote support stays disabled and the service event log empty.
import { CONNECTION_TYPES, MAINTENANCE_MODES, TRANSMISSION_TYPES } from '../../domain/manager/remote-support.js';
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { defineAction, defineType, ro, t } from '../../protocol/description.js';
import { baseError } from '../../protocol/errors.js';
import { OEM, oemType } from '../../protocol/naming.js';
import { collection, success } from '../../protocol/reply.js';
import { action, type ActionContext, type Context, type RouteTable } from '../../protocol/routes.js';
import { LogEntryCollectionType } from '../logs/log-services.js';
import type { Services } from '../services.js';

export type RemoteSupportDeps = Pick<Services, 'managerFeatures' | 'dialect'>;

type RemoteSupportPath = '/redfish/v1/Managers/{ManagerId}/RemoteSupportService/';

export const RegisterRemoteSupportAction = defineAction({
  name: `${oemType('RemoteSupport')}.RegisterDeviceToRemoteSupport`,
  description:
    'Register the server for remote support: directly with the vendor, or through a remote support server on the site (DestinationUrl).',
  parameters: {
    ConnectionType: t.enum(CONNECTION_TYPES, { required: true }),
    DestinationUrl: t.string({ maxLength: 255, description: 'The remote support server (Central Connect): host name or IP address.' }),
    DestinationPort: t.integer({ minimum: 1, maximum: 65535 }),
    WebProxyUrl: t.string({ maxLength: 255, description: 'The web proxy Direct Connect goes through.' }),
  },
});

export const ServerMaintenanceAction = defineAction({
  name: `${oemType('RemoteSupport')}.ServerMaintenance`,
  description: 'Set or clear the maintenance mode: while it is set, the server sends no service events.',
  parameters: { MaintenanceMode: t.enum(MAINTENANCE_MODES, { required: true }) },
});

export const VendorRemoteSupportType = defineType({
  name: oemType('RemoteSupport'),
  version: '1.0.0',
  owner: OEM,
  description: "Remote support: the server's registration with the vendor's support, its maintenance mode and its service events.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    RemoteSupportEnabled: ro(t.boolean({ description: 'True once a registration succeeded.' })),
    MaintenanceModeEnabled: ro(t.boolean()),
    LastTransmissionType: ro(t.enum(TRANSMISSION_TYPES)),
    LastTransmissionError: ro(t.string()),
    LastTransmissionDate: ro(t.dateTime()),
    // DMTF's LogEntryCollection allows no such place: served in iLO's dialect only.
    ServiceEventLogs: t.link({ readOnly: true, onlyIn: 'spec' }),
  },
  actions: [RegisterRemoteSupportAction, ServerMaintenanceAction],
});

function handlers(d: RemoteSupportDeps) {
  const rs = d.managerFeatures.remoteSupport;

  function getRemoteSupport(ctx: Context<RemoteSupportPath>) {
    const s = rs.state();
    return {
      Id: 'RemoteSupportService',
      Name: 'Remote Support Service',
      RemoteSupportEnabled: false,
      MaintenanceModeEnabled: s.MaintenanceModeEnabled,
      LastTransmissionType: s.LastTransmissionType,
      LastTransmissionError: s.LastTransmissionError,
      ...(s.LastTransmissionAt === null ? {} : { LastTransmissionDate: toIso(s.LastTransmissionAt) }),
      ServiceEventLogs: { '@odata.id': `${ctx.uri}ServiceEventLogs/` },
    };
  }

  function postRegister(ctx: ActionContext<RemoteSupportPath, typeof RegisterRemoteSupportAction>) {
    const { ConnectionType, DestinationUrl } = ctx.body;
    if (ConnectionType === 'CentralConnect' && !DestinationUrl)
      throw baseError('ActionParameterMissing', RegisterRemoteSupportAction.name, 'DestinationUrl').about('DestinationUrl');
    rs.register(ConnectionType, DestinationUrl);
    return success();
  }

  function postServerMaintenance(ctx: ActionContext<RemoteSupportPath, typeof ServerMaintenanceAction>) {
    rs.setMaintenance(ctx.body.MaintenanceMode);
    return success();
  }

  /** No service event is ever sent: remote support cannot be enabled here. */
  function getServiceEventLogs() {
    return collection('Service Event Logs', [], { Description: 'The service events the server sent to remote support' });
  }

  return { getRemoteSupport, postRegister, postServerMaintenance, getServiceEventLogs };
}

export function registerRemoteSupportRoutes(routes: RouteTable, d: RemoteSupportDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/RemoteSupportService/',
    type: VendorRemoteSupportType,
    get: { privilege: Priv.login, handler: h.getRemoteSupport },
    actions: [
      action(RegisterRemoteSupportAction, Priv.managerConfig, h.postRegister),
      action(ServerMaintenanceAction, Priv.managerConfig, h.postServerMaintenance),
    ],
  });
  // iLO's dialect only: DMTF's LogEntryCollection has no place under a vendor resource.
  if (d.dialect.name !== 'spec') return;
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/RemoteSupportService/ServiceEventLogs/',
    type: LogEntryCollectionType,
    get: { privilege: Priv.login, handler: h.getServiceEventLogs },
  });
}
