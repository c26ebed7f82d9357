// iLO's own PCI views of the system: PCIDevices (each PCIe device of the hardware
// profile as the system ROM enumerates it, by the UEFI device path boot options and
// BIOS mappings use) and PCISlots (the slots those devices sit in).
import { pcieDevicePath } from '../../domain/bios/pci-map.js';
import { Priv } from '../../lib/privileges.js';
import type { PcieDeviceSpec } from '../../platform/hardware/profile.js';
import { addCollection } from '../../protocol/collections.js';
import { defineType, ro, t, commonProps } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import { CLASS_CODES } from '../chassis/pcie-devices.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type PciDeps = Pick<Services, 'uris' | 'hardware'>;

const int = () => ro(t.integer());
const str = () => ro(t.string());
const pciAddress = { BusNumber: int(), DeviceNumber: int(), FunctionNumber: int(), SegmentNumber: int(), UEFIDevicePath: str() };

const PciDeviceType = defineType({
  name: oemType('ServerPciDevice'),
  version: '2.0.0',
  owner: OEM,
  description: 'A PCI device as the system ROM enumerates it: where it is, its PCI ids and its UEFI device path.',
  properties: {
    ...commonProps,
    ...pciAddress,
    DeviceType: str(),
    DeviceLocation: str(),
    LocationString: str(),
    StructuredName: str(),
    ClassCode: int(),
    SubclassCode: int(),
    VendorID: int(),
    DeviceID: int(),
    SubsystemVendorID: int(),
    SubsystemDeviceID: int(),
    DeviceInstance: int(),
    DeviceSubInstance: int(),
    Bifurcated: str(),
  },
});

const PciSlotType = defineType({
  name: oemType('ServerPCISlot'),
  version: '2.1.0',
  owner: OEM,
  description: 'A PCIe slot of the system and what it offers.',
  properties: {
    ...commonProps,
    ...pciAddress,
    Technology: str(),
    LinkLanes: str(),
    Length: str(),
    SupportsHotPlug: ro(t.boolean()),
    Characteristics: ro(
      t.object({ Provides3_3Volts: ro(t.boolean()), SupportsPowerManagementEventSignal: ro(t.boolean()) }, { typeName: 'Characteristics' }),
    ),
    Status: ro(
      t.object(
        { OperationalStatus: ro(t.array(t.object({ Status: ro(t.string()) }, { typeName: 'OperationalStatus' }))) },
        { typeName: 'SlotStatus' },
      ),
    ),
  },
});

const hexInt = (s: string) => Number.parseInt(s, 16);
/** The bus behind the device's root port: the ROM numbers the buses of root n from n × 16 up. */
const busOf = (path: string) => {
  const root = /^PciRoot\((0x[0-9A-F]+)\)/i.exec(path);
  return root ? hexInt(root[1] ?? '0') * 16 + 1 : 0;
};

const DEVICE_TYPES: Partial<Record<PcieDeviceSpec['deviceClass'], [type: string, structured: string]>> = {
  NetworkController: ['NIC', 'NIC'],
  MassStorageController: ['Storage Controller', 'Storage'],
  DisplayController: ['Video', 'PCI'],
  ProcessingAccelerators: ['GPU', 'PCI'],
};

function handlers(d: PciDeps) {
  const devices = d.hardware.pcieDevices;
  const kindOf = (dev: PcieDeviceSpec) => DEVICE_TYPES[dev.deviceClass] ?? ['Other', 'PCI'];
  /** Instance numbers count devices of one kind and place (embedded or in slots), in profile order. */
  const instanceOf = (i: number) => {
    const dev = devices[i]!;
    const emb = dev.slot === 'Embedded';
    return devices.slice(0, i + 1).filter((x) => kindOf(x)[1] === kindOf(dev)[1] && (x.slot === 'Embedded') === emb).length;
  };
  const deviceBody = (i: number) => {
    const dev = devices[i]!;
    const path = pcieDevicePath(d.hardware, i);
    const fn = dev.functions[0];
    const code = CLASS_CODES[dev.deviceClass];
    const [type, kind] = kindOf(dev);
    const emb = dev.slot === 'Embedded';
    const n = emb ? instanceOf(i) : Number(dev.slot);
    return {
      Id: String(i + 1),
      Name: dev.name,
      DeviceType: emb && kind === 'NIC' ? 'LOM/NIC' : type,
      DeviceLocation: emb ? 'Embedded' : `PCI-E Slot ${dev.slot}`,
      LocationString: emb ? dev.name : `Slot ${dev.slot}`,
      StructuredName: `${kind}.${emb ? (kind === 'NIC' ? 'LOM' : 'Emb') : 'Slot'}.${n}.1`,
      UEFIDevicePath: path,
      BusNumber: busOf(path),
      DeviceNumber: 0,
      FunctionNumber: 0,
      SegmentNumber: 0,
      ClassCode: hexInt(code.slice(2, 4)),
      SubclassCode: hexInt(code.slice(4, 6)),
      VendorID: hexInt(fn?.vendorId ?? '0'),
      DeviceID: hexInt(fn?.deviceId ?? '0'),
      SubsystemVendorID: hexInt(fn?.subsystemVendorId ?? '0'),
      SubsystemDeviceID: hexInt(fn?.subsystemId ?? '0'),
      DeviceInstance: instanceOf(i),
      DeviceSubInstance: 1,
      Bifurcated: 'BifurcationNotSupported',
    };
  };
  const slotted = devices.map((_, i) => i).filter((i) => devices[i]?.slot !== 'Embedded');
  const slotBody = (i: number) => {
    const dev = devices[i]!;
    const path = pcieDevicePath(d.hardware, i);
    return {
      Id: dev.slot,
      Name: `PCI-E Slot ${dev.slot}`,
      Technology: `PCIExpressGen${dev.pcieGeneration}`,
      LinkLanes: `x${dev.lanes}`,
      // The profile does not say how long a slot is; iLO reports Other where the slot does not tell.
      Length: 'Other',
      SupportsHotPlug: false,
      Characteristics: { Provides3_3Volts: true, SupportsPowerManagementEventSignal: true },
      Status: { OperationalStatus: [{ Status: 'InUse' }] },
      UEFIDevicePath: path,
      BusNumber: busOf(path),
      DeviceNumber: 0,
      FunctionNumber: 0,
      SegmentNumber: 0,
    };
  };
  return { count: devices.length, deviceBody, slotted, slotOf: (id: string) => slotted.find((i) => devices[i]?.slot === id), slotBody };
}

/** The PCI device view of the profile's PCIe device at index i (its place, names and numbers). */
export function pciDeviceView(d: PciDeps, i: number) {
  return handlers(d).deviceBody(i);
}

/** The links ComputerSystem Oem/Vendor/Links gives these views. */
export function pciLinks(uris: Services['uris']) {
  return { PCIDevices: { '@odata.id': uris.system('PCIDevices') }, PCISlots: { '@odata.id': uris.system('PCISlots') } };
}

export function registerPciRoutes(routes: RouteTable, d: PciDeps): void {
  const h = handlers(d);
  const read = { read: Priv.login };
  const indexes = Array.from({ length: h.count }, (_, i) => i);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/PCIDevices/',
    member: '/redfish/v1/Systems/{SystemId}/PCIDevices/{PciDeviceId}/',
    type: PciDeviceType,
    name: 'PCI Devices',
    extra: () => ({ Description: 'The PCI devices of the system' }),
    store: { list: () => indexes, get: (id) => indexes.find((i) => String(i + 1) === id), id: (i) => String(i + 1) },
    show: (i) => h.deviceBody(i),
    privileges: read,
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/PCISlots/',
    member: '/redfish/v1/Systems/{SystemId}/PCISlots/{PciSlotId}/',
    type: PciSlotType,
    name: 'PCI Slots',
    extra: () => ({ Description: 'The PCIe slots of the system and what fills them' }),
    store: { list: () => h.slotted, get: (id) => h.slotOf(id), id: (i) => d.hardware.pcieDevices[i]?.slot ?? '' },
    show: (i) => h.slotBody(i),
    privileges: read,
  });
}
