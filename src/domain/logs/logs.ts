// The controller's logs: the integrated management log (IML) and the event
// log (IEL). Every area writes records here; the logs area serves them.
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import type { Clock } from '../../platform/clock.js';
import type { ExtendedInfo } from '../../messages/messages.js';

export const LOG_IDS = ['IML', 'IEL'] as const;
/** Records each log keeps; the oldest are overwritten beyond it (OverWritePolicy WrapsWhenFull). */
export const MAX_LOG_RECORDS = 1000;
export type LogId = (typeof LOG_IDS)[number];

export interface LogRecord {
  Id: string;
  Created: number;
  Severity: 'OK' | 'Warning' | 'Critical';
  Message: string;
  MessageId: string;
  MessageArgs: string[];
  /** URI of the resource the record is about. */
  Origin?: string;
}

export class Logs {
  private readonly docs: Record<LogId, DocumentCollection<LogRecord>>;
  private readonly next: Record<LogId, { get(): number; set(n: number): void }>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.docs = { IML: store.collection('log.IML'), IEL: store.collection('log.IEL') };
    this.next = { IML: store.setting('log.IML.next', 1), IEL: store.setting('log.IEL.next', 1) };
  }

  write(log: LogId, message: ExtendedInfo, origin?: string): LogRecord {
    const n = this.next[log].get();
    this.next[log].set(n + 1);
    const record: LogRecord = {
      Id: String(n),
      Created: this.clock.now(),
      Severity: message.MessageSeverity as LogRecord['Severity'],
      Message: message.Message,
      MessageId: message.MessageId,
      MessageArgs: [...message.MessageArgs],
      Origin: origin,
    };
    const docs = this.docs[log];
    docs.put(record.Id, record);
    const excess = docs.count() - MAX_LOG_RECORDS;
    if (excess > 0) for (const id of docs.ids().slice(0, excess)) docs.delete(id);
    return record;
  }

  /** The records, oldest first: shared and frozen, parsed once per change of the log. */
  list(log: LogId): readonly Readonly<LogRecord>[] {
    return this.docs[log].peekList();
  }

  get(log: LogId, id: string): LogRecord | undefined {
    return this.docs[log].get(id);
  }

  clear(log: LogId): void {
    this.docs[log].clear();
  }
}
