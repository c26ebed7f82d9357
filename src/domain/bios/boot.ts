// Boot configuration of the simulated server: the UEFI boot options the ROM
// found, the persistent boot order, and the boot source override, whose Once
// mode is consumed at the next boot (POST step BootDevice).
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';

export const OVERRIDE_TARGETS = [
  'None',
  'Cd',
  'Hdd',
  'Usb',
  'SDCard',
  'Utilities',
  'Diags',
  'BiosSetup',
  'Pxe',
  'UefiShell',
  'UefiHttp',
  'UefiTarget',
] as const;
export type OverrideTarget = (typeof OVERRIDE_TARGETS)[number];
export const OVERRIDE_ENABLED = ['Disabled', 'Once', 'Continuous'] as const;
export type OverrideEnabled = (typeof OVERRIDE_ENABLED)[number];
export const OVERRIDE_MODES = ['UEFI', 'Legacy'] as const;
export type OverrideMode = (typeof OVERRIDE_MODES)[number];

export interface BootOptionDef {
  /** Member id and BootOptionReference: Boot0001... */
  id: string;
  displayName: string;
  /** <DeviceType>.<Location>.<Instance>.<Sub-instance>.<Qualifier> */
  structured: string;
  uefiDevicePath: string;
  /** The override target that boots this option. */
  alias: OverrideTarget;
}

/** What the ROM discovers on this server's hardware. */
export const BOOT_OPTIONS: readonly BootOptionDef[] = [
  {
    id: 'Boot0001',
    structured: 'HD.Emb.1.2',
    alias: 'Hdd',
    displayName: 'Embedded RAID 1 : Smart Array P408i-a SR Gen10 - 894.2 GiB, RAID1 Logical Drive 1 (Target:0, Lun:0)',
    uefiDevicePath: 'PciRoot(0x2)/Pci(0x0,0x0)/Pci(0x0,0x0)/Scsi(0x0,0x0)',
  },
  {
    id: 'Boot0002',
    structured: 'NIC.LOM.1.1.IPv4',
    alias: 'Pxe',
    displayName: 'Embedded LOM 1 Port 1 : Network Adapter 4-port 1Gb (PXE IPv4)',
    uefiDevicePath: 'PciRoot(0x0)/Pci(0x1C,0x0)/Pci(0x0,0x0)/MAC(9440C9A1B2C0,0x1)/IPv4(0.0.0.0)',
  },
  {
    id: 'Boot0003',
    structured: 'NIC.LOM.1.1.IPv6',
    alias: 'Pxe',
    displayName: 'Embedded LOM 1 Port 1 : Network Adapter 4-port 1Gb (PXE IPv6)',
    uefiDevicePath: 'PciRoot(0x0)/Pci(0x1C,0x0)/Pci(0x0,0x0)/MAC(9440C9A1B2C0,0x1)/IPv6(0000:0000:0000:0000:0000:0000:0000:0000)',
  },
  {
    id: 'Boot0004',
    structured: 'NIC.LOM.1.1.Httpv4',
    alias: 'UefiHttp',
    displayName: 'Embedded LOM 1 Port 1 : Network Adapter 4-port 1Gb (HTTP(S) IPv4)',
    uefiDevicePath: 'PciRoot(0x0)/Pci(0x1C,0x0)/Pci(0x0,0x0)/MAC(9440C9A1B2C0,0x1)/IPv4(0.0.0.0)/Uri()',
  },
  {
    id: 'Boot0005',
    structured: 'NIC.Slot.1.1.IPv4',
    alias: 'Pxe',
    displayName: 'Slot 1 Port 1 : Ethernet 25Gb 2-port Adapter (PXE IPv4)',
    uefiDevicePath: 'PciRoot(0x3)/Pci(0x0,0x0)/Pci(0x0,0x0)/MAC(B47AF1C3D4E0,0x1)/IPv4(0.0.0.0)',
  },
  {
    id: 'Boot0006',
    structured: 'HD.Slot.3.1',
    alias: 'Hdd',
    displayName: 'Slot 3 : NVMe Drive 1.6TB (Bay 1)',
    uefiDevicePath: 'PciRoot(0x4)/Pci(0x2,0x0)/Pci(0x0,0x0)/NVMe(0x1,00-00-00-00-00-00-00-00)',
  },
  {
    id: 'Boot0007',
    structured: 'Generic.USB.1.1',
    alias: 'Usb',
    displayName: 'Generic USB Boot',
    uefiDevicePath: 'UsbClass(0xFFFF,0xFFFF,0xFF,0xFF,0xFF)',
  },
  {
    id: 'Boot0008',
    structured: 'CD.Virtual.2.1',
    alias: 'Cd',
    displayName: 'Virtual CD/DVD-ROM : Management Controller Virtual USB 2:1',
    uefiDevicePath: 'PciRoot(0x0)/Pci(0x14,0x0)/USB(0x13,0x0)/USB(0x1,0x0)',
  },
  {
    id: 'Boot0009',
    structured: 'Shell.Emb.1.1',
    alias: 'UefiShell',
    displayName: 'Embedded UEFI Shell',
    uefiDevicePath: 'Fv(CDBB7B35-6833-4ED6-9AB2-57D2ACDDF6F0)/FvFile(C57AD6B7-0515-40A8-9D21-551652854E37)',
  },
];

export interface BootState {
  BootSourceOverrideTarget: OverrideTarget;
  BootSourceOverrideEnabled: OverrideEnabled;
  BootSourceOverrideMode: OverrideMode;
  UefiTargetBootSourceOverride: string | null;
  /** BootOptionReferences, first tried first. */
  BootOrder: string[];
  /** BootOptionReference the server last booted from, or null before the first boot. */
  LastBootOption: string | null;
}

export const DEFAULT_BOOT: BootState = {
  BootSourceOverrideTarget: 'None',
  BootSourceOverrideEnabled: 'Disabled',
  BootSourceOverrideMode: 'UEFI',
  UefiTargetBootSourceOverride: null,
  BootOrder: BOOT_OPTIONS.map((o) => o.id),
  LastBootOption: null,
};

/** True when `order` names every boot option exactly once. */
export function isPermutationOfOptions(order: readonly string[]): boolean {
  const ids = new Set(BOOT_OPTIONS.map((o) => o.id));
  return order.length === ids.size && new Set(order).size === order.length && order.every((id) => ids.has(id));
}

/**
 * Removable boot devices (the controller's virtual media), asked at boot: an
 * empty one is skipped, as the ROM skips a drive without media.
 */
export interface RemovableMedia {
  /** For an option backed by removable media: the name of the media in it, or null when empty; undefined for a fixed device. */
  mediaIn(option: BootOptionDef): string | null | undefined;
  /** The target media asks to boot from once, ahead of the boot order but behind an override (the vendor's BootOnNextServerReset). */
  bootNext(): OverrideTarget | undefined;
  /** What a boot did: the option it booted, and the override's device it found empty. */
  booted(option: BootOptionDef | undefined, missing: BootOptionDef | undefined): void;
}

export class BootSettings {
  private readonly saved;

  constructor(
    store: DocumentStore,
    host: HostLifecycle,
    private readonly media?: RemovableMedia,
  ) {
    this.saved = store.setting<BootState>('system.boot', DEFAULT_BOOT);
    host.onPost('BootDevice', () => this.consumeOverride());
  }

  get(): BootState {
    return this.saved.get();
  }

  update(change: Partial<BootState>): void {
    this.saved.set({ ...this.saved.get(), ...change });
  }

  /** The option the server boots from now: the override, else the first of the boot order (devices without media skipped). */
  bootDevice(): BootOptionDef | undefined {
    return this.choose().option;
  }

  private choose(): { option?: BootOptionDef; missing?: BootOptionDef } {
    const s = this.saved.get();
    const empty = (o: BootOptionDef) => this.media?.mediaIn(o) === null;
    const inOrder = s.BootOrder.map((id) => BOOT_OPTIONS.find((o) => o.id === id));
    const byAlias = (alias: OverrideTarget) => inOrder.find((o) => o?.alias === alias);
    let missing: BootOptionDef | undefined;
    if (s.BootSourceOverrideEnabled !== 'Disabled' && s.BootSourceOverrideTarget !== 'None') {
      const wanted =
        s.BootSourceOverrideTarget === 'UefiTarget'
          ? BOOT_OPTIONS.find((o) => o.uefiDevicePath === s.UefiTargetBootSourceOverride)
          : byAlias(s.BootSourceOverrideTarget);
      if (wanted && !empty(wanted)) return { option: wanted };
      missing = wanted;
    }
    const next = this.media?.bootNext();
    const asked = next && byAlias(next);
    if (asked && !empty(asked)) return { option: asked, missing };
    return { option: inOrder.find((o) => o && !empty(o)), missing };
  }

  /** Boot: note the device, and clear a one-time override, which this boot used. */
  private consumeOverride(): void {
    const s = this.saved.get();
    const { option, missing } = this.choose();
    const next: BootState = { ...s, LastBootOption: option?.id ?? null };
    if (s.BootSourceOverrideEnabled === 'Once') {
      Object.assign(next, { BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideTarget: 'None', UefiTargetBootSourceOverride: null });
    }
    this.saved.set(next);
    this.media?.booted(option, missing);
  }
}
