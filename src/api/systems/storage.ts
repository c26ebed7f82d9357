// Storage of the computer system: the array controllers of the hardware
// profile (Storage, Controllers, Drives, Volumes) and SimpleStorage for older
// clients. Volumes are created and deleted OnReset: the change is pending (a
// task tracks it) until the server's next POST applies it.
import { componentKey, type ComponentStatus } from '../../platform/hardware/health.js';
import { componentUuid } from '../../platform/hardware/identity.js';
import { toIso } from '../../platform/clock.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, combinedError, type RedfishError } from '../../protocol/errors.js';
import { resourceEvent, storageDeviceEvent } from '../../messages/event-messages.js';
import type { Controller, Drive, VolumeRecord } from '../../domain/storage/storage.js';
import { STRIP_SIZE_BYTES, VOLUME_TYPE_OF } from '../../domain/storage/raid.js';
import type { TaskRecord } from '../../domain/tasks.js';
import { serviceUris } from '../../lib/resource-uris.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collectionOf } from '../../protocol/description.js';
import { APPLY_TIME, APPLY_TIME_SUPPORT, applyTimeSupport, requestedApplyTime } from '../../protocol/apply-time.js';
import { collection, type Reply } from '../../protocol/reply.js';
import {
  action,
  present,
  type ActionContext,
  type Context,
  type PatchContext,
  type PostContext,
  type RouteTable,
} from '../../protocol/routes.js';
import { taskAccepted } from '../tasks/task-service.js';
import type { Services } from '../services.js';
import {
  type DRIVE_INDICATORS,
  DRIVE_WRITE_CACHE,
  DriveType,
  SecureEraseAction,
  SimpleStorageType,
  StorageControllerType,
  StorageType,
  VolumeCollectionType,
  VolumeType,
} from './storage-types.js';
import { OEM } from '../../protocol/naming.js';
import { storagePortOfBay } from '../../platform/hardware/profile.js';
import { PortType } from '../chassis/hardware-types.js';
import { pcieInterface } from '../chassis/pcie-devices.js';

/** What the storage area uses. */
type StoragePort = Controller['ports'][number];

/** The link rate of a drive's interface, Gbit/s. */
function linkGbps(x: Pick<Drive, 'protocol'>): number {
  return x.protocol === 'NVMe' ? 32 : x.protocol === 'SAS' ? 12 : 6;
}

export type StorageDeps = Pick<Services, 'config' | 'uris' | 'clock' | 'tasks' | 'hardware' | 'health' | 'dialect' | 'storage'>;

const STORAGE = '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/';
type VolumesPath = '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/';
type VolumePath = '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/{VolumeId}/';
type DrivePath = '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Drives/{DriveId}/';
type ChassisDrivePath = '/redfish/v1/Chassis/{ChassisId}/Drives/{ChassisDriveId}/';

const BLOCK_SIZE = 512;
/** The one apply time of volume changes (DSP0266 operation apply time): the controller applies them at POST. */
const VOLUME_APPLY_TIMES = ['OnReset'] as const;

function handlers(d: StorageDeps) {
  const { storage } = d;
  const storageUri = (id: string) => d.uris.system('Storage', id);
  const driveUri = (sid: string, id: string) => storageMemberUri(d, sid, 'Drives', id);
  const volumeUri = (sid: string, id: string) => storageMemberUri(d, sid, 'Volumes', id);
  const chassisUri = d.uris.chassis();
  const controllers: MemberStore<Controller, object> = {
    list: () => storage.controllers(),
    get: (id) => storage.controller(id),
    id: (c) => c.id,
  };
  /** A Storage's one controller, 0. */
  const controllerOf: MemberStore<Controller, { readonly StorageId: string }> = {
    list: (p) => [storage.controller(p.StorageId)].filter((c): c is Controller => c !== undefined),
    get: (id, p) => (id === '0' ? storage.controller(p.StorageId) : undefined),
    id: () => '0',
  };
  // A drive under the chassis (the DMTF dialect's place): the same handlers, the storage parameters read from its id.
  const asStorage = <C extends { params: Readonly<Record<string, string>> }>(ctx: C) =>
    ({ ...ctx, params: { ...ctx.params, ...storageParamsOf(ctx.params.ChassisDriveId ?? '') } }) as never;
  const chassisDrive = {
    exists: (id: string) => {
      const p = storageParamsOf(id);
      return storage.drive(p.StorageId, p.DriveId) !== undefined;
    },
    // Its Id is the last segment of the URI it is read at.
    get: (ctx: Context<ChassisDrivePath>) => ({ ...getDrive(asStorage(ctx)), Id: ctx.params.ChassisDriveId }),
    patch: (ctx: PatchContext<ChassisDrivePath, typeof DriveType.properties>) => patchDrive(asStorage(ctx)),
    postSecureErase: (ctx: ActionContext<ChassisDrivePath, typeof SecureEraseAction>) => postSecureErase(asStorage(ctx)),
    eraseAllowable: (params: Readonly<Record<string, string>>) => eraseAllowable(storageParamsOf(params.ChassisDriveId ?? '')),
  };

  /** The connectors of a Storage's controller 0 (a Port each). */
  const portsOf: MemberStore<StoragePort, { readonly StorageId: string }> = {
    list: (p) => storage.controller(p.StorageId)?.ports ?? [],
    get: (id, p) => storage.controller(p.StorageId)?.ports.find((x) => x.id === id),
    id: (x) => x.id,
  };

  return {
    controllers,
    controllerOf,
    portsOf,
    portBody,
    chassisDrive,
    storageBody,
    controllerBody,
    simpleStorageBody,
    getDrive,
    patchDrive,
    postSecureErase,
    getVolumes,
    postVolume,
    getVolume,
    patchVolume,
    deleteVolume,
    eraseAllowable,
  };

  function status(s: { State: string; Health?: string }, rollup?: string) {
    return { State: s.State, Health: s.Health ?? null, ...(rollup !== undefined ? { HealthRollup: rollup } : {}) };
  }

  function protocolsOf(c: Controller): string[] {
    return [...new Set(c.drives.map((x) => x.protocol))];
  }

  function controllerCommon(c: Controller) {
    const nvme = c.drives.length > 0 && c.drives.every((x) => x.protocol === 'NVMe');
    // The PCIe device the profile ties to this controller, if it names one.
    const pci = d.hardware.pcieDevices.find((dev) => dev.storage === c.id);
    return {
      ...(pci ? { PCIeInterface: pcieInterface(pci) } : {}),
      Status: status(storage.controllerStatus(c.id)),
      Manufacturer: c.manufacturer,
      Model: c.model,
      SerialNumber: c.serialNumber,
      FirmwareVersion: c.firmwareVersion,
      SpeedGbps: nvme ? 64 : 12,
      SupportedControllerProtocols: ['PCIe'],
      SupportedDeviceProtocols: protocolsOf(c),
      SupportedRAIDTypes: [...c.raidTypes],
      Location: {
        PartLocation:
          c.slot === 'Embedded'
            ? { ServiceLabel: 'Embedded', LocationType: 'Embedded' }
            : { ServiceLabel: `Slot ${c.slot}`, LocationType: 'Slot', LocationOrdinalValue: Number(c.slot) },
      },
    };
  }

  /** A connector: its link runs at the fastest drive cabled to it allows (none: no link). */
  function portBody(port: StoragePort, at: { params: { readonly StorageId: string }; uri: string }) {
    const c = present(storage.controller(at.params.StorageId), at);
    const drives = c.drives.filter((x) => storagePortOfBay(x.bay) === port.id);
    const fastest = Math.max(0, ...drives.map(linkGbps));
    return {
      Id: port.id,
      Name: `Port ${port.id}`,
      PortId: port.id,
      PortProtocol: protocolsOf(c).includes('SAS') ? 'SAS' : 'SATA',
      PortType: 'DownstreamPort',
      // Mini-SAS HD copper cables to the drive cages.
      PortMedium: 'Electrical',
      LinkStatus: drives.length ? 'LinkUp' : 'NoLink',
      LinkState: 'Enabled',
      Status: status(storage.controllerStatus(c.id)),
      Width: port.width,
      MaxSpeedGbps: port.maxSpeedGbps,
      CurrentSpeedGbps: drives.length ? Math.min(port.maxSpeedGbps, fastest) : null,
      Location: {
        PartLocation: { ServiceLabel: `Port ${port.id}`, LocationType: 'Connector', LocationOrdinalValue: c.ports.indexOf(port) + 1 },
      },
    };
  }

  function storageBody(c: Controller) {
    const uri = storageUri(c.id);
    const drives = storage.drives(c.id).map((x) => ({ '@odata.id': driveUri(c.id, x.id) }));
    return {
      Id: c.id,
      Name: c.model,
      Description: 'Storage subsystem of an array controller',
      Status: status(storage.controllerStatus(c.id), storage.storageRollup(c.id)),
      Controllers: { '@odata.id': `${uri}Controllers/` },
      StorageControllers: [
        {
          '@odata.id': `${uri}#/StorageControllers/0`,
          MemberId: '0',
          Name: c.model,
          ...controllerCommon(c),
          ...(c.ports.length ? { Ports: { '@odata.id': `${uri}StorageControllers/0/Ports/` } } : {}),
        },
      ],
      'StorageControllers@odata.count': 1,
      Drives: drives,
      'Drives@odata.count': drives.length,
      Volumes: { '@odata.id': `${uri}Volumes/` },
      Links: { Enclosures: [{ '@odata.id': chassisUri }] },
    };
  }

  function controllerBody(c: Controller) {
    // The functions of the PCIe device the profile ties to this controller.
    const functions = d.hardware.pcieDevices
      .filter((dev) => dev.storage === c.id)
      .flatMap((dev) => dev.functions.map((_, i) => ({ '@odata.id': d.uris.chassis('PCIeDevices', dev.id, 'PCIeFunctions', String(i)) })));
    return {
      Id: '0',
      Name: c.model,
      Description: 'Array controller',
      ...controllerCommon(c),
      ...(c.ports.length ? { Ports: { '@odata.id': `${storageUri(c.id)}Controllers/0/Ports/` } } : {}),
      Links: { PCIeFunctions: functions },
    };
  }

  function simpleStorageBody(c: Controller) {
    return {
      Id: c.id,
      Name: c.model,
      Description: 'Storage controller and its devices',
      Status: status(storage.controllerStatus(c.id), storage.storageRollup(c.id)),
      UefiDevicePath: `PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/Scsi(0x0,0x0)/${c.id}`,
      Devices: storage.drives(c.id).map((x) => ({
        Name: driveName(x),
        Manufacturer: x.manufacturer,
        Model: x.model,
        CapacityBytes: x.capacityBytes,
        Status: status(storage.driveStatus(c.id, x)),
      })),
      Links: { Chassis: { '@odata.id': chassisUri }, Storage: { '@odata.id': storageUri(c.id) } },
    };
  }

  function driveName(x: Drive): string {
    return `${x.media} ${x.protocol} drive in bay ${x.bay}`;
  }

  function getDrive(ctx: Context<DrivePath>) {
    const sid = ctx.params.StorageId;
    const x = present(storage.drive(sid, ctx.params.DriveId), ctx);
    const volumes = storage.volumesOfDrive(sid, x.id).map((v) => ({ '@odata.id': volumeUri(sid, v.id) }));
    const erase = storage.eraseOf(sid, x.id);
    const locate = storage.locateActive(sid, x.id);
    const speed = linkGbps(x);
    const index = Number(x.id);
    return {
      Id: x.id,
      Name: driveName(x),
      Description: 'Physical drive',
      Status: status(storage.driveStatus(sid, x)),
      MediaType: x.media,
      Protocol: x.protocol,
      CapacityBytes: x.capacityBytes,
      BlockSizeBytes: BLOCK_SIZE,
      Manufacturer: x.manufacturer,
      Model: x.model,
      SerialNumber: x.serialNumber,
      Revision: x.firmwareVersion,
      RotationSpeedRPM: x.rpm ?? null,
      CapableSpeedGbs: speed,
      NegotiatedSpeedGbs: speed,
      EncryptionAbility: 'None',
      EncryptionStatus: 'Unencrypted',
      FailurePredicted: storage.driveStatus(sid, x).Health === 'Warning',
      StatusIndicator: statusIndicator(sid, x),
      WriteCacheEnabled: DRIVE_WRITE_CACHE === 'Enabled',
      HotspareType: 'None',
      Identifiers: [durableName(x)],
      PhysicalLocation: { PartLocation: { ServiceLabel: x.bay, LocationType: 'Bay', LocationOrdinalValue: index } },
      LocationIndicatorActive: locate,
      IndicatorLED: locate ? 'Blinking' : 'Off',
      Operations: erase
        ? [
            {
              Operation: 'Sanitize',
              OperationName: `SecureErase (${erase.type})`,
              PercentageComplete: erase.percent,
              AssociatedTask: { '@odata.id': serviceUris.task(erase.taskId) },
            },
          ]
        : [],
      Links: {
        Volumes: volumes,
        'Volumes@odata.count': volumes.length,
        Chassis: { '@odata.id': chassisUri },
        Storage: { '@odata.id': storageUri(sid) },
      },
    };
  }

  function statusIndicator(sid: string, x: Drive): (typeof DRIVE_INDICATORS)[number] {
    const own = storage.driveStatus(sid, x).Health;
    if (own === 'Critical') return 'Fail';
    if (own === 'Warning') return 'PredictiveFailureAnalysis';
    const arrays = storage.volumesOfDrive(sid, x.id).map((v) => storage.volumeStatus(v).Health);
    return arrays.includes('Critical') ? 'InAFailedArray' : arrays.includes('Warning') ? 'InACriticalArray' : 'OK';
  }

  function patchDrive(ctx: PatchContext<DrivePath, typeof DriveType.properties>): void {
    const sid = ctx.params.StorageId;
    const x = present(storage.drive(sid, ctx.params.DriveId), ctx);
    const { LocationIndicatorActive: active, IndicatorLED: led } = ctx.body;
    if (active !== undefined && led !== undefined && active !== (led === 'Blinking')) {
      throw baseError('PropertyValueConflict', 'IndicatorLED', 'LocationIndicatorActive').about('IndicatorLED');
    }
    const on = active ?? (led === undefined ? undefined : led === 'Blinking');
    if (on !== undefined) storage.setLocate(sid, x.id, on);
  }

  function postSecureErase(ctx: ActionContext<DrivePath, typeof SecureEraseAction>): Reply {
    const sid = ctx.params.StorageId;
    const x = present(storage.drive(sid, ctx.params.DriveId), ctx);
    const task = storage.secureErase(sid, x.id, driveUri(sid, x.id), ctx.body.SanitizationType, ctx.body.OverwritePasses, payloadOf(ctx));
    return taskAccepted(task);
  }

  function eraseAllowable(params: Readonly<Record<string, string>>): Record<string, readonly string[]> {
    const x = storage.drive(params.StorageId ?? '', params.DriveId ?? '');
    return { SanitizationType: x ? storage.sanitizationTypes(x) : [] };
  }

  function durableName(x: Drive) {
    const hex = x.uuid.replace(/-/g, '');
    return x.protocol === 'NVMe'
      ? { DurableNameFormat: 'NGUID', DurableName: hex }
      : { DurableNameFormat: 'NAA', DurableName: `5${hex.slice(1, 16)}` };
  }

  // -- volumes ------------------------------------------------------------------

  function getVolumes(ctx: Context<VolumesPath>) {
    const sid = ctx.params.StorageId;
    return collection(
      'Volumes',
      storage.volumeList(sid).map((v) => volumeUri(sid, v.id)),
      {
        Description: `Logical drives of ${present(storage.controller(sid), ctx).model}`,
        [APPLY_TIME_SUPPORT]: applyTimeSupport(VOLUME_APPLY_TIMES),
      },
    );
  }

  function volumeBody(v: VolumeRecord) {
    const c = storage.controller(v.storageId);
    const ops: Record<string, unknown>[] = [];
    // The task record may be gone (pruned after a controller restart interrupted it): no dangling link.
    const task = v.taskId && d.tasks.get(v.taskId) ? { AssociatedTask: { '@odata.id': serviceUris.task(v.taskId) } } : {};
    if (v.state === 'PendingCreate')
      ops.push({ Operation: 'Initialize', OperationName: 'Create at the next server reset', PercentageComplete: 0, ...task });
    if (v.state === 'PendingDelete')
      ops.push({ Operation: 'Delete', OperationName: 'Delete at the next server reset', PercentageComplete: 0, ...task });
    return {
      Id: v.id,
      Name: v.name,
      ...(v.displayName !== undefined ? { DisplayName: v.displayName } : {}),
      Description: 'Logical drive',
      Status: status(storage.volumeStatus(v)),
      RAIDType: v.raidType,
      VolumeType: VOLUME_TYPE_OF[v.raidType],
      CapacityBytes: v.capacityBytes,
      BlockSizeBytes: BLOCK_SIZE,
      StripSizeBytes: STRIP_SIZE_BYTES,
      // Every logical drive holds data: the controllers build no cache or spare volumes.
      VolumeUsage: 'Data',
      Encrypted: false,
      Identifiers: [
        { DurableNameFormat: 'UUID', DurableName: componentUuid(c?.serialNumber ?? v.storageId, `volume:${v.id}:${toIso(v.createdAt)}`) },
      ],
      Operations: ops,
      Links: { Drives: v.drives.map((id) => ({ '@odata.id': driveUri(v.storageId, id) })), 'Drives@odata.count': v.drives.length },
      Oem: { [OEM]: { ConfigurationState: v.state, LogicalDriveNumber: Number(v.id) } },
      // A DELETE applies OnReset too (DSP0266: the annotation on the member for its deletion).
      [APPLY_TIME_SUPPORT]: applyTimeSupport(VOLUME_APPLY_TIMES),
    };
  }

  function getVolume(ctx: Context<VolumePath>) {
    return volumeBody(present(storage.volume(ctx.params.StorageId, ctx.params.VolumeId), ctx));
  }

  function postVolume(ctx: PostContext<VolumesPath, typeof VolumeType.properties>): Reply {
    const sid = ctx.params.StorageId;
    onResetOnly(ctx);
    const b = ctx.body;
    const problems: RedfishError[] = [];
    const drives = (b.Links?.Drives ?? []).flatMap((link, i) => {
      const path = `Links/Drives/${i}`;
      const ref = parseDriveUri(link['@odata.id']);
      if (!ref || !storage.controller(ref.storageId) || !storage.drive(ref.storageId, ref.driveId)) {
        problems.push(baseError('PropertyValueIncorrect', path, link['@odata.id']).about(path));
        return [];
      }
      if (ref.storageId !== sid) {
        problems.push(baseError('PropertyValueResourceConflict', path, link['@odata.id'], storageUri(sid)).about(path));
        return [];
      }
      return [{ id: ref.driveId, uri: link['@odata.id'] }];
    });
    if (problems.length) throw combinedError(problems);
    const { task } = storage.createVolume(
      sid,
      {
        raidType: b.RAIDType,
        volumeType: b.VolumeType,
        drives,
        capacityBytes: b.CapacityBytes,
        name: b.Name,
        displayName: b.DisplayName,
        encrypted: b.Encrypted,
      },
      payloadOf(ctx),
    );
    return taskAccepted(task);
  }

  function patchVolume(ctx: PatchContext<VolumePath, typeof VolumeType.properties>): void {
    const v = present(storage.volume(ctx.params.StorageId, ctx.params.VolumeId), ctx);
    if (ctx.body.DisplayName !== undefined) storage.setDisplayName(v, ctx.body.DisplayName);
  }

  function deleteVolume(ctx: Context<VolumePath>): Reply | undefined {
    onResetOnly(ctx);
    const task = storage.deleteVolume(ctx.params.StorageId, ctx.params.VolumeId, { ...payloadOf(ctx), HttpOperation: 'DELETE' });
    return task ? taskAccepted(task) : undefined;
  }

  /** A client may ask for the one apply time there is; another (Immediate) is refused rather than ignored. */
  function onResetOnly(ctx: { annotations?: Readonly<Record<string, unknown>> }): void {
    requestedApplyTime(ctx.annotations?.[APPLY_TIME], VOLUME_APPLY_TIMES);
  }

  /** A drive's @odata.id as a client sends it (trailing slash optional) to its ids. */
  /** A drive link, in either place a drive is shown (under its Storage, or under the chassis). */
  function parseDriveUri(uri: string): { storageId: string; driveId: string } | undefined {
    try {
      const m = /^\/redfish\/v1\/Systems\/([^/]+)\/Storage\/([^/]+)\/Drives\/([^/]+)\/?$/.exec(uri);
      if (m) {
        if (decodeURIComponent(m[1] as string) !== d.config.systemId) return undefined;
        return { storageId: decodeURIComponent(m[2] as string), driveId: decodeURIComponent(m[3] as string) };
      }
      const c = /^\/redfish\/v1\/Chassis\/([^/]+)\/Drives\/([^/]+)\/?$/.exec(uri);
      if (!c || decodeURIComponent(c[1] as string) !== d.config.chassisId) return undefined;
      const p = storageParamsOf(decodeURIComponent(c[2] as string));
      return p.StorageId ? { storageId: p.StorageId, driveId: p.DriveId } : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Where a controller is, as its event messages name it. */
function placeOf(c: Controller): string {
  return c.slot === 'Embedded' ? 'Embedded' : `Slot ${c.slot}`;
}

/** The words the controller's events use for a status. */
function statusWord(s: ComponentStatus): string {
  if (s.State === 'Absent') return 'Absent';
  if (s.Health === 'Critical') return 'Failed';
  if (s.Health === 'Warning') return s.State === 'Enabled' ? 'Degraded' : 'Predictive Failure';
  return 'OK';
}

/** What the array controllers' announcements use. */
export type StorageEventDeps = Pick<Services, 'uris' | 'dialect' | 'storage' | 'events' | 'logs'>;

/** Events and IML entries of the array controllers when POST builds or removes a volume (StorageControllers.onApplied). */
export function volumeApplied(d: StorageEventDeps): (v: VolumeRecord, change: 'created' | 'deleted') => void {
  return (v, change) => {
    const uri = storageMemberUri(d, v.storageId, 'Volumes', v.id);
    if (change === 'deleted') {
      d.events.publish(resourceEvent('ResourceRemoved'), uri, 'ResourceRemoved');
      return;
    }
    d.events.publish(resourceEvent('ResourceCreated'), uri, 'ResourceAdded');
    const c = d.storage.controller(v.storageId);
    if (c) d.logs.write('IML', storageDeviceEvent('DrvArrLogDrvStatusChange', v.id, placeOf(c), 'OK'), uri);
  };
}

/**
 * Events and IML entries of a drive's status change in the health registry (an injected fault),
 * with what it does to the drive's volumes (HealthRegistry.onChange).
 */
export function driveStatusChanged(d: StorageEventDeps): (key: string, status: ComponentStatus) => void {
  const { storage } = d;
  return (key, status) => {
    for (const c of storage.controllers()) {
      const x = storage.drives(c.id).find((dr) => componentKey.drive(c.id, dr.bay) === key);
      if (!x) continue;
      const msg = storageDeviceEvent('DrvArrPhyDrvStatusChange', x.bay, placeOf(c), statusWord(status));
      const uri = storageMemberUri(d, c.id, 'Drives', x.id);
      d.logs.write('IML', msg, uri);
      d.events.publish(msg, uri, 'StatusChange');
      for (const v of storage.volumesOfDrive(c.id, x.id).filter((vol) => vol.state !== 'PendingCreate')) {
        const vm = storageDeviceEvent('DrvArrLogDrvStatusChange', v.id, placeOf(c), statusWord(storage.volumeStatus(v)));
        const vuri = storageMemberUri(d, c.id, 'Volumes', v.id);
        d.logs.write('IML', vm, vuri);
        d.events.publish(vm, vuri, 'StatusChange');
      }
    }
  };
}

function payloadOf(ctx: { uri: string; body: unknown }): TaskRecord['Payload'] {
  return { HttpOperation: 'POST', TargetUri: ctx.uri, JsonBody: JSON.stringify(ctx.body) };
}

export function registerStorageRoutes(routes: RouteTable, d: StorageDeps): void {
  const h = handlers(d);
  const { storage } = d;
  routes.param('StorageId', (id) => storage.controller(id) !== undefined);

  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/Storage/',
    member: STORAGE,
    type: StorageType,
    name: 'Storage',
    extra: () => ({ Description: 'Storage subsystems of the system' }),
    store: h.controllers,
    show: h.storageBody,
    privileges: { read: Priv.login },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Controllers/',
    member: '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Controllers/{ControllerId}/',
    type: StorageControllerType,
    name: 'Storage Controllers',
    store: h.controllerOf,
    show: h.controllerBody,
    privileges: { read: Priv.login },
  });
  // A controller's connectors, at the DMTF place and at the StorageControllers entry's (iLO 5's).
  const controllerId = {
    ControllerId: (id: string, p: Readonly<Record<string, string>>) =>
      h.controllerOf.get(id, { StorageId: p.StorageId ?? '' }) !== undefined,
  };
  for (const under of ['Controllers', 'StorageControllers'] as const) {
    addCollection(routes, {
      collection: `/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/${under}/{ControllerId}/Ports/`,
      member: `/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/${under}/{ControllerId}/Ports/{PortId}/`,
      type: PortType,
      name: 'Controller Ports',
      extra: () => ({ Description: "The array controller's drive connectors" }),
      store: h.portsOf,
      show: h.portBody,
      params: controllerId,
      privileges: { read: Priv.login },
    });
  }
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Drives/{DriveId}/',
    type: DriveType,
    params: { DriveId: (id, p) => storage.drive(p.StorageId ?? '', id) !== undefined },
    get: { privilege: Priv.login, handler: h.getDrive },
    patch: { privilege: Priv.hostStorage, handler: h.patchDrive },
    actions: [action(SecureEraseAction, Priv.hostStorage, h.postSecureErase, { allowable: (c) => h.eraseAllowable(c.params) })],
  });
  if (d.dialect.drivesUnder === 'chassis') {
    routes.add({
      path: '/redfish/v1/Chassis/{ChassisId}/Drives/{ChassisDriveId}/',
      type: DriveType,
      params: { ChassisDriveId: h.chassisDrive.exists },
      get: { privilege: Priv.login, handler: h.chassisDrive.get },
      patch: { privilege: Priv.hostStorage, handler: h.chassisDrive.patch },
      actions: [
        action(SecureEraseAction, Priv.hostStorage, h.chassisDrive.postSecureErase, {
          allowable: (c) => h.chassisDrive.eraseAllowable(c.params),
        }),
      ],
    });
  }
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/',
    type: VolumeCollectionType,
    // A controller without RAID (direct-attached NVMe) lists no volumes and builds none.
    readOnlyFor: (p) => !storage.controller(p.StorageId)?.raidTypes.length,
    get: { privilege: Priv.login, handler: h.getVolumes },
    post: { privilege: Priv.hostStorage, handler: h.postVolume },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/{VolumeId}/',
    type: VolumeType,
    params: { VolumeId: (id, p) => storage.volume(p.StorageId ?? '', id) !== undefined },
    get: { privilege: Priv.login, handler: h.getVolume },
    patch: { privilege: Priv.hostStorage, handler: h.patchVolume },
    delete: { privilege: Priv.hostStorage, handler: h.deleteVolume },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/SimpleStorage/',
    member: '/redfish/v1/Systems/{SystemId}/SimpleStorage/{SimpleStorageId}/',
    type: SimpleStorageType,
    collectionType: collectionOf(SimpleStorageType),
    name: 'Simple Storage',
    store: h.controllers,
    show: h.simpleStorageBody,
    privileges: { read: Priv.login },
  });
}

/**
 * A drive's or volume's URI: under its Storage (iLO's place), or a drive under the chassis as
 * `<StorageId>.<DriveId>` (the DMTF dialect's place).
 */
function storageMemberUri(d: Pick<StorageDeps, 'uris' | 'dialect'>, sid: string, kind: 'Drives' | 'Volumes', id: string): string {
  return kind === 'Drives' && d.dialect.drivesUnder === 'chassis'
    ? d.uris.chassis('Drives', `${sid}.${id}`)
    : d.uris.system('Storage', sid, kind, id);
}

/** A drive's id under the chassis, `<StorageId>.<DriveId>`, as the storage paths' parameters. */
function storageParamsOf(chassisDriveId: string): { StorageId: string; DriveId: string } {
  const dot = chassisDriveId.lastIndexOf('.');
  return dot < 0 ? { StorageId: '', DriveId: '' } : { StorageId: chassisDriveId.slice(0, dot), DriveId: chassisDriveId.slice(dot + 1) };
}
