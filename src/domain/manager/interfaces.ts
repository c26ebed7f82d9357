// The controller's own interfaces as stored: the dedicated management NIC's
// IPv4 settings, its serial port and the Redfish host interface, with the rules
// of a change. They are settings only: the service's HTTPS listener stays on
// the address it was started with whatever the NIC says (docs/controller-settings.md).
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { ipv4ToInt, isSubnetMask } from '../../lib/network-names.js';
import { type ExtendedInfo } from '../../messages/errors.js';
import { Refusal, baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

// -- the dedicated management NIC ----------------------------------------------

export interface Ipv4StaticAddress {
  Address: string;
  SubnetMask: string;
  Gateway: string | null;
}

export interface DhcpV4Settings {
  DHCPEnabled: boolean;
  UseDNSServers: boolean;
  UseGateway: boolean;
  UseNTPServers: boolean;
  UseDomainName: boolean;
  UseStaticRoutes: boolean;
}

/** Enabled: DMTF's name (since EthernetInterface 1.8) for the stateful mode, which takes the stateless options too. */
export const DHCPV6_MODES = ['Enabled', 'Stateful', 'Stateless', 'Disabled'] as const;

export interface DhcpV6Settings {
  OperatingMode: (typeof DHCPV6_MODES)[number];
  UseDNSServers: boolean;
  UseDomainName: boolean;
  UseNTPServers: boolean;
  UseRapidCommit: boolean;
}

export interface Ipv6StaticAddress {
  Address: string;
  PrefixLength: number;
}

/** An entry of the RFC 6724 address selection policy table. */
export interface Ipv6Policy {
  Prefix: string;
  Precedence: number;
  Label: number | null;
}

export interface ManagerNicSettings {
  DHCPv4: DhcpV4Settings;
  IPv4StaticAddresses: Ipv4StaticAddress[];
  StaticNameServers: string[];
  DHCPv6: DhcpV6Settings;
  StatelessAddressAutoConfig: { IPv6AutoConfigEnabled: boolean };
  IPv6StaticAddresses: Ipv6StaticAddress[];
  IPv6StaticDefaultGateways: { Address: string }[];
  IPv6AddressPolicyTable: Ipv6Policy[];
  VLAN: { VLANEnable: boolean; VLANId: number | null };
}

export const MANAGER_NIC_SETTING = 'manager.ethernet';
/** As the vendor's controllers leave the factory: DHCP for everything but NTP, nothing static. */
export const DEFAULT_MANAGER_NIC: ManagerNicSettings = {
  DHCPv4: { DHCPEnabled: true, UseDNSServers: true, UseGateway: true, UseNTPServers: false, UseDomainName: true, UseStaticRoutes: true },
  IPv4StaticAddresses: [],
  StaticNameServers: [],
  DHCPv6: { OperatingMode: 'Enabled', UseDNSServers: true, UseDomainName: true, UseNTPServers: false, UseRapidCommit: false },
  StatelessAddressAutoConfig: { IPv6AutoConfigEnabled: true },
  IPv6StaticAddresses: [],
  IPv6StaticDefaultGateways: [],
  // The vendor's controller ships with the IPv4-mapped entry of RFC 6724's table.
  IPv6AddressPolicyTable: [{ Prefix: '::ffff:0:0/96', Precedence: 35, Label: null }],
  VLAN: { VLANEnable: false, VLANId: null },
};
/**
 * The dedicated port has one IPv4 address and up to three DNS servers, four static IPv6 addresses
 * and one static IPv6 default gateway, as on the vendor's controller.
 */
export const MAX_IPV4_STATIC_ADDRESSES = 1;
export const MAX_STATIC_NAME_SERVERS = 3;
export const MAX_IPV6_STATIC_ADDRESSES = 4;
export const MAX_IPV6_STATIC_GATEWAYS = 1;

export function readManagerNic(store: DocumentStore): ManagerNicSettings {
  const stored = store.setting<ManagerNicSettings>(MANAGER_NIC_SETTING, DEFAULT_MANAGER_NIC).get();
  // Settings stored by an older version lack the parts added since: those keep their defaults.
  return {
    ...DEFAULT_MANAGER_NIC,
    ...stored,
    DHCPv4: { ...DEFAULT_MANAGER_NIC.DHCPv4, ...stored.DHCPv4 },
    DHCPv6: { ...DEFAULT_MANAGER_NIC.DHCPv6, ...stored.DHCPv6 },
    StatelessAddressAutoConfig: { ...DEFAULT_MANAGER_NIC.StatelessAddressAutoConfig, ...stored.StatelessAddressAutoConfig },
    VLAN: { ...DEFAULT_MANAGER_NIC.VLAN, ...stored.VLAN },
  };
}

export function writeManagerNic(store: DocumentStore, value: ManagerNicSettings): void {
  store.setting<ManagerNicSettings>(MANAGER_NIC_SETTING, DEFAULT_MANAGER_NIC).set(value);
}

/** The lease the simulated DHCP server gives the port: a /24 in 10.0.0.0/8, stable for the seed. */
export function dhcpLease(seed: string): { Address: string; SubnetMask: string; Gateway: string; NameServer: string } {
  const h = createHash('sha256').update(`manager-dhcp:${seed}`).digest();
  const net = `10.${h[0]}.${h[1]}`;
  return { Address: `${net}.${10 + (h[2]! % 240)}`, SubnetMask: '255.255.255.0', Gateway: `${net}.1`, NameServer: `${net}.2` };
}

/** The IPv6 link-local address of a MAC address (modified EUI-64, RFC 4291). */
export function linkLocalIpv6(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  const eui = [b[0]! ^ 0x02, b[1]!, b[2]!, 0xff, 0xfe, b[3]!, b[4]!, b[5]!];
  const groups = [0, 2, 4, 6].map((i) => ((eui[i]! << 8) | eui[i + 1]!).toString(16));
  return `fe80::${groups.join(':')}`;
}

/** What a client asks to change of the NIC (the host name lives in the network protocol settings). */
export interface ManagerNicChange {
  readonly DHCPv4?: Partial<DhcpV4Settings>;
  readonly IPv4StaticAddresses?: readonly { readonly Address?: string; readonly SubnetMask?: string; readonly Gateway?: string | null }[];
  readonly StaticNameServers?: readonly string[];
  readonly DHCPv6?: Partial<DhcpV6Settings>;
  readonly StatelessAddressAutoConfig?: { readonly IPv6AutoConfigEnabled?: boolean };
  readonly IPv6StaticAddresses?: readonly { readonly Address?: string; readonly PrefixLength?: number }[];
  readonly IPv6StaticDefaultGateways?: readonly { readonly Address?: string }[];
  readonly IPv6AddressPolicyTable?: readonly { readonly Prefix?: string; readonly Precedence?: number; readonly Label?: number | null }[];
  readonly VLAN?: { readonly VLANEnable?: boolean; readonly VLANId?: number | null };
}

/**
 * The settings after a change. Static addresses are IPv4 with a contiguous
 * mask and a gateway (optional) inside their subnet; name servers are IP
 * addresses (empty strings are dropped); DHCP cannot be turned off while no
 * static address would remain, as that would cut the controller off its
 * network. Every problem is reported at once and nothing is applied.
 */
export function changeManagerNic(current: ManagerNicSettings, change: ManagerNicChange): ManagerNicSettings {
  const problems: ExtendedInfo[] = [];
  const next: ManagerNicSettings = {
    ...current,
    DHCPv4: { ...current.DHCPv4, ...definedOnly(change.DHCPv4 ?? {}) },
    IPv4StaticAddresses: current.IPv4StaticAddresses.map((a) => ({ ...a })),
    StaticNameServers: [...current.StaticNameServers],
    DHCPv6: { ...current.DHCPv6, ...definedOnly(change.DHCPv6 ?? {}) },
    StatelessAddressAutoConfig: { ...current.StatelessAddressAutoConfig, ...definedOnly(change.StatelessAddressAutoConfig ?? {}) },
    VLAN: { ...current.VLAN, ...definedOnly(change.VLAN ?? {}) },
  };
  problems.push(...changeIpv6(next, change));
  if (change.IPv4StaticAddresses !== undefined) {
    next.IPv4StaticAddresses = [];
    change.IPv4StaticAddresses.forEach((a, i) => {
      const at = `IPv4StaticAddresses/${i}`;
      if (a.Address === undefined) return problems.push(...baseRefusal('PropertyMissing', `${at}/Address`).about(`${at}/Address`).infos);
      if (a.SubnetMask === undefined)
        return problems.push(...baseRefusal('PropertyMissing', `${at}/SubnetMask`).about(`${at}/SubnetMask`).infos);
      const gateway = a.Gateway ?? null;
      const before = problems.length;
      if (isIP(a.Address) !== 4)
        problems.push(...baseRefusal('PropertyValueFormatError', a.Address, `${at}/Address`).about(`${at}/Address`).infos);
      if (!isSubnetMask(a.SubnetMask))
        problems.push(...baseRefusal('PropertyValueFormatError', a.SubnetMask, `${at}/SubnetMask`).about(`${at}/SubnetMask`).infos);
      if (gateway !== null && isIP(gateway) !== 4)
        problems.push(...baseRefusal('PropertyValueFormatError', gateway, `${at}/Gateway`).about(`${at}/Gateway`).infos);
      if (problems.length === before && gateway !== null) {
        const mask = ipv4ToInt(a.SubnetMask);
        if (((ipv4ToInt(a.Address) ^ ipv4ToInt(gateway)) & mask) >>> 0 !== 0) {
          problems.push(...baseRefusal('PropertyValueConflict', `${at}/Gateway`, `${at}/Address`).about(`${at}/Gateway`).infos);
        }
      }
      next.IPv4StaticAddresses.push({ Address: a.Address, SubnetMask: a.SubnetMask, Gateway: gateway });
      return undefined;
    });
    if (next.IPv4StaticAddresses.length > MAX_IPV4_STATIC_ADDRESSES) {
      problems.push(
        ...baseRefusal('PropertyValueOutOfRange', String(next.IPv4StaticAddresses.length), 'IPv4StaticAddresses').about(
          'IPv4StaticAddresses',
        ).infos,
      );
    }
  }
  if (change.StaticNameServers !== undefined) {
    const servers = change.StaticNameServers.filter((s) => s.trim() !== '');
    const bad = servers.find((s) => isIP(s) === 0);
    if (bad !== undefined)
      problems.push(...baseRefusal('PropertyValueFormatError', bad, 'StaticNameServers').about('StaticNameServers').infos);
    else if (servers.length > MAX_STATIC_NAME_SERVERS) {
      problems.push(
        ...baseRefusal('PropertyValueOutOfRange', JSON.stringify(change.StaticNameServers), 'StaticNameServers').about('StaticNameServers')
          .infos,
      );
    } else next.StaticNameServers = servers;
  }
  if (next.VLAN.VLANEnable && next.VLAN.VLANId === null && !problems.length) {
    problems.push(...baseRefusal('PropertyValueConflict', 'VLAN/VLANEnable', 'VLAN/VLANId').about('VLAN/VLANEnable').infos);
  }
  if (!next.DHCPv4.DHCPEnabled && next.IPv4StaticAddresses.length === 0 && !problems.length) {
    problems.push(...baseRefusal('PropertyValueConflict', 'DHCPv4/DHCPEnabled', 'IPv4StaticAddresses').about('DHCPv4/DHCPEnabled').infos);
  }
  if (problems.length) throw new Refusal(problems);
  return next;
}

/** The IPv6 parts of a change, applied to next; what is wrong in them. */
function changeIpv6(next: ManagerNicSettings, change: ManagerNicChange): ExtendedInfo[] {
  const problems: ExtendedInfo[] = [];
  const missing = (at: string) => problems.push(...baseRefusal('PropertyMissing', at).about(at).infos);
  const malformed = (value: string, at: string) => problems.push(...baseRefusal('PropertyValueFormatError', value, at).about(at).infos);
  const tooMany = (list: readonly unknown[], max: number, at: string) => {
    if (list.length > max) problems.push(...baseRefusal('PropertyValueOutOfRange', String(list.length), at).about(at).infos);
  };
  if (change.IPv6StaticAddresses !== undefined) {
    const list: Ipv6StaticAddress[] = [];
    change.IPv6StaticAddresses.forEach((a, i) => {
      const at = `IPv6StaticAddresses/${i}`;
      if (a.Address === undefined) return missing(`${at}/Address`);
      if (a.PrefixLength === undefined) return missing(`${at}/PrefixLength`);
      if (isIP(a.Address) !== 6) return malformed(a.Address, `${at}/Address`);
      list.push({ Address: a.Address, PrefixLength: a.PrefixLength });
      return undefined;
    });
    tooMany(list, MAX_IPV6_STATIC_ADDRESSES, 'IPv6StaticAddresses');
    next.IPv6StaticAddresses = list;
  }
  if (change.IPv6StaticDefaultGateways !== undefined) {
    const list: { Address: string }[] = [];
    change.IPv6StaticDefaultGateways.forEach((g, i) => {
      const at = `IPv6StaticDefaultGateways/${i}/Address`;
      if (g.Address === undefined) return missing(at);
      if (isIP(g.Address) !== 6) return malformed(g.Address, at);
      list.push({ Address: g.Address });
      return undefined;
    });
    tooMany(list, MAX_IPV6_STATIC_GATEWAYS, 'IPv6StaticDefaultGateways');
    next.IPv6StaticDefaultGateways = list;
  }
  if (change.IPv6AddressPolicyTable !== undefined) {
    const list: Ipv6Policy[] = [];
    change.IPv6AddressPolicyTable.forEach((p, i) => {
      const at = `IPv6AddressPolicyTable/${i}`;
      if (p.Prefix === undefined) return missing(`${at}/Prefix`);
      if (p.Precedence === undefined) return missing(`${at}/Precedence`);
      const [address = '', length, ...rest] = p.Prefix.split('/');
      if (isIP(address) !== 6 || length === undefined || !/^\d{1,3}$/.test(length) || Number(length) > 128 || rest.length)
        return malformed(p.Prefix, `${at}/Prefix`);
      list.push({ Prefix: p.Prefix, Precedence: p.Precedence, Label: p.Label ?? null });
      return undefined;
    });
    next.IPv6AddressPolicyTable = list;
  }
  return problems;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// -- the serial port -------------------------------------------------------------

export const BIT_RATES = ['9600', '19200', '38400', '57600', '115200'] as const;
export const PARITIES = ['None', 'Even', 'Odd'] as const;
export const DATA_BITS = ['7', '8'] as const;
export const STOP_BITS = ['1', '2'] as const;
export const FLOW_CONTROLS = ['None', 'Software', 'Hardware'] as const;

export interface SerialSettings {
  InterfaceEnabled: boolean;
  BitRate: (typeof BIT_RATES)[number];
  Parity: (typeof PARITIES)[number];
  DataBits: (typeof DATA_BITS)[number];
  StopBits: (typeof STOP_BITS)[number];
  FlowControl: (typeof FLOW_CONTROLS)[number];
}

export const SERIAL_SETTING = 'manager.serialInterface';
/** 115200 8N1 without flow control, enabled. */
export const DEFAULT_SERIAL: SerialSettings = {
  InterfaceEnabled: true,
  BitRate: '115200',
  Parity: 'None',
  DataBits: '8',
  StopBits: '1',
  FlowControl: 'None',
};

export function serialSetting(store: DocumentStore) {
  return store.setting<SerialSettings>(SERIAL_SETTING, DEFAULT_SERIAL);
}

// -- the Redfish host interface --------------------------------------------------

export interface HostInterfaceSettings {
  InterfaceEnabled: boolean;
}

export const HOST_INTERFACE_SETTING = 'manager.hostInterface';
export const DEFAULT_HOST_INTERFACE: HostInterfaceSettings = { InterfaceEnabled: true };

export function hostInterfaceSetting(store: DocumentStore) {
  return store.setting<HostInterfaceSettings>(HOST_INTERFACE_SETTING, DEFAULT_HOST_INTERFACE);
}
