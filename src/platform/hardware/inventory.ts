// Figures derived from the hardware: the summaries the computer system shows
// and the numbering of NIC ports the API shares between EthernetInterfaces,
// NetworkAdapters/Ports and PCIe functions (one port, one id everywhere).
import type { Hardware, ResolvedNic } from './identity.js';

export interface ProcessorSummary {
  /** Present processors (empty sockets do not count). */
  count: number;
  cores: number;
  threads: number;
  /** The first present processor's model. */
  model: string;
}

export function processorSummary(h: Hardware): ProcessorSummary {
  const present = h.processors.filter((p) => p.present);
  return {
    count: present.length,
    cores: present.reduce((a, p) => a + p.cores, 0),
    threads: present.reduce((a, p) => a + p.threads, 0),
    model: present[0]?.model ?? '',
  };
}

/** Installed memory in GiB, as MemorySummary.TotalSystemMemoryGiB reports it. */
export function totalMemoryGiB(h: Hardware): number {
  return h.memory.filter((d) => d.present).reduce((a, d) => a + d.sizeMiB, 0) / 1024;
}

export interface NicPort {
  nic: ResolvedNic;
  /** 0-based position of the port on its NIC; the Port's Id is this + 1. */
  index: number;
  /** The system EthernetInterface's Id: 1-based across all NICs, in profile order. */
  interfaceId: string;
  speedMbps: number;
  linkUp: boolean;
  mac: string;
  /** The static IPv4 address the host OS sets on it, when the profile names one. */
  ipv4?: { address: string; subnetMask: string; gateway?: string };
}

/** Every NIC port of the server, in profile order. */
export function nicPorts(h: Hardware): NicPort[] {
  let n = 0;
  return h.nics.flatMap((nic) => nic.ports.map((p, index) => ({ nic, index, interfaceId: String(++n), ...p })));
}
