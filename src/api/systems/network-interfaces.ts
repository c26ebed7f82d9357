// The system's network interfaces (Systems/{SystemId}/NetworkInterfaces/, DMTF NetworkInterface):
// one per NIC of the hardware profile, with the NIC's id, linking the chassis' NetworkAdapter, and
// its Ports: a collection of the interface's own, as iLO 6 has, listing the adapter's ports. Every
// installed adapter is discovered (the collection's vendor MemberContents says so).
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { ResolvedNic } from '../../platform/hardware/identity.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collectionOf, commonProps, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import { collection } from '../../protocol/reply.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { adapterPortsOf } from '../chassis/network-adapters.js';
import { PortType } from '../chassis/hardware-types.js';

export type NetworkInterfaceDeps = Pick<Services, 'uris' | 'hardware' | 'health'>;

const NetworkInterfaceType = defineType({
  name: 'NetworkInterface',
  version: '1.2.3',
  owner: 'DMTF',
  description: 'A network interface of the system: the network adapter the system sees and its ports.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Ports: t.link({ readOnly: true }),
    Links: ro(t.object({ NetworkAdapter: t.link({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

const NetworkInterfaceStatusType = defineType({
  name: oemType('NetworkInterfaceStatus'),
  version: '1.0.0',
  owner: OEM,
  description: 'How complete the discovery of the network interfaces is.',
  properties: { MemberContents: ro(t.enum(['AllDevices', 'AuxPowerDevices'])) },
});

const interfaces = collectionOf(NetworkInterfaceType);
const NetworkInterfaceCollectionType = {
  ...interfaces,
  properties: { ...interfaces.properties, Oem: oem(NetworkInterfaceStatusType, { readOnly: true }) },
};

function handlers(d: NetworkInterfaceDeps) {
  const nics = d.hardware.nics;
  const store: MemberStore<ResolvedNic, object> = { list: () => nics, get: (id) => nics.find((n) => n.id === id), id: (n) => n.id };
  const interfaceBody = (nic: ResolvedNic) => ({
    Id: nic.id,
    Name: nic.model,
    Description: `The system's view of the network adapter ${nic.id}`,
    Status: d.health.status(componentKey.nic(nic.id)),
    Ports: { '@odata.id': d.uris.system('NetworkInterfaces', nic.id, 'Ports') },
    Links: { NetworkAdapter: { '@odata.id': d.uris.chassis('NetworkAdapters', nic.id) } },
  });
  return { store, interfaceBody };
}

export function registerNetworkInterfaceRoutes(routes: RouteTable, d: NetworkInterfaceDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/NetworkInterfaces/',
    member: '/redfish/v1/Systems/{SystemId}/NetworkInterfaces/{NetworkInterfaceId}/',
    type: NetworkInterfaceType,
    collectionType: NetworkInterfaceCollectionType,
    name: 'Network Interface Collection',
    // The simulated server discovers every adapter, on auxiliary power too.
    extra: () => ({
      Description: 'The collection of network interfaces available in this system.',
      Oem: { [OEM]: { MemberContents: 'AllDevices' } },
    }),
    store: h.store,
    show: h.interfaceBody,
    privileges: { read: Priv.login },
  });
  // The members are the adapter's ports where they live (DMTF allows no Port URI under a
  // NetworkInterface; iLO 6 serves copies there, which the Service Validator refuses).
  const ports = adapterPortsOf(d);
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/NetworkInterfaces/{NetworkInterfaceId}/Ports/',
    type: collectionOf(PortType),
    params: { NetworkInterfaceId: ports.adapterExists },
    get: {
      privilege: Priv.login,
      handler: async ({ params: { NetworkInterfaceId: id } }) =>
        collection(
          'Port Collection',
          (await ports.list(id)).map((p) => d.uris.chassis('NetworkAdapters', id, 'Ports', ports.id(p))),
          { Description: `The ports of the network interface ${id}` },
        ),
    },
  });
}
