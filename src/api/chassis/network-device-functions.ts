// The network device functions of the chassis' network adapters
// (Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/NetworkDeviceFunctions/): one Ethernet
// function per port, as iLO 6 shows them. A function's boot mode is its port's BIOS network boot
// setting, as the last POST applied it.
import { nicBootSources } from '../../domain/bios/pci-map.js';
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { NicPort } from '../../platform/hardware/inventory.js';
import { addCollection } from '../../protocol/collections.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { NetworkDeviceFunctionType } from './hardware-types.js';
import { adapterPortStore, adapterPortUri } from './network-adapters.js';

export type NetworkDeviceFunctionDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'bios'>;

function handlers(d: NetworkDeviceFunctionDeps) {
  const bootSources = nicBootSources(d.hardware);
  const { store, adapterExists } = adapterPortStore(d.hardware);
  const portUri = (p: NicPort) => adapterPortUri(d.uris, p);
  return { store, adapterExists, showFunction };

  /** The port's Ethernet function: its MAC, and whether the ROM boots from it (the port's BIOS network boot setting). */
  function showFunction(p: NicPort) {
    const status = d.health.status(componentKey.port(p.nic.id, p.index));
    const source = bootSources.find((s) => d.hardware.nics[s.nic] === p.nic && s.port === p.index + 1);
    const boot = source && d.bios.currentAttributes()[`${source.name}Boot`];
    const device = d.hardware.pcieDevices.find((x) => x.nic === p.nic.id);
    const pcieFunction = device?.functions[p.index]
      ? d.uris.chassis('PCIeDevices', device.id, 'PCIeFunctions', String(p.index))
      : undefined;
    return {
      Id: String(p.index + 1),
      Name: `${p.nic.model} function ${p.index + 1}`,
      Description: `The Ethernet function of port ${p.index + 1}`,
      Status: status,
      NetDevFuncType: 'Ethernet',
      NetDevFuncCapabilities: ['Ethernet'],
      DeviceEnabled: status.State === 'Enabled',
      ...(boot === undefined ? {} : { BootMode: boot === 'NetworkBoot' ? 'PXE' : 'Disabled' }),
      // The system's EthernetInterface of the port shows the same address and MTU.
      Ethernet: { MACAddress: p.mac, PermanentMACAddress: p.mac, MTUSize: 1500 },
      AssignablePhysicalNetworkPorts: [{ '@odata.id': portUri(p) }],
      Links: {
        PhysicalNetworkPortAssignment: { '@odata.id': portUri(p) },
        EthernetInterfaces: [{ '@odata.id': d.uris.system('EthernetInterfaces', p.interfaceId) }],
        ...(pcieFunction ? { PCIeFunction: { '@odata.id': pcieFunction } } : {}),
      },
    };
  }
}

export function registerNetworkDeviceFunctionRoutes(routes: RouteTable, d: NetworkDeviceFunctionDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/NetworkDeviceFunctions/',
    member: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/NetworkDeviceFunctions/{NetworkDeviceFunctionId}/',
    type: NetworkDeviceFunctionType,
    name: 'Network Device Function Collection',
    params: { NetworkAdapterId: h.adapterExists },
    store: h.store,
    show: h.showFunction,
    privileges: { read: Priv.login },
  });
}
