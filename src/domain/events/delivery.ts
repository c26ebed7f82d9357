// Outbound delivery: one loop per subscription, so each listener sees its events
// in order and a slow or dead listener only ever holds up itself. Each loop has
// at most one request in flight, so concurrency is bounded by the subscription
// limit; every request has a deadline on the controller clock.
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import { accepted } from '../../lib/http-client.js';
import { undici } from '../../lib/undici.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import { wireJson, type LoggedEvent } from './format.js';
import type { EventOutbox } from './outbox.js';

/** How long a listener may take to answer one delivery. */
export const DELIVERY_TIMEOUT_MS = 30_000;

export interface DeliveryTarget {
  Id: string;
  Destination: string;
  /** Where events go, in this order, when Destination does not take them (absent in older stores). */
  BackupDestinations?: readonly string[];
  Context: string;
  HttpHeaders: readonly Record<string, string>[];
  VerifyCertificate: boolean;
}

/** true when the listener accepted the event (2xx), otherwise why not. */
export type DeliveryResult = true | string;

/** How long an idle outbound connection is kept for the next delivery. */
const KEEP_ALIVE_MS = 30_000;

/**
 * The outbound connections event deliveries use: one per controller, or one for a whole fleet,
 * which bounds them (a fleet's share of the descriptor limit) however many controllers deliver:
 * at most `perOrigin` connections to a destination and `maxOrigins` destinations at once, in
 * the unverified mode and in each set of trusted CAs. Deliveries beyond wait their turn.
 */
export class OutboundConnections {
  /** Made on the first delivery that needs each. */
  private insecure?: Agent;
  /** Verifying agents by the CA certificates they trust besides the system's roots ('' for none). */
  private readonly verified = new Map<string, Agent>();

  constructor(private readonly bound?: { perOrigin: number; maxOrigins: number }) {}

  /** The most descriptors these connections hold with one set of trusted CAs (undefined: unbounded). */
  get maxConnections(): number | undefined {
    return this.bound && 2 * this.bound.perOrigin * this.bound.maxOrigins;
  }

  agent(verify: boolean, trustedCas: readonly string[] = []): Agent {
    const { Agent } = undici();
    const o = {
      keepAliveTimeout: KEEP_ALIVE_MS,
      ...(this.bound ? { connections: this.bound.perOrigin, maxOrigins: this.bound.maxOrigins } : {}),
    };
    if (!verify) return (this.insecure ??= new Agent({ ...o, connect: { rejectUnauthorized: false } }));
    const key = trustedCas.join('');
    let agent = this.verified.get(key);
    if (!agent) {
      const ca = trustedCas.length ? { ca: [...rootCertificates, ...trustedCas] } : {};
      agent = new Agent({ ...o, connect: { rejectUnauthorized: true, ...ca } });
      this.verified.set(key, agent);
    }
    return agent;
  }

  /** Closes the verifying agents no longer trusted by anyone (deliveries in flight end first). */
  retire(keep: (trustedCas: string) => boolean): void {
    for (const [key, agent] of this.verified)
      if (key !== '' && !keep(key)) {
        this.verified.delete(key);
        void agent.close();
      }
  }

  async close(): Promise<void> {
    await Promise.all([this.insecure?.destroy(), ...[...this.verified.values()].map((a) => a.destroy())]);
  }
}

/**
 * POSTs events over HTTPS with undici; TLS is checked only when the subscription asks for it,
 * against the system's roots and the CA certificates imported for event delivery.
 */
export class HttpsSender {
  /** A controller's own, unless a fleet shares its connections (closed by the fleet then). */
  private readonly connections: OutboundConnections;
  /** The imported CAs the last verified delivery trusted. */
  private verifiedWith = '';
  /** Set by the control API: why a destination cannot be reached now (an injected fault), else undefined. */
  unreachable?: (destination: string) => string | undefined;
  /** Deliveries in flight: a shutdown aborts them (their events stay owed in the outbox). */
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
    private readonly style: (json: string) => string = (json) => json,
    private readonly shared?: OutboundConnections,
    /** PEMs of the CA certificates trusted besides the system's roots. */
    private readonly trustedCas: () => readonly string[] = () => [],
  ) {
    this.connections = shared ?? new OutboundConnections();
  }

  private dispatcher(verify: boolean): Agent {
    if (!verify) return this.connections.agent(false);
    const cas = this.trustedCas();
    const key = cas.join('');
    // A controller's own connections trust only its current CAs; a fleet's keep every set in use.
    if (!this.shared && key !== this.verifiedWith) this.connections.retire((k) => k === key);
    this.verifiedWith = key;
    return this.connections.agent(true, cas);
  }

  /** POST events (in order, together: see wireBody) to the target. */
  async send(target: DeliveryTarget, events: readonly LoggedEvent[]): Promise<DeliveryResult> {
    if (this.closed) return 'the service is shutting down';
    const blocked = this.unreachable?.(target.Destination);
    if (blocked) return blocked;
    const headers: Record<string, string> = {};
    // The subscription's headers first, so they cannot replace the protocol ones.
    for (const h of target.HttpHeaders) Object.assign(headers, h);
    Object.assign(headers, { 'content-type': 'application/json; charset=utf-8', 'odata-version': '4.0' });
    const ac = new AbortController();
    const deadline = this.clock.setTimer(this.timeoutMs, () => ac.abort());
    this.inFlight.add(ac);
    try {
      const res = await undici().request(target.Destination, {
        method: 'POST',
        headers,
        body: wireJson(events, target.Context, this.style),
        dispatcher: this.dispatcher(target.VerifyCertificate),
        signal: ac.signal,
      });
      await res.body.dump();
      return accepted(res.statusCode) ? true : `HTTP status ${res.statusCode}`;
    } catch (e) {
      if (this.closed) return 'the service is shutting down';
      if (ac.signal.aborted) return `no answer within ${this.timeoutMs / 1000} s`;
      // Only the error's code/message: never the request, whose headers are secret.
      const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? 'delivery failed';
    } finally {
      deadline.cancel();
      this.inFlight.delete(ac);
    }
  }

  /**
   * Abort the deliveries in flight and close the connections. A listener that holds a delivery
   * open must not hold up a shutdown: the clock's deadline no longer fires once the service's
   * timers are cancelled, and closing the agents would wait for the answer. A fleet's shared
   * connections stay for the other controllers.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const ac of this.inFlight) ac.abort();
    if (!this.shared) await this.connections.close();
  }
}

export interface WorkerPolicy {
  /** The subscription as it is now; undefined once deleted. */
  target(): (DeliveryTarget & { enabled: boolean }) | undefined;
  retryAttempts(): number;
  retryIntervalMs(): number;
  retryForever(): boolean;
  delivered(id: number): void;
  /** Every retry failed and the policy is not RetryForever. */
  exhausted(lastError: string): void;
}

/** Event records sent together at most, when a backlog waits. */
const MAX_BATCH = 32;

/** The delivery loop of one subscription. */
export class DeliveryWorker {
  private busy = false;
  private retryTimer?: TimerHandle;
  private stopped = false;
  /** Failed attempts of the event at the head of the queue. */
  failures = 0;
  /** Why Destination last failed, until it takes a delivery again (while a backup takes them, too). */
  lastError?: string;

  constructor(
    private readonly outbox: EventOutbox,
    private readonly sender: HttpsSender,
    private readonly clock: Clock,
    private readonly policy: WorkerPolicy,
  ) {}

  /** Start delivering if idle; a no-op while busy or waiting for a retry. */
  kick(): void {
    if (this.busy || this.retryTimer || this.stopped) return;
    void this.run();
  }

  /** Deliver now, dropping any wait for a retry (resume, re-enable). */
  resume(): void {
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.failures = 0;
    this.kick();
  }

  waitingForRetry(): boolean {
    return this.retryTimer !== undefined;
  }

  inFlight(): boolean {
    return this.busy;
  }

  stop(): void {
    this.stopped = true;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
  }

  /**
   * The next retry, DeliveryRetryIntervalSeconds from now. During a clock jump the listener gets no
   * real time to change, so the retries that fall due before the jump ends would meet it as the
   * failed attempt did: they count as failed at once instead of being made one by one (a year's jump
   * would be a million attempts). One timer stands for them: the first retry after the jump, or,
   * when the policy runs out of retries within it, the instant the last one would have failed.
   */
  private scheduleRetry(): void {
    const interval = this.policy.retryIntervalMs();
    const end = this.clock.advancingTo?.();
    const due = end === undefined ? 0 : Math.floor((end - this.clock.now()) / interval);
    const left = this.policy.retryForever() ? Infinity : this.policy.retryAttempts() - this.failures + 1;
    if (due >= left) {
      this.retryTimer = this.clock.setTimer(left * interval, () => {
        this.retryTimer = undefined;
        this.failures = 0;
        this.policy.exhausted(this.lastError ?? 'delivery failed');
      });
      return;
    }
    this.failures += due;
    this.retryTimer = this.clock.setTimer((due + 1) * interval, () => {
      this.retryTimer = undefined;
      this.kick();
    });
  }

  private async run(): Promise<void> {
    this.busy = true;
    try {
      for (;;) {
        const target = this.policy.target();
        if (this.stopped || !target?.enabled) return;
        const owed = this.outbox.next(target.Id, MAX_BATCH);
        if (!owed.length) return;
        // A backlog travels in one POST (an Event's Events array holds several records, in
        // order); a metric report goes alone. With nothing waiting, one record per POST.
        const end = owed.findIndex((e) => e.kind !== 'Event');
        const batch = end === 0 ? owed.slice(0, 1) : end < 0 ? owed : owed.slice(0, end);
        const result = await this.sendOrFallBack(target, batch);
        if (this.stopped) return;
        if (result.accepted) {
          this.failures = 0;
          this.lastError = result.primaryError;
          this.outbox.ack(target.Id, batch[batch.length - 1]!.id);
          for (const e of batch) this.policy.delivered(e.id);
          continue;
        }
        this.failures++;
        this.lastError = result.primaryError;
        if (this.policy.retryForever() || this.failures <= this.policy.retryAttempts()) {
          this.scheduleRetry();
          return;
        }
        this.failures = 0;
        this.policy.exhausted(result.primaryError ?? 'delivery failed');
        return;
      }
    } finally {
      this.busy = false;
    }
  }

  /**
   * One delivery attempt: Destination first, then each backup in order until one takes the
   * batch. Every attempt (retries too) starts again at Destination, so deliveries return to it
   * as soon as it answers; the attempt fails only when every destination failed.
   */
  private async sendOrFallBack(
    target: DeliveryTarget,
    batch: readonly LoggedEvent[],
  ): Promise<{ accepted: boolean; primaryError?: string }> {
    const first = await this.sender.send(target, batch);
    if (first === true) return { accepted: true };
    for (const backup of target.BackupDestinations ?? []) {
      if (this.stopped) break;
      if ((await this.sender.send({ ...target, Destination: backup }, batch)) === true) return { accepted: true, primaryError: first };
    }
    return { accepted: false, primaryError: first };
  }
}
