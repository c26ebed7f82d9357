// The controller's virtual media: a floppy/USB key device and a CD/DVD device
// that present an image read from an HTTP(S) URI to the host. An insert reads
// the whole image through (HEAD, then GET: size limit, time limit, download
// CA) before it answers, so a bad URI fails the request rather than the boot;
// nothing of the image is kept. The media stays in across controller and
// service restarts (EjectPolicy Persistent). At boot the ROM asks which device
// has media (RemovableMedia), and the boot shows in the IML. A client's change
// is announced where it is asked for (the dispatcher for a PATCH, the action
// handlers); this module announces only what the boot changes.
import type { BootOptionDef, OverrideTarget, RemovableMedia } from '../bios/boot.js';
import type { EventBus } from '../events/bus.js';
import type { Downloader } from '../firmware/download.js';
import type { Logs } from '../logs/logs.js';
import { basicAuthorization } from '../../lib/uri-credentials.js';
import { vendorMessage } from '../../messages/errors.js';
import { baseRefusal } from '../../messages/refusal.js';
import { resourceEvent } from '../../messages/event-messages.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';

export const MEDIA_TYPES = ['CD', 'Floppy', 'USBStick', 'DVD'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const TRANSFER_PROTOCOLS = ['HTTP', 'HTTPS'] as const;
export type TransferProtocol = (typeof TRANSFER_PROTOCOLS)[number];

export interface MediaSlot {
  /** Member id, as the vendor numbers them. */
  id: string;
  mediaTypes: readonly MediaType[];
  /** How the IML names the device. */
  label: string;
  /** The boot override target that boots this device. */
  bootTarget: OverrideTarget;
}

export const MEDIA_SLOTS: readonly MediaSlot[] = [
  { id: '1', mediaTypes: ['Floppy', 'USBStick'], label: 'floppy/USB key', bootTarget: 'Usb' },
  { id: '2', mediaTypes: ['CD', 'DVD'], label: 'CD/DVD', bootTarget: 'Cd' },
];

/** What a device holds; no record means empty. */
export interface MediaRecord {
  Image: string;
  ImageName: string;
  /** Visible to the host (false: connected but not presented). */
  Inserted: boolean;
  WriteProtected: boolean;
  TransferProtocolType: TransferProtocol;
  UserName: string | null;
  /** Boot from this media once, at the next server reset (vendor). */
  BootOnNextServerReset: boolean;
  /** Bytes read at insert. */
  Size: number;
}

export interface InsertRequest {
  image: URL;
  inserted?: boolean;
  writeProtected?: boolean;
  userName?: string;
  /** Used for the read and not kept: nothing reads the image again. */
  password?: string;
}

export interface VirtualMediaDeps {
  store: DocumentStore;
  downloader: Pick<Downloader, 'read'>;
  /** Largest image accepted, bytes. */
  maxBytes: number;
  logs: Logs;
  events: EventBus;
  /** Where the manager's resources are (lib/resource-uris.ts, handed in). */
  uris: { manager(...segments: string[]): string };
}

/** The name an image goes by: the last segment of its path (the host when it has none). */
export function imageNameOf(u: URL): string {
  const last = u.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || u.hostname;
  } catch {
    return last;
  }
}

export class VirtualMedia implements RemovableMedia {
  private readonly docs: DocumentCollection<MediaRecord>;
  /** Devices with an insert under way. */
  private readonly loading = new Set<string>();

  constructor(private readonly d: VirtualMediaDeps) {
    this.docs = d.store.collection<MediaRecord>('virtualMedia');
  }

  slots(): readonly MediaSlot[] {
    return MEDIA_SLOTS;
  }

  slot(id: string): MediaSlot | undefined {
    return MEDIA_SLOTS.find((s) => s.id === id);
  }

  media(id: string): Readonly<MediaRecord> | undefined {
    return this.docs.peek(id);
  }

  uri(id: string): string {
    return this.d.uris.manager('VirtualMedia', id);
  }

  /**
   * Read the image through, then connect it (replacing what the device held,
   * which stays if the read fails). Refused with ResourceInUse while another
   * insert or an eject of the device runs, ImageDownloadFailed with the reason.
   */
  async insert(id: string, req: InsertRequest, by: string): Promise<MediaRecord> {
    this.claim(id);
    try {
      const headers: Record<string, string> = {};
      if (req.userName !== undefined) headers.authorization = basicAuthorization(req.userName, req.password ?? '');
      const image = req.image.href;
      const read = await this.d.downloader.read(image, { head: true, headers, maxBytes: this.d.maxBytes });
      const record: MediaRecord = {
        Image: image,
        ImageName: imageNameOf(req.image),
        Inserted: req.inserted ?? true,
        WriteProtected: req.writeProtected ?? true,
        TransferProtocolType: req.image.protocol === 'https:' ? 'HTTPS' : 'HTTP',
        UserName: req.userName ?? null,
        BootOnNextServerReset: false,
        Size: read.size,
      };
      this.docs.put(id, record);
      this.d.logs.write('IEL', vendorMessage('VirtualMediaInserted', record.ImageName, id, by), this.uri(id));
      return record;
    } finally {
      this.loading.delete(id);
    }
  }

  /** Disconnect the image; false when the device was empty. */
  eject(id: string, by: string): boolean {
    this.claim(id);
    this.loading.delete(id);
    const m = this.docs.peek(id);
    if (!m) return false;
    this.docs.delete(id);
    this.d.logs.write('IEL', vendorMessage('VirtualMediaEjected', m.ImageName, id, by), this.uri(id));
    return true;
  }

  /** Change what a connected image shows; the caller checked there is one. */
  update(id: string, change: Partial<Pick<MediaRecord, 'Inserted' | 'WriteProtected' | 'BootOnNextServerReset'>>): void {
    const m = this.docs.get(id);
    if (m) this.docs.put(id, { ...m, ...change });
  }

  // -- RemovableMedia: asked by the boot ---------------------------------------

  mediaIn(option: BootOptionDef): string | null | undefined {
    const slot = MEDIA_SLOTS.find((s) => s.bootTarget === option.alias);
    if (!slot) return undefined;
    const m = this.docs.peek(slot.id);
    return m?.Inserted ? m.ImageName : null;
  }

  bootNext(): OverrideTarget | undefined {
    return MEDIA_SLOTS.find((s) => {
      const m = this.docs.peek(s.id);
      return m?.Inserted && m.BootOnNextServerReset;
    })?.bootTarget;
  }

  booted(option: BootOptionDef | undefined, missing: BootOptionDef | undefined): void {
    if (missing) {
      const slot = MEDIA_SLOTS.find((s) => s.bootTarget === missing.alias);
      this.d.logs.write('IML', vendorMessage('BootDeviceMissing', missing.displayName), slot && this.uri(slot.id));
    }
    const slot = option && MEDIA_SLOTS.find((s) => s.bootTarget === option.alias);
    const m = slot && this.docs.peek(slot.id);
    if (slot && m?.Inserted) this.d.logs.write('IML', vendorMessage('VirtualMediaBoot', slot.label, m.ImageName), this.uri(slot.id));
    // BootOnNextServerReset is for one reset, used or not.
    for (const s of MEDIA_SLOTS) {
      if (!this.docs.peek(s.id)?.BootOnNextServerReset) continue;
      this.update(s.id, { BootOnNextServerReset: false });
      this.d.events.publish(resourceEvent('ResourceChanged'), this.uri(s.id), 'ResourceUpdated');
    }
  }

  private claim(id: string): void {
    if (this.loading.has(id)) throw baseRefusal('ResourceInUse');
    this.loading.add(id);
  }
}
