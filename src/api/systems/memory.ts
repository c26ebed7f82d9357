// The system's memory (Systems/{SystemId}/Memory/) from the hardware profile:
// one member per DIMM slot the profile lists, an empty slot shown Absent. Ids
// follow the socket and slot (proc1dimm3). Status comes from the health
// registry (componentKey.dimm). A fitted module has its MemoryMetrics (the speed it runs at).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { Hardware } from '../../platform/hardware/identity.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf, defineType, ro, t, vendorObject } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { MemoryMetricsType, MemoryType } from './inventory-types.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type MemoryDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'bios'>;

/** The BIOS Advanced Memory Protection setting as the collection's vendor extension names the mode. */
const AMP_MODES: Readonly<Record<string, string>> = {
  AdvancedEcc: 'AdvancedECC',
  OnlineSpareAdvancedEcc: 'OnlineSpareRank',
  MirroredAdvancedEcc: 'IntrasocketMirroring',
  FastFaultTolerantADDDC: 'A3DC',
};

const VendorAdvancedMemoryProtectionType = defineType({
  name: oemType('AdvancedMemoryProtection'),
  version: '2.0.0',
  owner: OEM,
  description: 'Vendor extension of the memory collection: the memory protection mode and each processor board’s memory.',
  properties: {
    AmpModeActive: ro(t.string()),
    AmpModeStatus: ro(t.string()),
    AmpModeSupported: ro(t.array(t.string())),
    MemoryList: ro(
      t.array(
        t.object(
          {
            BoardCpuNumber: ro(t.integer()),
            BoardNumberOfSockets: ro(t.integer()),
            BoardOperationalFrequency: ro(t.integer({ units: 'MHz' })),
            BoardOperationalVoltage: ro(t.integer({ units: 'mV' })),
            BoardTotalMemorySize: ro(t.integer({ units: 'MiBy' })),
          },
          { typeName: 'MemoryBoard' },
        ),
      ),
    ),
  },
});

const memoryCollection = collectionOf(MemoryType);
const MemoryCollectionType = {
  ...memoryCollection,
  properties: {
    ...memoryCollection.properties,
    Oem: t.object({ [OEM]: vendorObject(VendorAdvancedMemoryProtectionType, { readOnly: true }) }, { readOnly: true, typeName: 'Oem' }),
  },
};

/** Operating voltage of a DIMM generation, millivolts (JEDEC). */
const DIMM_MILLIVOLTS: Readonly<Record<string, number>> = { DDR3: 1500, DDR4: 1200, DDR5: 1100 };

type Dimm = Hardware['memory'][number];

/** The Memory resource's Id of a slot. */
export function dimmId(d: Pick<Dimm, 'socket' | 'slot'>): string {
  return `proc${d.socket}dimm${d.slot}`;
}

function handlers(d: MemoryDeps) {
  const dimms = d.hardware.memory;
  const chassis = d.uris.chassis();
  const slots = { list: () => dimms, get: (id: string) => dimms.find((m) => dimmId(m) === id), id: dimmId };
  return { slots, memoryBody, collectionOem };

  /** The protection mode the ROM runs with, and per processor its slots and what fills them. */
  function collectionOem() {
    const mode = AMP_MODES[String(d.bios.currentAttributes().AdvancedMemProtection)] ?? 'AdvancedECC';
    const sockets = [...new Set(dimms.map((m) => m.socket))].sort((a, b) => a - b);
    return {
      [OEM]: {
        AmpModeActive: mode,
        AmpModeStatus: mode,
        AmpModeSupported: Object.values(AMP_MODES),
        MemoryList: sockets.map((socket) => {
          const on = dimms.filter((m) => m.socket === socket);
          const present = on.filter((m) => m.present);
          return {
            BoardCpuNumber: socket,
            BoardNumberOfSockets: on.length,
            BoardOperationalFrequency: present.length ? Math.min(...present.map((m) => m.speedMTs)) : 0,
            BoardOperationalVoltage: present.length ? (DIMM_MILLIVOLTS[present[0]!.type] ?? 0) : 0,
            BoardTotalMemorySize: present.reduce((n, m) => n + m.sizeMiB, 0),
          };
        }),
      },
    };
  }

  function memoryBody(m: Dimm) {
    const status = d.health.status(componentKey.dimm(m.location));
    const base = {
      Id: dimmId(m),
      Name: m.location,
      Description: `Memory module in ${m.location}`,
      DeviceLocator: m.location,
      MemoryLocation: {
        Socket: m.socket,
        ...(m.memoryController !== undefined ? { MemoryController: m.memoryController } : {}),
        ...(m.channel !== undefined ? { Channel: m.channel } : {}),
        Slot: m.slot,
      },
      Location: { PartLocation: { ServiceLabel: m.location, LocationType: 'Slot', LocationOrdinalValue: m.slot } },
      Status: status,
      Links: { Chassis: { '@odata.id': chassis } },
    };
    // An empty slot still names its kind and bus as iLO shows it (clients print every slot).
    const slot = { MemoryType: 'DRAM', DataWidthBits: 64, BusWidthBits: 72, ErrorCorrection: 'MultiBitECC' };
    if (!m.present) return { ...base, ...slot, CapacityMiB: 0, Oem: { [OEM]: { DIMMStatus: 'NotPresent', MinimumVoltageVoltsX10: 0 } } };
    return {
      ...base,
      ...slot,
      Metrics: { '@odata.id': d.uris.system('Memory', dimmId(m), 'MemoryMetrics') },
      MemoryDeviceType: m.type,
      BaseModuleType: 'RDIMM',
      CapacityMiB: m.sizeMiB,
      Manufacturer: m.manufacturer,
      PartNumber: m.partNumber,
      SerialNumber: m.serialNumber,
      RankCount: m.rank,
      OperatingSpeedMhz: m.speedMTs,
      AllowedSpeedsMHz: [m.speedMTs],
      // Every profile DIMM is plain DRAM: all of it volatile, none persistent or used as a cache.
      MemoryMedia: ['DRAM'],
      OperatingMemoryModes: ['Volatile'],
      VolatileSizeMiB: m.sizeMiB,
      NonVolatileSizeMiB: 0,
      CacheSizeMiB: 0,
      LogicalSizeMiB: 0,
      VolatileRegionSizeLimitMiB: m.sizeMiB,
      PersistentRegionSizeLimitMiB: 0,
      Oem: {
        [OEM]: {
          DIMMStatus: status.Health === 'Critical' ? 'Failed' : status.Health === 'Warning' ? 'Degraded' : 'GoodInUse',
          BaseModuleType: 'RDIMM',
          MaxOperatingSpeedMTs: m.speedMTs,
          MinimumVoltageVoltsX10: Math.round((DIMM_MILLIVOLTS[m.type] ?? 0) / 100),
          VendorName: m.manufacturer,
        },
      },
    };
  }
}

export function registerMemoryRoutes(routes: RouteTable, d: MemoryDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/Memory/',
    member: '/redfish/v1/Systems/{SystemId}/Memory/{MemoryId}/',
    type: MemoryType,
    collectionType: MemoryCollectionType,
    name: 'Memory Collection',
    extra: () => ({ Description: 'The memory slots of the system', Oem: h.collectionOem() }),
    store: h.slots,
    show: h.memoryBody,
    privileges: { read: Priv.login },
  });
  const fitted = (id: string) => {
    const m = h.slots.get(id);
    return m?.present ? m : undefined;
  };
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Memory/{MemoryId}/MemoryMetrics/',
    type: MemoryMetricsType,
    // An empty slot has no metrics.
    params: { MemoryId: (id) => fitted(id) !== undefined },
    get: {
      privilege: Priv.login,
      handler: ({ params }) => ({
        Id: 'MemoryMetrics',
        Name: `Memory metrics of ${fitted(params.MemoryId)!.location}`,
        OperatingSpeedMHz: fitted(params.MemoryId)!.speedMTs,
      }),
    },
  });
}
