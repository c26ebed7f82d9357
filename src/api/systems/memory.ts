// The system's memory (Systems/{SystemId}/Memory/) from the hardware profile:
// one member per DIMM slot the profile lists, an empty slot shown Absent. Ids
// follow the socket and slot (proc1dimm3). Status comes from the health
// registry (componentKey.dimm).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { Hardware } from '../../platform/hardware/identity.js';
import { addCollection } from '../../protocol/collections.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { MemoryType } from './inventory-types.js';
import { OEM } from '../../protocol/naming.js';

export type MemoryDeps = Pick<Services, 'uris' | 'hardware' | 'health'>;

type Dimm = Hardware['memory'][number];

/** The Memory resource's Id of a slot. */
export function dimmId(d: Pick<Dimm, 'socket' | 'slot'>): string {
  return `proc${d.socket}dimm${d.slot}`;
}

function handlers(d: MemoryDeps) {
  const dimms = d.hardware.memory;
  const chassis = d.uris.chassis();
  const slots = { list: () => dimms, get: (id: string) => dimms.find((m) => dimmId(m) === id), id: dimmId };
  return { slots, memoryBody };

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
    if (!m.present) return { ...base, Oem: { [OEM]: { DIMMStatus: 'NotPresent' } } };
    return {
      ...base,
      MemoryType: 'DRAM',
      MemoryDeviceType: m.type,
      BaseModuleType: 'RDIMM',
      CapacityMiB: m.sizeMiB,
      DataWidthBits: 64,
      BusWidthBits: 72,
      Manufacturer: m.manufacturer,
      PartNumber: m.partNumber,
      SerialNumber: m.serialNumber,
      RankCount: m.rank,
      OperatingSpeedMhz: m.speedMTs,
      AllowedSpeedsMHz: [m.speedMTs],
      ErrorCorrection: 'MultiBitECC',
      Oem: {
        [OEM]: {
          DIMMStatus: status.Health === 'Critical' ? 'Failed' : status.Health === 'Warning' ? 'Degraded' : 'GoodInUse',
          MaxOperatingSpeedMTs: m.speedMTs,
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
    name: 'Memory Collection',
    extra: () => ({ Description: 'The memory slots of the system' }),
    store: h.slots,
    show: h.memoryBody,
    privileges: { read: Priv.login },
  });
}
