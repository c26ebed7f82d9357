// Resource descriptions of the controller's own interfaces: its Ethernet
// interfaces (the dedicated management port and the host interface's virtual
// USB NIC), its serial interface and the Redfish host interface.
import {
  BIT_RATES,
  DATA_BITS,
  DHCPV6_MODES,
  FLOW_CONTROLS,
  MAX_IPV6_STATIC_ADDRESSES,
  MAX_IPV6_STATIC_GATEWAYS,
  MAX_STATIC_NAME_SERVERS,
  PARITIES,
  STOP_BITS,
} from '../../domain/manager/interfaces.js';
import { commonProps, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { OEM, controllerType } from '../../protocol/naming.js';

const Ipv4Address = t.object(
  {
    Address: t.string({ description: 'An IPv4 address, dotted decimal.' }),
    SubnetMask: t.string({ description: 'A contiguous IPv4 network mask, dotted decimal.' }),
    AddressOrigin: ro(t.enum(['Static', 'DHCP', 'BOOTP', 'IPv4LinkLocal'])),
    Gateway: t.string({ nullable: true, description: 'Default gateway, inside the subnet of Address.' }),
  },
  { typeName: 'IPv4Address' },
);

const Ipv6Address = t.object(
  {
    Address: ro(t.string()),
    PrefixLength: ro(t.integer({ minimum: 0, maximum: 128 })),
    AddressOrigin: ro(t.enum(['Static', 'DHCPv6', 'LinkLocal', 'SLAAC'])),
    AddressState: ro(t.enum(['Preferred', 'Deprecated', 'Tentative', 'Failed'])),
  },
  { readOnly: true, typeName: 'IPv6Address' },
);

const roBoolean = () => ro(t.boolean());

/** The controller's view of its own NICs, as its vendor shows it: the DMTF settings again, in the vendor's terms. */
export const VendorMCEthernetInterfaceType = defineType({
  name: controllerType('EthernetNetworkInterface'),
  version: '1.0.0',
  owner: OEM,
  description:
    "The management controller's NIC in its vendor's terms: which port it is, and its DHCP, DNS and IPv6 settings (as the DMTF properties show them).",
  properties: {
    InterfaceType: ro(t.enum(['Dedicated', 'Shared', 'HostInterface'])),
    ConfigurationSettings: ro(
      t.enum(['Current', 'SomePendingReset'], { description: 'Current: every setting is in effect (none waits for a reset).' }),
    ),
    NICEnabled: roBoolean(),
    NICSupportsIPv6: roBoolean(),
    HostName: ro(t.string()),
    DHCPv4: ro(
      t.object(
        {
          Enabled: roBoolean(),
          UseDNSServers: roBoolean(),
          UseDomainName: roBoolean(),
          UseGateway: roBoolean(),
          UseNTPServers: roBoolean(),
          UseStaticRoutes: roBoolean(),
        },
        { typeName: 'DHCPv4' },
      ),
    ),
    DHCPv6: ro(
      t.object(
        {
          StatefulModeEnabled: roBoolean(),
          StatelessModeEnabled: roBoolean(),
          UseDNSServers: roBoolean(),
          UseDomainName: roBoolean(),
          UseNTPServers: roBoolean(),
          UseRapidCommit: roBoolean(),
        },
        { typeName: 'DHCPv6' },
      ),
    ),
    IPv4: ro(t.object({ DNSServers: ro(t.array(t.string())) }, { typeName: 'IPv4' })),
    IPv6: ro(
      t.object(
        { DNSServers: ro(t.array(t.string())), SLAACEnabled: roBoolean(), StaticDefaultGateway: ro(t.string()) },
        { typeName: 'IPv6' },
      ),
    ),
  },
});

export const EthernetInterfaceType = defineType({
  name: 'EthernetInterface',
  version: '1.12.4',
  owner: 'DMTF',
  description:
    "A network interface. The manager's: its dedicated management port (writable IPv4, IPv6 and VLAN settings, stored only) and the host interface's virtual USB NIC; the system's: one per NIC port of the hardware profile (read-only).",
  properties: {
    ...commonProps,
    Status: statusProp,
    EthernetInterfaceType: ro(t.enum(['Physical', 'Virtual'])),
    InterfaceEnabled: ro(t.boolean()),
    LinkStatus: ro(t.enum(['LinkUp', 'NoLink', 'LinkDown'], { nullable: true })),
    MACAddress: ro(t.string()),
    PermanentMACAddress: ro(t.string()),
    UefiDevicePath: ro(
      t.string({ description: "The system's: the port's PCI function and MAC address, as the ROM's boot options name it." }),
    ),
    SpeedMbps: ro(t.integer({ nullable: true, units: 'Mbit/s' })),
    AutoNeg: ro(t.boolean()),
    FullDuplex: ro(t.boolean()),
    MTUSize: ro(t.integer()),
    HostName: t.string({
      minLength: 1,
      maxLength: 253,
      nullable: true,
      description:
        "DNS host name. The manager's: the controller's, the same as ManagerNetworkProtocol HostName (writing either changes both; null is refused). The system's: the host OS's, null while it is not running.",
    }),
    FQDN: ro(t.string({ nullable: true })),
    IPv4Addresses: ro(t.array(Ipv4Address)),
    IPv4StaticAddresses: t.array(Ipv4Address, {
      description: 'The static IPv4 address (one) used while DHCPv4 is disabled: Address and SubnetMask, Gateway optional.',
    }),
    IPv6Addresses: ro(t.array(Ipv6Address)),
    MaxIPv6StaticAddresses: ro(t.integer()),
    NameServers: ro(t.array(t.string())),
    StaticNameServers: t.array(t.string(), {
      description: `Up to ${MAX_STATIC_NAME_SERVERS} DNS servers (IP addresses); empty strings are ignored.`,
    }),
    DHCPv4: t.object(
      {
        DHCPEnabled: t.boolean({ description: 'False needs a static address (IPv4StaticAddresses).' }),
        UseDNSServers: t.boolean(),
        UseDomainName: t.boolean(),
        UseGateway: t.boolean(),
        UseNTPServers: t.boolean(),
        UseStaticRoutes: t.boolean(),
      },
      { typeName: 'DHCPv4Configuration' },
    ),
    DHCPv6: t.object(
      {
        OperatingMode: t.enum(DHCPV6_MODES),
        UseDNSServers: t.boolean(),
        UseDomainName: t.boolean(),
        UseNTPServers: t.boolean(),
        UseRapidCommit: t.boolean(),
      },
      { typeName: 'DHCPv6Configuration' },
    ),
    StatelessAddressAutoConfig: t.object({ IPv6AutoConfigEnabled: t.boolean() }, { typeName: 'StatelessAddressAutoConfiguration' }),
    IPv6StaticAddresses: t.array(
      t.object(
        { Address: t.string({ description: 'An IPv6 address.' }), PrefixLength: t.integer({ minimum: 1, maximum: 128 }) },
        { typeName: 'IPv6StaticAddress' },
      ),
      { description: `Up to ${MAX_IPV6_STATIC_ADDRESSES} static IPv6 addresses.` },
    ),
    IPv6StaticDefaultGateways: t.array(
      t.object({ Address: t.string({ description: 'An IPv6 address.' }) }, { typeName: 'IPv6GatewayStaticAddress' }),
      {
        description: `Up to ${MAX_IPV6_STATIC_GATEWAYS} static IPv6 default gateway.`,
      },
    ),
    IPv6DefaultGateway: ro(t.string({ description: 'The IPv6 default gateway in use (:: for none).' })),
    IPv6AddressPolicyTable: t.array(
      t.object(
        {
          Prefix: t.string({ description: 'An IPv6 prefix: address/length.' }),
          Precedence: t.integer({ minimum: 1, maximum: 100 }),
          Label: t.integer({ minimum: 0, maximum: 100, nullable: true }),
        },
        { typeName: 'IPv6AddressPolicyEntry' },
      ),
      { description: 'The RFC 6724 address selection policy table.' },
    ),
    VLAN: t.object(
      {
        VLANEnable: t.boolean({ description: 'True needs a VLANId.' }),
        VLANId: t.integer({ minimum: 1, maximum: 4094, nullable: true }),
      },
      { typeName: 'VLAN' },
    ),
    Links: t.object(
      { Chassis: t.link({ readOnly: true }), HostInterface: t.link({ readOnly: true }), Ports: t.links({ readOnly: true }) },
      { readOnly: true, typeName: 'Links' },
    ),
    Oem: oem(VendorMCEthernetInterfaceType, { readOnly: true }),
  },
});

export const SerialInterfaceType = defineType({
  name: 'SerialInterface',
  version: '1.3.0',
  owner: 'DMTF',
  description: "The controller's serial port (the server's serial console through the controller). Settings are stored only.",
  properties: {
    ...commonProps,
    InterfaceEnabled: t.boolean(),
    SignalType: ro(t.enum(['Rs232', 'Rs485'])),
    BitRate: t.enum(BIT_RATES),
    Parity: t.enum(PARITIES),
    DataBits: t.enum(DATA_BITS),
    StopBits: t.enum(STOP_BITS),
    FlowControl: t.enum(FLOW_CONTROLS),
    ConnectorType: ro(t.enum(['RJ45', 'RJ11', 'DB9 Female', 'DB9 Male', 'DB25 Female', 'DB25 Male', 'USB', 'mUSB', 'uUSB'])),
    PinOut: ro(t.enum(['Cisco', 'Cyclades', 'Digi'], { nullable: true })),
  },
});

export const HostInterfaceType = defineType({
  name: 'HostInterface',
  version: '1.3.3',
  owner: 'DMTF',
  description: 'The Redfish host interface: the controller reached from the host OS over a virtual USB NIC (DSP0270).',
  properties: {
    ...commonProps,
    Status: statusProp,
    HostInterfaceType: ro(t.enum(['NetworkHostInterface'])),
    InterfaceEnabled: t.boolean({ description: 'False takes the virtual USB NIC away from the host.' }),
    ExternallyAccessible: ro(t.boolean()),
    AuthenticationModes: ro(t.array(t.enum(['AuthNone', 'BasicAuth', 'RedfishSessionAuth', 'OemAuth']))),
    ManagerEthernetInterface: t.link({ readOnly: true }),
    NetworkProtocol: t.link({ readOnly: true }),
    Links: t.object({ ComputerSystems: t.links({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});
