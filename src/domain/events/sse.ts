// Server-sent event streams (DSP0266): each open stream is an EventDestination
// of type SSE that lives exactly as long as the connection. Events are written
// as `id:` (the durable EventId) and `data:` (the Event or MetricReport JSON).
import type { ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { EventPredicate } from './filter.js';
import { wireJson, type LoggedEvent } from './format.js';
import type { EventOutbox } from './outbox.js';

/** A client that stops reading is cut off once this much is buffered for it. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** Comment lines keep idle connections (and proxies) from timing out. */
const KEEPALIVE_MS = 15_000;

/** Who opened a stream: the stream ends with its session, or when its account no longer allows it. */
export interface StreamOwner {
  accountId: string;
  /** The session the stream was opened with, if any. */
  sessionId?: string;
  /** Asked on every change of the account: false ends the stream at once. */
  stillAllowed(): boolean;
}

export interface SseStream {
  id: string;
  context: string;
  userName: string;
  owner?: StreamOwner;
  filter?: string;
  predicate: EventPredicate;
  res: ServerResponse;
}

export class SseStreams {
  private readonly streams = new Map<string, SseStream>();
  private keepalive?: TimerHandle;

  constructor(
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly closed: (id: string) => void,
    private readonly style: (json: string) => string,
  ) {}

  /** Attach a response: replay what followed Last-Event-ID, then stream live. */
  open(stream: SseStream, lastEventId?: number): void {
    const { res } = stream;
    res.on('close', () => this.drop(stream.id));
    // Registration and replay run in one synchronous step, so no event falls between them;
    // registered first, a replay that overflows the buffer ends the stream like any write.
    this.streams.set(stream.id, stream);
    if (lastEventId !== undefined) {
      for (const e of this.outbox.since(lastEventId)) {
        if (!this.streams.has(stream.id)) return;
        if (stream.predicate(e)) this.write(stream, e);
      }
    }
    this.keepalive ??= this.clock.setInterval(KEEPALIVE_MS, () => {
      for (const s of this.streams.values()) s.res.write(': keep-alive\n\n');
    });
  }

  get(id: string): SseStream | undefined {
    return this.streams.get(id);
  }

  list(): SseStream[] {
    return [...this.streams.values()];
  }

  count(): number {
    return this.streams.size;
  }

  deliver(e: LoggedEvent): void {
    for (const s of this.streams.values()) if (s.predicate(e)) this.write(s, e);
  }

  /** End a stream (its EventDestination was deleted, or the service stops). */
  close(id: string): boolean {
    const s = this.streams.get(id);
    if (!s) return false;
    this.drop(id);
    s.res.end();
    return true;
  }

  closeAll(): void {
    for (const id of [...this.streams.keys()]) this.close(id);
  }

  private write(s: SseStream, e: LoggedEvent): void {
    if (s.res.writableLength > MAX_BUFFERED_BYTES) {
      // A client that does not read would never receive an orderly end either: drop the connection.
      this.drop(s.id);
      s.res.destroy();
      return;
    }
    s.res.write(`id: ${e.id}\ndata: ${wireJson([e], s.context, this.style)}\n\n`);
  }

  private drop(id: string): void {
    const s = this.streams.get(id);
    if (!s) return;
    this.streams.delete(id);
    if (!this.streams.size) {
      this.keepalive?.cancel();
      this.keepalive = undefined;
    }
    this.closed(id);
  }
}
