// Where the system ROM finds each device of the hardware profile on PCI: its
// UEFI device path (the CorrelatableID boot options, BIOS mappings and PCI
// device views share), and which BIOS attributes act on it.
import type { Hardware } from '../../platform/hardware/identity.js';

export const hex = (n: number) => `0x${n.toString(16).toUpperCase()}`;

/** What the map looks at. */
export type PciHardware = Pick<Hardware, 'storage' | 'nics' | 'pcieDevices'>;

/** The UEFI device path of the storage controller at index `ci` of the profile. */
export function storagePciPath(ci: number): string {
  return `PciRoot(${hex(2 + ci)})/Pci(0x0,0x0)/Pci(0x0,0x0)`;
}

/** The UEFI device path of the NIC at index `ni` of the profile (an embedded one hangs off the chipset). */
export function nicPciPath(hw: Pick<Hardware, 'nics'>, ni: number): string {
  return hw.nics[ni]?.slot === 'Embedded' ? 'PciRoot(0x0)/Pci(0x1C,0x0)/Pci(0x0,0x0)' : `PciRoot(${hex(8 + ni)})/Pci(0x0,0x0)/Pci(0x0,0x0)`;
}

/** The UEFI device path of port `pi` (0-based) of the NIC at index `ni`: the port's PCI function, then its MAC address. */
export function nicPortDevicePath(hw: Pick<Hardware, 'nics'>, ni: number, pi: number, mac: string): string {
  const fn = nicPciPath(hw, ni).replace(/Pci\(0x0,0x0\)$/, `Pci(0x0,${hex(pi)})`);
  return `${fn}/MAC(${mac.replace(/:/g, '').toUpperCase()},0x1)`;
}

/** A NIC port the ROM can boot (PXE, HTTP, iSCSI) from, by its BIOS name (EmbNicPort1, Slot1NicPort2...). */
export interface NicBootSource {
  name: string;
  nic: number;
  port: number;
}

/** The NIC ports of the profile by their BIOS names: the first embedded NIC is EmbNicPort<n>, a slot NIC Slot<s>NicPort<n>. */
export function nicBootSources(hw: Pick<Hardware, 'nics'>): NicBootSource[] {
  const out: NicBootSource[] = [];
  let lom = 0;
  hw.nics.forEach((nic, ni) => {
    const prefix = nic.slot === 'Embedded' ? (++lom === 1 ? 'EmbNicPort' : undefined) : `Slot${nic.slot}NicPort`;
    if (prefix !== undefined) nic.ports.forEach((_, pi) => out.push({ name: `${prefix}${pi + 1}`, nic: ni, port: pi + 1 }));
  });
  return out;
}

/** The UEFI device path of a PCIe device of the profile: its NIC's or controller's, else one of its own. */
export function pcieDevicePath(hw: PciHardware, deviceIndex: number): string {
  const dev = hw.pcieDevices[deviceIndex];
  const ni = dev?.nic === undefined ? -1 : hw.nics.findIndex((n) => n.id === dev.nic);
  if (ni >= 0) return nicPciPath(hw, ni);
  const ci = dev?.storage === undefined ? -1 : hw.storage.findIndex((c) => c.id === dev.storage);
  if (ci >= 0) return storagePciPath(ci);
  return `PciRoot(${hex(0x10 + deviceIndex)})/Pci(0x0,0x0)/Pci(0x0,0x0)`;
}

export interface BiosPciMapping {
  Instance: number;
  CorrelatableID: string;
  Associations: string[];
  Subinstances: { Subinstance: number; CorrelatableID: string; Associations: string[] }[];
}

/**
 * Which BIOS attributes act on each PCIe device: its enable (the embedded NIC's, or its slot's)
 * and link speed, and a NIC's ports by their name and network boot attribute (the name first, as
 * iSCSINicSource and PreBootNetwork take it). Devices no attribute acts on are left out.
 */
export function biosMappings(hw: PciHardware, attributeNames: ReadonlySet<string>): BiosPciMapping[] {
  const sources = nicBootSources(hw);
  const firstLom = hw.nics.findIndex((n) => n.slot === 'Embedded');
  const out: BiosPciMapping[] = [];
  hw.pcieDevices.forEach((dev, i) => {
    const path = pcieDevicePath(hw, i);
    const ni = hw.nics.findIndex((n) => n.id === dev.nic);
    const ports = sources.filter((s) => s.nic === ni && ni >= 0 && attributeNames.has(`${s.name}Boot`));
    const own =
      dev.slot === 'Embedded'
        ? ni >= 0 && ni === firstLom
          ? ['EmbNicEnable']
          : []
        : [`PciSlot${dev.slot}Enable`, `PciSlot${dev.slot}LinkSpeed`];
    const associations = [...own.filter((a) => attributeNames.has(a)), ...ports.map((s) => `${s.name}Boot`)];
    if (!associations.length) return;
    out.push({
      Instance: i + 1,
      CorrelatableID: path,
      Associations: associations,
      Subinstances: ports.map((s) => ({ Subinstance: s.port, CorrelatableID: path, Associations: [s.name, `${s.name}Boot`] })),
    });
  });
  return out;
}
