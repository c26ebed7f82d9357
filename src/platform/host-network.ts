// The network of the simulated host OS: what its NIC ports carry while it runs.
// A port with link gets the static address the hardware profile names, or the
// one a DHCP server would lease it, derived from its MAC so it never changes
// (one 10.x.0.0/16 network per interface, gateway .0.1, DNS server .0.2). A port
// without link has none. The name servers and domain are the profile's
// (hostNetwork), else the DHCP-like ones.
import type { Hardware } from './hardware/identity.js';
import type { NicPort } from './hardware/inventory.js';

export interface HostIpv4 {
  address: string;
  subnetMask: string;
  gateway: string | null;
  origin: 'DHCP' | 'Static';
}

/** What the running OS has on one port: its address and the DNS servers it uses there. */
export interface HostInterfaceNetwork {
  ipv4: HostIpv4;
  nameServers: string[];
}

/** The domain of the host's FQDN when the profile names none (RFC 9476's private-use TLD). */
export const DEFAULT_HOST_DOMAIN = 'lab.internal';

export function hostDomain(hw: Pick<Hardware, 'hostNetwork'>): string {
  return hw.hostNetwork?.domainName ?? DEFAULT_HOST_DOMAIN;
}

/** The network of a port while the host OS runs; undefined without link. */
export function hostInterfaceNetwork(hw: Pick<Hardware, 'hostNetwork'>, port: NicPort): HostInterfaceNetwork | undefined {
  if (!port.linkUp) return undefined;
  const configured = hw.hostNetwork?.nameServers;
  if (port.ipv4) {
    const { address, subnetMask, gateway } = port.ipv4;
    return { ipv4: { address, subnetMask, gateway: gateway ?? null, origin: 'Static' }, nameServers: configured ?? [] };
  }
  const net = `10.${128 + (Number(port.interfaceId) % 128)}`;
  const [hi = 0, lo = 0] = port.mac
    .split(':')
    .slice(4)
    .map((h) => parseInt(h, 16));
  // The host part, clear of the network (.0.0), the gateway and DNS server (.0.1, .0.2) and broadcast.
  const host = hi === 0 && lo < 3 ? `1.${lo}` : hi === 255 && lo === 255 ? '255.254' : `${hi}.${lo}`;
  return {
    ipv4: { address: `${net}.${host}`, subnetMask: '255.255.0.0', gateway: `${net}.0.1`, origin: 'DHCP' },
    nameServers: configured ?? [`${net}.0.2`],
  };
}
