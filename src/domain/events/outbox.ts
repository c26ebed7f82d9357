// The durable side of event delivery: every event gets a row (and its EventId)
// in event_log, and one event_outbox row per subscription that must receive it.
// A row leaves the outbox only once the listener accepted it, so a restart or
// a listener outage loses nothing; per subscription, rows go out in id order.
import { atomically, type Migration, type SqlConnection, type SqlStatement } from '../../store/database.js';
import type { Batches } from '../../store/group-commit.js';
import type { LoggedEvent } from './format.js';

export const EVENT_MIGRATIONS: readonly Migration[] = [
  {
    id: 'events-001-outbox',
    sql: `
      CREATE TABLE event_log (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        kind       TEXT NOT NULL,
        prefix     TEXT,
        message_id TEXT,
        event_type TEXT,
        origin     TEXT,
        body       TEXT NOT NULL
      );
      CREATE TABLE event_outbox (
        subscription TEXT NOT NULL,
        event        INTEGER NOT NULL REFERENCES event_log (id),
        PRIMARY KEY (subscription, event)
      ) WITHOUT ROWID;
    `,
  },
  {
    // The log's ids without AUTOINCREMENT, whose sequence row every insert rewrote (a few percent of a
    // PATCH). Ids still never repeat: a prune keeps the newest 1,000 events, so the largest id stays.
    // Rebuilt child first, then parent; the renames carry the foreign key along.
    id: 'events-002-log-rowid',
    sql: `
      CREATE TABLE event_log_new (
        id         INTEGER PRIMARY KEY,
        kind       TEXT NOT NULL,
        prefix     TEXT,
        message_id TEXT,
        event_type TEXT,
        origin     TEXT,
        body       TEXT NOT NULL
      );
      INSERT INTO event_log_new SELECT id, kind, prefix, message_id, event_type, origin, body FROM event_log;
      CREATE TABLE event_outbox_new (
        subscription TEXT NOT NULL,
        event        INTEGER NOT NULL REFERENCES event_log_new (id),
        PRIMARY KEY (subscription, event)
      ) WITHOUT ROWID;
      INSERT INTO event_outbox_new SELECT subscription, event FROM event_outbox;
      DROP TABLE event_outbox;
      DROP TABLE event_log;
      DELETE FROM sqlite_sequence WHERE name = 'event_log';
      ALTER TABLE event_log_new RENAME TO event_log;
      ALTER TABLE event_outbox_new RENAME TO event_outbox;
    `,
  },
];

/** Events kept in the log beyond the pending ones, for SSE Last-Event-ID resume. */
export const EVENT_LOG_KEEP = 1000;
/**
 * The log is pruned every 1,000 events (it holds 1,000 to 2,000): rarely and in bulk, whole pages
 * are freed at once; pruning every 100 rewrote partly emptied pages and cost a tenth of a PATCH.
 */
const PRUNE_EVERY = 1000;
/** The log's columns, as a row is inserted; `id` is given, not chosen by SQLite: the batch's rows are numbered before they go in. */
const COLUMNS = '(id, kind, prefix, message_id, event_type, origin, body)';
const VALUES = '(?, ?, ?, ?, ?, ?, ?)';
/**
 * A batch's rows go in by statements of 32, 16, 8, 4, 2 and 1 rows: few statements for any
 * number, and at most six of them prepared (a fleet prepares them on each of its controllers).
 */
const CHUNKS = [32, 16, 8, 4, 2, 1] as const;
const COLUMNS_PER_ROW = 7;

interface Row {
  id: number;
  kind: 'Event' | 'MetricReport';
  prefix: string | null;
  message_id: string | null;
  event_type: string | null;
  origin: string | null;
  body: string;
}

function toEvent(r: Row): LoggedEvent {
  return {
    id: r.id,
    kind: r.kind,
    prefix: r.prefix ?? undefined,
    messageId: r.message_id ?? undefined,
    eventType: r.event_type ?? undefined,
    origin: r.origin ?? undefined,
    body: JSON.parse(r.body) as Record<string, unknown>,
  };
}

export class EventOutbox {
  private readonly s;
  private inserts = 0;
  /** The id the next event gets: the largest logged one (kept by the prune) plus one. */
  private nextId: number;
  /** Rows of events without subscribers logged in the open batch, column values one after another: inserted as it commits. */
  private held: unknown[] = [];
  private readonly insertRows = new Map<number, SqlStatement>();
  /** Per subscription, the last event the listener accepted whose row is not deleted yet. */
  private readonly acked = new Map<string, number>();
  private flushScheduled = false;

  constructor(
    private readonly db: SqlConnection,
    private readonly batches?: Batches,
  ) {
    this.s = {
      enqueue: db.prepare('INSERT OR IGNORE INTO event_outbox (subscription, event) VALUES (?, ?)'),
      next: db.prepare(
        `SELECT l.* FROM event_outbox o JOIN event_log l ON l.id = o.event
         WHERE o.subscription = ? AND o.event > ? ORDER BY o.event LIMIT ?`,
      ),
      ack: db.prepare('DELETE FROM event_outbox WHERE subscription = ? AND event <= ?'),
      dropOldest: db.prepare(
        'DELETE FROM event_outbox WHERE subscription = ? AND event IN (SELECT event FROM event_outbox WHERE subscription = ? ORDER BY event LIMIT ?)',
      ),
      clear: db.prepare('DELETE FROM event_outbox WHERE subscription = ?'),
      counts: db.prepare('SELECT subscription, COUNT(*) AS n FROM event_outbox GROUP BY subscription'),
      since: db.prepare('SELECT * FROM event_log WHERE id > ? ORDER BY id LIMIT ?'),
      maxId: db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM event_log'),
      prune: db.prepare('DELETE FROM event_log WHERE id <= ? AND id NOT IN (SELECT event FROM event_outbox)'),
    };
    this.nextId = this.lastId() + 1;
  }

  /**
   * Log an event and queue it for the given subscriptions, atomically. `caps`
   * bounds each subscription's queue: beyond it the oldest pending events go.
   * An event nobody subscribed to, logged while a batch is open (a request's), goes in with the
   * batch's other rows in one statement as it commits (its answer waits for that commit).
   */
  append(e: Omit<LoggedEvent, 'id'>, targets: readonly { id: string; cap: number; pending: number }[]): LoggedEvent {
    const id = this.nextId++;
    const body = JSON.stringify(e.body);
    if (targets.length === 0 && this.batches?.defer(this.storeHeld, this.dropHeld)) {
      this.held.push(id, e.kind, e.prefix ?? null, e.messageId ?? null, e.eventType ?? null, e.origin ?? null, body);
      return { ...e, id };
    }
    const row = [id, e.kind, e.prefix ?? null, e.messageId ?? null, e.eventType ?? null, e.origin ?? null, body];
    // The batch's earlier rows first: the log's ids then go in in order.
    this.storeHeld();
    // One statement is atomic by itself: no transaction (or savepoint) around it.
    if (targets.length === 0 && (this.inserts + 1) % PRUNE_EVERY !== 0) {
      this.rows(1).run(row);
      this.inserts++;
      return { ...e, id };
    }
    atomically(this.db, () => {
      this.rows(1).run(row);
      for (const t of targets) {
        if (t.pending >= t.cap) this.s.dropOldest.run(t.id, t.id, t.pending - t.cap + 1);
        this.s.enqueue.run(t.id, id);
      }
      this.logged(1, id);
    });
    return { ...e, id };
  }

  /** Insert the rows held for the batch (as it commits, or before anything reads the log). */
  private readonly storeHeld = (): void => {
    const values = this.held;
    if (values.length === 0) return;
    this.held = [];
    const count = values.length / COLUMNS_PER_ROW;
    let at = 0;
    for (const n of CHUNKS) {
      while (count - at >= n) {
        this.rows(n).run(values.slice(at * COLUMNS_PER_ROW, (at + n) * COLUMNS_PER_ROW));
        at += n;
      }
    }
    this.logged(count, values[values.length - COLUMNS_PER_ROW] as number);
  };

  /** The batch was lost (its commit failed): so were its events. */
  private readonly dropHeld = (): void => {
    this.held = [];
  };

  /** The statement inserting n rows, prepared when first needed. */
  private rows(n: number): SqlStatement {
    let statement = this.insertRows.get(n);
    if (!statement) {
      statement = this.db.prepare(`INSERT INTO event_log ${COLUMNS} VALUES ${Array<string>(n).fill(VALUES).join(', ')}`);
      this.insertRows.set(n, statement);
    }
    return statement;
  }

  /** Count rows logged; every PRUNE_EVERY of them, the log keeps its newest EVENT_LOG_KEEP (and every pending one). */
  private logged(count: number, lastId: number): void {
    const before = this.inserts;
    this.inserts += count;
    if (Math.floor(this.inserts / PRUNE_EVERY) !== Math.floor(before / PRUNE_EVERY)) this.s.prune.run(lastId - EVENT_LOG_KEEP);
  }

  /** The oldest events still owed to a subscription, at most `max`, in order. */
  next(subscription: string, max = 1): LoggedEvent[] {
    return (this.s.next.all(subscription, this.acked.get(subscription) ?? 0, max) as Row[]).map(toEvent);
  }

  /**
   * The listener accepted event `id`. The deletion is batched with the other
   * acknowledgements of this turn of the event loop (one disk sync, not one per
   * event); a crash before it lands means a redelivery, never a loss.
   */
  ack(subscription: string, id: number): void {
    this.acked.set(subscription, id);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  flush(): void {
    this.flushScheduled = false;
    if (!this.acked.size || !this.db.open) return;
    const done = [...this.acked];
    atomically(this.db, () => {
      for (const [sub, id] of done) this.s.ack.run(sub, id);
    });
    // Keep the cursor only if a newer ack arrived meanwhile (same turn: none).
    for (const [sub, id] of done) if (this.acked.get(sub) === id) this.acked.delete(sub);
  }

  /** Forget everything owed to a subscription (it was deleted). */
  clear(subscription: string): void {
    this.acked.delete(subscription);
    this.s.clear.run(subscription);
  }

  pendingCounts(): Map<string, number> {
    const rows = this.s.counts.all() as { subscription: string; n: number }[];
    return new Map(rows.map((r) => [r.subscription, r.n]));
  }

  /** Logged events after `afterId`, oldest first (SSE resume). */
  since(afterId: number, limit = EVENT_LOG_KEEP): LoggedEvent[] {
    this.storeHeld();
    return (this.s.since.all(afterId, limit) as Row[]).map(toEvent);
  }

  lastId(): number {
    this.storeHeld();
    return (this.s.maxId.get() as { id: number }).id;
  }
}
