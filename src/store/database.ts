// The embedded database, in WAL mode. With synchronous=NORMAL (the default
// durability, 'crash') a committed write is in the WAL file, handed to the
// operating system, before it returns: it survives kill -9 of the process,
// though not a power loss. 'power-loss' (synchronous=FULL) syncs every commit.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { asDatabaseError } from './startup-check.js';

export type Db = Database.Database;

/** What the store's users need of a statement: a plain one, or a pooled connection's (store/database-pool.ts). */
export interface SqlStatement {
  run(...params: unknown[]): Database.RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  pluck(toggle?: boolean): this;
}

/**
 * What the store's users need of a connection: a plain better-sqlite3 one, or a pooled one that
 * its pool closes while it is idle and that opens again when next used (a fleet's).
 */
export interface SqlConnection {
  prepare(sql: string): SqlStatement;
  pragma(source: string): unknown;
  /** Until close(): a pooled connection resting in its pool is still open in this sense. */
  readonly open: boolean;
  readonly inTransaction: boolean;
  readonly memory: boolean;
  /** Closed by its pool until next used (nothing uncommitted then); a plain connection never is. */
  readonly resting?: boolean;
  /** Bumped at each opening of the file: per-connection counters (total_changes()) start again. */
  readonly opening?: number;
  close(): void;
}

export interface Migration {
  /** Stable, unique name, e.g. "core-001-documents". Applied once, in list order. */
  readonly id: string;
  readonly sql: string;
}

const CORE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'core-001-documents',
    sql: `
      CREATE TABLE document (
        kind TEXT NOT NULL,
        id   TEXT NOT NULL,
        seq  INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      );
      CREATE INDEX document_kind_seq ON document (kind, seq);
      CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];

/**
 * Opens (creating if needed) the database at path, or in memory for ':memory:'.
 * The file is 0600; SQLite gives its -wal and -shm files the database file's mode.
 * `now` (ms since the epoch, the controller clock) dates the migrations it applies.
 */
/** What an acknowledged write survives: the process being killed (crash), or the machine losing power too. */
export type Durability = 'crash' | 'power-loss';

export function openDatabase(
  path: string,
  now: () => number,
  extraMigrations: readonly Migration[] = [],
  durability: Durability = 'crash',
  /** A new database starts as a copy of this one (a fleet's: migrated once, not once per controller). */
  template?: string,
  /** Runs first on the new connection, before its settings change anything (checkDatabase's onOpen). */
  check?: (db: Db) => void,
): Db {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (template && !existsSync(path)) {
      // Whole or not at all: a start killed mid-copy leaves no half database behind. The copy
      // has the template's 0600 (made below), and no -wal or -shm yet.
      copyFileSync(template, `${path}.new`);
      renameSync(`${path}.new`, path);
    } else {
      closeSync(openSync(path, 'a', 0o600));
      // A database (and the -wal/-shm a kill left) from an older version may be 0644. Changed only
      // then: a chmod is a write of the inode, ten thousand of them in a fleet's restart.
      for (const f of [path, `${path}-wal`, `${path}-shm`]) {
        const mode = statSync(f, { throwIfNoEntry: false })?.mode;
        if (mode !== undefined && (mode & 0o777) !== 0o600) chmodSync(f, 0o600);
      }
    }
  }
  const db = connect(path, durability, check);
  try {
    migrate(db, [...CORE_MIGRATIONS, ...extraMigrations], now);
  } catch (e) {
    db.close();
    throw asDatabaseError(e, path);
  }
  return db;
}

/** A connection to a database that exists and is migrated (openDatabase made it), with the connection's settings. */
export function connect(path: string, durability: Durability = 'crash', check?: (db: Db) => void): Db {
  const db = new Database(path);
  try {
    check?.(db);
    // Durability first: switching a new file to WAL is itself a commit.
    db.pragma(durability === 'power-loss' ? 'synchronous = FULL' : 'synchronous = NORMAL');
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // Deleted and overwritten content is zeroed where that costs no extra I/O, so a value
    // rewritten in place (a plain secret sealed at start) leaves no copy behind.
    db.pragma('secure_delete = FAST');
    // SQLite checkpoints inside a commit once the WAL holds this many pages: two fsyncs on the event
    // loop each time. At its default (1,000) a stream of PATCHes paid one every few thousand writes,
    // half of what their commits cost; the checkpointer below empties the WAL every 10 s anyway.
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  } catch (e) {
    db.close();
    throw asDatabaseError(e, path);
  }
  return db;
}

/**
 * The most of its database a connection keeps in memory, KiB (SQLite's default here: 16 MiB). Reads come
 * from the document store's copy, so the cache serves only the B-tree descents of writes, a few pages.
 * Unbounded, it kept every page the event log grew to (1,000 to 2,000 events, about 1 MiB, per
 * controller), held in glibc's heap: a fleet of 1,000 under load grew by the size of its event logs.
 */
export const PAGE_CACHE_KIB = 64;

/** Pages (4 KiB) the WAL may hold before a commit checkpoints it: 40 MiB, written within 10 s only under a stream of writes. */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** How often committed transactions are copied from the WAL into the database file (when there were any). */
export const CHECKPOINT_INTERVAL_MS = 10_000;

/**
 * A checkpoint that copies what was committed since the last one into the database file and empties
 * the WAL. SQLite checkpoints by itself only once the WAL holds WAL_AUTOCHECKPOINT_PAGES: a quiet controller's
 * data would otherwise live in the WAL alone, where a damaged or cut file loses it. Skipped while a
 * transaction is open (a group commit's) and when nothing was written; a failure (a full disk) is
 * reported once and tried again next time. Under crash durability it does not sync: what it copies
 * is committed and already the operating system's, which is all kill -9 needs, and its two fsyncs
 * held the event loop (a fleet of 1,000 checkpointing after its metric reports stopped answering
 * for seconds on a busy disk). Power-loss durability keeps them.
 */
export function checkpointer(db: SqlConnection, onError: (e: unknown) => void, durability: Durability = 'crash'): () => void {
  const changes = db.prepare('SELECT total_changes()').pluck();
  let checkpointed = changes.get() as number;
  let opening = db.opening;
  let failing = false;
  return () => {
    // A resting pooled connection was checkpointed as it closed; not opened again for this.
    if (!db.open || db.inTransaction || db.resting) return;
    // A connection opened again counts its changes from 0, and its closing checkpointed the rest.
    if (db.opening !== opening) [opening, checkpointed] = [db.opening, 0];
    const now = changes.get() as number;
    if (now === checkpointed) return;
    try {
      if (durability === 'crash') {
        db.pragma('synchronous = OFF');
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } finally {
          db.pragma('synchronous = NORMAL');
        }
      } else db.pragma('wal_checkpoint(TRUNCATE)');
      checkpointed = now;
      failing = false;
    } catch (e) {
      if (!failing) onError(e);
      failing = true;
    }
  };
}

function migrate(db: Db, migrations: readonly Migration[], now: () => number): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migration (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT id FROM schema_migration').all() as { id: string }[]).map((r) => r.id));
  const pending = migrations.filter((m) => !applied.has(m.id));
  // Most starts have none to apply: no statements prepared for them (a fleet opens ten thousand databases).
  if (pending.length === 0) return;
  const record = db.prepare('INSERT INTO schema_migration (id, applied_at) VALUES (?, ?)');
  // All or none, in one commit: a start killed half-way applies them again, whole.
  atomically(db, () => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.id, new Date(now()).toISOString());
    }
  });
}

const transactionStatements = new WeakMap<
  SqlConnection,
  Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', SqlStatement>
>();

/**
 * Run fn atomically: a transaction of its own, or a savepoint inside the one that is open
 * (a group commit's). Unlike db.transaction(fn)(), it makes no new wrapper per call.
 */
export function atomically<R>(db: SqlConnection, fn: () => R): R {
  let s = transactionStatements.get(db);
  if (!s) {
    s = {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT atomically'),
      release: db.prepare('RELEASE atomically'),
      rollbackTo: db.prepare('ROLLBACK TO atomically'),
    };
    transactionStatements.set(db, s);
  }
  const nested = db.inTransaction;
  (nested ? s.savepoint : s.begin).run();
  try {
    const result = fn();
    (nested ? s.release : s.commit).run();
    return result;
  } catch (e) {
    // SQLite may have rolled back already (some errors end the transaction themselves).
    if (db.inTransaction) {
      if (nested) {
        s.rollbackTo.run();
        s.release.run();
      } else s.rollback.run();
    }
    throw e;
  }
}
