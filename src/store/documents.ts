// Typed access to JSON documents grouped by kind, kept in insertion order.
// Most state (accounts, subscriptions, components, tasks...) fits this shape.
import { deepFreeze, frozenCopy } from '../lib/freeze.js';
import { atomically, type SqlConnection } from './database.js';
import type { Batches } from './group-commit.js';
import { Secrets } from './secrets.js';

export interface DocumentCollection<T> {
  /** A private copy of the document: the caller may change it. */
  get(id: string): T | undefined;
  /** The document itself, shared and deeply frozen: for reads on hot paths. */
  peek(id: string): Readonly<T> | undefined;
  /** All documents in insertion order, shared and deeply frozen, like peek(). */
  peekList(): readonly Readonly<T>[];
  has(id: string): boolean;
  /** All documents in insertion order. */
  list(): T[];
  ids(): string[];
  count(): number;
  /** Insert or replace; a replaced document keeps its position. */
  put(id: string, doc: T): void;
  /** Replace the id of a document, keeping its position. */
  rename(oldId: string, newId: string, doc: T): void;
  delete(id: string): boolean;
  clear(): void;
}

export interface Setting<T> {
  get(): T;
  peek(): Readonly<T>;
  set(value: T): void;
}

interface Kind {
  rows: Map<string, Row>;
  maxSeq: number;
  /** peekList()'s answer, until the next write of this kind. */
  frozenList?: readonly unknown[];
}

interface Row {
  seq: number;
  body: string;
  /** The parsed body, frozen, once peek() asked for it. */
  frozen?: unknown;
}

function statements(db: SqlConnection) {
  return {
    load: db.prepare('SELECT id, seq, body FROM document WHERE kind = ? ORDER BY seq'),
    upsert: db.prepare(
      `INSERT INTO document (kind, id, seq, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body`,
    ),
    renameDoc: db.prepare('UPDATE document SET id = ?, body = ? WHERE kind = ? AND id = ?'),
    del: db.prepare('DELETE FROM document WHERE kind = ? AND id = ?'),
    clear: db.prepare('DELETE FROM document WHERE kind = ?'),
    allSettings: db.prepare('SELECT key, value FROM setting'),
    putSetting: db.prepare('INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
  };
}

type Statements = ReturnType<typeof statements>;

/** What a store's collections and settings use of it. */
interface StoreAccess {
  readonly stmts: Statements;
  /** A kind's in-memory copy, loaded on first use (and again after a rollback dropped it). */
  kind(kind: string): Kind;
  /** Counts a write (DocumentStore.generation). */
  changed(): void;
  settingText(key: string): string | undefined;
  storeSetting(key: string, text: string): void;
}

const parsed = <T>(row: Row): T => JSON.parse(row.body) as T;

/** A kind's documents: its methods are the class's, so a collection is one small object. */
class KindCollection<T> implements DocumentCollection<T> {
  constructor(
    private readonly store: StoreAccess,
    private readonly name: string,
  ) {}

  private rows(): Map<string, Row> {
    return this.store.kind(this.name).rows;
  }

  get(id: string): T | undefined {
    const row = this.rows().get(id);
    return row ? parsed<T>(row) : undefined;
  }

  peek(id: string): Readonly<T> | undefined {
    const row = this.rows().get(id);
    if (!row) return undefined;
    row.frozen ??= deepFreeze(JSON.parse(row.body));
    return row.frozen as Readonly<T>;
  }

  peekList(): readonly Readonly<T>[] {
    const k = this.store.kind(this.name);
    k.frozenList ??= Object.freeze([...k.rows.values()].map((row) => (row.frozen ??= deepFreeze(JSON.parse(row.body)))));
    return k.frozenList as readonly Readonly<T>[];
  }

  has(id: string): boolean {
    return this.rows().has(id);
  }

  list(): T[] {
    return [...this.rows().values()].map((row) => parsed<T>(row));
  }

  ids(): string[] {
    return [...this.rows().keys()];
  }

  count(): number {
    return this.rows().size;
  }

  put(id: string, doc: T): void {
    const k = this.store.kind(this.name);
    const body = JSON.stringify(doc);
    const existing = k.rows.get(id);
    const seq = existing?.seq ?? k.maxSeq + 1;
    this.store.stmts.upsert.run(this.name, id, seq, body);
    this.store.changed();
    k.frozenList = undefined;
    if (existing) {
      existing.body = body;
      existing.frozen = undefined;
    } else {
      k.rows.set(id, { seq, body });
      k.maxSeq = seq;
    }
  }

  rename(oldId: string, newId: string, doc: T): void {
    const k = this.store.kind(this.name);
    const body = JSON.stringify(doc);
    this.store.stmts.renameDoc.run(newId, body, this.name, oldId);
    this.store.changed();
    k.rows = new Map([...k.rows].map(([id, row]) => (id === oldId ? [newId, { seq: row.seq, body }] : [id, row])));
    k.frozenList = undefined;
  }

  delete(id: string): boolean {
    const removed = this.store.stmts.del.run(this.name, id).changes > 0;
    this.store.changed();
    const k = this.store.kind(this.name);
    k.rows.delete(id);
    k.frozenList = undefined;
    return removed;
  }

  clear(): void {
    this.store.stmts.clear.run(this.name);
    this.store.changed();
    const k = this.store.kind(this.name);
    k.rows.clear();
    k.frozenList = undefined;
  }
}

/** A setting: a class's methods, so one small object per setting. */
class StoredSetting<T> implements Setting<T> {
  /** peek()'s value and the stored text it was made from. */
  private frozen?: { text: string | undefined; value: Readonly<T> };

  constructor(
    private readonly store: StoreAccess,
    private readonly key: string,
    private readonly def: T,
  ) {}

  get(): T {
    const t = this.store.settingText(this.key);
    return t === undefined ? this.def : (JSON.parse(t) as T);
  }

  peek(): Readonly<T> {
    const t = this.store.settingText(this.key);
    // Compared by the stored text, so a rolled-back transaction is seen too.
    if (!this.frozen || this.frozen.text !== t)
      this.frozen = { text: t, value: t === undefined ? frozenCopy(this.def) : deepFreeze(JSON.parse(t) as T) };
    return this.frozen.value;
  }

  set(value: T): void {
    this.store.storeSetting(this.key, JSON.stringify(value));
  }
}

/**
 * Writes go to SQLite synchronously (committed before they return, or with the
 * turn's group commit: store/group-commit.ts); reads come
 * from an in-memory copy of each kind, loaded on first use. A transaction that
 * throws drops the copies, so they never show a rolled-back write.
 */
export class DocumentStore implements Batches {
  private readonly stmts: Statements;
  /** What the store's collections and settings reach of it: one object per store, not closures per collection. */
  private readonly access: StoreAccess;
  private readonly kinds = new Map<string, Kind>();
  /** Every stored setting's text, once the first setting is read (all at once: a fleet's resting database is not opened again for one). */
  private readonly settings = new Map<string, string>();
  private settingsLoaded = false;
  /** Settings written in the open batch, stored once as it commits: the requests of a turn often write the same one. */
  private readonly heldSettings = new Map<string, string>();
  private batches?: Batches;
  private secretKey?: Secrets;
  private readonly loadSecrets?: () => Secrets;
  private changes = 0;

  /**
   * secrets: the data dir's key (store/secrets.ts), or how to load it when first asked for; an
   * in-memory database gets a key of its own.
   */
  constructor(
    readonly db: SqlConnection,
    secrets?: Secrets | (() => Secrets),
  ) {
    if (typeof secrets === 'function') this.loadSecrets = secrets;
    else this.secretKey = secrets ?? (db.memory ? Secrets.ephemeral() : undefined);
    this.stmts = statements(db);
    this.access = {
      stmts: this.stmts,
      kind: (kind) => this.kind(kind),
      changed: () => void this.changes++,
      settingText: (key) => this.loadSettings().get(key),
      storeSetting: (key, text) => this.storeSetting(key, text),
    };
  }

  /**
   * Bumped by every write (and rollback): representations built from stored state are
   * current while it is unchanged (lib/memo.ts keys).
   */
  get generation(): number {
    return this.changes;
  }

  /** Writes may be held for the end of the open batch (the group commit's, store/group-commit.ts). */
  useBatches(batches: Batches): void {
    this.batches = batches;
  }

  defer(flush: () => void, drop: () => void): boolean {
    return this.batches?.defer(flush, drop) ?? false;
  }

  private readonly storeHeldSettings = (): void => {
    for (const [key, text] of this.heldSettings) this.stmts.putSetting.run(key, text);
    this.heldSettings.clear();
  };

  /** A lost batch's settings (its rollback's dropCopies() forgets what reads showed of them). */
  private readonly dropHeldSettings = (): void => this.heldSettings.clear();

  /** Every stored setting's text (read once). */
  private loadSettings(): Map<string, string> {
    if (!this.settingsLoaded) {
      for (const r of this.stmts.allSettings.all() as { key: string; value: string }[]) this.settings.set(r.key, r.value);
      this.settingsLoaded = true;
    }
    return this.settings;
  }

  private storeSetting(key: string, text: string): void {
    // Loaded first: a later load must not bring back the stored value over a held one.
    const settings = this.loadSettings();
    if (this.defer(this.storeHeldSettings, this.dropHeldSettings)) this.heldSettings.set(key, text);
    else this.stmts.putSetting.run(key, text);
    this.changes++;
    settings.set(key, text);
  }

  /** Seals the values areas keep secret at rest (listener headers, CHAP secrets, license keys). */
  get secrets(): Secrets {
    this.secretKey ??= this.loadSecrets?.();
    if (!this.secretKey) throw new Error('this document store was opened without a secrets key');
    return this.secretKey;
  }

  private kind(kind: string): Kind {
    let k = this.kinds.get(kind);
    if (!k) {
      const rows = new Map<string, Row>();
      let maxSeq = 0;
      for (const r of this.stmts.load.all(kind) as { id: string; seq: number; body: string }[]) {
        rows.set(r.id, { seq: r.seq, body: r.body });
        maxSeq = Math.max(maxSeq, r.seq);
      }
      k = { rows, maxSeq };
      this.kinds.set(kind, k);
    }
    return k;
  }

  /** The documents of a kind (one small object: a controller holds dozens, a fleet a controller's dozens thousands of times). */
  collection<T>(kind: string): DocumentCollection<T> {
    return new KindCollection<T>(this.access, kind);
  }

  /**
   * A single JSON value under a key; falls back to def when absent. get() returns
   * a private copy; peek() the value itself, shared and deeply frozen, the same
   * object until the next set().
   */
  setting<T>(key: string, def: T): Setting<T> {
    return new StoredSetting(this.access, key, def);
  }

  /** Run fn atomically: all of its writes land, or none. */
  transaction<R>(fn: () => R): R {
    // What the batch held so far goes in before: a rollback of fn's writes drops only those.
    this.storeHeldSettings();
    try {
      return atomically(this.db, fn);
    } catch (e) {
      this.dropCopies();
      throw e;
    }
  }

  /** Forget the in-memory copies (they may hold writes that were just rolled back); reloaded on next use. */
  dropCopies(): void {
    this.changes++;
    this.kinds.clear();
    this.settings.clear();
    this.heldSettings.clear();
    this.settingsLoaded = false;
  }
}
