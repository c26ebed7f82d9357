// The chassis' network adapters (Chassis/{ChassisId}/NetworkAdapters/) and
// their ports, from the hardware profile's NICs. Port N of adapter A is the
// system's EthernetInterface with the same MAC (see nicPorts).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { ResolvedNic } from '../../platform/hardware/identity.js';
import { nicPorts, type NicPort } from '../../platform/hardware/inventory.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collectionOf, defineType, oem, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { ethernetPortBody, portLocation } from './ethernet-port.js';
import { NetworkAdapterType, PortType } from './hardware-types.js';

export type NetworkAdapterDeps = Pick<Services, 'uris' | 'hardware' | 'health'>;

/** Resource.Location of a part in a PCIe slot or embedded on the board. */
export function slotLocation(slot: string) {
  return slot === 'Embedded'
    ? { PartLocation: { ServiceLabel: 'Embedded', LocationType: 'Embedded' } }
    : { PartLocation: { ServiceLabel: `PCI-E Slot ${slot}`, LocationType: 'Slot', LocationOrdinalValue: Number(slot) } };
}

/** An adapter's ports, by adapter and port number (1, 2…): its Ports' members, and its network device functions' (one per port). */
export function adapterPortStore(hardware: Services['hardware']) {
  const ports = nicPorts(hardware);
  const store: MemberStore<NicPort, { readonly NetworkAdapterId: string }> = {
    list: ({ NetworkAdapterId }) => ports.filter((p) => p.nic.id === NetworkAdapterId),
    get: (id, { NetworkAdapterId }) => ports.find((p) => p.nic.id === NetworkAdapterId && String(p.index + 1) === id),
    id: (p) => String(p.index + 1),
  };
  return { ports, store, adapterExists: (id: string) => hardware.nics.some((n) => n.id === id) };
}

/** The URI of a port, or of its network device function. */
export const adapterPortUri = (uris: Services['uris'], p: NicPort, under: 'Ports' | 'NetworkDeviceFunctions' = 'Ports') =>
  uris.chassis('NetworkAdapters', p.nic.id, under, String(p.index + 1));

function handlers(d: NetworkAdapterDeps) {
  const nics = d.hardware.nics;
  const { ports, store: adapterPorts, adapterExists } = adapterPortStore(d.hardware);
  const adapters: MemberStore<ResolvedNic, object> = { list: () => nics, get: (id) => nics.find((n) => n.id === id), id: (n) => n.id };
  const portUri = (p: NicPort) => adapterPortUri(d.uris, p);
  const functionUri = (p: NicPort) => adapterPortUri(d.uris, p, 'NetworkDeviceFunctions');
  return { adapters, adapterPorts, adapterExists, showAdapter, showPort };

  function showAdapter(nic: ResolvedNic, at: { uri: string }) {
    const status = d.health.status(componentKey.nic(nic.id));
    const rollup = d.health.rollup([componentKey.nic(nic.id), ...nic.ports.map((_, i) => componentKey.port(nic.id, i))]);
    return {
      Id: nic.id,
      Name: nic.model,
      Description: nic.slot === 'Embedded' ? 'Embedded network adapter' : `Network adapter in PCIe slot ${nic.slot}`,
      Manufacturer: nic.manufacturer,
      Model: nic.model,
      PartNumber: nic.partNumber,
      SerialNumber: nic.serialNumber,
      Status: { ...status, HealthRollup: rollup },
      Location: slotLocation(nic.slot),
      Ports: { '@odata.id': `${at.uri}Ports/` },
      NetworkDeviceFunctions: { '@odata.id': `${at.uri}NetworkDeviceFunctions/` },
      Controllers: [
        {
          FirmwarePackageVersion: nic.firmwareVersion,
          // One Ethernet function per port.
          ControllerCapabilities: { NetworkPortCount: nic.ports.length, NetworkDeviceFunctionCount: nic.ports.length },
          Links: {
            PCIeDevices: d.hardware.pcieDevices
              .filter((p) => p.nic === nic.id)
              .map((p) => ({ '@odata.id': d.uris.chassis('PCIeDevices', p.id) })),
            Ports: ports.filter((p) => p.nic.id === nic.id).map((p) => ({ '@odata.id': portUri(p) })),
            NetworkDeviceFunctions: ports.filter((p) => p.nic.id === nic.id).map((p) => ({ '@odata.id': functionUri(p) })),
          },
        },
      ],
    };
  }

  function showPort(p: NicPort) {
    const status = d.health.status(componentKey.port(p.nic.id, p.index));
    return ethernetPortBody({
      id: String(p.index + 1),
      name: `Port ${p.index + 1}`,
      description: `Port ${p.index + 1} of ${p.nic.model}`,
      mac: p.mac,
      speedMbps: p.speedMbps,
      linkUp: p.linkUp,
      enabled: status.State === 'Enabled',
      // The system's EthernetInterface of the port negotiates its speed.
      autoNegotiation: true,
      status,
      ethernetInterface: d.uris.system('EthernetInterfaces', p.interfaceId),
      location: portLocation(`${slotLocation(p.nic.slot).PartLocation.ServiceLabel} Port ${p.index + 1}`, p.index + 1),
    });
  }
}

const VendorNetworkAdapterStatusType = defineType({
  name: oemType('NetworkAdapterStatus'),
  version: '1.0.0',
  owner: OEM,
  description: 'How complete the adapter collection is: all adapters, or only those powered in auxiliary power.',
  properties: { MemberContents: ro(t.enum(['AllDevices', 'AuxPowerDevices'])) },
});

const NetworkAdapterCollectionType = defineType({
  ...collectionOf(NetworkAdapterType),
  properties: { ...collectionOf(NetworkAdapterType).properties, Oem: oem(VendorNetworkAdapterStatusType, { readOnly: true }) },
});

export function registerNetworkAdapterRoutes(routes: RouteTable, d: NetworkAdapterDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/',
    member: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/',
    type: NetworkAdapterType,
    collectionType: NetworkAdapterCollectionType,
    name: 'Network Adapter Collection',
    // The simulated server's adapters are all known whatever its power state.
    extra: () => ({ Description: 'The network adapters of the chassis', Oem: { [OEM]: { MemberContents: 'AllDevices' } } }),
    store: h.adapters,
    show: h.showAdapter,
    privileges: { read: Priv.login },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/Ports/',
    member: '/redfish/v1/Chassis/{ChassisId}/NetworkAdapters/{NetworkAdapterId}/Ports/{PortId}/',
    type: PortType,
    name: 'Port Collection',
    params: { NetworkAdapterId: h.adapterExists },
    store: h.adapterPorts,
    show: h.showPort,
    privileges: { read: Priv.login },
  });
}

/** The ports of an adapter, for the system's NetworkInterfaces to list. */
export function adapterPortsOf(d: NetworkAdapterDeps) {
  const h = handlers(d);
  return {
    list: (adapterId: string) => h.adapterPorts.list({ NetworkAdapterId: adapterId }),
    id: h.adapterPorts.id,
    adapterExists: h.adapterExists,
  };
}
