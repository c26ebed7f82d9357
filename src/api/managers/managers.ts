// Managers: the management controller itself, its reset, and the vendor's
// ClearRestApiState. NetworkProtocol is served by ./network-protocol.ts, the
// Ethernet, serial and host interfaces by ./manager-interfaces.ts,
// Manager.ResetToDefaults by ./reset-to-defaults.ts and the controller's event
// log by ../logs/log-services.ts.
//
// Manager.Reset (GracefulRestart or ForceRestart; GracefulRestart when left
// out) restarts the controller: every session ends, and pending controller-side
// settings (user temperature thresholds, an armed REST API state clear) take
// effect. The 200 goes out, then the controller is away for the reboot's outage
// (platform/lifecycle.ts; --controller-reboot-seconds, 0: back at once).
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { isoNow } from '../../platform/clock.js';
import { collectionOf, commonProps, defineAction, defineType, odataType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { action, type ActionContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { ResetToDefaultsAction, resetToDefaultsHandler, type ResetToDefaultsDeps } from './reset-to-defaults.js';
import { controllerType, OEM } from '../../protocol/naming.js';

export type ManagerDeps = Pick<
  Services,
  'config' | 'uris' | 'clock' | 'controller' | 'logs' | 'restApiState' | 'serviceUuid' | 'firmware' | 'naming' | 'hardware'
> &
  ResetToDefaultsDeps;

type ManagerPath = '/redfish/v1/Managers/{ManagerId}/';

const MANAGER_RESET_TYPES = ['GracefulRestart', 'ForceRestart'] as const;

const ResetAction = defineAction({
  name: 'Manager.Reset',
  description: 'Restart the management controller: sessions end and pending controller settings take effect.',
  parameters: { ResetType: t.enum(MANAGER_RESET_TYPES) },
});

const ClearRestApiStateAction = defineAction({
  name: `${controllerType('')}.ClearRestApiState`,
  oem: true,
  description:
    'Discard the data the host reports to the controller at POST (the REST API state) at the next controller reset; the host reports it again at its next POST.',
  parameters: {},
});

export const VendorMCType = defineType({
  name: controllerType(''),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the management controller.',
  properties: {
    ClearRestApiStatePending: ro(t.boolean({ description: 'True while a REST API state clear waits for the next controller reset.' })),
    Links: t.object(
      { LicenseService: t.link({ readOnly: true }), SecurityService: t.link({ readOnly: true }) },
      { readOnly: true, typeName: 'Links' },
    ),
  },
});

export const ManagerType = defineType({
  name: 'Manager',
  version: '1.24.0',
  owner: 'DMTF',
  description: 'The management controller.',
  properties: {
    ...commonProps,
    ManagerType: ro(t.enum(['BMC', 'ManagementController', 'EnclosureManager', 'RackManager', 'Service'])),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    UUID: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    DateTime: ro(t.dateTime({ volatile: true })),
    DateTimeLocalOffset: ro(t.string()),
    PowerState: ro(t.enum(['On', 'Off', 'PoweringOn', 'PoweringOff'])),
    Status: statusProp,
    NetworkProtocol: t.link({ readOnly: true }),
    LogServices: t.link({ readOnly: true }),
    VirtualMedia: t.link({ readOnly: true, deprecated: 'the VirtualMedia of the ComputerSystem' }),
    EthernetInterfaces: t.link({ readOnly: true }),
    SerialInterfaces: t.link({ readOnly: true }),
    HostInterfaces: t.link({ readOnly: true }),
    Links: t.object(
      {
        ManagerForServers: t.links({ readOnly: true }),
        ManagerForChassis: t.links({ readOnly: true }),
        ManagerInChassis: t.link({ readOnly: true }),
      },
      { readOnly: true, typeName: 'Links' },
    ),
    Oem: oem(VendorMCType, { readOnly: true }),
  },
  actions: [ResetAction, ResetToDefaultsAction, ClearRestApiStateAction],
});

function handlers(d: ManagerDeps) {
  function getManagers() {
    return collection('Manager Collection', [d.uris.manager()], { Description: 'Management controllers' });
  }

  function getManager() {
    const self = d.uris.manager();
    const chassis = d.uris.chassis();
    return {
      Id: d.config.managerId,
      Name: 'Manager',
      Description: 'Management controller of the server',
      ManagerType: 'BMC',
      Manufacturer: d.naming.label,
      Model: d.naming.controller(d.hardware.system.model).model,
      UUID: d.serviceUuid,
      FirmwareVersion: d.firmware.controllerVersion(),
      DateTime: isoNow(d.clock),
      DateTimeLocalOffset: '+00:00',
      PowerState: 'On',
      Status: { State: 'Enabled', Health: 'OK' },
      NetworkProtocol: { '@odata.id': `${self}NetworkProtocol/` },
      LogServices: { '@odata.id': `${self}LogServices/` },
      VirtualMedia: { '@odata.id': `${self}VirtualMedia/` },
      EthernetInterfaces: { '@odata.id': `${self}EthernetInterfaces/` },
      SerialInterfaces: { '@odata.id': `${self}SerialInterfaces/` },
      HostInterfaces: { '@odata.id': `${self}HostInterfaces/` },
      Links: {
        ManagerForServers: [{ '@odata.id': d.uris.system() }],
        ManagerForChassis: [{ '@odata.id': chassis }],
        ManagerInChassis: { '@odata.id': chassis },
      },
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorMCType),
          ClearRestApiStatePending: d.restApiState.pending(),
          Links: {
            LicenseService: { '@odata.id': `${self}LicenseService/` },
            SecurityService: { '@odata.id': `${self}SecurityService/` },
          },
        },
      },
    };
  }

  /** Both reset types restart the controller the same way. */
  async function postReset(_ctx: ActionContext<ManagerPath, typeof ResetAction>) {
    await d.controller.reset();
    return success();
  }

  function postClearRestApiState(ctx: ActionContext<ManagerPath, typeof ClearRestApiStateAction>) {
    d.restApiState.arm();
    d.logs.write('IEL', vendorMessage('RestApiStateClearArmed', ctx.principal.userName), d.uris.manager());
    return success(vendorMessage('ControllerResetRequired'));
  }

  return { getManagers, getManager, postReset, postResetToDefaults: resetToDefaultsHandler(d), postClearRestApiState };
}

export function registerManagerRoutes(routes: RouteTable, d: ManagerDeps): void {
  const h = handlers(d);
  routes.param('ManagerId', (id) => id === d.config.managerId);

  routes.add({
    path: '/redfish/v1/Managers/',
    type: collectionOf(ManagerType),
    get: { privilege: Priv.login, handler: h.getManagers },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/',
    type: ManagerType,
    get: { privilege: Priv.login, handler: h.getManager },
    actions: [
      action(ResetAction, Priv.managerConfig, h.postReset),
      action(ResetToDefaultsAction, Priv.managerConfig, h.postResetToDefaults),
      action(ClearRestApiStateAction, Priv.managerConfig, h.postClearRestApiState),
    ],
  });
}
