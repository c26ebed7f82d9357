// Computer systems: the one simulated server, its power actions (standard and
// vendor), boot configuration and boot options. BIOS lives in bios.ts.
import { BOOT_OPTIONS, BootSettings, OVERRIDE_TARGETS, isPermutationOfOptions, type BootState } from '../../domain/bios/boot.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, combinedError, vendorMessage } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { BIOS_ROM_VERSION } from '../../platform/bios-attributes.js';
import { serverIdentity } from '../../platform/identity.js';
import type { Phase, PushType, ResetType, ServerSimulator } from '../../platform/simulator.js';
import { collectionOf } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { present, type RouteTable } from '../../protocol/routes.js';
import { registerBiosRoutes } from './bios.js';
import type { Services } from '../services.js';
import {
  BootOptionCollectionType,
  BootOptionType,
  ComputerSystemType,
  POWER_BUTTON_ACTION,
  RESET_ACTION,
  SYSTEM_RESET_ACTION,
  SYSTEMS_URI,
  systemUri,
  type BOOT_PROGRESS_STATES,
  type POST_STATES,
} from './system-types.js';

export { ComputerSystemType, SYSTEMS_URI };

const PROCESSOR_MODEL = 'Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz';


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
      const elapsed = now - st.phaseSince;
      if (elapsed < third) return { post: 'InPost', boot: 'MemoryInitializationStarted', since: st.phaseSince };
      if (elapsed < 2 * third) return { post: 'InPost', boot: 'PCIResourceConfigStarted', since: st.phaseSince + third };
      return { post: 'InPostDiscoveryComplete', boot: 'SystemHardwareInitializationComplete', since: st.phaseSince + 2 * third };
    }
    default:
      return { post: 'FinishedPost', boot: 'OSRunning', since: st.phaseSince };
  }
}

function systemStatus(phase: Phase): string {
  if (phase === 'Off') return 'StandbyOffline';
  if (phase === 'PoweringOn' || phase === 'Resetting' || phase === 'Post') return 'Starting';
  return 'Enabled';
}

export function registerSystemRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Systems = SYSTEMS_URI;
  routes.param('SystemId', (id) => id === s.config.systemId);
  const identity = serverIdentity(s.serviceUuid);
  const boot = new BootSettings(s.store, s.host);
  const assetTag = s.store.setting<string>('system.assetTag', '');
  const biosVersion = () => s.firmware.biosVersion?.() ?? BIOS_ROM_VERSION;

  routes.add({
    path: SYSTEMS_URI,
    type: collectionOf(ComputerSystemType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Computer System Collection', [`${SYSTEMS_URI}${s.config.systemId}/`], { Description: 'Computer Systems view' }),
    },
  });

  const systemBody = (uri: string) => {
    const st = s.server.snapshot();
    const now = s.clock.now();
    const p = progress(s.server, now);
    const tpm = s.host.tpm();
    const b = boot.get();
    const last = BOOT_OPTIONS.find((o) => o.id === b.LastBootOption);
    return {
      Id: s.config.systemId,
      Name: 'Computer System',
      Description: 'Computer System View',
      SystemType: 'Physical',
      Manufacturer: identity.Manufacturer,
      Model: identity.Model,
      SKU: identity.SKU,
      SerialNumber: identity.SerialNumber,
      UUID: identity.UUID,
      AssetTag: assetTag.get(),
      HostName: s.host.osRunning() ? `host-${identity.SerialNumber.toLowerCase()}` : null,
      PowerState: s.server.powerState(),
      BiosVersion: biosVersion(),
      ...(st.lastResetAt !== null ? { LastResetTime: toIso(st.lastResetAt) } : {}),
      BootProgress: { LastState: p.boot, LastStateTime: toIso(p.since) },
      Status: { State: systemStatus(st.phase), Health: 'OK', HealthRollup: 'OK' },
      ProcessorSummary: { Count: 2, CoreCount: 48, LogicalProcessorCount: 96, Model: PROCESSOR_MODEL, Status: { Health: 'OK', HealthRollup: 'OK' } },
      MemorySummary: { TotalSystemMemoryGiB: 384, Status: { Health: 'OK', HealthRollup: 'OK' } },
      TrustedModules: [
        tpm.installed
          ? { FirmwareVersion: '73.20.17568.5511', InterfaceType: 'TPM2_0', Status: { State: 'Enabled', Health: 'OK' } }
          : { Status: { State: 'Absent' } },
      ],
      Boot: {
        ...bootBody(b),
        'BootSourceOverrideTarget@Redfish.AllowableValues': [...OVERRIDE_TARGETS],
        'UefiTargetBootSourceOverride@Redfish.AllowableValues': BOOT_OPTIONS.map((o) => o.uefiDevicePath),
        BootOptions: { '@odata.id': `${uri}BootOptions/` },
      },
      Bios: { '@odata.id': `${uri}Bios/` },
      SecureBoot: { '@odata.id': `${uri}SecureBoot/` },
      LogServices: { '@odata.id': `${uri}LogServices/` },
      Links: {
        Chassis: [{ '@odata.id': `/redfish/v1/Chassis/${s.config.chassisId}/` }],
        ManagedBy: [{ '@odata.id': `/redfish/v1/Managers/${s.config.managerId}/` }],
      },
      Oem: {
        Vendor: {
          PostState: p.post,
          BootCount: st.bootCount,
          LastBootOption: last?.structured ?? null,
          AuxPowerCycleArmed: st.auxCycleArmed,
          TpmState: !tpm.installed ? 'NotPresent' : tpm.inUse ? 'PresentInUse' : 'PresentNotInUse',
        },
      },
    };
  };

  routes.add({
    path: `${SYSTEMS_URI}{SystemId}/`,
    type: ComputerSystemType,
    get: { privilege: Priv.login, handler: (ctx) => systemBody(systemUri(s)) },
    patch: {
      privilege: Priv.hostBios,
      handler: (ctx) => {
        const body = ctx.body as { Boot?: Partial<BootState>; AssetTag?: string };
        if (body.Boot) boot.update(checkBootChange(boot.get(), body.Boot));
        if (body.AssetTag !== undefined) assetTag.set(body.AssetTag);
      },
    },
    actions: [
      {
        def: RESET_ACTION,
        privilege: Priv.powerAndReset,
        handler: (ctx) => {
          s.server.reset(ctx.body.ResetType as ResetType);
        },
      },
      {
        def: POWER_BUTTON_ACTION,
        privilege: Priv.powerAndReset,
        handler: (ctx) => {
          s.server.powerButton(ctx.body.PushType as PushType);
        },
      },
      {
        def: SYSTEM_RESET_ACTION,
        privilege: Priv.powerAndReset,
        handler: (ctx) => {
          return s.server.systemReset() ? undefined : success(vendorMessage('AuxPowerCycleArmed'));
        },
      },
    ],
  });

  routes.add({
    path: `${SYSTEMS_URI}{SystemId}/BootOptions/`,
    type: BootOptionCollectionType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const uri = systemUri(s);
        return collection('Boot Options', BOOT_OPTIONS.map((o) => `${uri}BootOptions/${o.id}/`), { Description: 'The UEFI boot options of the system' });
      },
    },
  });

  routes.add({
    path: `${SYSTEMS_URI}{SystemId}/BootOptions/{BootOptionId}/`,
    type: BootOptionType,
    params: { BootOptionId: (id) => BOOT_OPTIONS.some((x) => x.id === id) },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const o = present(BOOT_OPTIONS.find((x) => x.id === ctx.params.BootOptionId), ctx);
        return {
          Id: o.id,
          Name: 'Boot Option',
          Description: 'UEFI Boot Option',
          BootOptionReference: o.id,
          DisplayName: o.displayName,
          UefiDevicePath: o.uefiDevicePath,
          Alias: o.alias,
          BootOptionEnabled: true,
          Oem: { Vendor: { StructuredBootString: o.structured } },
        };
      },
    },
  });

  registerBiosRoutes(routes, s, boot);
}

function bootBody(b: BootState) {
  return {
    BootSourceOverrideTarget: b.BootSourceOverrideTarget,
    BootSourceOverrideEnabled: b.BootSourceOverrideEnabled,
    BootSourceOverrideMode: b.BootSourceOverrideMode,
    UefiTargetBootSourceOverride: b.UefiTargetBootSourceOverride,
    BootOrder: [...b.BootOrder],
  };
}

/** Cross-property rules the type description cannot state: the whole boot order, UEFI targets. */
function checkBootChange(current: BootState, change: Partial<BootState>): Partial<BootState> {
  const errors = [];
  if (change.BootOrder !== undefined && !isPermutationOfOptions(change.BootOrder)) {
    errors.push(baseError('PropertyValueIncorrect', 'Boot/BootOrder', JSON.stringify(change.BootOrder)).about('Boot/BootOrder'));
  }
  const path = change.UefiTargetBootSourceOverride;
  if (path !== undefined && path !== null && !BOOT_OPTIONS.some((o) => o.uefiDevicePath === path)) {
    errors.push(baseError('PropertyValueNotInList', path, 'Boot/UefiTargetBootSourceOverride').about('Boot/UefiTargetBootSourceOverride'));
  }
  const target = change.BootSourceOverrideTarget ?? current.BootSourceOverrideTarget;
  const uefiPath = path === undefined ? current.UefiTargetBootSourceOverride : path;
  if (target === 'UefiTarget' && !uefiPath && !errors.length) {
    errors.push(baseError('PropertyMissing', 'Boot/UefiTargetBootSourceOverride').about('Boot/UefiTargetBootSourceOverride'));
  }
  if (errors.length) throw combinedError(errors);
  return change;
}
