// What everything else of a controller stands on: its data dir, clock, log and
// database, and who it is (service UUID, hardware, component health).
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ServiceSettings, Services } from '../api/services.js';
import type { Config } from '../config.js';
import { SIGNING_KEY_FILE } from '../domain/firmware/signing.js';
import { LICENSE_SIGNING_KEY_FILE } from '../domain/licensing/license-keys.js';
import { DEFAULT_ABSOLUTE_SESSION_TIMEOUT } from '../domain/accounts/sessions.js';
import { EVENT_MIGRATIONS } from '../domain/events/outbox.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from '../http/tls.js';
import { resourceUris } from '../lib/resource-uris.js';
import { createLog, type ServiceLog } from '../logging.js';
import { OffsetClock, ScopedClock, SystemClock, type Clock } from '../platform/clock.js';
import { HealthRegistry, declareEmptySlots } from '../platform/hardware/health.js';
import { resolveHardware } from '../platform/hardware/identity.js';
import { loadHardwareProfile } from '../platform/hardware/profile.js';
import { prepareDataDir, tightenDataDir } from '../store/data-dir.js';
import {
  CHECKPOINT_INTERVAL_MS,
  checkpointer,
  connect,
  openDatabase,
  type Durability,
  type Migration,
  type SqlConnection,
} from '../store/database.js';
import { PooledDatabase } from '../store/database-pool.js';
import { DocumentStore } from '../store/documents.js';
import { GroupCommit } from '../store/group-commit.js';
import { SECRETS_KEY_FILE, Secrets } from '../store/secrets.js';
import { SERVICE_UUID_SETTING, checkDatabase, type DatabaseCheck } from '../store/startup-check.js';
import type { ControllerSeat } from './seat.js';

export const DATABASE_FILE = 'bmc.sqlite';
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Extra migrations (areas with tables of their own). */
  migrations?: readonly Migration[];
  /** This controller's place in a fleet (src/fleet/): what it takes from the fleet instead of making its own. */
  seat?: ControllerSeat;
}

export interface Base extends Pick<Services, 'config' | 'uris' | 'store' | 'log' | 'serviceUuid' | 'hardware' | 'health' | 'settings'> {
  dataDir: string;
  /** Every part's clock: close() cancels every timer it armed, whoever armed it. */
  clock: ScopedClock;
  /** The clock under it: the control API moves this one. */
  baseClock: Clock;
  /** The service's own buffered log, unless the caller handed one in (tests). */
  ownLog?: ServiceLog;
  db: SqlConnection;
  commits: GroupCommit;
  /** No database was there: this start made it. */
  firstStart: boolean;
  /** Vendor keys a controller that ran before no longer has: made anew, and said so. */
  lostKeys: string[];
  seat?: ControllerSeat;
}

const DEFAULT_SETTINGS: ServiceSettings = {
  sessionTimeout: 1800,
  absoluteSessionTimeout: DEFAULT_ABSOLUTE_SESSION_TIMEOUT,
  absoluteSessionTimeoutEnabled: false,
};

export function openController(config: Config, opts: StartOptions): Base {
  const { seat } = opts;
  // Every link to the system, chassis and manager is built from these: ids encoded, one spelling.
  const uris = resourceUris(config);
  const dataDir = resolve(config.dataDir);
  // 0700 (an existing one is narrowed); the files the start writes in it are tightened later (secureDataDir).
  prepareDataDir(dataDir);
  // With the control API the clock can be moved: real time plus an offset (tests hand in a ManualClock).
  const baseClock = opts.clock ?? (config.enableControl ? new OffsetClock() : new SystemClock());
  const clock = new ScopedClock(baseClock);
  // A logger handed in (tests) is the caller's; otherwise the service owns a buffered one.
  let ownLog: ServiceLog | undefined;
  const log = opts.logger ?? (ownLog = createLog(config.logLevel, clock)).log;
  const dbPath = join(dataDir, DATABASE_FILE);
  // A database that is missing, empty, damaged or whose WAL cannot be replayed stops the start here.
  const checked = checkDatabase(dbPath, { controllerFiles: presentIn(dataDir, CONTROLLER_KEYS), now: clock.now() });
  reportRecovery(log, dbPath, checked);
  const durability = config.durability as Durability;
  const opened = openDatabase(
    dbPath,
    () => clock.now(),
    [...EVENT_MIGRATIONS, ...(opts.migrations ?? [])],
    durability,
    seat?.databaseTemplate,
    checked.onOpen,
  );
  // In a fleet the connection rests while others are used (a bound on descriptors), and opens again when used.
  const db: SqlConnection = seat?.databases
    ? new PooledDatabase(seat.databases, opened, () => connect(dbPath, durability), durability)
    : opened;
  const store = new DocumentStore(db, seat?.secrets ?? (() => Secrets.loadOrCreate(dataDir)));
  const commits = new GroupCommit(db, () => store.dropCopies());
  store.useBatches(commits);
  clock.setInterval(
    CHECKPOINT_INTERVAL_MS,
    checkpointer(db, (err) => log.warn({ err, file: dbPath }, 'WAL checkpoint failed; tried again every 10 s'), durability),
  );

  const uuidSetting = store.setting<string | null>(SERVICE_UUID_SETTING, null);
  const firstStart = uuidSetting.get() === null;
  const serviceUuid = uuidSetting.get() ?? seat?.serviceUuid ?? randomUUID();
  // Committed before the first key file is made (secrets.key, just below): keys beside a database
  // without a UUID are then never a start that was cut short, always a database that lost its data.
  if (firstStart) firstWrite(db, durability, () => uuidSetting.set(serviceUuid));
  // Then the key secrets are sealed with is made, or read: a damaged one stops the start here.
  void store.secrets;
  const lostKeys = firstStart || seat ? [] : missingVendorKeys(dataDir);
  // Serials and MACs follow the stable UUID: the same after a restart, different on another controller.
  const hardware = resolveHardware(seat?.hardware ?? loadHardwareProfile(config.hardware), serviceUuid);
  const health = new HealthRegistry();
  declareEmptySlots(health, hardware);
  const settings = store.setting<ServiceSettings>('service.settings', DEFAULT_SETTINGS);
  return {
    config,
    uris,
    dataDir,
    clock,
    baseClock,
    log,
    ownLog,
    db,
    store,
    commits,
    firstStart,
    serviceUuid,
    lostKeys,
    hardware,
    health,
    settings,
    seat,
  };
}

/**
 * After every part has read its state: every file the start found is 0600 and every directory 0700,
 * whatever an older version left (a first start made its own files so), and secrets an older version
 * stored in plain text, which their parts have sealed by now, leave no copy in the WAL.
 */
export function secureDataDir(b: Base, repositoryDir: string): void {
  // A new database holds nothing older to seal (and a fleet makes a thousand at once).
  if (b.firstStart) return;
  tightenDataDir(b.dataDir, [
    ...[DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, SECRETS_KEY_FILE, INITIAL_PASSWORD_FILE],
    ...[SELF_SIGNED_CERT, SELF_SIGNED_KEY, LICENSE_SIGNING_KEY_FILE, SIGNING_KEY_FILE, repositoryDir],
  ]);
  b.db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * A new database's first write makes its WAL, and at synchronous=NORMAL SQLite syncs the new WAL's
 * header and its directory: two fsyncs per controller, most of a fleet's first start on a busy disk.
 * They guard against a power loss only; under crash durability the write is the operating
 * system's before it returns either way, which is all kill -9 needs (power-loss keeps them).
 */
function firstWrite(db: SqlConnection, durability: Durability, write: () => void): void {
  if (durability !== 'crash') return write();
  db.pragma('synchronous = OFF');
  try {
    write();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}

/** Keys only a controller that has started makes: with any of them in the data dir, its database must be there too. */
const CONTROLLER_KEYS = [SECRETS_KEY_FILE, SELF_SIGNED_KEY, LICENSE_SIGNING_KEY_FILE, SIGNING_KEY_FILE];

function presentIn(dir: string, files: readonly string[]): string[] {
  return files.filter((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile());
}

/** What SQLite's recovery does with the WAL an unclean stop left (SQLite itself says nothing). */
function reportRecovery(log: Logger, dbPath: string, checked: DatabaseCheck): void {
  const w = checked.wal;
  if (w.bytes === 0) return;
  const fields = {
    file: `${dbPath}-wal`,
    transactions: w.transactions,
    replayedFrames: w.replayedFrames,
    unfinishedFrames: w.unfinishedFrames,
    damagedFrames: w.damagedFrames,
    trailingBytes: w.trailingBytes,
    keptIn: checked.keptIn,
  };
  if (checked.keptIn) {
    log.warn(
      fields,
      `the database's WAL is damaged or cut: ${w.transactions} transactions replayed, the ${w.unfinishedFrames + w.damagedFrames} frames ` +
        `and ${w.trailingBytes} bytes after them dropped (transactions there are lost); the files as they were are in ${checked.keptIn}`,
    );
  } else {
    const unfinished = w.unfinishedFrames ? `, and an unfinished transaction (${w.unfinishedFrames} frames) dropped` : '';
    log.info(fields, `WAL recovery after an unclean stop: ${w.transactions} transactions replayed${unfinished}`);
  }
}

/** The vendor keys (firmware and license signing) that are not in this data dir. */
export function missingVendorKeys(dataDir: string): string[] {
  return [SIGNING_KEY_FILE, LICENSE_SIGNING_KEY_FILE].filter((f) => !existsSync(join(dataDir, f)));
}

/** A controller that ran before and finds a vendor key missing gets a new one: what that costs is logged. */
export function warnOfNewKeys(log: Logger, dataDir: string, files: readonly string[]): void {
  const lost: Record<string, string> = {
    [SIGNING_KEY_FILE]: 'firmware packages signed with the old key no longer verify',
    [LICENSE_SIGNING_KEY_FILE]: 'license keys issued with the old key can no longer be installed',
  };
  for (const f of files) {
    log.warn({ file: join(dataDir, f) }, `${f} was missing: a new key was made; ${lost[f]} (restore the file from a backup to keep them)`);
  }
}

/** An empty database with every migration a controller's needs, for a fleet's new controllers to copy. */
export function writeDatabaseTemplate(path: string, now: () => number, migrations: readonly Migration[] = []): void {
  rmSync(path, { force: true });
  const db = openDatabase(path, now, [...EVENT_MIGRATIONS, ...migrations]);
  // One self-contained file (still in WAL mode, so a copy opens without a header rewrite): closing checkpoints and removes the -wal.
  db.close();
}
