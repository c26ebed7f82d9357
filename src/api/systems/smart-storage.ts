// iLO 5's Smart Storage views of the profile's RAID controllers: ArrayControllers
// with their DiskDrives, LogicalDrives, UnconfiguredDrives and StorageEnclosures,
// and per controller the SmartStorageConfig document (current and Settings/), whose
// writes become the same pending volume changes the standard Storage view shows,
// applied at the next POST (domain/storage/smart-array.ts). Controller tunables the
// simulator does not model read as a Smart Array P408i-a reports them.
import type { Drive, VolumeRecord } from '../../domain/storage/storage.js';
import { DATA_GUARD, SMART_RAID } from '../../domain/storage/smart-array.js';
import type { TaskRecord } from '../../domain/tasks.js';
import { STRIP_SIZE_BYTES, raidCapacity } from '../../domain/storage/raid.js';
import { componentUuid } from '../../platform/hardware/identity.js';
import { toIso } from '../../platform/clock.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collectionOf, defineType, ro, statusProp, t, commonProps, type Props } from '../../protocol/description.js';
import { collection, messages } from '../../protocol/reply.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { settingsAnnotation } from './bios-vendor-types.js';
import { DRIVE_WRITE_CACHE } from './storage-types.js';
import { OEM, oemType } from '../../protocol/naming.js';

/** What the Smart Storage views use. */
export type SmartStorageDeps = Pick<Services, 'uris' | 'storage' | 'smartArray'>;

const fw = ro(
  t.object({ Current: ro(t.object({ VersionString: ro(t.string()) }, { typeName: 'Current' })) }, { typeName: 'FirmwareVersion' }),
);

/** What every Smart Storage part shows: where it is (and in which format), what it is, its firmware and status. */
const placedPart = {
  ...commonProps,
  Status: statusProp,
  Location: ro(t.string()),
  LocationFormat: ro(t.string()),
  Model: ro(t.string()),
  SerialNumber: ro(t.string()),
  FirmwareVersion: fw,
} satisfies Props;

const SmartStorageType = defineType({
  name: oemType('SmartStorage'),
  version: '2.0.0',
  owner: OEM,
  description: 'The Smart Storage subsystem: array controllers and host bus adapters.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Links: ro(
      t.object({ ArrayControllers: t.link({ readOnly: true }), HostBusAdapters: t.link({ readOnly: true }) }, { typeName: 'Links' }),
    ),
  },
});

const ArrayControllerType = defineType({
  name: oemType('SmartStorageArrayController'),
  version: '2.2.0',
  owner: OEM,
  description: 'A Smart Array controller: where it sits, what it holds and how it is set up.',
  properties: {
    ...placedPart,
    AdapterType: ro(t.string()),
    Manufacturer: ro(t.string()),
    CurrentOperatingMode: ro(t.string()),
    DriveWriteCache: ro(t.string()),
    InternalPortCount: ro(t.integer()),
    ExternalPortCount: ro(t.integer()),
    LogicalDriveCount: ro(t.integer()),
    PhysicalDriveCount: ro(t.integer()),
    UnassignedPhysicalDriveCount: ro(t.integer()),
    SupportedRaidLevels: ro(t.array(t.string())),
    EncryptionEnabled: ro(t.boolean()),
    IsBootController: ro(t.boolean()),
    Links: ro(
      t.object(
        {
          LogicalDrives: t.link({ readOnly: true }),
          PhysicalDrives: t.link({ readOnly: true }),
          UnconfiguredDrives: t.link({ readOnly: true }),
          StorageEnclosures: t.link({ readOnly: true }),
          SmartStorageConfig: t.link({ readOnly: true, description: 'The controller’s configuration document.' }),
        },
        { typeName: 'Links' },
      ),
    ),
  },
});

const DiskDriveType = defineType({
  name: oemType('SmartStorageDiskDrive'),
  version: '2.1.0',
  owner: OEM,
  description: 'A physical drive of a Smart Array controller.',
  properties: {
    ...placedPart,
    Manufacturer: ro(t.string()),
    MediaType: ro(t.string()),
    InterfaceType: ro(t.string()),
    CapacityMiB: ro(t.integer()),
    CapacityGB: ro(t.integer()),
    CapacityLogicalBlocks: ro(t.integer()),
    BlockSizeBytes: ro(t.integer()),
    RotationalSpeedRpm: ro(t.integer({ nullable: true })),
    DiskDriveUse: ro(t.string()),
    EraseCompletionPercentage: ro(t.integer({ nullable: true })),
    IndicatorLED: ro(t.string()),
    LegacyBootPriority: ro(t.string()),
    EncryptedDrive: ro(t.boolean()),
  },
});

const LogicalDriveType = defineType({
  name: oemType('SmartStorageLogicalDrive'),
  version: '2.3.0',
  owner: OEM,
  description: 'A logical drive of a Smart Array controller: the same volume the Storage view shows.',
  properties: {
    ...commonProps,
    Status: statusProp,
    LogicalDriveNumber: ro(t.integer()),
    LogicalDriveName: ro(t.string()),
    Raid: ro(t.string()),
    CapacityMiB: ro(t.integer()),
    StripSizeBytes: ro(t.integer()),
    StripeSizeBytes: ro(t.integer()),
    BlockSizeBytes: ro(t.integer()),
    VolumeUniqueIdentifier: ro(t.string()),
    InterfaceType: ro(t.string()),
    MediaType: ro(t.string()),
    LogicalDriveType: ro(t.string()),
    LogicalDriveEncryption: ro(t.boolean()),
    LegacyBootPriority: ro(t.string()),
    AccelerationMethod: ro(t.string()),
    LogicalDriveStatusReasons: ro(t.array(t.string())),
    Links: ro(t.object({ DataDrives: t.link({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

const EnclosureType = defineType({
  name: oemType('SmartStorageStorageEnclosure'),
  version: '2.0.0',
  owner: OEM,
  description: 'A drive box attached to a Smart Array controller port.',
  properties: {
    ...placedPart,
    DriveBayCount: ro(t.integer()),
  },
});

/** A logical drive of the configuration: its number, name, level, size, drives and layout. */
const configLogicalDrive = {
  LogicalDriveNumber: t.integer({ minimum: 1 }),
  LogicalDriveName: t.string({ maxLength: 64 }),
  Raid: t.enum(Object.keys(SMART_RAID)),
  CapacityGiB: t.integer({ minimum: 1 }),
  CapacityBlocks: t.integer(),
  BlockSizeBytes: t.integer(),
  DataDrives: t.array(t.string(), { description: 'Locations of its drives (ControllerPort:Box:Bay).' }),
  DriveLocationFormat: t.string(),
  SpareDrives: t.array(t.string()),
  SpareRebuildMode: t.string({ nullable: true }),
  StripSizeBytes: t.integer(),
  StripeSizeBytes: t.integer(),
  ParityGroupCount: t.integer(),
  Accelerator: t.string(),
  LegacyBootPriority: t.string(),
  VolumeUniqueIdentifier: t.string(),
  Actions: t.array(t.object({ Action: t.enum(['LogicalDriveDelete']) }, { typeName: 'LogicalDriveAction' })),
} satisfies Props;

const ConfigLogicalDriveProp = t.object(configLogicalDrive, { typeName: 'LogicalDrive' });

/** iLO's array configuration document; its name carries no vendor prefix on iLO either. */
const SmartStorageConfigType = defineType({
  name: oemType('SmartStorageConfig'),
  version: '2.0.2',
  owner: OEM,
  description:
    'The configuration of a Smart Array controller as one document: logical drives, controller actions and DataGuard; Settings/ takes changes, applied at the next POST.',
  properties: {
    ...commonProps,
    Location: ro(t.string()),
    LocationFormat: ro(t.string()),
    DataGuard: t.enum(DATA_GUARD),
    LogicalDrives: t.array(ConfigLogicalDriveProp),
    PhysicalDrives: ro(
      t.array(
        t.object(
          { Location: ro(t.string()), LocationFormat: ro(t.string()), LegacyBootPriority: ro(t.string()) },
          { typeName: 'PhysicalDrive' },
        ),
      ),
    ),
    Actions: t.array(
      t.object(
        {
          Action: t.enum(['ClearConfigurationMetadata', 'FactoryReset', 'PhysicalDriveErase']),
          ErasePattern: t.string(),
          PhysicalDriveList: t.array(t.string()),
        },
        { typeName: 'ConfigAction' },
      ),
    ),
    DriveWriteCache: ro(t.string()),
    ElevatorSort: ro(t.string()),
    ExpandPriority: ro(t.string()),
    RebuildPriority: ro(t.string()),
    SurfaceScanAnalysisPriority: ro(t.string()),
    SurfaceScanAnalysisDelaySeconds: ro(t.integer()),
    QueueDepth: ro(t.string()),
    PowerModeAfterReboot: ro(t.string()),
    EncryptionConfiguration: ro(t.string()),
  },
});

const HostBusAdaptersType = collectionOf(
  defineType({
    name: oemType('SmartStorageHostBusAdapter'),
    version: '2.0.0',
    owner: OEM,
    description: 'A host bus adapter of the Smart Storage subsystem.',
    properties: { ...commonProps },
  }),
);

/**
 * What a write takes: a new logical drive may describe its drives (quick setup: DataDriveCount,
 * media, interface...) instead of naming them, and what clients send back of the view is taken as it is.
 */
const ConfigWriteBody = {
  DataGuard: SmartStorageConfigType.properties.DataGuard,
  Actions: SmartStorageConfigType.properties.Actions,
  LogicalDrives: t.array(
    t.object({ ...configLogicalDrive, DataDrives: t.any() }, { typeName: 'LogicalDrive', additionalProperties: true }),
  ),
} satisfies Props;

const LOCATION_FORMAT = 'ControllerPort:Box:Bay';
const BLOCK = 512;
const MiB = 2 ** 20;

/** The box ("1I:1") of a drive bay ("1I:1:3"). */
const boxOf = (bay: string) => bay.split(':').slice(0, 2).join(':');

function handlers(d: SmartStorageDeps) {
  const { storage, smartArray } = d;
  const ids = smartArray.arrayControllers();
  /** iLO's id of an array controller: its slot, 0 for the embedded one. */
  const ctrlId = (sid: string) => {
    const c = storage.controller(sid);
    const slot = c?.slot === 'Embedded' ? '0' : (c?.slot ?? '0');
    return ids.filter((x) => storage.controller(x)?.slot === c?.slot).length > 1 ? String(ids.indexOf(sid)) : slot;
  };
  const bySmartId = (id: string) => ids.find((sid) => ctrlId(sid) === id);
  const location = (sid: string) => `Slot ${ctrlId(sid)}`;
  const base = (sid: string) => d.uris.system('SmartStorage', 'ArrayControllers', ctrlId(sid));
  const configUri = (sid: string) => d.uris.system(configSegment(ids.indexOf(sid)));
  const status = (s: { State: string; Health?: string }) => ({ State: s.State, Health: s.Health ?? null });
  const volumeHex = (v: VolumeRecord) =>
    componentUuid(storage.controller(v.storageId)?.serialNumber ?? v.storageId, `volume:${v.id}:${toIso(v.createdAt)}`)
      .replace(/-/g, '')
      .toUpperCase();
  const bays = (v: VolumeRecord) => v.drives.map((id) => storage.drive(v.storageId, id)?.bay ?? id);
  /** Strip size times the drives that hold data (not the mirror or parity share). */
  const stripe = (v: VolumeRecord) => {
    const members = v.drives.map((id) => storage.drive(v.storageId, id)?.capacityBytes ?? 0);
    const smallest = Math.min(...members);
    return STRIP_SIZE_BYTES * Math.max(1, Math.round(raidCapacity(v.raidType, members) / smallest));
  };
  const smartRaid = (v: VolumeRecord) => Object.keys(SMART_RAID).find((k) => SMART_RAID[k] === v.raidType) ?? v.raidType;

  const diskBody = (sid: string, x: Drive) => {
    const erase = storage.eraseOf(sid, x.id);
    const use = storage.volumesOfDrive(sid, x.id).length ? 'Data' : 'Unconfigured';
    return {
      Id: x.id,
      Name: 'Smart Storage Disk Drive',
      Description: 'Smart Storage disk drive',
      Status: status(storage.driveStatus(sid, x)),
      Location: x.bay,
      LocationFormat: LOCATION_FORMAT,
      Model: x.model,
      Manufacturer: x.manufacturer,
      SerialNumber: x.serialNumber,
      FirmwareVersion: { Current: { VersionString: x.firmwareVersion } },
      MediaType: x.media,
      InterfaceType: x.protocol,
      CapacityMiB: Math.floor(x.capacityBytes / MiB),
      CapacityGB: Math.floor(x.capacityBytes / 1e9),
      CapacityLogicalBlocks: Math.floor(x.capacityBytes / BLOCK),
      BlockSizeBytes: BLOCK,
      RotationalSpeedRpm: x.rpm ?? null,
      DiskDriveUse: erase ? 'Erasing' : use,
      EraseCompletionPercentage: erase ? erase.percent : null,
      IndicatorLED: storage.locateActive(sid, x.id) ? 'Lit' : 'Off',
      LegacyBootPriority: 'None',
      EncryptedDrive: false,
    };
  };
  const logicalBody = (v: VolumeRecord, uri: string) => {
    const first = storage.drive(v.storageId, v.drives[0] ?? '');
    return {
      Id: v.id,
      Name: 'Smart Storage Logical Drive',
      Description: 'Smart Storage logical drive',
      Status: status(storage.volumeStatus(v)),
      LogicalDriveNumber: Number(v.id),
      LogicalDriveName: v.name,
      Raid: smartRaid(v).replace(/^Raid/, ''),
      CapacityMiB: Math.floor(v.capacityBytes / MiB),
      StripSizeBytes: STRIP_SIZE_BYTES,
      StripeSizeBytes: stripe(v),
      BlockSizeBytes: BLOCK,
      VolumeUniqueIdentifier: volumeHex(v),
      InterfaceType: first?.protocol ?? '',
      MediaType: first?.media ?? '',
      LogicalDriveType: 'Data',
      LogicalDriveEncryption: false,
      LegacyBootPriority: 'None',
      AccelerationMethod: first?.media === 'SSD' ? 'IOBypass' : 'ControllerCache',
      LogicalDriveStatusReasons: ['Ok'],
      Links: { DataDrives: { '@odata.id': `${uri}DataDrives/` } },
    };
  };
  const configLogical = (v: VolumeRecord) => ({
    LogicalDriveNumber: Number(v.id),
    LogicalDriveName: v.name,
    Raid: smartRaid(v),
    CapacityGiB: Math.floor(v.capacityBytes / 2 ** 30),
    CapacityBlocks: Math.floor(v.capacityBytes / BLOCK),
    BlockSizeBytes: BLOCK,
    DataDrives: bays(v),
    DriveLocationFormat: LOCATION_FORMAT,
    LegacyBootPriority: 'None',
    ParityGroupCount: 0,
    SpareDrives: [],
    SpareRebuildMode: null,
    StripSizeBytes: STRIP_SIZE_BYTES,
    StripeSizeBytes: stripe(v),
    Accelerator: storage.drive(v.storageId, v.drives[0] ?? '')?.media === 'SSD' ? 'IOBypass' : 'ControllerCache',
    VolumeUniqueIdentifier: volumeHex(v),
  });
  /** The configuration document: as the controller runs now (current) or as it will after the next POST (pending). */
  const configBody = (sid: string, which: 'current' | 'pending') => {
    const volumes =
      which === 'current' ? storage.volumeList(sid).filter((v) => v.state !== 'PendingCreate') : smartArray.wantedVolumes(sid);
    const erases = which === 'pending' ? smartArray.pendingErases(sid) : [];
    return {
      Id: which === 'current' ? configSegment(ids.indexOf(sid)) : 'Settings',
      Name: which === 'current' ? 'Smart Storage Configuration Current Settings' : 'Smart Storage Configuration Pending Settings',
      Location: location(sid),
      LocationFormat: 'PCISlot',
      // The guard a change was sent with holds for that change (pending); between changes the controller keeps Strict.
      DataGuard: which === 'current' ? 'Strict' : smartArray.dataGuard(sid),
      LogicalDrives: volumes.map(configLogical),
      PhysicalDrives: storage.drives(sid).map((x) => ({ Location: x.bay, LocationFormat: LOCATION_FORMAT, LegacyBootPriority: 'None' })),
      Actions: erases.map((e) => ({
        Action: 'PhysicalDriveErase',
        ErasePattern: e.pattern,
        PhysicalDriveList: e.driveIds.map((id) => storage.drive(sid, id)?.bay ?? id),
      })),
      // Controller tunables as the P408i-a reports them (not modelled).
      DriveWriteCache: DRIVE_WRITE_CACHE,
      ElevatorSort: 'Enabled',
      ExpandPriority: 'Medium',
      RebuildPriority: 'High',
      SurfaceScanAnalysisPriority: 'Idle',
      SurfaceScanAnalysisDelaySeconds: 3,
      QueueDepth: 'Automatic',
      PowerModeAfterReboot: 'MaxPerformance',
      EncryptionConfiguration: 'None',
      ...(which === 'current' ? { '@Redfish.Settings': settingsAnnotation(`${configUri(sid)}settings/`) } : {}),
    };
  };
  const controllerBody = (sid: string) => {
    const c = storage.controller(sid)!;
    const uri = base(sid);
    const ports = new Set(c.drives.map((x) => x.bay.split(':')[0]));
    return {
      Id: ctrlId(sid),
      Name: 'Smart Storage Array Controller',
      Description: 'Smart Storage array controller',
      Status: status(storage.controllerStatus(sid)),
      AdapterType: 'SmartArray',
      Location: location(sid),
      LocationFormat: 'PCISlot',
      Model: c.model,
      Manufacturer: c.manufacturer,
      SerialNumber: c.serialNumber,
      FirmwareVersion: { Current: { VersionString: c.firmwareVersion } },
      CurrentOperatingMode: 'Mixed',
      DriveWriteCache: DRIVE_WRITE_CACHE,
      InternalPortCount: ports.size,
      ExternalPortCount: 0,
      LogicalDriveCount: storage.volumeList(sid).filter((v) => v.state !== 'PendingCreate').length,
      PhysicalDriveCount: c.drives.length,
      UnassignedPhysicalDriveCount: smartArray.unassigned(sid).length,
      SupportedRaidLevels: c.raidTypes.map((r) => r.replace(/^RAID/, '')),
      EncryptionEnabled: false,
      IsBootController: ids[0] === sid,
      Links: {
        LogicalDrives: { '@odata.id': `${uri}LogicalDrives/` },
        PhysicalDrives: { '@odata.id': `${uri}DiskDrives/` },
        UnconfiguredDrives: { '@odata.id': `${uri}UnconfiguredDrives/` },
        StorageEnclosures: { '@odata.id': `${uri}StorageEnclosures/` },
        SmartStorageConfig: { '@odata.id': configUri(sid) },
      },
    };
  };
  const enclosures = (sid: string) => [...new Set(storage.drives(sid).map((x) => boxOf(x.bay)))];
  const enclosureBody = (sid: string, i: number) => {
    const box = enclosures(sid)[i] ?? '';
    const inBox = storage.drives(sid).filter((x) => boxOf(x.bay) === box);
    return {
      Id: String(i),
      Name: 'Smart Storage Enclosure',
      Description: 'Smart Storage enclosure',
      Status: { State: 'Enabled', Health: 'OK' },
      Location: box,
      LocationFormat: 'Port:Box',
      // A drive cage serves its bays in fours per port.
      DriveBayCount: Math.ceil(inBox.length / 4) * 4,
      // The backplane reports no model, serial number or firmware (iLO shows them empty): left out.
    };
  };
  return {
    ids,
    bySmartId,
    ctrlId,
    configUri,
    diskBody,
    logicalBody,
    configBody,
    controllerBody,
    enclosures,
    enclosureBody,
    smartStorageBody: () => ({
      Id: 'SmartStorage',
      Name: 'Smart Storage',
      Description: 'Smart Storage',
      Status: { Health: worstHealth(ids.map((sid) => storage.storageRollup(sid))) },
      Links: {
        ArrayControllers: { '@odata.id': d.uris.system('SmartStorage', 'ArrayControllers') },
        HostBusAdapters: { '@odata.id': d.uris.system('SmartStorage', 'HostBusAdapters') },
      },
    }),
  };
}

/** iLO's name of the configuration document of the n-th array controller: SmartStorageConfig, SmartStorageConfig1... */
function configSegment(n: number): string {
  return n <= 0 ? 'SmartStorageConfig' : `SmartStorageConfig${n}`;
}

function worstHealth(list: readonly string[]): string {
  return list.includes('Critical') ? 'Critical' : list.includes('Warning') ? 'Warning' : 'OK';
}

/** The links ComputerSystem Oem/Vendor/Links gives these views. */
export function smartStorageLink(uris: Services['uris']) {
  return { '@odata.id': uris.system('SmartStorage') };
}

const BASE = '/redfish/v1/Systems/{SystemId}/SmartStorage/';
const CTRL = `${BASE}ArrayControllers/{ArrayControllerId}/` as const;

export function registerSmartStorageRoutes(routes: RouteTable, d: SmartStorageDeps): void {
  const h = handlers(d);
  const { storage, smartArray } = d;
  const read = { read: Priv.login };
  const sidOf = (p: { ArrayControllerId?: string }) => h.bySmartId(p.ArrayControllerId ?? '') ?? '';
  routes.param('ArrayControllerId', (id) => h.bySmartId(id) !== undefined);
  routes.add({ path: BASE, type: SmartStorageType, get: { privilege: Priv.login, handler: h.smartStorageBody } });
  addCollection(routes, {
    collection: `${BASE}ArrayControllers/`,
    member: CTRL,
    type: ArrayControllerType,
    name: 'Smart Storage Array Controllers',
    extra: () => ({ Description: 'The Smart Array controllers of the system' }),
    store: { list: () => h.ids, get: (id) => h.bySmartId(id), id: (sid) => h.ctrlId(sid) },
    show: (sid) => h.controllerBody(sid),
    privileges: read,
  });
  // The profiles' controllers without RAID are direct-attached NVMe, not host bus adapters: none to list.
  routes.add({
    path: `${BASE}HostBusAdapters/`,
    type: HostBusAdaptersType,
    get: {
      privilege: Priv.login,
      handler: () => collection('Smart Storage Host Bus Adapters', [], { Description: 'The host bus adapters of the system' }),
    },
  });
  const drives = (only: (sid: string, x: Drive) => boolean): MemberStore<Drive, { readonly ArrayControllerId: string }> => ({
    list: (p) => storage.drives(sidOf(p)).filter((x) => only(sidOf(p), x)),
    get: (id, p) => {
      const x = storage.drive(sidOf(p), id);
      return x && only(sidOf(p), x) ? x : undefined;
    },
    id: (x) => x.id,
  });
  for (const [segment, only] of [
    ['DiskDrives', () => true],
    ['UnconfiguredDrives', (sid: string, x: Drive) => storage.volumesOfDrive(sid, x.id).length === 0],
  ] as const) {
    addCollection(routes, {
      collection: `${CTRL}${segment}/`,
      member: `${CTRL}${segment}/{DiskDriveId}/`,
      type: DiskDriveType,
      name: 'Smart Storage Disk Drives',
      store: drives(only),
      show: (x, at) => h.diskBody(sidOf(at.params), x),
      privileges: read,
    });
  }
  const volumes: MemberStore<VolumeRecord, { readonly ArrayControllerId: string }> = {
    list: (p) => storage.volumeList(sidOf(p)).filter((v) => v.state !== 'PendingCreate'),
    get: (id, p) => {
      const v = storage.volume(sidOf(p), id);
      return v && v.state !== 'PendingCreate' ? v : undefined;
    },
    id: (v) => v.id,
  };
  addCollection(routes, {
    collection: `${CTRL}LogicalDrives/`,
    member: `${CTRL}LogicalDrives/{LogicalDriveId}/`,
    type: LogicalDriveType,
    name: 'Smart Storage Logical Drives',
    store: volumes,
    show: (v, at) => h.logicalBody(v, at.uri),
    privileges: read,
  });
  routes.add({
    path: `${CTRL}LogicalDrives/{LogicalDriveId}/DataDrives/`,
    type: collectionOf(DiskDriveType),
    params: { LogicalDriveId: (id, p) => storage.volume(sidOf(p), id) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const sid = sidOf(ctx.params);
        const v = storage.volume(sid, ctx.params.LogicalDriveId)!;
        const members = v.drives.map((id) => ({
          '@odata.id': `${d.uris.system('SmartStorage', 'ArrayControllers', ctx.params.ArrayControllerId, 'DiskDrives', id)}`,
        }));
        return { Name: 'Data Drives', Members: members };
      },
    },
  });
  addCollection(routes, {
    collection: `${CTRL}StorageEnclosures/`,
    member: `${CTRL}StorageEnclosures/{StorageEnclosureId}/`,
    type: EnclosureType,
    name: 'Smart Storage Enclosures',
    store: {
      list: (p) => h.enclosures(sidOf(p)).map((_, i) => i),
      get: (id, p) => (/^\d+$/.test(id) && Number(id) < h.enclosures(sidOf(p)).length ? Number(id) : undefined),
      id: (i) => String(i),
    },
    show: (i, at) => h.enclosureBody(sidOf(at.params), i),
    privileges: read,
  });

  // The configuration documents: one per array controller, current and Settings/; a write to either is a change.
  h.ids.forEach((sid, n) => {
    const path = `/redfish/v1/Systems/{SystemId}/${configSegment(n)}/`;
    const write = (ctx: { body: object; uri: string; problems: readonly ExtendedInfo[] }) => {
      const payload: TaskRecord['Payload'] = { HttpOperation: 'PUT', TargetUri: ctx.uri, JsonBody: JSON.stringify(ctx.body) };
      smartArray.configure(sid, ctx.body, payload);
      return messages(vendorMessage('SystemResetRequired'), ...ctx.problems);
    };
    const writes = {
      patch: { privilege: Priv.hostStorage, body: ConfigWriteBody, handler: write },
      put: { privilege: Priv.hostStorage, body: ConfigWriteBody, handler: write },
    };
    routes.add({
      path,
      type: SmartStorageConfigType,
      get: { privilege: Priv.login, handler: () => h.configBody(sid, 'current') },
      ...writes,
    });
    // Spelled as iLO spells it: clients find a configuration's pending document by the lower-case "settings".
    routes.add({
      path: `${path}settings/`,
      type: SmartStorageConfigType,
      get: { privilege: Priv.login, handler: () => h.configBody(sid, 'pending') },
      ...writes,
    });
  });
}
