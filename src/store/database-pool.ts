// A bound on the databases a process keeps open at once. A fleet's controller holds three
// descriptors for its database (the file, its -wal and -shm), so ten thousand controllers
// cannot keep theirs open under a descriptor limit of 20,000. A pooled connection is closed
// by its pool when another must open and it is the least recently used one without an open
// transaction: everything it acknowledged was committed before (a closed connection has
// nothing uncommitted), and closing checkpoints the WAL into the file. It opens again at
// its next statement, and its statements are prepared again on the new connection.
import type Database from 'better-sqlite3';
import type { Db, Durability, SqlConnection, SqlStatement } from './database.js';

export class DatabasePool {
  /** Open connections, least recently used first (a use moves one to the end). */
  private readonly openNow = new Set<PooledDatabase>();
  private lastUsed?: PooledDatabase;
  /** Openings of a connection that rested. */
  reopened = 0;

  /** maxOpen: connections open at once (each holds three descriptors in WAL mode). */
  constructor(readonly maxOpen: number) {}

  get openCount(): number {
    return this.openNow.size;
  }

  /** @internal an open connection is used: it goes to the end of the queue. */
  touch(c: PooledDatabase): void {
    if (this.lastUsed === c) return;
    this.lastUsed = c;
    this.openNow.delete(c);
    this.openNow.add(c);
  }

  /** @internal a connection joins open (its first opening), or opens again after resting. */
  opened(c: PooledDatabase, again = true): void {
    this.makeRoom();
    this.openNow.add(c);
    if (again) this.reopened++;
  }

  /** @internal */
  closed(c: PooledDatabase): void {
    this.openNow.delete(c);
    if (this.lastUsed === c) this.lastUsed = undefined;
  }

  /** Close the least recently used idle connection while the pool is full (the first outside a transaction, in use order). */
  private makeRoom(): void {
    while (this.openNow.size >= this.maxOpen) {
      let oldest: PooledDatabase | undefined;
      for (const c of this.openNow) {
        if (c.inTransaction) continue;
        oldest = c;
        break;
      }
      // Every open connection is inside a transaction (a turn's group commits): go over the bound rather than fail.
      if (!oldest) return;
      oldest.rest();
    }
  }
}

/** A connection first opened by the caller (and migrated), opened again by `reopen` after it rested. */
export class PooledDatabase implements SqlConnection {
  private db: Db | undefined;
  private closedForGood = false;
  opening = 0;

  constructor(
    private readonly pool: DatabasePool,
    first: Db,
    private readonly reopen: () => Db,
    private readonly durability: Durability = 'crash',
  ) {
    pool.opened(this, false);
    this.db = first;
  }

  /** The open connection, opened again if it rested. */
  connection(): Db {
    if (this.db) {
      this.pool.touch(this);
      return this.db;
    }
    if (this.closedForGood) throw new TypeError('The database connection is not open');
    this.pool.opened(this);
    this.db = this.reopen();
    this.opening++;
    return this.db;
  }

  get open(): boolean {
    return !this.closedForGood;
  }

  get resting(): boolean {
    return !this.db && !this.closedForGood;
  }

  get inTransaction(): boolean {
    return this.db?.inTransaction ?? false;
  }

  get memory(): boolean {
    return false;
  }

  prepare(sql: string): SqlStatement {
    return new PooledStatement(this, sql);
  }

  pragma(source: string): unknown {
    return this.connection().pragma(source);
  }

  /** @internal closed by the pool: only outside a transaction, so nothing is left uncommitted. */
  rest(): void {
    // Closing checkpoints the WAL into the file. What it holds is committed and in the operating
    // system's hands, which is all kill -9 needs: without syncing it twice (a rest is frequent in a
    // large fleet, and a sync holds the event loop). Power-loss durability keeps its syncs.
    if (this.db?.open && this.durability === 'crash') this.db.pragma('synchronous = OFF');
    this.db?.close();
    this.db = undefined;
    this.pool.closed(this);
  }

  close(): void {
    this.closedForGood = true;
    this.rest();
  }
}

/** SQL prepared once in this process: every controller of a fleet prepares the same statements. */
const prepared = new Set<string>();

/** A statement prepared on the connection open now: again after each reopening. */
class PooledStatement implements SqlStatement {
  private statement: Database.Statement | undefined;
  private opening = -1;
  private plucked = false;

  constructor(
    private readonly c: PooledDatabase,
    private readonly sql: string,
  ) {
    // The first of its kind is prepared now, so a bad statement fails where it is made; the same
    // statement of other controllers when first used (most of an idle controller's never are).
    if (!prepared.has(sql)) {
      this.current();
      prepared.add(sql);
    }
  }

  private current(): Database.Statement {
    const db = this.c.connection();
    if (this.opening !== this.c.opening || !this.statement) {
      this.statement = db.prepare(this.sql);
      if (this.plucked) this.statement.pluck();
      this.opening = this.c.opening;
    }
    return this.statement;
  }

  run(...params: unknown[]): Database.RunResult {
    return this.current().run(...params);
  }

  get(...params: unknown[]): unknown {
    return this.current().get(...params);
  }

  all(...params: unknown[]): unknown[] {
    return this.current().all(...params);
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    // A statement not prepared yet, or of a connection that has rested since, is plucked when prepared.
    if (this.statement && !this.c.resting && this.opening === this.c.opening) this.statement.pluck(toggle);
    return this;
  }
}
