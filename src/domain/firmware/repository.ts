// The component repository: signed packages kept on the controller for later
// installs. Metadata in the store, binaries under <dataDir>/repository/.
// Filename is the key; a component referenced by a task or install set is
// Locked and can be neither replaced nor deleted (docs/update-queue.md).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { vendorRefusal } from '../../messages/refusal.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import type { FlashSource } from './flasher.js';
import { inspectPackage, updatersOf, type Criticality, type ComponentType, type PackageInfo, type Updater } from './package.js';

export interface ComponentRecord {
  Id: string;
  Name: string;
  Filename: string;
  Version: string;
  SizeBytes: number;
  Criticality: Criticality;
  /** Controller time (ms) the component was added. */
  Created: number;
  Activates: string;
  Configuration: string;
  ExecutionParameters: string;
  ComponentType: ComponentType;
  DeviceClasses: string[];
  /** Who may apply it (absent in older stores: what its type implies). */
  UpdatableBy?: Updater[];
  Sha256: string;
  /** Holders of the lock (task or install set URIs); Locked while non-empty. */
  LockedBy: string[];
}

export type ComponentPatch = Partial<Pick<ComponentRecord, 'Criticality' | 'Configuration' | 'ExecutionParameters'>>;

const ACTIVATES: Record<string, string> = {
  Immediate: 'Immediately',
  AfterControllerReset: 'AfterControllerReset',
  AfterServerReboot: 'AfterReboot',
};

/** The longest file name a client may use, in UTF-8 bytes. */
export const MAX_FILENAME_BYTES = 255;

/**
 * Characters no file name may hold besides the path separators: C0 controls,
 * DEL, C1 controls, the bidi marks, embeddings, overrides and isolates (a name
 * that reads differently than it sorts), and unpaired surrogates.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;

/** Names that are members of every plain object (`__proto__`, `constructor`, `toString`...) and `prototype`. */
const RESERVED_FILENAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * A file name a client may use: not empty, not only dots, at most
 * MAX_FILENAME_BYTES of UTF-8, no path separator, nothing UNPRINTABLE, not a
 * reserved name.
 */
export function validFilename(name: string): boolean {
  return (
    name.length > 0 &&
    !/^\.+$/.test(name) &&
    Buffer.byteLength(name, 'utf8') <= MAX_FILENAME_BYTES &&
    !/[/\\]/.test(name) &&
    !name.match(UNPRINTABLE) &&
    !RESERVED_FILENAMES.has(name)
  );
}

/** A name made valid from one nobody checked (a download URL's last segment): bad characters become '_', long names are cut. */
export function safeFilename(raw: string, fallback = 'image.bin'): string {
  let name = '';
  let bytes = 0;
  for (const ch of raw.replace(UNPRINTABLE, '_').replace(/[/\\]/g, '_')) {
    bytes += Buffer.byteLength(ch, 'utf8');
    if (bytes > MAX_FILENAME_BYTES) break;
    name += ch;
  }
  return validFilename(name) ? name : fallback;
}

/** A name as a message may show it: UNPRINTABLE characters written as `\u` escapes. */
export function printableFilename(name: string): string {
  return name.replace(UNPRINTABLE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** Space an upload in flight holds in the repository. */
export interface SpaceReservation {
  set(bytes: number): void;
  release(): void;
}

export class ComponentRepository {
  private readonly docs: DocumentCollection<ComponentRecord>;
  readonly dir: string;
  /** In-flight uploads and partial sections hold space too. */
  private readonly reserved = new Map<string, number>();

  constructor(
    store: DocumentStore,
    dataDir: string,
    readonly totalBytes: number,
  ) {
    this.docs = store.collection('firmware.component');
    this.dir = join(dataDir, 'repository');
    // Made on first use (a fleet's thousand new controllers make none): uploads cut short by a
    // restart or kill -9 leave temp files that nothing refers to.
    const incoming = join(this.dir, '.incoming');
    if (existsSync(incoming)) for (const f of readdirSync(incoming)) rmSync(join(incoming, f), { force: true });
  }

  private made = false;

  /** The repository's directories, made the first time a file is to be written. */
  private ensureDirs(): void {
    if (this.made) return;
    mkdirSync(join(this.dir, '.incoming'), { recursive: true, mode: 0o700 });
    this.made = true;
  }

  /** The components: shared and frozen, parsed once per change of the repository. */
  list(): readonly Readonly<ComponentRecord>[] {
    return this.docs.peekList();
  }

  /** A component, a copy of its own (callers may change it before storing it back). */
  get(filename: string): ComponentRecord | undefined {
    const c = this.docs.peekList().find((x) => x.Filename === filename);
    return c ? structuredClone(c) : undefined;
  }

  /** Who may apply a component. */
  updatableBy(c: Pick<ComponentRecord, 'UpdatableBy' | 'ComponentType'>): Updater[] {
    return c.UpdatableBy ?? [...updatersOf(c.ComponentType)];
  }

  getById(id: string): ComponentRecord | undefined {
    return this.docs.get(id);
  }

  pathOf(c: ComponentRecord): string {
    return join(this.dir, c.Id);
  }

  /** A stored component as the flasher takes it (task queue, install sets, recovery). */
  async flashSource(filename: string): Promise<FlashSource> {
    const c = this.require(filename);
    const path = this.pathOf(c);
    return { path, filename, info: await inspectPackage(path, filename) };
  }

  /** Bytes held by stored components; exact sum of SizeBytes. */
  usedBytes(): number {
    return this.docs.peekList().reduce((n, c) => n + c.SizeBytes, 0);
  }

  /** Where a multi-section upload is assembled; its bytes count as used. */
  partialPath(): string {
    this.ensureDirs();
    return join(this.dir, '.partial');
  }

  /** Bytes the file system holding the repository has free for it (the quota above may promise more). */
  diskFreeBytes(): number {
    const fs = statfsSync(existsSync(this.dir) ? this.dir : dirname(this.dir));
    return fs.bavail * fs.bsize;
  }

  freeBytes(): number {
    let reserved = existsSync(this.partialPath()) ? statSync(this.partialPath()).size : 0;
    for (const n of this.reserved.values()) reserved += n;
    return Math.max(0, this.totalBytes - this.usedBytes() - reserved);
  }

  /** A fresh temp path for an incoming file. */
  incomingPath(): string {
    this.ensureDirs();
    return join(this.dir, '.incoming', randomBytes(12).toString('hex'));
  }

  /**
   * Hold space for an upload in flight: as much as it has received so far (`set` as it grows), so
   * FreeSizeBytes stays the real free space while it streams. Released with `release`.
   */
  reserve(key: string): SpaceReservation {
    this.reserved.set(key, 0);
    return {
      set: (bytes) => {
        if (this.reserved.has(key)) this.reserved.set(key, bytes);
      },
      release: () => this.reserved.delete(key),
    };
  }

  /** Throws when storing `bytes` under `filename` would not fit (replacing frees the old copy). */
  checkSpace(filename: string, bytes: number, reservedKey?: string): void {
    const old = this.get(filename)?.SizeBytes ?? 0;
    const mine = reservedKey ? (this.reserved.get(reservedKey) ?? 0) : 0;
    const free = this.freeBytes() + old + mine;
    if (bytes > free) throw vendorRefusal('RepositoryInsufficientSpace', bytes, free);
  }

  /** Throws ComponentLocked when a component of that name exists and is locked. */
  checkReplaceable(filename: string): void {
    const c = this.get(filename);
    if (c && c.LockedBy.length) throw vendorRefusal('ComponentLocked', filename, c.LockedBy.join(', '));
  }

  /** Move a verified file into the repository, replacing an unlocked one of the same name. */
  add(tmpPath: string, filename: string, size: number, sha256: string, info: PackageInfo, now: number): ComponentRecord {
    this.checkReplaceable(filename);
    this.checkSpace(filename, size);
    const old = this.get(filename);
    const record: ComponentRecord = {
      Id: old?.Id ?? this.idFor(filename),
      Name: info.name,
      Filename: filename,
      Version: info.version,
      SizeBytes: size,
      Criticality: info.criticality,
      Created: now,
      Activates: ACTIVATES[info.activation] ?? info.activation,
      // Host-side settings survive a re-upload of the same file name.
      Configuration: old?.Configuration ?? '',
      ExecutionParameters: old?.ExecutionParameters ?? '',
      ComponentType: info.type,
      DeviceClasses: info.devices.map((d) => d.DeviceClass),
      UpdatableBy: info.updatableBy,
      Sha256: sha256,
      LockedBy: [],
    };
    // The record first: when it cannot be written (a full disk) the file stays where it came from.
    this.docs.put(record.Id, record);
    renameSync(tmpPath, this.pathOf(record));
    return record;
  }

  update(filename: string, patch: ComponentPatch): ComponentRecord {
    const c = this.require(filename);
    const next = { ...c, ...patch };
    this.docs.put(c.Id, next);
    return next;
  }

  delete(filename: string): void {
    this.checkReplaceable(filename);
    const c = this.require(filename);
    this.docs.delete(c.Id);
    rmSync(this.pathOf(c), { force: true });
  }

  /** Mark a component referenced by `holder` (a task or install set URI). */
  lock(filename: string, holder: string): ComponentRecord {
    const c = this.require(filename);
    if (c.LockedBy.includes(holder)) return c;
    const next = { ...c, LockedBy: [...c.LockedBy, holder] };
    this.docs.put(c.Id, next);
    return next;
  }

  unlock(filename: string, holder: string): void {
    const c = this.get(filename);
    if (!c) return;
    this.docs.put(c.Id, { ...c, LockedBy: c.LockedBy.filter((h) => h !== holder) });
  }

  isLocked(filename: string): boolean {
    return (this.get(filename)?.LockedBy.length ?? 0) > 0;
  }

  private require(filename: string): ComponentRecord {
    const c = this.get(filename);
    if (!c) throw vendorRefusal('ComponentNotFound', filename);
    return c;
  }

  /** URI-safe Id: the name with unsafe characters replaced, plus a hash when that changed it or collides. */
  private idFor(filename: string): string {
    const safe = filename.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_');
    if (safe === filename && !this.docs.has(safe)) return safe;
    return `${safe.slice(0, 200)}-${createHash('sha1').update(filename).digest('hex').slice(0, 8)}`;
  }
}
