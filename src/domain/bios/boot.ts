// Boot configuration of the simulated server: the UEFI boot options the ROM
// found, the persistent boot order, and the boot source override, whose Once
// mode is consumed at the next boot (POST step BootDevice).
import type { Hardware } from '../../platform/hardware/identity.js';
import type { BootInfo, HostLifecycle } from '../../platform/lifecycle.js';
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { settingsApplied, type SettingsApplied } from './settings-applied.js';
import type { DocumentStore } from '../../store/documents.js';
import { raidCapacity } from '../storage/raid.js';
import { hex, nicPortDevicePath, storagePciPath } from './pci-map.js';

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

/** What boot options depend on: the hardware profile's storage and NICs. */
export type BootHardware = Pick<Hardware, 'storage' | 'nics'>;

/**
 * The UEFI boot options the ROM discovers on this hardware, in its default
 * order: logical drives of RAID controllers, then the drives of controllers
 * without RAID (HBA, direct-attached NVMe), then network boot on port 1 of each
 * NIC (PXE IPv4; the first NIC also PXE IPv6 and HTTP), the USB and virtual CD
 * devices and the UEFI shell. Ids are Boot0001... in that order.
 */
export function bootOptionsFor(hw: BootHardware): BootOptionDef[] {
  const found: Omit<BootOptionDef, 'id'>[] = [];
  let embedded = 0;
  const where = hw.storage.map((c) => {
    const emb = c.slot === 'Embedded';
    const n = emb ? ++embedded : Number(c.slot);
    return { kind: emb ? 'Emb' : 'Slot', n, label: emb ? `Embedded RAID ${n}` : `Slot ${c.slot}` };
  });
  hw.storage.forEach((c, ci) => {
    if (c.raidTypes.length === 0) return;
    const w = where[ci]!;
    c.volumes.forEach((v, vi) => {
      const bytes = raidCapacity(
        v.raidType,
        v.drives.map((bay) => c.drives.find((d) => d.bay === bay)?.capacityBytes ?? 0),
      );
      found.push({
        // Sub-instance 1 is the controller itself; its logical drives follow.
        structured: `HD.${w.kind}.${w.n}.${vi + 2}`,
        alias: 'Hdd',
        displayName: `${w.label} : ${c.model} - ${gib(bytes)} GiB, ${v.raidType} ${v.name} (Target:0, Lun:${vi})`,
        uefiDevicePath: `${storagePciPath(ci)}/Scsi(0x0,${hex(vi)})`,
      });
    });
  });
  hw.storage.forEach((c, ci) => {
    if (c.raidTypes.length > 0) return;
    const w = where[ci]!;
    c.drives.forEach((d, di) => {
      const device =
        d.protocol === 'NVMe'
          ? `NVMe(0x1,${(d.uuid.replace(/-/g, '').slice(0, 16).match(/../g) ?? []).join('-')})`
          : d.protocol === 'SATA'
            ? `Sata(${hex(di)},0xFFFF,0x0)`
            : `Scsi(${hex(di)},0x0)`;
      found.push({
        structured: `HD.${w.kind}.${w.n}.${di + 1}`,
        alias: 'Hdd',
        displayName: `${w.label} : ${d.protocol} Drive ${gib(d.capacityBytes)} GiB (Bay ${d.bay})`,
        uefiDevicePath: `PciRoot(${hex(2 + ci)})/Pci(${hex(2 + di)},0x0)/Pci(0x0,0x0)/${device}`,
      });
    });
  });
  let lom = 0;
  hw.nics.forEach((nic, ni) => {
    const port = nic.ports[0];
    if (!port) return;
    const emb = nic.slot === 'Embedded';
    const structured = emb ? `NIC.LOM.${++lom}.1` : `NIC.Slot.${nic.slot}.1`;
    const label = emb ? `Embedded LOM ${lom} Port 1 : ${nic.model}` : `Slot ${nic.slot} Port 1 : ${nic.model}`;
    const path = nicPortDevicePath(hw, ni, 0, port.mac);
    found.push({
      structured: `${structured}.IPv4`,
      alias: 'Pxe',
      displayName: `${label} (PXE IPv4)`,
      uefiDevicePath: `${path}/IPv4(0.0.0.0)`,
    });
    if (ni > 0) return;
    found.push({
      structured: `${structured}.IPv6`,
      alias: 'Pxe',
      displayName: `${label} (PXE IPv6)`,
      uefiDevicePath: `${path}/IPv6(0000:0000:0000:0000:0000:0000:0000:0000)`,
    });
    found.push({
      structured: `${structured}.Httpv4`,
      alias: 'UefiHttp',
      displayName: `${label} (HTTP(S) IPv4)`,
      uefiDevicePath: `${path}/IPv4(0.0.0.0)/Uri()`,
    });
  });
  found.push(
    {
      structured: 'Generic.USB.1.1',
      alias: 'Usb',
      displayName: 'Generic USB Boot',
      uefiDevicePath: 'UsbClass(0xFFFF,0xFFFF,0xFF,0xFF,0xFF)',
    },
    {
      structured: 'CD.Virtual.2.1',
      alias: 'Cd',
      displayName: 'Virtual CD/DVD-ROM : Management Controller Virtual USB 2:1',
      uefiDevicePath: 'PciRoot(0x0)/Pci(0x14,0x0)/USB(0x13,0x0)/USB(0x1,0x0)',
    },
    {
      structured: 'Shell.Emb.1.1',
      alias: 'UefiShell',
      displayName: 'Embedded UEFI Shell',
      uefiDevicePath: 'Fv(CDBB7B35-6833-4ED6-9AB2-57D2ACDDF6F0)/FvFile(C57AD6B7-0515-40A8-9D21-551652854E37)',
    },
  );
  return found.map((o, i) => ({ id: `Boot${(i + 1).toString(16).toUpperCase().padStart(4, '0')}`, ...o }));
}

const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);

export interface BootState {
  BootSourceOverrideTarget: OverrideTarget;
  BootSourceOverrideEnabled: OverrideEnabled;
  BootSourceOverrideMode: OverrideMode;
  UefiTargetBootSourceOverride: string | null;
  /** The URI a UefiHttp boot loads; null: the one DHCP offers. */
  HttpBootUri: string | null;
  /** BootOptionReferences, first tried first. */
  BootOrder: string[];
  /** BootOptionReference the server last booted from, or null before the first boot. */
  LastBootOption: string | null;
}

function defaultBoot(options: readonly BootOptionDef[]): BootState {
  return {
    BootSourceOverrideTarget: 'None',
    BootSourceOverrideEnabled: 'Disabled',
    BootSourceOverrideMode: 'UEFI',
    UefiTargetBootSourceOverride: null,
    HttpBootUri: null,
    BootOrder: options.map((o) => o.id),
    LastBootOption: null,
  };
}

/** True when `order` names every boot option exactly once. */
export function isPermutationOfOptions(order: readonly string[], options: readonly BootOptionDef[]): boolean {
  const ids = new Set(options.map((o) => o.id));
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

/** A SAN boot target the ROM tries ahead of the boot order (iLO's DesiredBootDevices; empty strings: unused). */
export interface DesiredBootDevice {
  CorrelatableID: string;
  Lun: string;
  Wwn: string;
  iScsiTargetName: string;
}

/** The ROM keeps five desired boot devices. */
export const DESIRED_BOOT_DEVICES = 5;

const noDesiredDevice: DesiredBootDevice = Object.freeze({ CorrelatableID: '', Lun: '', Wwn: '', iScsiTargetName: '' });

/** What the boot order's pending area holds: what clients asked for since the last POST. */
export interface PendingBoot {
  /** BootOptionReferences, a full order. */
  BootOrder?: string[];
  DesiredBootDevices?: DesiredBootDevice[];
}

export class BootSettings {
  private readonly saved;
  private readonly pendingSaved;
  private readonly desiredSaved;
  /** When POST last took the pending changes in. */
  readonly applied: SettingsApplied;

  constructor(
    store: DocumentStore,
    host: HostLifecycle,
    /** The boot options of this hardware (bootOptionsFor). */
    readonly options: readonly BootOptionDef[],
    private readonly media?: RemovableMedia,
    /** Where a boot's IML record goes (an HTTP boot names its URI). */
    private readonly iml?: (message: ExtendedInfo) => void,
  ) {
    this.saved = store.setting<BootState>('system.boot', defaultBoot(options));
    this.applied = settingsApplied(store, 'system.boot');
    this.pendingSaved = store.setting<PendingBoot>('system.boot.pending', {});
    this.desiredSaved = store.setting<DesiredBootDevice[]>(
      'system.boot.desired',
      Array.from({ length: DESIRED_BOOT_DEVICES }, () => noDesiredDevice),
    );
    host.onPost('ApplyBiosSettings', (boot) => this.applyPending(boot));
    host.onPost('BootDevice', () => this.consumeOverride());
  }

  /** The SAN boot targets the ROM runs with. */
  desiredBootDevices(): readonly DesiredBootDevice[] {
    return this.desiredSaved.peek();
  }

  /** The pending area: what the next POST takes in (the current values where nothing is pending). */
  pending(): { BootOrder: readonly string[]; DesiredBootDevices: readonly DesiredBootDevice[] } {
    const p = this.pendingSaved.peek();
    const order = p.BootOrder && isPermutationOfOptions(p.BootOrder, this.options) ? p.BootOrder : this.get().BootOrder;
    return { BootOrder: order, DesiredBootDevices: p.DesiredBootDevices ?? this.desiredBootDevices() };
  }

  /**
   * Store pending changes. An order may name only the options it moves to the front: the
   * ROM keeps the others after them in their present order. False when it names an option
   * twice or one the ROM does not have.
   */
  setPending(change: { BootOrder?: readonly string[]; DesiredBootDevices?: readonly Partial<DesiredBootDevice>[] }): boolean {
    const next: PendingBoot = { ...this.pendingSaved.get() };
    if (change.BootOrder) {
      const ids = new Set(this.options.map((o) => o.id));
      if (new Set(change.BootOrder).size !== change.BootOrder.length || !change.BootOrder.every((id) => ids.has(id))) return false;
      const rest = this.pending().BootOrder.filter((id) => !change.BootOrder!.includes(id));
      next.BootOrder = [...change.BootOrder, ...rest];
    }
    if (change.DesiredBootDevices) {
      const base = this.pending().DesiredBootDevices;
      next.DesiredBootDevices = base.map((d, i) => ({ ...d, ...change.DesiredBootDevices![i] }));
    }
    this.pendingSaved.set(next);
    return true;
  }

  /** The POST step: the pending order and desired devices become current. */
  private applyPending(boot: BootInfo): void {
    const p = this.pendingSaved.get();
    if (p.BootOrder && isPermutationOfOptions(p.BootOrder, this.options)) this.update({ BootOrder: p.BootOrder });
    if (p.DesiredBootDevices) this.desiredSaved.set(p.DesiredBootDevices);
    if (p.BootOrder || p.DesiredBootDevices) {
      this.pendingSaved.set({});
      this.applied.mark(boot);
    }
  }

  /** The boot state, shared and frozen: checked against the options once per stored change. */
  get(): Readonly<BootState> {
    const s = this.saved.peek();
    if (this.current?.stored !== s) this.current = { stored: s, state: Object.freeze(this.fitted(s)) };
    return this.current.state;
  }

  private current: { stored: Readonly<BootState>; state: Readonly<BootState> } | undefined;

  private fitted(stored: Readonly<BootState>): Readonly<BootState> {
    // Stores older than HttpBootUri lack it.
    const s = stored.HttpBootUri === undefined ? { ...stored, HttpBootUri: null } : stored;
    if (isPermutationOfOptions(s.BootOrder, this.options)) return s;
    // Other hardware since the order was saved (another --hardware): the ROM keeps the
    // options it still finds in their order and appends the new ones.
    const kept = s.BootOrder.filter((id) => this.options.some((o) => o.id === id));
    const order = [...new Set(kept)];
    for (const o of this.options) if (!order.includes(o.id)) order.push(o.id);
    return { ...s, BootOrder: order };
  }

  update(change: Partial<BootState>): void {
    this.saved.set({ ...this.get(), ...change });
  }

  /** The option the server boots from now: the override, else the first of the boot order (devices without media skipped). */
  bootDevice(): BootOptionDef | undefined {
    return this.choose().option;
  }

  private choose(): { option?: BootOptionDef; missing?: BootOptionDef } {
    const s = this.get();
    const empty = (o: BootOptionDef) => this.media?.mediaIn(o) === null;
    const inOrder = s.BootOrder.map((id) => this.options.find((o) => o.id === id));
    const byAlias = (alias: OverrideTarget) => inOrder.find((o) => o?.alias === alias);
    let missing: BootOptionDef | undefined;
    if (s.BootSourceOverrideEnabled !== 'Disabled' && s.BootSourceOverrideTarget !== 'None') {
      const wanted =
        s.BootSourceOverrideTarget === 'UefiTarget'
          ? this.options.find((o) => o.uefiDevicePath === s.UefiTargetBootSourceOverride)
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
    const s = this.get();
    const { option, missing } = this.choose();
    const next: BootState = { ...s, LastBootOption: option?.id ?? null };
    if (s.BootSourceOverrideEnabled === 'Once') {
      Object.assign(next, { BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideTarget: 'None', UefiTargetBootSourceOverride: null });
    }
    this.saved.set(next);
    this.media?.booted(option, missing);
    if (option?.alias === 'UefiHttp') this.iml?.(vendorMessage('HttpBoot', option.displayName, s.HttpBootUri ?? 'the URI DHCP offers'));
  }
}
