// The durable side of event delivery: every event gets a row (and its EventId)
// in event_log, and one event_outbox row per subscription that must receive it.
// A row leaves the outbox only once the listener accepted it, so a restart or
// a listener outage loses nothing; per subscription, rows go out in id order.
import { atomically, type Migration, type SqlConnection } from '../../store/database.js';
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
  /** Per subscription, the last event the listener accepted whose row is not deleted yet. */
  private readonly acked = new Map<string, number>();
  private flushScheduled = false;

  constructor(private readonly db: SqlConnection) {
    this.s = {
      insert: db.prepare('INSERT INTO event_log (kind, prefix, message_id, event_type, origin, body) VALUES (?, ?, ?, ?, ?, ?)'),
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
  }

  /**
   * Log an event and queue it for the given subscriptions, atomically. `caps`
   * bounds each subscription's queue: beyond it the oldest pending events go.
   */
  append(e: Omit<LoggedEvent, 'id'>, targets: readonly { id: string; cap: number; pending: number }[]): LoggedEvent {
    const insert = (): number =>
      Number(
        this.s.insert.run(e.kind, e.prefix ?? null, e.messageId ?? null, e.eventType ?? null, e.origin ?? null, JSON.stringify(e.body))
          .lastInsertRowid,
      );
    // One statement is atomic by itself: no transaction (or savepoint) around it.
    if (targets.length === 0 && (this.inserts + 1) % PRUNE_EVERY !== 0) {
      this.inserts++;
      return { ...e, id: insert() };
    }
    const logged = atomically(this.db, () => {
      const id = insert();
      for (const t of targets) {
        if (t.pending >= t.cap) this.s.dropOldest.run(t.id, t.id, t.pending - t.cap + 1);
        this.s.enqueue.run(t.id, id);
      }
      if (++this.inserts % PRUNE_EVERY === 0) this.s.prune.run(id - EVENT_LOG_KEEP);
      return { ...e, id };
    });
    return logged;
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
    return (this.s.since.all(afterId, limit) as Row[]).map(toEvent);
  }

  lastId(): number {
    return (this.s.maxId.get() as { id: number }).id;
  }
}
