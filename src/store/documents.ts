// Typed access to JSON documents grouped by kind, kept in insertion order.
// Most state (accounts, subscriptions, components, tasks...) fits this shape.
import type { Db } from './database.js';

export interface DocumentCollection<T> {
  get(id: string): T | undefined;
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

export class DocumentStore {
  private readonly stmts;

  constructor(readonly db: Db) {
    this.stmts = {
      get: db.prepare('SELECT body FROM document WHERE kind = ? AND id = ?'),
      list: db.prepare('SELECT body FROM document WHERE kind = ? ORDER BY seq'),
      ids: db.prepare('SELECT id FROM document WHERE kind = ? ORDER BY seq'),
      count: db.prepare('SELECT COUNT(*) AS n FROM document WHERE kind = ?'),
      maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS s FROM document WHERE kind = ?'),
      upsert: db.prepare(
        `INSERT INTO document (kind, id, seq, body) VALUES (?, ?, ?, ?)
         ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body`,
      ),
      renameDoc: db.prepare('UPDATE document SET id = ?, body = ? WHERE kind = ? AND id = ?'),
      del: db.prepare('DELETE FROM document WHERE kind = ? AND id = ?'),
      clear: db.prepare('DELETE FROM document WHERE kind = ?'),
      getSetting: db.prepare('SELECT value FROM setting WHERE key = ?'),
      putSetting: db.prepare(
        'INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
  }

  collection<T>(kind: string): DocumentCollection<T> {
    const s = this.stmts;
    const parse = (row: unknown): T => JSON.parse((row as { body: string }).body) as T;
    return {
      get: (id) => {
        const row = s.get.get(kind, id);
        return row ? parse(row) : undefined;
      },
      has: (id) => s.get.get(kind, id) !== undefined,
      list: () => s.list.all(kind).map(parse),
      ids: () => (s.ids.all(kind) as { id: string }[]).map((r) => r.id),
      count: () => (s.count.get(kind) as { n: number }).n,
      put: (id, doc) => {
        const seq = (s.maxSeq.get(kind) as { s: number }).s + 1;
        s.upsert.run(kind, id, seq, JSON.stringify(doc));
      },
      rename: (oldId, newId, doc) => {
        s.renameDoc.run(newId, JSON.stringify(doc), kind, oldId);
      },
      delete: (id) => s.del.run(kind, id).changes > 0,
      clear: () => {
        s.clear.run(kind);
      },
    };
  }

  /** A single JSON value under a key; falls back to def when absent. */
  setting<T>(key: string, def: T): { get(): T; set(value: T): void } {
    const s = this.stmts;
    return {
      get: () => {
        const row = s.getSetting.get(key) as { value: string } | undefined;
        return row ? (JSON.parse(row.value) as T) : def;
      },
      set: (value) => {
        s.putSetting.run(key, JSON.stringify(value));
      },
    };
  }

  /** Run fn atomically: all of its writes land, or none. */
  transaction<R>(fn: () => R): R {
    return this.db.transaction(fn)();
  }
}
