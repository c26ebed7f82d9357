// The system's network interfaces (Systems/{SystemId}/EthernetInterfaces/):
// one per NIC port of the hardware profile, numbered across all NICs. Their
// MACs are the ports' (derived from the seed), the same the chassis'
// NetworkAdapters/Ports show: what Ironic inspection and MAAS read. While the
// host OS runs, each shows what the OS has on it (host name, FQDN, its IPv4
// address and DNS servers: src/platform/host-network.ts); with the OS down
// the names are null and the lists empty.
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import { nicPorts, type NicPort } from '../../platform/hardware/inventory.js';
import { nicPortDevicePath } from '../../domain/bios/pci-map.js';
import { hostDomain, hostInterfaceNetwork } from '../../platform/host-network.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import type { RouteTable } from '../../protocol/routes.js';
import { EthernetInterfaceType } from '../managers/manager-interface-types.js';
import type { Services } from '../services.js';
import { hostNames } from './host-name.js';

export type SystemEthernetDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'host' | 'store' | 'serviceUuid'>;

function handlers(d: SystemEthernetDeps) {
  const ports = nicPorts(d.hardware);
  const chassis = d.uris.chassis();
  const hostName = hostNames(d);
  const domain = hostDomain(d.hardware);

  /** What the running OS has on the port; nothing while it is down. */
  function osView(p: NicPort) {
    if (!d.host.osRunning()) return { HostName: null, FQDN: null, IPv4Addresses: [], NameServers: [] };
    const name = hostName.os();
    const net = hostInterfaceNetwork(d.hardware, p);
    const ip = net?.ipv4;
    return {
      HostName: name,
      FQDN: `${name}.${domain}`,
      IPv4Addresses: ip ? [{ Address: ip.address, SubnetMask: ip.subnetMask, AddressOrigin: ip.origin, Gateway: ip.gateway }] : [],
      NameServers: net?.nameServers ?? [],
    };
  }

  function interfaceBody(p: NicPort) {
    const status = d.health.status(componentKey.port(p.nic.id, p.index));
    const nicStatus = d.health.status(componentKey.nic(p.nic.id));
    // A failed adapter takes its ports with it.
    const worst = nicStatus.Health && nicStatus.Health !== 'OK' ? nicStatus : status;
    return {
      Id: p.interfaceId,
      Name: `${p.nic.model} port ${p.index + 1}`,
      Description: `Port ${p.index + 1} of ${p.nic.slot === 'Embedded' ? 'the embedded adapter' : `the adapter in PCIe slot ${p.nic.slot}`} ${p.nic.id}`,
      Status: worst,
      EthernetInterfaceType: 'Physical',
      InterfaceEnabled: worst.State === 'Enabled',
      LinkStatus: p.linkUp ? 'LinkUp' : 'LinkDown',
      MACAddress: p.mac,
      PermanentMACAddress: p.mac,
      UefiDevicePath: nicPortDevicePath(d.hardware, d.hardware.nics.indexOf(p.nic), p.index, p.mac),
      SpeedMbps: p.linkUp ? p.speedMbps : null,
      AutoNeg: true,
      FullDuplex: true,
      MTUSize: 1500,
      ...osView(p),
      Links: {
        Chassis: { '@odata.id': chassis },
        Ports: [{ '@odata.id': d.uris.chassis('NetworkAdapters', p.nic.id, 'Ports', String(p.index + 1)) }],
      },
    };
  }

  const interfaces: MemberStore<NicPort, object> = {
    list: () => ports,
    get: (id) => ports.find((p) => p.interfaceId === id),
    id: (p) => p.interfaceId,
  };
  return { interfaces, interfaceBody };
}

export function registerSystemEthernetRoutes(routes: RouteTable, d: SystemEthernetDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/EthernetInterfaces/',
    member: '/redfish/v1/Systems/{SystemId}/EthernetInterfaces/{EthernetInterfaceId}/',
    type: EthernetInterfaceType,
    name: 'System Ethernet Interfaces',
    extra: () => ({ Description: 'The network interfaces of the system, one per NIC port' }),
    store: h.interfaces,
    show: h.interfaceBody,
    privileges: { read: Priv.login },
  });
}
