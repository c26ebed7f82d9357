// iLO 5's view of the system's network adapters (Systems/{SystemId}/BaseNetworkAdapters/,
// HpeBaseNetworkAdapter): one member per NIC of the hardware profile, numbered in profile
// order, with its firmware, part and serial numbers, its PCI place (from the PCIe device the
// profile ties to it) and its physical ports: link, speed, MAC and, while the host OS runs,
// the IPv4 address the OS has on the port (src/platform/host-network.ts).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { ResolvedNic } from '../../platform/hardware/identity.js';
import { nicPorts } from '../../platform/hardware/inventory.js';
import { hostInterfaceNetwork } from '../../platform/host-network.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { commonProps, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { pciDeviceView } from './pci-devices.js';

export type BaseNetworkAdapterDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'host'>;

const address = t.array(t.object({ Address: ro(t.string()) }, { typeName: 'Address' }));

const BaseNetworkAdapterType = defineType({
  name: oemType('BaseNetworkAdapter'),
  version: '2.0.0',
  owner: OEM,
  description: 'A network adapter of the system: its firmware, place and physical ports.',
  properties: {
    ...commonProps,
    Status: statusProp,
    PartNumber: ro(t.string()),
    SerialNumber: ro(t.string()),
    Location: ro(t.string()),
    StructuredName: ro(t.string()),
    UEFIDevicePath: ro(t.string()),
    Firmware: ro(
      t.object({ Current: ro(t.object({ VersionString: ro(t.string()) }, { typeName: 'FirmwareCurrent' })) }, { typeName: 'Firmware' }),
    ),
    PhysicalPorts: ro(
      t.array(
        t.object(
          {
            MacAddress: ro(t.string()),
            LinkStatus: ro(t.enum(['LinkUp', 'LinkDown'])),
            SpeedMbps: ro(t.integer({ units: 'Mbit/s' })),
            FullDuplex: ro(t.boolean()),
            IPv4Addresses: ro(address),
            Status: statusProp,
          },
          { typeName: 'PhysicalPort' },
        ),
      ),
    ),
  },
});

function handlers(d: BaseNetworkAdapterDeps) {
  const nics = d.hardware.nics.map((nic, i) => ({ nic, id: String(i + 1) }));
  const ports = nicPorts(d.hardware);
  const store: MemberStore<{ nic: ResolvedNic; id: string }, object> = {
    list: () => nics,
    get: (id) => nics.find((n) => n.id === id),
    id: (n) => n.id,
  };
  const pciIndex = (nic: ResolvedNic) => d.hardware.pcieDevices.findIndex((dev) => dev.nic === nic.id);

  function adapterBody({ nic, id }: { nic: ResolvedNic; id: string }) {
    const i = pciIndex(nic);
    const pci = i < 0 ? undefined : pciDeviceView(d, i);
    const osUp = d.host.osRunning();
    return {
      Id: id,
      Name: nic.model,
      Status: d.health.status(componentKey.nic(nic.id)),
      PartNumber: nic.partNumber,
      SerialNumber: nic.serialNumber,
      Location: nic.slot === 'Embedded' ? 'Embedded' : `PCI-E Slot ${nic.slot}`,
      ...(pci ? { StructuredName: pci.StructuredName, UEFIDevicePath: pci.UEFIDevicePath } : {}),
      Firmware: { Current: { VersionString: nic.firmwareVersion } },
      PhysicalPorts: ports
        .filter((p) => p.nic === nic)
        .map((p) => {
          const ip = osUp ? hostInterfaceNetwork(d.hardware, p)?.ipv4 : undefined;
          return {
            MacAddress: p.mac,
            LinkStatus: p.linkUp ? 'LinkUp' : 'LinkDown',
            SpeedMbps: p.linkUp ? p.speedMbps : 0,
            FullDuplex: p.linkUp,
            IPv4Addresses: ip ? [{ Address: ip.address }] : [],
            Status: d.health.status(componentKey.port(nic.id, p.index)),
          };
        }),
    };
  }

  return { store, adapterBody };
}

export function registerBaseNetworkAdapterRoutes(routes: RouteTable, d: BaseNetworkAdapterDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/BaseNetworkAdapters/',
    member: '/redfish/v1/Systems/{SystemId}/BaseNetworkAdapters/{BaseNetworkAdapterId}/',
    type: BaseNetworkAdapterType,
    name: 'Network Adapters',
    extra: () => ({ Description: 'The network adapters of the system' }),
    store: h.store,
    show: h.adapterBody,
    privileges: { read: Priv.login },
  });
}

/** The system's vendor link to these adapters (iLO names it NetworkAdapters). */
export function baseNetworkAdaptersLink(uris: Services['uris']) {
  return { NetworkAdapters: { '@odata.id': uris.system('BaseNetworkAdapters') } };
}
