// The chassis' PCIe devices (Chassis/{ChassisId}/PCIeDevices/) and their
// functions, from the hardware profile; the system links them (ComputerSystem
// PCIeDevices). A NIC's function N links the system interface of its port N.
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import { nicPorts } from '../../platform/hardware/inventory.js';
import type { PcieClass, PcieDeviceSpec, PcieFunctionSpec } from '../../platform/hardware/profile.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { PCIeDeviceType, PCIeFunctionType } from './hardware-types.js';
import { boardIdentity } from './devices.js';
import { slotLocation } from './network-adapters.js';

export type PcieDeps = Pick<Services, 'uris' | 'hardware' | 'health'>;

/** PCI class codes (class, subclass, programming interface) of the classes a profile names. */
export const CLASS_CODES: Record<PcieClass, string> = {
  MassStorageController: '0x010400',
  NetworkController: '0x020000',
  DisplayController: '0x030000',
  MultimediaController: '0x040000',
  MemoryController: '0x050000',
  Bridge: '0x060400',
  CommunicationController: '0x070000',
  GenericSystemPeripheral: '0x088000',
  SerialBusController: '0x0c0330',
  ProcessingAccelerators: '0x120000',
  EncryptionController: '0x108000',
  Other: '0xff0000',
};

interface Fn {
  device: PcieDeviceSpec;
  index: number;
  spec: PcieFunctionSpec;
}

function handlers(d: PcieDeps) {
  const devices = d.hardware.pcieDevices;
  const ports = nicPorts(d.hardware);
  const chassis = d.uris.chassis();
  const system = d.uris.system();
  const deviceUri = (dev: PcieDeviceSpec) => d.uris.chassis('PCIeDevices', dev.id);
  const functionsOf = (dev: PcieDeviceSpec): Fn[] => dev.functions.map((spec, index) => ({ device: dev, index, spec }));
  // A NVMe-only controller without RAID is an NVM Express class device.
  const classCode = (f: Fn): string => {
    const controller = d.hardware.storage.find((c) => c.id === f.device.storage);
    const nvme = controller !== undefined && controller.raidTypes.length === 0 && controller.drives.every((x) => x.protocol === 'NVMe');
    return f.spec.deviceClass === 'MassStorageController' && nvme ? '0x010802' : CLASS_CODES[f.spec.deviceClass];
  };
  const pcieDevices: MemberStore<PcieDeviceSpec, object> = {
    list: () => devices,
    get: (id) => devices.find((x) => x.id === id),
    id: (x) => x.id,
  };
  const deviceFunctions: MemberStore<Fn, { readonly PCIeDeviceId: string }> = {
    list: ({ PCIeDeviceId }) => {
      const dev = devices.find((x) => x.id === PCIeDeviceId);
      return dev ? functionsOf(dev) : [];
    },
    get: (id, { PCIeDeviceId }) => {
      const dev = devices.find((x) => x.id === PCIeDeviceId);
      return dev ? functionsOf(dev).find((f) => String(f.index) === id) : undefined;
    },
    id: (f) => String(f.index),
  };
  const deviceExists = (id: string) => devices.some((x) => x.id === id);
  return { pcieDevices, deviceFunctions, deviceExists, showDevice, showFunction };

  function showDevice(dev: PcieDeviceSpec, at: { uri: string }) {
    return {
      Id: dev.id,
      Name: dev.name,
      Description: dev.slot === 'Embedded' ? 'Embedded PCIe device' : `PCIe device in slot ${dev.slot}`,
      Manufacturer: dev.manufacturer,
      Model: dev.name,
      ...boardIdentity(d, dev),
      DeviceType: dev.functions.length > 1 ? 'MultiFunction' : 'SingleFunction',
      ...(dev.firmwareVersion !== undefined ? { FirmwareVersion: dev.firmwareVersion } : {}),
      PCIeInterface: pcieInterface(dev),
      Slot: { Location: slotLocation(dev.slot) },
      Status: d.health.status(componentKey.pcie(dev.id)),
      PCIeFunctions: { '@odata.id': `${at.uri}PCIeFunctions/` },
      Links: { Chassis: [{ '@odata.id': chassis }] },
    };
  }

  function showFunction(f: Fn) {
    const port = f.device.nic !== undefined ? ports.find((p) => p.nic.id === f.device.nic && p.index === f.index) : undefined;
    return {
      Id: String(f.index),
      Name: `${f.device.name} function ${f.index}`,
      FunctionId: f.index,
      FunctionType: 'Physical',
      DeviceClass: f.spec.deviceClass,
      VendorId: f.spec.vendorId,
      DeviceId: f.spec.deviceId,
      SubsystemVendorId: f.spec.subsystemVendorId,
      SubsystemId: f.spec.subsystemId,
      ClassCode: classCode(f),
      RevisionId: '0x01',
      Status: d.health.status(componentKey.pcie(f.device.id)),
      Links: {
        PCIeDevice: { '@odata.id': deviceUri(f.device) },
        EthernetInterfaces: port ? [{ '@odata.id': `${system}EthernetInterfaces/${port.interfaceId}/` }] : [],
      },
    };
  }
}

/** A device's link, as DMTF's PCIeInterface shows it: the profile gives its generation and lanes, in use and at most. */
export function pcieInterface(dev: Pick<PcieDeviceSpec, 'pcieGeneration' | 'lanes'>) {
  const gen = `Gen${dev.pcieGeneration}`;
  return { PCIeType: gen, MaxPCIeType: gen, LanesInUse: dev.lanes, MaxLanes: dev.lanes };
}

export function registerPcieRoutes(routes: RouteTable, d: PcieDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/PCIeDevices/',
    member: '/redfish/v1/Chassis/{ChassisId}/PCIeDevices/{PCIeDeviceId}/',
    type: PCIeDeviceType,
    name: 'PCIe Device Collection',
    extra: () => ({ Description: 'The PCIe devices of the chassis' }),
    store: h.pcieDevices,
    show: h.showDevice,
    privileges: { read: Priv.login },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/PCIeDevices/{PCIeDeviceId}/PCIeFunctions/',
    member: '/redfish/v1/Chassis/{ChassisId}/PCIeDevices/{PCIeDeviceId}/PCIeFunctions/{PCIeFunctionId}/',
    type: PCIeFunctionType,
    name: 'PCIe Function Collection',
    extra: () => ({ Description: 'The PCIe functions of the device' }),
    params: { PCIeDeviceId: h.deviceExists },
    store: h.deviceFunctions,
    show: h.showFunction,
    privileges: { read: Priv.login },
  });
}

/** The system's links to the chassis' PCIe devices (ComputerSystem PCIeDevices). */
export function pcieDeviceLinks(d: Pick<Services, 'uris' | 'hardware'>): { '@odata.id': string }[] {
  return d.hardware.pcieDevices.map((x) => ({ '@odata.id': d.uris.chassis('PCIeDevices', x.id) }));
}
