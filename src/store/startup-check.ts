// The database's check before the service opens it for writing. SQLite alone would start an
// empty controller over a missing, empty or damaged file, silently drop what it cannot replay of
// the write-ahead log and overwrite it with the next write, and find a damaged page only when a
// read reaches it. Here: the log is read first (store/wal.ts), a log SQLite would ignore, or a
// database that is gone while the controller's keys are still there, stops the start, and the
// database passes SQLite's quick_check on a read-only connection (which neither checkpoints nor
// rewrites anything, so a refused start leaves every file as it found it).
import Database from 'better-sqlite3';
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DataFileError, asDataFileError } from '../lib/data-file-error.js';
import { inspectWal, type WalReport } from './wal.js';

export interface DatabaseCheck {
  /** The write-ahead log as recovery replays it (non-empty after an unclean stop). */
  wal: WalReport;
  /** Where the database and its log were copied before recovery drops what it cannot replay. */
  keptIn?: string;
  /**
   * The check still to run, on the connection that opens the database for the service, before
   * anything else runs on it (openDatabase): set when there is no log to replay.
   */
  onOpen?: (db: Database.Database) => void;
}

export interface CheckOptions {
  /** Files in the data dir that only a controller that has started makes (its keys): the database must be there too. */
  controllerFiles: readonly string[];
  /** Controller time (ms), for the name of the folder damaged files are copied to. */
  now: number;
}

const UNREPLAYABLE_REMEDY =
  'Restore the database and its -wal file from a backup; or, to start from what the database file holds without ' +
  'the transactions in the log, move the -wal file aside (both are left as they are)';

export function checkDatabase(path: string, o: CheckOptions): DatabaseCheck {
  const walPath = `${path}-wal`;
  const held = o.controllerFiles.length ? `, while the data dir holds this controller's ${o.controllerFiles.join(', ')}` : '';
  const stat = statIfAny(path);
  const wal = inspectWal(walPath);
  if (!stat) {
    if (held) throw new DataFileError(path, 'damaged', `missing${held}`);
    return { wal };
  }
  if (!stat.isFile()) throw new DataFileError(path, 'not-a-file', 'not a file');
  if (wal.unreadable)
    throw new DataFileError(walPath, 'damaged', `${wal.unreadable}: its transactions cannot be replayed`, UNREPLAYABLE_REMEDY);
  if (stat.size === 0) {
    if (held) throw new DataFileError(path, 'damaged', `empty (0 bytes)${held}`);
    return { wal };
  }
  const check = (db: Database.Database) => {
    // Its report names the schema ("*** in database main ***") and spans lines: one line here.
    const problems = (db.prepare('PRAGMA quick_check(3)').pluck().all() as string[])
      .filter((r) => r !== 'ok')
      .map((r) => r.replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').replace(/\s*\n\s*/g, '; '));
    if (problems.length) throw new DataFileError(path, 'damaged', `fails its integrity check (${problems.join('; ')})`);
    if (!hasController(db) && held) throw new DataFileError(path, 'damaged', `holds no controller (after replaying its WAL)${held}`);
  };
  // Without a log (a clean stop), the service's own connection reads the file as a read-only one
  // would, and its closing removes only the -wal and -shm its reads made: checked there, one
  // opening instead of two (a fleet restarts ten thousand).
  if (wal.bytes === 0 && !existsSync(walPath) && !existsSync(`${path}-shm`)) return { wal, onOpen: check };
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    check(db);
  } catch (e) {
    throw asDatabaseError(e, path);
  } finally {
    db?.close();
  }
  // Recovery is about to drop a damaged or cut log's tail, and the next write overwrites it: keep a copy first.
  const keptIn = wal.damagedFrames || wal.trailingBytes ? keepCopies([path, walPath], o.now) : undefined;
  return { wal, keptIn };
}

/** The setting a controller's first start commits before it makes any key file. */
export const SERVICE_UUID_SETTING = 'service.uuid';

function hasController(db: Database.Database): boolean {
  const setting = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'setting'").get();
  return setting !== undefined && db.prepare('SELECT 1 FROM setting WHERE key = ?').get(SERVICE_UUID_SETTING) !== undefined;
}

/** An error SQLite raised about the database at path, as a DataFileError naming it (others as they are). */
export function asDatabaseError(e: unknown, path: string): unknown {
  const code = (e as { code?: unknown }).code;
  if (e instanceof DataFileError || typeof code !== 'string' || !code.startsWith('SQLITE_')) return e;
  const message = (e as Error).message;
  if (code === 'SQLITE_NOTADB') return new DataFileError(path, 'damaged', 'not a SQLite database (damaged, or another kind of file)');
  if (code === 'SQLITE_CORRUPT') return new DataFileError(path, 'damaged', `damaged (${message})`);
  // The shared-memory file could not be grown: the file system is full.
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE') return new DataFileError(path, 'no-space', 'no space left to write it');
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM')
    return new DataFileError(path, 'unwritable', `cannot be written (${message})`);
  if (code.startsWith('SQLITE_CANTOPEN')) {
    const stat = statIfAny(path);
    if (stat && !stat.isFile()) return new DataFileError(path, 'not-a-file', 'not a file');
    // SQLite does not say why: most often its directory cannot be written (the -wal and -shm files go there).
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch (denied) {
      const why = asDataFileError(denied);
      if (why) return new DataFileError(path, why.problem, `cannot be opened: its directory cannot be written: ${why.detail}`);
    }
    return new DataFileError(path, 'unwritable', `cannot be opened (${message})`);
  }
  return new DataFileError(path, 'damaged', `cannot be read (${code}: ${message})`);
}

/** Copies the files that exist into <dir>/damaged-<time>/ (0700, the copies keep their 0600) and returns that folder. */
function keepCopies(files: readonly string[], now: number): string {
  const base = join(dirname(files[0]!), `damaged-${new Date(now).toISOString().replace(/[:.]/g, '-')}`);
  let dir = base;
  for (let n = 2; existsSync(dir); n++) dir = `${base}-${n}`;
  mkdirSync(dir, { mode: 0o700 });
  for (const f of files) if (existsSync(f)) copyFileSync(f, join(dir, basename(f)));
  return dir;
}

function statIfAny(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
