// What the chassis holds, as iLO lists it (Chassis/{ChassisId}/Devices/: each PCIe
// device of the hardware profile with its part and serial numbers, firmware and
// where it sits), and the PCIe slots those devices fill (DMTF PCIeSlots).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { PcieDeviceSpec } from '../../platform/hardware/profile.js';
import { addCollection } from '../../protocol/collections.js';
import { defineType, locationProp, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { slotLocation } from './network-adapters.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type DevicesDeps = Pick<Services, 'uris' | 'hardware' | 'health'>;

const ServerDeviceType = defineType({
  name: oemType('ServerDevice'),
  version: '2.0.0',
  owner: OEM,
  description: 'A device installed in the server: what it is, where it sits, its part and serial numbers and firmware.',
  properties: {
    ...commonProps,
    Status: statusProp,
    DeviceType: ro(t.string()),
    Location: ro(t.string()),
    Manufacturer: ro(t.string()),
    PartNumber: ro(t.string()),
    SerialNumber: ro(t.string()),
    FirmwareVersion: ro(
      t.object({ Current: ro(t.object({ VersionString: ro(t.string()) }, { typeName: 'Current' })) }, { typeName: 'FirmwareVersion' }),
    ),
    MCTPProtocolDisabled: ro(t.boolean()),
    DeviceInstances: t.links({ readOnly: true }),
    Links: ro(t.object({ PCISlot: t.link({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

const PCIeSlotsType = defineType({
  name: 'PCIeSlots',
  version: '1.6.1',
  owner: 'DMTF',
  description: 'The PCIe slots of the chassis that hold the profile’s devices.',
  properties: {
    ...commonProps,
    Slots: ro(
      t.array(
        t.object(
          {
            PCIeType: ro(t.enum(['Gen1', 'Gen2', 'Gen3', 'Gen4', 'Gen5'])),
            SlotType: ro(t.enum(['FullLength', 'HalfLength', 'LowProfile', 'Mini', 'M2', 'OEM', 'OCP3Small', 'OCP3Large', 'U2'])),
            Lanes: ro(t.integer()),
            HotPluggable: ro(t.boolean()),
            Location: locationProp,
            Status: statusProp,
            Links: ro(t.object({ PCIeDevice: t.links({ readOnly: true }) }, { typeName: 'PCIeLinks' })),
          },
          { typeName: 'PCIeSlot' },
        ),
      ),
    ),
  },
});

/** The part and serial numbers of the NIC or storage controller a PCIe device is, where the profile gives them. */
export function boardIdentity(d: Pick<Services, 'hardware'>, dev: PcieDeviceSpec): { PartNumber?: string; SerialNumber?: string } {
  const nic = d.hardware.nics.find((x) => x.id === dev.nic);
  const serial = nic?.serialNumber ?? d.hardware.storage.find((x) => x.id === dev.storage)?.serialNumber;
  return { ...(nic ? { PartNumber: nic.partNumber } : {}), ...(serial !== undefined ? { SerialNumber: serial } : {}) };
}

/** What iLO calls a device by its PCI class (and, for storage, what its drives speak). */
function deviceType(d: DevicesDeps, dev: PcieDeviceSpec): string {
  if (dev.deviceClass === 'NetworkController') return 'LOM/NIC';
  if (dev.deviceClass === 'MassStorageController') {
    const c = d.hardware.storage.find((x) => x.id === dev.storage);
    return c?.drives.every((x) => x.protocol === 'NVMe') ? 'NVMe Storage Controller' : 'SAS/SATA Storage Controller';
  }
  return 'Unknown';
}

function handlers(d: DevicesDeps) {
  const devices = d.hardware.pcieDevices;
  const indexes = devices.map((_, i) => i);
  const show = (i: number) => {
    const dev = devices[i]!;
    return {
      Id: String(i + 1),
      Name: dev.name,
      DeviceType: deviceType(d, dev),
      Location: dev.slot === 'Embedded' ? 'Embedded Device' : `PCI-E Slot ${dev.slot}`,
      Manufacturer: dev.manufacturer,
      ...boardIdentity(d, dev),
      ...(dev.firmwareVersion !== undefined ? { FirmwareVersion: { Current: { VersionString: dev.firmwareVersion } } } : {}),
      MCTPProtocolDisabled: false,
      Status: d.health.status(componentKey.pcie(dev.id)),
      DeviceInstances: [{ '@odata.id': d.uris.system('PCIDevices', String(i + 1)) }],
      ...(dev.slot === 'Embedded' ? {} : { Links: { PCISlot: { '@odata.id': d.uris.system('PCISlots', dev.slot) } } }),
    };
  };
  const slots = () => ({
    Id: 'PCIeSlots',
    Name: 'PCIe Slots',
    Slots: devices
      .filter((dev) => dev.slot !== 'Embedded')
      .map((dev) => ({
        PCIeType: `Gen${dev.pcieGeneration}`,
        Lanes: dev.lanes,
        HotPluggable: false,
        Location: slotLocation(dev.slot),
        Status: { State: 'Enabled', Health: d.health.status(componentKey.pcie(dev.id)).Health ?? 'OK' },
        Links: { PCIeDevice: [{ '@odata.id': d.uris.chassis('PCIeDevices', dev.id) }] },
      })),
  });
  return { indexes, show, slots };
}

export function registerDevicesRoutes(routes: RouteTable, d: DevicesDeps): void {
  const { indexes, show, slots } = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/Devices/',
    member: '/redfish/v1/Chassis/{ChassisId}/Devices/{DeviceId}/',
    type: ServerDeviceType,
    name: 'Devices',
    extra: () => ({ Description: 'The devices installed in the chassis' }),
    store: { list: () => indexes, get: (id) => indexes.find((i) => String(i + 1) === id), id: (i) => String(i + 1) },
    show,
    privileges: { read: Priv.login },
  });
  routes.add({ path: '/redfish/v1/Chassis/{ChassisId}/PCIeSlots/', type: PCIeSlotsType, get: { privilege: Priv.login, handler: slots } });
}
