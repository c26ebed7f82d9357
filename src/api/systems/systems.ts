// Computer systems: the one simulated server, its power actions (standard and
// vendor), boot configuration and boot options. BIOS lives in bios.ts.
import { Representations } from '../../lib/memo.js';
import {
  OVERRIDE_ENABLED,
  OVERRIDE_MODES,
  OVERRIDE_TARGETS,
  isPermutationOfOptions,
  type BootOptionDef,
  type BootState,
} from '../../domain/bios/boot.js';
import { changedIndicator } from '../../domain/chassis/chassis.js';
import { parseImageUri } from '../../domain/firmware/download.js';
import { isHostName } from '../../lib/network-names.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { baseError, combinedError } from '../../protocol/errors.js';
import { toIso } from '../../platform/clock.js';
import { BIOS_ROM_VERSION } from '../../platform/bios-attributes.js';
import { processorSummary, totalMemoryGiB } from '../../platform/hardware/inventory.js';
import { serverIdentity } from '../../platform/identity.js';
import type { Phase, ServerSimulator } from '../../platform/simulator.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { action, type ActionContext, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import { hostNames } from './host-name.js';
import { hostDomain } from '../../platform/host-network.js';
import { SECURE_ERASE_ACTION, secureEraseBody, secureEraseHandler, type SecureEraseDeps } from './secure-erase.js';
import { pcieDeviceLinks } from '../chassis/pcie-devices.js';
import type { Services } from '../services.js';
import { deviceDiscovery, systemVendorExtras } from './system-vendor.js';
import { TPM_FIRMWARE_VERSION, trustedComponentUris } from '../chassis/trusted-components.js';
import {
  BootOptionType,
  ComputerSystemType,
  POWER_BUTTON_ACTION,
  RESET_ACTION,
  SYSTEM_RESET_ACTION,
  type BOOT_PROGRESS_STATES,
  type POST_STATES,
} from './system-types.js';
import { OEM } from '../../protocol/naming.js';

export { ComputerSystemType };

/** What the computer system area uses. */
export type SystemDeps = Pick<
  Services,
  | 'config'
  | 'uris'
  | 'serviceUuid'
  | 'store'
  | 'clock'
  | 'host'
  | 'server'
  | 'firmware'
  | 'hardware'
  | 'health'
  | 'boot'
  | 'uidLight'
  | 'bios'
> &
  SecureEraseDeps;

// The system's path, for its handlers' contexts (the routes below spell it out).
type SystemPath = '/redfish/v1/Systems/{SystemId}/';

type PostState = (typeof POST_STATES)[number];
type BootProgressState = (typeof BOOT_PROGRESS_STATES)[number];

/** POST and boot progress as the ROM reports them, from the phase and how far POST got. */
function progress(server: ServerSimulator, now: number): { post: PostState; boot: BootProgressState; since: number } {
  const st = server.snapshot();
  const phase: Phase = st.phase;
  switch (phase) {
    case 'Off':
      return { post: 'PowerOff', boot: 'None', since: st.phaseSince };
    case 'PoweringOn':
    case 'Resetting':
      return { post: 'Reset', boot: 'PrimaryProcessorInitializationStarted', since: st.phaseSince };
    case 'Post': {
      // POST walks memory training, PCI enumeration, then device discovery.
      const third = server.timings.postMs / 3;
      const elapsed = server.postClock(now) - st.phaseSince;
      if (elapsed < third) return { post: 'InPost', boot: 'MemoryInitializationStarted', since: st.phaseSince };
      if (elapsed < 2 * third) return { post: 'InPost', boot: 'PCIResourceConfigStarted', since: st.phaseSince + third };
      return { post: 'InPostDiscoveryComplete', boot: 'SystemHardwareInitializationComplete', since: st.phaseSince + 2 * third };
    }
    case 'OsHalted':
      return { post: 'FinishedPost', boot: 'OSBootStarted', since: st.phaseSince };
    default:
      return { post: 'FinishedPost', boot: 'OSRunning', since: st.phaseSince };
  }
}

function systemStatus(phase: Phase): string {
  if (phase === 'Off') return 'StandbyOffline';
  if (phase === 'PoweringOn' || phase === 'Resetting' || phase === 'Post') return 'Starting';
  return 'Enabled';
}

/** The longest host name the system takes: the length limit of a DNS name on the wire. */
const MAX_HOST_NAME = 255;

function handlers(d: SystemDeps) {
  const { boot, uidLight: uid } = d;
  const identity = serverIdentity(d.serviceUuid, d.hardware.system);
  // The summaries follow the hardware profile (its members are under Processors/ and Memory/).
  const cpus = processorSummary(d.hardware);
  const memoryGiB = totalMemoryGiB(d.hardware);
  const assetTag = d.store.setting<string>('system.assetTag', '');
  // HostName: a name a client set is shown whatever the power state, as the
  // controller keeps the server name; without one (or after PATCH null) the name
  // the running OS reports shows, and null while the OS is not running.
  const hostName = hostNames(d);
  const views = new Representations(4);
  // Made once: a fresh string is hashed at every lookup.
  const uri = d.uris.system();
  return { getSystems, getSystem, patchSystem, postReset, postPowerButton, postSystemReset };

  function getSystems() {
    return collection('Computer System Collection', [d.uris.system()], { Description: 'Computer Systems view' });
  }

  /**
   * Rebuilt only when what it shows changes: stored state (boot, asset tag, the server's phase,
   * firmware, BIOS settings), the host (power, OS, TPM), component health, or POST progress on the clock.
   */
  function getSystem() {
    const p = progress(d.server, d.clock.now());
    // The BIOS settings the ROM runs with (power settings in the vendor extension) are their own object, changed as a whole.
    const bios = d.bios.currentAttributes();
    return views.get(uri, [d.store.generation, d.host.generation, d.health.generation, bios, p.boot, p.post, p.since], () =>
      buildSystem(p),
    );
  }

  function buildSystem(p: ReturnType<typeof progress>) {
    const st = d.server.snapshot();
    const tpm = d.host.tpm();
    const b = boot.get();
    const last = boot.options.find((o) => o.id === b.LastBootOption);
    return {
      Id: d.config.systemId,
      Name: 'Computer System',
      Description: 'Computer System View',
      SystemType: 'Physical',
      Manufacturer: identity.Manufacturer,
      Model: identity.Model,
      SKU: identity.SKU,
      SerialNumber: identity.SerialNumber,
      UUID: identity.UUID,
      AssetTag: assetTag.get(),
      HostName: hostName.set.get() !== null || d.host.osRunning() ? hostName.os() : null,
      IndicatorLED: uid.get(),
      LocationIndicatorActive: uid.get() !== 'Off',
      PowerState: d.server.powerState(),
      BiosVersion: d.firmware.biosVersion?.() ?? BIOS_ROM_VERSION,
      ...(st.lastResetAt !== null ? { LastResetTime: toIso(st.lastResetAt), LastResetCause: st.lastResetCause ?? 'Unknown' } : {}),
      BootProgress: { LastState: p.boot, LastStateTime: toIso(p.since) },
      Status: { State: systemStatus(st.phase), Health: 'OK', HealthRollup: d.health.rollupPrefix('') },
      ProcessorSummary: {
        Count: cpus.count,
        CoreCount: cpus.cores,
        LogicalProcessorCount: cpus.threads,
        Model: cpus.model,
        Status: { Health: 'OK', HealthRollup: d.health.rollupPrefix('cpu:') },
      },
      // The profiles' DIMMs are all volatile: no persistent memory.
      MemorySummary: {
        TotalSystemMemoryGiB: memoryGiB,
        TotalSystemPersistentMemoryGiB: 0,
        Status: { Health: 'OK', HealthRollup: d.health.rollupPrefix('dimm:') },
      },
      TrustedModules: [
        tpm.installed
          ? { FirmwareVersion: TPM_FIRMWARE_VERSION, InterfaceType: 'TPM2_0', Status: { State: 'Enabled', Health: 'OK' } }
          : { Status: { State: 'Absent' } },
      ],
      Boot: {
        ...bootBody(b),
        'BootSourceOverrideTarget@Redfish.AllowableValues': [...OVERRIDE_TARGETS],
        'BootSourceOverrideEnabled@Redfish.AllowableValues': [...OVERRIDE_ENABLED],
        'BootSourceOverrideMode@Redfish.AllowableValues': [...OVERRIDE_MODES],
        'UefiTargetBootSourceOverride@Redfish.AllowableValues': boot.options.map((o) => o.uefiDevicePath),
        BootOptions: { '@odata.id': `${uri}BootOptions/` },
      },
      Bios: { '@odata.id': `${uri}Bios/` },
      SecureBoot: { '@odata.id': `${uri}SecureBoot/` },
      LogServices: { '@odata.id': `${uri}LogServices/` },
      Processors: { '@odata.id': `${uri}Processors/` },
      Memory: { '@odata.id': `${uri}Memory/` },
      NetworkInterfaces: { '@odata.id': `${uri}NetworkInterfaces/` },
      EthernetInterfaces: { '@odata.id': `${uri}EthernetInterfaces/` },
      PCIeDevices: pcieDeviceLinks(d),
      'PCIeDevices@odata.count': d.hardware.pcieDevices.length,
      Storage: { '@odata.id': `${uri}Storage/` },
      SimpleStorage: { '@odata.id': `${uri}SimpleStorage/` },
      VirtualMedia: { '@odata.id': `${uri}VirtualMedia/` },
      Links: {
        Chassis: [{ '@odata.id': d.uris.chassis() }],
        ManagedBy: [{ '@odata.id': d.uris.manager() }],
        TrustedComponents: trustedComponentUris(d).map((u) => ({ '@odata.id': u })),
      },
      Oem: {
        [OEM]: {
          PostState: p.post,
          BootCount: st.bootCount,
          LastBootOption: last?.structured ?? null,
          AuxPowerCycleArmed: st.auxCycleArmed,
          TpmState: !tpm.installed ? 'NotPresent' : tpm.inUse ? 'PresentInUse' : 'PresentNotInUse',
          // The FQDN the running OS reports (the agentless management data); none while it is down.
          ...(d.host.osRunning() ? { ServerFQDN: `${hostName.os()}.${hostDomain(d.hardware)}` } : {}),
          ...secureEraseBody(d),
          ...systemVendorExtras(d, d.firmware.biosVersion?.() ?? BIOS_ROM_VERSION),
          DeviceDiscoveryComplete: deviceDiscovery(p.post, d.host.osRunning()),
          IndicatorLED: uid.get(),
        },
      },
    };
  }

  function patchSystem(ctx: PatchContext<SystemPath, typeof ComputerSystemType.properties>): void {
    const { HostName, IndicatorLED, LocationIndicatorActive } = ctx.body;
    // Checked before anything is written, so a bad value changes nothing.
    if (HostName !== undefined && HostName !== null && !isHostName(HostName, MAX_HOST_NAME)) {
      throw baseError('PropertyValueFormatError', HostName, 'HostName').about('HostName');
    }
    const led = changedIndicator(uid.get(), { IndicatorLED, LocationIndicatorActive });
    if (ctx.body.Boot) boot.update(checkBootChange(boot.get(), ctx.body.Boot, boot.options));
    if (ctx.body.AssetTag !== undefined) assetTag.set(ctx.body.AssetTag);
    if (HostName !== undefined) hostName.set.set(HostName);
    uid.change({ IndicatorLED: led });
  }

  function postReset(ctx: ActionContext<SystemPath, typeof RESET_ACTION>): void {
    d.server.reset(ctx.body.ResetType);
  }

  function postPowerButton(ctx: ActionContext<SystemPath, typeof POWER_BUTTON_ACTION>): void {
    d.server.powerButton(ctx.body.PushType);
  }

  function postSystemReset(ctx: ActionContext<SystemPath, typeof SYSTEM_RESET_ACTION>) {
    // iLO's cold boot (naming.ts offers it under its name): a power cycle of main power, whatever runs.
    if ((ctx.body.ResetType as string | undefined) === 'ColdBoot') return void d.server.reset('PowerCycle');
    return d.server.systemReset() ? undefined : success(vendorMessage('AuxPowerCycleArmed'));
  }
}

function bootOptionBody(o: BootOptionDef): Record<string, unknown> {
  return {
    Id: o.id,
    Name: 'Boot Option',
    Description: 'UEFI Boot Option',
    BootOptionReference: o.id,
    DisplayName: o.displayName,
    UefiDevicePath: o.uefiDevicePath,
    Alias: o.alias,
    BootOptionEnabled: true,
    Oem: { [OEM]: { StructuredBootString: o.structured } },
  };
}

export function registerSystemRoutes(routes: RouteTable, d: SystemDeps): void {
  const h = handlers(d);
  routes.param('SystemId', (id) => id === d.config.systemId);

  routes.add({
    path: '/redfish/v1/Systems/',
    type: collectionOf(ComputerSystemType),
    get: { privilege: Priv.login, handler: h.getSystems },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/',
    type: ComputerSystemType,
    get: { privilege: Priv.login, handler: h.getSystem },
    // One privilege for every writable property (Boot, AssetTag, HostName, the UID light): HostBIOSConfigPriv,
    // as the chassis takes for the same light and tag.
    patch: { privilege: Priv.hostBios, handler: h.patchSystem },
    actions: [
      action(RESET_ACTION, Priv.powerAndReset, h.postReset),
      action(POWER_BUTTON_ACTION, Priv.powerAndReset, h.postPowerButton),
      action(SYSTEM_RESET_ACTION, Priv.powerAndReset, h.postSystemReset),
      action(SECURE_ERASE_ACTION, Priv.managerConfig, secureEraseHandler(d)),
    ],
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/BootOptions/',
    member: '/redfish/v1/Systems/{SystemId}/BootOptions/{BootOptionId}/',
    type: BootOptionType,
    name: 'Boot Options',
    extra: () => ({ Description: 'The UEFI boot options of the system' }),
    store: { list: () => d.boot.options, get: (id) => d.boot.options.find((o) => o.id === id), id: (o) => o.id },
    show: bootOptionBody,
    privileges: { read: Priv.login },
  });
}

function bootBody(b: BootState) {
  return {
    BootSourceOverrideTarget: b.BootSourceOverrideTarget,
    BootSourceOverrideEnabled: b.BootSourceOverrideEnabled,
    BootSourceOverrideMode: b.BootSourceOverrideMode,
    UefiTargetBootSourceOverride: b.UefiTargetBootSourceOverride,
    HttpBootUri: b.HttpBootUri,
    BootOrder: [...b.BootOrder],
  };
}

/** Cross-property rules the type description cannot state: the whole boot order, UEFI targets. */
function checkBootChange(current: BootState, change: Partial<BootState>, options: readonly BootOptionDef[]): Partial<BootState> {
  const errors = [];
  if (change.BootOrder !== undefined && !isPermutationOfOptions(change.BootOrder, options)) {
    errors.push(baseError('PropertyValueIncorrect', 'Boot/BootOrder', JSON.stringify(change.BootOrder)).about('Boot/BootOrder'));
  }
  const path = change.UefiTargetBootSourceOverride;
  if (path !== undefined && path !== null && !options.some((o) => o.uefiDevicePath === path)) {
    errors.push(baseError('PropertyValueNotInList', path, 'Boot/UefiTargetBootSourceOverride').about('Boot/UefiTargetBootSourceOverride'));
  }
  const http = change.HttpBootUri;
  if (http !== undefined && http !== null && !parseImageUri(http)) {
    errors.push(baseError('PropertyValueFormatError', http, 'Boot/HttpBootUri').about('Boot/HttpBootUri'));
  }
  const target = change.BootSourceOverrideTarget ?? current.BootSourceOverrideTarget;
  const uefiPath = path === undefined ? current.UefiTargetBootSourceOverride : path;
  if (target === 'UefiTarget' && !uefiPath && !errors.length) {
    errors.push(baseError('PropertyMissing', 'Boot/UefiTargetBootSourceOverride').about('Boot/UefiTargetBootSourceOverride'));
  }
  if (errors.length) throw combinedError(errors);
  return change;
}
