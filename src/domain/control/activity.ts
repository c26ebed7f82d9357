// The request inspector (--enable-control): the last requests the controller answered,
// with who sent them, the answer's status and both bodies, in capped memory. Kept as
// they came (recording costs a request next to nothing); secrets are masked when a
// record is shown (lib/mask-secrets.ts), and what is shown is kept so it is masked once.
import { maskBody, maskHeaders } from '../../lib/mask-secrets.js';
import { toIso, type Clock } from '../../platform/clock.js';

export interface ActivityLimits {
  /** Requests kept; the oldest goes first. */
  entries: number;
  /** Bytes kept of one body; the rest is cut. */
  bodyBytes: number;
  /** Bytes kept of all bodies together. */
  totalBytes: number;
}

export const DEFAULT_ACTIVITY_LIMITS: ActivityLimits = { entries: 500, bodyBytes: 16 * 1024, totalBytes: 8 * 1024 * 1024 };

/** One request as the protocol layer saw it answered. */
export interface AnsweredRequest {
  method: string;
  /** Path and query string, as received. */
  uri: string;
  /** The account that made it; undefined when none was authenticated. */
  user: string | undefined;
  status: number;
  durationMs: number;
  requestHeaders: Readonly<Record<string, unknown>>;
  /** The body as JSON text; undefined when there was none or it was streamed (requestStreamed). */
  requestBody?: string;
  requestStreamed?: boolean;
  responseHeaders: Readonly<Record<string, string>>;
  /** Text or JSON answers; undefined for other types and streams (responseStreamed). */
  responseBody?: string | Buffer;
  responseStreamed?: boolean;
}

export interface ActivitySummary {
  Id: string;
  /** Controller clock. */
  Time: string;
  Method: string;
  Uri: string;
  /** The account name, or "anonymous". */
  User: string;
  Status: number;
  DurationMs: number;
}

export interface ActivityMessage {
  Headers: Record<string, string>;
  /** JSON as a value, other text as a string; secrets masked. */
  Body?: unknown;
  /** The body was longer than the cap: Body holds its start (as text). */
  BodyTruncated?: boolean;
  /** The body was streamed (an upload, an event stream): not kept. */
  Streamed?: boolean;
}

export interface ActivityRecord extends ActivitySummary {
  Request: ActivityMessage;
  Response: ActivityMessage;
}

interface Kept {
  summary: ActivitySummary;
  input: AnsweredRequest;
  request?: Body;
  response?: Body;
  bytes: number;
  shown?: ActivityRecord;
}

interface Body {
  data: string | Buffer;
  truncated: boolean;
}

export interface ActivityWatcher {
  record(summary: ActivitySummary): void;
  /** The log closes (the service stops). */
  end(): void;
}

export class ActivityLog {
  private readonly kept: Kept[] = [];
  private readonly byId = new Map<string, Kept>();
  private readonly watchers = new Set<ActivityWatcher>();
  private nextId = 1;
  private bytes = 0;

  constructor(
    private readonly clock: Clock,
    readonly limits: ActivityLimits = DEFAULT_ACTIVITY_LIMITS,
  ) {}

  record(input: AnsweredRequest): void {
    const request = input.requestBody === undefined ? undefined : this.cut(input.requestBody);
    const response = input.responseBody === undefined ? undefined : this.cut(input.responseBody);
    const summary: ActivitySummary = {
      Id: String(this.nextId++),
      Time: toIso(this.clock.now()),
      Method: input.method,
      Uri: input.uri,
      User: input.user || 'anonymous',
      Status: input.status,
      DurationMs: Math.round(input.durationMs * 10) / 10,
    };
    const bytes = size(request) + size(response);
    const kept: Kept = { summary, input, request, response, bytes };
    this.kept.push(kept);
    this.byId.set(summary.Id, kept);
    this.bytes += bytes;
    while (this.kept.length > this.limits.entries || (this.bytes > this.limits.totalBytes && this.kept.length > 1)) this.drop();
    for (const w of this.watchers) w.record(summary);
  }

  /** Newest first. */
  list(): ActivitySummary[] {
    const out: ActivitySummary[] = [];
    for (let i = this.kept.length - 1; i >= 0; i--) out.push(this.kept[i]!.summary);
    return out;
  }

  /** Those after an Id, oldest first (a stream that reconnects with Last-Event-ID). */
  since(id: number): ActivitySummary[] {
    return this.kept.filter((k) => Number(k.summary.Id) > id).map((k) => k.summary);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** One request whole, its secrets masked. */
  get(id: string): ActivityRecord | undefined {
    const k = this.byId.get(id);
    if (!k) return undefined;
    return (k.shown ??= {
      ...k.summary,
      Request: message(k.input.requestHeaders, k.request, k.input.requestStreamed),
      Response: message(k.input.responseHeaders, k.response, k.input.responseStreamed),
    });
  }

  watch(w: ActivityWatcher): () => void {
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  close(): void {
    for (const w of this.watchers) w.end();
    this.watchers.clear();
  }

  private drop(): void {
    const k = this.kept.shift()!;
    this.byId.delete(k.summary.Id);
    this.bytes -= k.bytes;
  }

  /** A body within the cap: copied when cut, so the whole one is not kept alive by its slice. */
  private cut(data: string | Buffer): Body {
    const cap = this.limits.bodyBytes;
    if (typeof data === 'string') {
      return data.length > cap ? { data: Buffer.from(data).subarray(0, cap).toString(), truncated: true } : { data, truncated: false };
    }
    return data.length > cap ? { data: Buffer.from(data.subarray(0, cap)), truncated: true } : { data, truncated: false };
  }
}

function size(b: Body | undefined): number {
  return b ? b.data.length : 0;
}

function message(headers: Readonly<Record<string, unknown>>, body: Body | undefined, streamed: boolean | undefined): ActivityMessage {
  const m: ActivityMessage = { Headers: maskHeaders(headers) };
  if (body) {
    const text = typeof body.data === 'string' ? body.data : body.data.toString();
    m.Body = maskBody(text);
    if (body.truncated) m.BodyTruncated = true;
  }
  if (streamed) m.Streamed = true;
  return m;
}
