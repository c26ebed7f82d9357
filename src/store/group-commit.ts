// Group commit: the writes of requests that arrive together share one SQLite
// transaction, committed at the end of the event loop's turn, and each of those
// requests is answered only after that commit. A commit is the costly part of a
// small write (its WAL frames and locks); shared, it is paid once per turn rather
// than once per statement. An acknowledged write is still committed before its
// answer, so it survives kill -9 (and, with synchronous=FULL, a power loss).
// Writes that the batch's requests repeat (a setting written by each) or that cost less together
// (the event log's rows) are held until the batch commits and then written once, inside it.
import type { SqlConnection } from './database.js';

/** What the store's writers see of the group commit: whether a batch is open, and work held for its end. */
export interface Batches {
  /**
   * Run `flush` just before the open batch commits, inside its transaction (once, however often it
   * is asked), or `drop` if the batch is lost; false when no batch is open: the caller writes at once.
   */
  defer(flush: () => void, drop: () => void): boolean;
}

export class GroupCommit implements Batches {
  /** The open batch's waiters; undefined while no batch is open. */
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] | undefined;
  private scheduled: NodeJS.Immediate | undefined;
  /** The open batch's held writes: how to store them, and how to forget them. */
  private readonly held = new Map<() => void, () => void>();
  private readonly beginStatement;
  private readonly commitStatement;
  private readonly rollbackStatement;

  /** onRollback: a failed commit lost the batch; whatever mirrors the database in memory must be dropped. */
  constructor(
    private readonly db: SqlConnection,
    private readonly onRollback: (e: unknown) => void,
  ) {
    this.beginStatement = db.prepare('BEGIN IMMEDIATE');
    this.commitStatement = db.prepare('COMMIT');
    this.rollbackStatement = db.prepare('ROLLBACK');
  }

  /**
   * Open a batch unless one is open: every write from now until the end of this turn
   * (a nested transaction becomes a savepoint of it) lands in one commit.
   */
  begin(): void {
    if (this.waiting || this.db.inTransaction || !this.db.open) return;
    this.beginStatement.run();
    this.waiting = [];
    this.scheduled = setImmediate(() => this.commit());
  }

  defer(flush: () => void, drop: () => void): boolean {
    if (!this.waiting) return false;
    this.held.set(flush, drop);
    return true;
  }

  /** Resolves once everything written so far is committed; rejects if its commit failed. */
  settled(): Promise<void> {
    const waiting = this.waiting;
    if (!waiting) return Promise.resolve();
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  /** Commit the open batch now (at the end of the turn, and before the database closes). */
  commit(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const held = [...this.held];
    this.held.clear();
    try {
      // The held writes go in first, inside the batch's transaction.
      for (const [flush] of held) flush();
      if (this.db.inTransaction) this.commitStatement.run();
    } catch (e) {
      for (const [, drop] of held) drop();
      try {
        if (this.db.inTransaction) this.rollbackStatement.run();
      } catch {
        // The commit's own failure is the one reported.
      }
      this.onRollback(e);
      for (const w of waiting) w.reject(e);
      return;
    }
    for (const w of waiting) w.resolve();
  }
}
