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
import { Representations } from '../../lib/memo.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { isoNow } from '../../platform/clock.js';
import { CLOUD_CONNECT_STATUSES } from '../../domain/manager/cloud-connect.js';
import { readDateTime, timeZoneOf } from '../../domain/manager/date-time.js';
import { hostInterfaceSetting } from '../../domain/manager/interfaces.js';
import { maskLicenseKey } from '../../domain/licensing/license-keys.js';
import {
  collectionOf,
  commonProps,
  defineAction,
  defineType,
  odataType,
  oem,
  ro,
  statusProp,
  t,
  type LinkProp,
} from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { action, type ActionContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { ResetToDefaultsAction, resetToDefaultsHandler, type ResetToDefaultsDeps } from './reset-to-defaults.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type ManagerDeps = Pick<
  Services,
  | 'config'
  | 'uris'
  | 'clock'
  | 'controller'
  | 'logs'
  | 'restApiState'
  | 'serviceUuid'
  | 'firmware'
  | 'store'
  | 'managerFeatures'
  | 'installedLicense'
  | 'settings'
  | 'naming'
  | 'hardware'
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

const ResetToFactoryDefaultsAction = defineAction({
  name: `${controllerType('')}.ResetToFactoryDefaults`,
  oem: true,
  description: 'Reset the controller to its factory settings (network and users too), clear its event log, then restart it.',
  parameters: { ResetType: t.enum(['Default'], { required: true }) },
});

const DisableFunctionalityAction = defineAction({
  name: `${controllerType('')}.DisableiLOFunctionality`,
  oem: true,
  description:
    'Disable the controller: it restarts with its network services off and answers no request until the host enables it again (the control API host action ManagerFunctionality).',
  parameters: {},
});

const EnableCloudConnectAction = defineAction({
  name: `${controllerType('')}.EnableCloudConnect`,
  oem: true,
  description: "Connect the controller to the vendor's cloud management service with an activation key.",
  parameters: { ActivationKey: t.string({ maxLength: 256 }), OverrideManager: t.boolean() },
});

const DisableCloudConnectAction = defineAction({
  name: `${controllerType('')}.DisableCloudConnect`,
  oem: true,
  description: "Disconnect the controller from the vendor's cloud management service.",
  parameters: { FailReason: t.string(), FailReasonExtendedInfo: t.object({}, { additionalProperties: true }) },
});

/** The self tests the vendor's controller reports, each passed: the simulation has no part to fail them. */
const SELF_TESTS = ['NVRAMData', 'EmbeddedFlash', 'EEPROM', 'HostRom', 'SupportedHost', 'ASICFuses'] as const;

/** How long after its answer the vendor's factory reset starts. */
export const FACTORY_DEFAULTS_DELAY_MS = 5_000;

const consoleProp = t.object(
  { ServiceEnabled: ro(t.boolean()), MaxConcurrentSessions: ro(t.integer()), ConnectTypesSupported: ro(t.array(t.string())) },
  { readOnly: true, typeName: 'Console' },
);

const oemLinks = [
  'ActiveHealthSystem',
  'BackupRestoreService',
  'DateTimeService',
  'EmbeddedMediaService',
  'FederationGroups',
  'FederationPeers',
  'LicenseService',
  'RemoteSupport',
  'SecurityService',
  'SNMPService',
] as const;

export const VendorMCType = defineType({
  name: controllerType(''),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the management controller.',
  properties: {
    ClearRestApiStatePending: ro(t.boolean({ description: 'True while a REST API state clear waits for the next controller reset.' })),
    CloudConnect: t.object(
      { CloudConnectStatus: ro(t.enum(CLOUD_CONNECT_STATUSES)), FailReason: ro(t.string()) },
      { readOnly: true, typeName: 'CloudConnect' },
    ),
    iLOFunctionalityEnabled: ro(t.boolean()),
    ConfigurationSettings: ro(t.enum(['Current', 'SomePendingReset'])),
    Firmware: t.object(
      {
        Current: t.object(
          { VersionString: ro(t.string()), MajorVersion: ro(t.integer()), MinorVersion: ro(t.integer()), DebugBuild: ro(t.boolean()) },
          { typeName: 'FirmwareVersion' },
        ),
      },
      { readOnly: true, typeName: 'Firmware' },
    ),
    IdleConnectionTimeoutMinutes: ro(t.integer({ description: "The session service's SessionTimeout, in minutes." })),
    License: t.object(
      { LicenseKey: ro(t.string()), LicenseString: ro(t.string()), LicenseType: ro(t.string()) },
      { readOnly: true, typeName: 'License' },
    ),
    FederationConfig: t.object(
      {
        IPv6MulticastScope: ro(t.string()),
        MulticastAnnouncementInterval: ro(t.integer()),
        MulticastDiscovery: ro(t.string()),
        MulticastTimeToLive: ro(t.integer()),
        iLOFederationManagement: ro(t.string()),
      },
      { readOnly: true, typeName: 'FederationConfig' },
    ),
    VirtualNICEnabled: ro(t.boolean({ description: 'The host interface (virtual NIC) is enabled: HostInterfaces InterfaceEnabled.' })),
    WebGuiEnabled: ro(t.boolean()),
    RIBCLEnabled: ro(t.boolean()),
    RequireHostAuthentication: ro(t.boolean()),
    RequiredLoginForiLORBSU: ro(t.boolean()),
    SerialCLISpeed: ro(t.integer()),
    SerialCLIStatus: ro(t.string()),
    SerialCLIUART: ro(t.string()),
    FrontPanelUSB: t.object({ State: ro(t.string()) }, { readOnly: true, typeName: 'FrontPanelUSB' }),
    iLOServicePort: t.object(
      {
        iLOServicePortEnabled: ro(t.boolean()),
        USBEthernetAdaptersEnabled: ro(t.boolean()),
        USBFlashDriveEnabled: ro(t.boolean()),
        MassStorageAuthenticationRequired: ro(t.boolean()),
      },
      { readOnly: true, typeName: 'iLOServicePort' },
    ),
    iLOSelfTestResults: ro(
      t.array(t.object({ SelfTestName: t.string(), Status: t.string(), Notes: t.string() }, { typeName: 'SelfTestResult' })),
    ),
    iLOFunctionalityRequired: ro(t.boolean({ description: 'The controller cannot be disabled (blades and some enclosures).' })),
    Links: t.object(
      Object.fromEntries(oemLinks.map((l) => [l, t.link({ readOnly: true })])) as Record<(typeof oemLinks)[number], LinkProp>,
      {
        readOnly: true,
        typeName: 'Links',
      },
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
    CommandShell: consoleProp,
    GraphicalConsole: consoleProp,
    SerialConsole: { ...consoleProp, deprecated: 'the serial interfaces (SerialInterfaces)' },
    NetworkProtocol: t.link({ readOnly: true }),
    LogServices: t.link({ readOnly: true }),
    VirtualMedia: t.link({ readOnly: true, deprecated: 'the VirtualMedia of the ComputerSystem' }),
    EthernetInterfaces: t.link({ readOnly: true }),
    DedicatedNetworkPorts: t.link({ readOnly: true }),
    SharedNetworkPorts: t.link({ readOnly: true }),
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
  actions: [
    ResetAction,
    ResetToDefaultsAction,
    ClearRestApiStateAction,
    ResetToFactoryDefaultsAction,
    DisableFunctionalityAction,
    EnableCloudConnectAction,
    DisableCloudConnectAction,
  ],
});

function handlers(d: ManagerDeps) {
  const views = new Representations(4);

  function getManagers() {
    return collection('Manager Collection', [d.uris.manager()], { Description: 'Management controllers' });
  }

  /** Rebuilt only when what it shows changes: stored state (settings, firmware inventory, license) or the clock's second. */
  function getManager() {
    const now = isoNow(d.clock);
    return views.get(d.uris.manager(), [d.store.generation, now], () => buildManager(now));
  }

  function buildManager(now: string) {
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
      DateTime: now,
      DateTimeLocalOffset: timeZoneOf(readDateTime(d.store)).UtcOffset,
      PowerState: 'On',
      Status: { State: 'Enabled', Health: 'OK' },
      // No SSH, KVM or IPMI in the simulation; the session limits are the vendor controller's.
      CommandShell: { ServiceEnabled: false, MaxConcurrentSessions: 9, ConnectTypesSupported: ['SSH', 'Oem'] },
      GraphicalConsole: { ServiceEnabled: false, MaxConcurrentSessions: 10, ConnectTypesSupported: ['KVMIP'] },
      SerialConsole: { ServiceEnabled: false, MaxConcurrentSessions: 13, ConnectTypesSupported: ['SSH', 'IPMI', 'Oem'] },
      NetworkProtocol: { '@odata.id': `${self}NetworkProtocol/` },
      LogServices: { '@odata.id': `${self}LogServices/` },
      VirtualMedia: { '@odata.id': `${self}VirtualMedia/` },
      EthernetInterfaces: { '@odata.id': `${self}EthernetInterfaces/` },
      DedicatedNetworkPorts: { '@odata.id': `${self}DedicatedNetworkPorts/` },
      SharedNetworkPorts: { '@odata.id': `${self}SharedNetworkPorts/` },
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
          CloudConnect: { ...d.managerFeatures.cloudConnect.state() },
          iLOFunctionalityEnabled: d.managerFeatures.functionality.enabled(),
          iLOFunctionalityRequired: false,
          ...controllerDetails(),
          Links: {
            ActiveHealthSystem: { '@odata.id': `${self}ActiveHealthSystem/` },
            BackupRestoreService: { '@odata.id': `${self}BackupRestoreService/` },
            DateTimeService: { '@odata.id': `${self}DateTime/` },
            EmbeddedMediaService: { '@odata.id': `${self}EmbeddedMedia/` },
            FederationGroups: { '@odata.id': `${self}FederationGroups/` },
            FederationPeers: { '@odata.id': `${self}FederationPeers/` },
            LicenseService: { '@odata.id': `${self}LicenseService/` },
            RemoteSupport: { '@odata.id': `${self}RemoteSupportService/` },
            SecurityService: { '@odata.id': `${self}SecurityService/` },
            SNMPService: { '@odata.id': `${self}SnmpService/` },
          },
        },
      },
    };
  }

  /** What the vendor's controller shows of itself: from the controller's state, its factory values where the simulation has none. */
  function controllerDetails() {
    const version = d.firmware.controllerVersion();
    const [major, minor] = version.split('.').map((n) => Number.parseInt(n, 10));
    const license = d.installedLicense.installed();
    return {
      ConfigurationSettings: 'Current',
      Firmware: {
        Current: {
          VersionString: version,
          ...(Number.isInteger(major) && Number.isInteger(minor) ? { MajorVersion: major, MinorVersion: minor } : {}),
          DebugBuild: false,
        },
      },
      IdleConnectionTimeoutMinutes: Math.round(d.settings.peek().sessionTimeout / 60),
      License: license
        ? {
            LicenseKey: maskLicenseKey(license.key),
            LicenseString: license.payload.tier,
            LicenseType: license.payload.expires ? 'Subscription' : 'Perpetual',
          }
        : { LicenseString: 'None', LicenseType: 'Unlicensed' },
      // Federation announces itself as the vendor's controller does out of the factory.
      FederationConfig: {
        IPv6MulticastScope: 'Site',
        MulticastAnnouncementInterval: 600,
        MulticastDiscovery: 'Enabled',
        MulticastTimeToLive: 5,
        iLOFederationManagement: 'Enabled',
      },
      VirtualNICEnabled: hostInterfaceSetting(d.store).get().InterfaceEnabled,
      WebGuiEnabled: true,
      RIBCLEnabled: false,
      RequireHostAuthentication: false,
      RequiredLoginForiLORBSU: false,
      SerialCLISpeed: 9600,
      SerialCLIStatus: 'EnabledAuthReq',
      SerialCLIUART: 'Present',
      FrontPanelUSB: { State: 'Ready' },
      iLOServicePort: {
        iLOServicePortEnabled: true,
        USBEthernetAdaptersEnabled: true,
        USBFlashDriveEnabled: true,
        MassStorageAuthenticationRequired: false,
      },
      iLOSelfTestResults: SELF_TESTS.map((SelfTestName) => ({ SelfTestName, Status: 'OK', Notes: '' })),
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

  const resetToDefaults = resetToDefaultsHandler(d);

  /** The vendor's factory reset: every setting, network and users too, and the event log cleared. */
  /**
   * Answered first, done a moment later, as the vendor's controller does: its clients read and log out
   * after the answer (ilorest factorydefaults), which a reset already done would refuse.
   */
  function postResetToFactoryDefaults(ctx: ActionContext<ManagerPath, typeof ResetToFactoryDefaultsAction>) {
    d.clock.setTimer(FACTORY_DEFAULTS_DELAY_MS, () => {
      d.logs.clear('IEL');
      void resetToDefaults({ ...ctx, body: { ResetType: 'ResetAll' } });
    });
    return success();
  }

  async function postDisableFunctionality(ctx: ActionContext<ManagerPath, typeof DisableFunctionalityAction>) {
    d.logs.write('IEL', vendorMessage('ControllerFunctionalityDisabled', ctx.principal.userName), d.uris.manager());
    d.managerFeatures.functionality.set(false);
    await d.controller.reset();
    return success();
  }

  function postEnableCloudConnect(ctx: ActionContext<ManagerPath, typeof EnableCloudConnectAction>) {
    d.managerFeatures.cloudConnect.enable(ctx.body.ActivationKey);
    return success();
  }

  function postDisableCloudConnect(_ctx: ActionContext<ManagerPath, typeof DisableCloudConnectAction>) {
    d.managerFeatures.cloudConnect.disable();
    return success();
  }

  return {
    getManagers,
    getManager,
    postReset,
    postResetToDefaults: resetToDefaults,
    postClearRestApiState,
    postResetToFactoryDefaults,
    postDisableFunctionality,
    postEnableCloudConnect,
    postDisableCloudConnect,
  };
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
      action(ResetToFactoryDefaultsAction, Priv.managerConfig, h.postResetToFactoryDefaults),
      action(DisableFunctionalityAction, Priv.managerConfig, h.postDisableFunctionality),
      action(EnableCloudConnectAction, Priv.managerConfig, h.postEnableCloudConnect),
      action(DisableCloudConnectAction, Priv.managerConfig, h.postDisableCloudConnect),
    ],
  });
}
