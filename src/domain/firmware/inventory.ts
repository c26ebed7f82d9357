// Firmware and software inventory: what is installed, at which version.
// Persisted; versions change only when the flasher writes an image.
import { createHash } from 'node:crypto';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { CONTROLLER_FIRMWARE } from '../../lib/oem-token.js';

export type InventoryKind = 'firmware' | 'software';

export interface InventoryItem {
  Id: string;
  kind: InventoryKind;
  Name: string;
  Version: string;
  Updateable: boolean;
  DeviceClass?: string;
  /** Vendor target GUIDs a component must name to apply here. */
  Targets: string[];
  /** SHA-256 of the image that was flashed (the integrity scan's reference). */
  ImageDigest: string;
  /** Simulated flash contents no longer match ImageDigest (injected corruption). */
  Corrupted?: boolean;
  /** A flash written but not active yet: applied at the next server boot, or at the next controller reset (`At`). */
  Pending?: PendingImage;
  ReleaseDate?: string;
}

/** Where inventory items are (lib/resource-uris.ts, handed in). */
export interface InventoryUris {
  firmwareInventory(id: string): string;
  softwareInventory(id: string): string;
}

/** A staged image. */
export interface PendingImage {
  Version: string;
  ImageDigest: string;
  Component: string;
  /** The reset that activates it: the server's (POST; absent in older stores) or the controller's. */
  At?: 'ServerReset' | 'ControllerReset';
  /** The task of an OnTargetReset update, completed when its last image activates. */
  TaskId?: string;
}

/** The factory contents of a new controller. */
/** The backup copy of the system ROM the server keeps (not updateable by itself): the system's Bios/Backup. */
export const REDUNDANT_ROM = 'Redundant System ROM';

const FACTORY: Omit<InventoryItem, 'ImageDigest' | 'Targets'>[] = [
  {
    Id: '1',
    kind: 'firmware',
    Name: CONTROLLER_FIRMWARE,
    Version: '1.40',
    Updateable: true,
    DeviceClass: 'BMC',
    ReleaseDate: '2026-03-12T00:00:00Z',
  },
  {
    Id: '2',
    kind: 'firmware',
    Name: 'System ROM',
    Version: 'U30 v2.60',
    Updateable: true,
    DeviceClass: 'SystemROM',
    ReleaseDate: '2026-02-02T00:00:00Z',
  },
  { Id: '3', kind: 'firmware', Name: 'System Programmable Logic Device', Version: '0x2A', Updateable: true, DeviceClass: 'CPLD' },
  {
    Id: '4',
    kind: 'firmware',
    Name: 'Server Platform Services (SPS) Firmware',
    Version: '4.1.4.505',
    Updateable: true,
    DeviceClass: 'SPS',
  },
  { Id: '5', kind: 'firmware', Name: 'Innovation Engine (IE) Firmware', Version: '0.2.2.0', Updateable: true, DeviceClass: 'IE' },
  { Id: '6', kind: 'firmware', Name: 'Power Management Controller Firmware', Version: '1.0.7', Updateable: true, DeviceClass: 'PMC' },
  { Id: '7', kind: 'firmware', Name: 'Vendor Ethernet 10/25Gb 2-port Adapter', Version: '20.14.62', Updateable: true, DeviceClass: 'NIC' },
  { Id: '8', kind: 'firmware', Name: 'Vendor Smart Array P408i-a SR', Version: '3.53', Updateable: true, DeviceClass: 'StorageController' },
  { Id: '9', kind: 'firmware', Name: REDUNDANT_ROM, Version: 'U30 v2.52', Updateable: false },
  { Id: '1', kind: 'software', Name: 'Vendor Agentless Management Service', Version: '2.10.0', Updateable: true, DeviceClass: 'AMS' },
  { Id: '2', kind: 'software', Name: 'Vendor Smart Update Tool', Version: '2.9.0', Updateable: true, DeviceClass: 'SUT' },
  { Id: '3', kind: 'software', Name: 'Intelligent Provisioning', Version: '3.60', Updateable: true, DeviceClass: 'IP' },
];

/** Device classes a controller leaves the factory with (the ones a fleet manifest may give versions of). */
export const FACTORY_DEVICE_CLASSES: readonly string[] = FACTORY.flatMap((f) => (f.DeviceClass ? [f.DeviceClass] : []));

/** Items the firmware integrity scan verifies (docs/firmware-packages.md). */
export const VERIFIED_CLASSES = ['BMC', 'SystemROM', 'CPLD', 'SPS', 'IE'] as const;

/** The target GUID of a device class: what the inventory shows (Oem/<vendor>/Targets) and iLO-layout packages name. */
export function targetGuid(deviceClass: string): string {
  const h = createHash('sha256').update(`vendor-target:${deviceClass}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function factoryDigest(name: string, version: string): string {
  return createHash('sha256').update(`factory:${name}:${version}`).digest('hex');
}

export class Inventory {
  private readonly docs: Record<InventoryKind, DocumentCollection<InventoryItem>>;
  private readonly listeners: ((item: InventoryItem) => void)[] = [];
  /** byDeviceClass's answers, for the lists (shared, frozen) they were found in. */
  private classes?: {
    firmware: readonly Readonly<InventoryItem>[];
    software: readonly Readonly<InventoryItem>[];
    found: Map<string, readonly Readonly<InventoryItem>[]>;
  };

  /** `factoryVersions` (device class → version) replaces the factory versions of a new controller (a fleet manifest's). */
  constructor(
    store: DocumentStore,
    private readonly uris: InventoryUris,
    factoryVersions: Readonly<Record<string, string>> = {},
  ) {
    this.docs = { firmware: store.collection('firmware.inventory'), software: store.collection('software.inventory') };
    const missing = FACTORY.filter((f) => !this.docs[f.kind].has(f.Id));
    // A new controller's inventory in one commit.
    if (missing.length)
      store.transaction(() => {
        for (const f of missing) {
          const targets = f.DeviceClass ? [targetGuid(f.DeviceClass)] : [];
          const Version = (f.DeviceClass && factoryVersions[f.DeviceClass]) || f.Version;
          this.docs[f.kind].put(f.Id, { ...f, Version, Targets: targets, ImageDigest: factoryDigest(f.Name, Version) });
        }
      });
  }

  list(kind: InventoryKind): InventoryItem[] {
    return this.docs[kind].list();
  }

  get(kind: InventoryKind, id: string): InventoryItem | undefined {
    return this.docs[kind].get(id);
  }

  /**
   * The items of a device class (firmware first, then software), shared and frozen. Found again
   * only when the inventory changes: the system ROM's version is asked at every GET of a system.
   */
  byDeviceClass(deviceClass: string): readonly Readonly<InventoryItem>[] {
    const firmware = this.docs.firmware.peekList();
    const software = this.docs.software.peekList();
    if (this.classes?.firmware !== firmware || this.classes.software !== software) this.classes = { firmware, software, found: new Map() };
    let items = this.classes.found.get(deviceClass);
    if (!items) {
      items = Object.freeze([...firmware, ...software].filter((i) => i.DeviceClass === deviceClass));
      this.classes.found.set(deviceClass, items);
    }
    return items;
  }

  controllerVersion(): string {
    return this.byDeviceClass('BMC')[0]?.Version ?? 'unknown';
  }

  save(item: InventoryItem): void {
    this.docs[item.kind].put(item.Id, item);
    for (const fn of this.listeners) fn(item);
  }

  onChange(fn: (item: InventoryItem) => void): void {
    this.listeners.push(fn);
  }

  /** The item's URI, which logs, events and messages name. */
  uri(item: Pick<InventoryItem, 'kind' | 'Id'>): string {
    return item.kind === 'firmware' ? this.uris.firmwareInventory(item.Id) : this.uris.softwareInventory(item.Id);
  }
}

/** Numeric comparison of dotted versions ("2.10" > "2.9"); non-numeric parts compare as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^[^\d]*/, '').split(/[.\-_]/);
  const pb = b.replace(/^[^\d]*/, '').split(/[.\-_]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    const c = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    if (c !== 0) return c;
  }
  return 0;
}
