// The controller's own interfaces: EthernetInterfaces (1: the dedicated
// management port; 2: the virtual USB NIC of the Redfish host interface),
// SerialInterfaces and HostInterfaces. Their settings are stored and shown;
// the simulator's HTTPS listener does not move when the port's addresses change.
//
// The port's HostName is the controller's one host name, kept with the
// network protocol settings: writing it here or on NetworkProtocol changes both.
import {
  DEFAULT_HOST_INTERFACE,
  MAX_IPV6_STATIC_ADDRESSES,
  changeManagerNic,
  dhcpLease,
  hostInterfaceSetting,
  linkLocalIpv6,
  readManagerNic,
  serialSetting,
  writeManagerNic,
} from '../../domain/manager/interfaces.js';
import { changeNetworkProtocol, readNetworkProtocol, writeNetworkProtocol } from '../../domain/manager/network-protocol.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, combinedError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { managerMacAddress } from '../../platform/identity.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import type { PatchContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { EthernetInterfaceType, HostInterfaceType, SerialInterfaceType, VendorMCEthernetInterfaceType } from './manager-interface-types.js';
import { isIP } from 'node:net';
import { ethernetPortBody, portLocation } from '../chassis/ethernet-port.js';
import { PortType } from '../chassis/hardware-types.js';
import type { ComponentStatus } from '../../platform/hardware/health.js';
import { OEM } from '../../protocol/naming.js';
import { collectionOf, odataType } from '../../protocol/description.js';
import { collection } from '../../protocol/reply.js';

/** An object without one of its keys. */
function withoutKey<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = o;
  return rest;
}

export type ManagerInterfaceDeps = Pick<Services, 'config' | 'uris' | 'store' | 'logs' | 'serviceUuid'>;

type NicPath = '/redfish/v1/Managers/{ManagerId}/EthernetInterfaces/{EthernetInterfaceId}/';
type SerialPath = '/redfish/v1/Managers/{ManagerId}/SerialInterfaces/{SerialInterfaceId}/';
type HostInterfacePath = '/redfish/v1/Managers/{ManagerId}/HostInterfaces/{HostInterfaceId}/';

const DEDICATED = '1';
const HOST_INTERFACE_NIC = '2';
/** The address the controller answers on over the host interface (the host's end takes the next one). */
const HOST_INTERFACE_ADDRESS = { Address: '169.254.0.1', SubnetMask: '255.255.255.0' };

function handlers(d: ManagerInterfaceDeps) {
  const managerUri = d.uris.manager();
  const serial = serialSetting(d.store);
  const hostInterface = hostInterfaceSetting(d.store);
  const dedicatedPortUri = `${managerUri}DedicatedNetworkPorts/${DEDICATED}/`;

  function dedicatedNic() {
    const nic = readManagerNic(d.store);
    const host = readNetworkProtocol(d.store).HostName;
    const mac = managerMacAddress(d.serviceUuid, 0);
    const lease = dhcpLease(d.serviceUuid);
    const dhcp = nic.DHCPv4.DHCPEnabled;
    return {
      Id: DEDICATED,
      Name: 'Manager Dedicated Network Interface',
      Description: 'The dedicated management port of the controller',
      Status: { State: 'Enabled', Health: 'OK' } satisfies ComponentStatus,
      EthernetInterfaceType: 'Physical',
      InterfaceEnabled: true,
      LinkStatus: 'LinkUp',
      MACAddress: mac,
      PermanentMACAddress: mac,
      SpeedMbps: 1000,
      AutoNeg: true,
      FullDuplex: true,
      MTUSize: 1500,
      HostName: host,
      // No DNS domain is configured (as on NetworkProtocol), so the FQDN is the host name.
      FQDN: host,
      IPv4Addresses: dhcp
        ? [
            {
              Address: lease.Address,
              SubnetMask: lease.SubnetMask,
              AddressOrigin: 'DHCP',
              Gateway: nic.DHCPv4.UseGateway ? lease.Gateway : null,
            },
          ]
        : nic.IPv4StaticAddresses.map((a) => ({ ...a, AddressOrigin: 'Static' })),
      IPv4StaticAddresses: nic.IPv4StaticAddresses.map((a) => ({ ...a })),
      IPv6Addresses: [
        { Address: linkLocalIpv6(mac), PrefixLength: 64, AddressOrigin: 'LinkLocal', AddressState: 'Preferred' },
        ...nic.IPv6StaticAddresses.map((a) => ({ ...a, AddressOrigin: 'Static', AddressState: 'Preferred' })),
      ],
      MaxIPv6StaticAddresses: MAX_IPV6_STATIC_ADDRESSES,
      IPv6StaticAddresses: nic.IPv6StaticAddresses.map((a) => ({ ...a })),
      IPv6StaticDefaultGateways: nic.IPv6StaticDefaultGateways.map((g) => ({ ...g })),
      // No IPv6 router advertises itself on the simulated network: only a static gateway is used.
      IPv6DefaultGateway: nic.IPv6StaticDefaultGateways[0]?.Address ?? '::',
      IPv6AddressPolicyTable: nic.IPv6AddressPolicyTable.map((p) => ({ ...p })),
      NameServers: [...(dhcp && nic.DHCPv4.UseDNSServers ? [lease.NameServer] : []), ...nic.StaticNameServers],
      StaticNameServers: [...nic.StaticNameServers],
      DHCPv4: { ...nic.DHCPv4 },
      DHCPv6: { ...nic.DHCPv6 },
      StatelessAddressAutoConfig: { ...nic.StatelessAddressAutoConfig },
      VLAN: { ...nic.VLAN },
      Links: { Chassis: { '@odata.id': d.uris.chassis() }, Ports: [{ '@odata.id': dedicatedPortUri }] },
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorMCEthernetInterfaceType),
          InterfaceType: 'Dedicated',
          ConfigurationSettings: 'Current',
          NICEnabled: true,
          NICSupportsIPv6: true,
          HostName: host,
          DHCPv4: { Enabled: nic.DHCPv4.DHCPEnabled, ...withoutKey(nic.DHCPv4, 'DHCPEnabled') },
          DHCPv6: {
            StatefulModeEnabled: nic.DHCPv6.OperatingMode === 'Stateful' || nic.DHCPv6.OperatingMode === 'Enabled',
            // Stateful DHCPv6 takes the stateless options too.
            StatelessModeEnabled: nic.DHCPv6.OperatingMode !== 'Disabled',
            ...withoutKey(nic.DHCPv6, 'OperatingMode'),
          },
          IPv4: { DNSServers: nic.StaticNameServers.filter((s) => isIP(s) === 4) },
          IPv6: {
            DNSServers: nic.StaticNameServers.filter((s) => isIP(s) === 6),
            SLAACEnabled: nic.StatelessAddressAutoConfig.IPv6AutoConfigEnabled,
            StaticDefaultGateway: nic.IPv6StaticDefaultGateways[0]?.Address ?? '::',
          },
        },
      },
    };
  }

  /** The dedicated interface's physical port, as its EthernetInterface shows it. */
  function dedicatedPort() {
    const nic = dedicatedNic();
    return ethernetPortBody({
      id: DEDICATED,
      name: 'Dedicated Network Port 1',
      description: 'The dedicated management port of the controller',
      mac: nic.MACAddress,
      speedMbps: nic.SpeedMbps,
      linkUp: nic.LinkStatus === 'LinkUp',
      enabled: nic.InterfaceEnabled,
      autoNegotiation: nic.AutoNeg,
      status: nic.Status,
      ethernetInterface: `${managerUri}EthernetInterfaces/${DEDICATED}/`,
      location: portLocation('Dedicated Management Port', 1),
    });
  }

  function hostInterfaceNic() {
    const enabled = hostInterface.get().InterfaceEnabled;
    const mac = managerMacAddress(d.serviceUuid, 1);
    const host = readNetworkProtocol(d.store).HostName;
    return {
      Id: HOST_INTERFACE_NIC,
      Name: 'Manager Virtual Network Interface',
      Description: 'The virtual USB NIC of the Redfish host interface',
      Status: { State: enabled ? 'Enabled' : 'Disabled', Health: 'OK' },
      EthernetInterfaceType: 'Virtual',
      InterfaceEnabled: enabled,
      LinkStatus: enabled ? 'LinkUp' : 'LinkDown',
      MACAddress: mac,
      PermanentMACAddress: mac,
      SpeedMbps: null,
      AutoNeg: false,
      FullDuplex: true,
      MTUSize: 1500,
      HostName: host,
      FQDN: host,
      IPv4Addresses: enabled ? [{ ...HOST_INTERFACE_ADDRESS, AddressOrigin: 'Static', Gateway: null }] : [],
      IPv4StaticAddresses: [{ ...HOST_INTERFACE_ADDRESS, Gateway: null }],
      IPv6Addresses: enabled
        ? [{ Address: linkLocalIpv6(mac), PrefixLength: 64, AddressOrigin: 'LinkLocal', AddressState: 'Preferred' }]
        : [],
      MaxIPv6StaticAddresses: 0,
      NameServers: [],
      StaticNameServers: [],
      DHCPv4: {
        DHCPEnabled: false,
        UseDNSServers: false,
        UseDomainName: false,
        UseGateway: false,
        UseNTPServers: false,
        UseStaticRoutes: false,
      },
      Links: { HostInterface: { '@odata.id': `${managerUri}HostInterfaces/1/` } },
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorMCEthernetInterfaceType),
          InterfaceType: 'HostInterface',
          ConfigurationSettings: 'Current',
          NICSupportsIPv6: true,
        },
      },
    };
  }

  /** The dedicated port's settings; the virtual NIC's are fixed by the controller. */
  function patchNic(id: string, ctx: PatchContext<NicPath, typeof EthernetInterfaceType.properties>): void {
    if (id !== DEDICATED) {
      throw combinedError(Object.keys(ctx.body).map((k) => baseError('PropertyNotWritable', k).about(k)));
    }
    const { HostName, ...change } = ctx.body;
    // The controller always has a name (the description's null is the host OS's, when it is down).
    if (HostName === null) throw baseError('PropertyValueTypeError', 'null', 'HostName').about('HostName');
    // Both checked before either is written: a bad value changes nothing.
    const nic = changeManagerNic(readManagerNic(d.store), change);
    const np =
      HostName === undefined
        ? undefined
        : changeNetworkProtocol(readNetworkProtocol(d.store), { HostName }, { ssdpOffered: Boolean(d.config.ssdpPort), refused: [] });
    writeManagerNic(d.store, nic);
    if (np) writeNetworkProtocol(d.store, np.settings);
    const origin = `${managerUri}EthernetInterfaces/${DEDICATED}/`;
    for (const prop of Object.keys(ctx.body)) {
      const value = prop === 'HostName' ? String(HostName) : JSON.stringify((ctx.body as Record<string, unknown>)[prop]);
      d.logs.write('IEL', resourceEvent('PropertyValueModifiedByClient', prop, value), origin);
    }
  }

  function serialBody() {
    return {
      Id: '1',
      Name: 'Manager Serial Interface',
      Description: "The server's serial console through the controller",
      ...serial.get(),
      SignalType: 'Rs232',
      ConnectorType: 'DB9 Male',
      PinOut: null,
    };
  }

  function hostInterfaceBody() {
    const enabled = hostInterface.get().InterfaceEnabled;
    return {
      Id: '1',
      Name: 'Redfish Host Interface',
      Description: 'The controller reached from the host OS over a virtual USB NIC',
      Status: { State: enabled ? 'Enabled' : 'Disabled', Health: 'OK' },
      HostInterfaceType: 'NetworkHostInterface',
      InterfaceEnabled: enabled,
      ExternallyAccessible: false,
      AuthenticationModes: ['BasicAuth', 'RedfishSessionAuth'],
      ManagerEthernetInterface: { '@odata.id': `${managerUri}EthernetInterfaces/${HOST_INTERFACE_NIC}/` },
      NetworkProtocol: { '@odata.id': `${managerUri}NetworkProtocol/` },
      Links: { ComputerSystems: [{ '@odata.id': d.uris.system() }] },
    };
  }

  function nicBody(id: string) {
    return id === DEDICATED ? dedicatedNic() : hostInterfaceNic();
  }

  function patchSerial(_id: string, ctx: PatchContext<SerialPath, typeof SerialInterfaceType.properties>): void {
    serial.set({ ...serial.get(), ...ctx.body });
  }

  function patchHostInterface(_id: string, ctx: PatchContext<HostInterfacePath, typeof HostInterfaceType.properties>): void {
    hostInterface.set({ ...DEFAULT_HOST_INTERFACE, ...hostInterface.get(), ...ctx.body });
  }

  const nics = listOf([DEDICATED, HOST_INTERFACE_NIC]);
  // One serial port and one host interface.
  const one = listOf(['1']);
  const dedicatedPorts = listOf([DEDICATED]);
  const sharedPorts = () =>
    collection('Shared Network Ports', [], { Description: "The server's network ports the management controller shares: none" });
  return {
    nics,
    nicBody,
    patchNic,
    one,
    serialBody,
    patchSerial,
    hostInterfaceBody,
    patchHostInterface,
    dedicatedPorts,
    dedicatedPort,
    sharedPorts,
  };
}

/** A fixed list of member ids. */
function listOf(ids: readonly string[]): MemberStore<string, object> {
  return { list: () => ids, get: (id) => ids.find((n) => n === id), id: (n) => n };
}

export function registerManagerInterfaceRoutes(routes: RouteTable, d: ManagerInterfaceDeps): void {
  const h = handlers(d);

  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/EthernetInterfaces/',
    member: '/redfish/v1/Managers/{ManagerId}/EthernetInterfaces/{EthernetInterfaceId}/',
    type: EthernetInterfaceType,
    name: 'Manager Network Interfaces',
    extra: () => ({ Description: 'Network interfaces of the management controller' }),
    store: h.nics,
    show: h.nicBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    update: { handler: h.patchNic },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/DedicatedNetworkPorts/',
    member: '/redfish/v1/Managers/{ManagerId}/DedicatedNetworkPorts/{PortId}/',
    type: PortType,
    name: 'Dedicated Network Ports',
    extra: () => ({ Description: 'The physical ports of the management controller' }),
    store: h.dedicatedPorts,
    show: h.dedicatedPort,
    privileges: { read: Priv.login },
  });
  // The controller has no shared network port (it never takes a port of the server's adapters).
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SharedNetworkPorts/',
    type: collectionOf(PortType),
    get: { privilege: Priv.login, handler: h.sharedPorts },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/SerialInterfaces/',
    member: '/redfish/v1/Managers/{ManagerId}/SerialInterfaces/{SerialInterfaceId}/',
    type: SerialInterfaceType,
    name: 'Manager Serial Interfaces',
    extra: () => ({ Description: 'Serial interfaces of the management controller' }),
    store: h.one,
    show: h.serialBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    update: { handler: h.patchSerial },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/HostInterfaces/',
    member: '/redfish/v1/Managers/{ManagerId}/HostInterfaces/{HostInterfaceId}/',
    type: HostInterfaceType,
    name: 'Host Interfaces',
    extra: () => ({ Description: 'Redfish host interfaces of the management controller' }),
    store: h.one,
    show: h.hostInterfaceBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    update: { handler: h.patchHostInterface },
  });
}
