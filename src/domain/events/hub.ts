// The event service's engine: takes every event from the bus (and test events,
// and metric reports), logs it durably with its EventId, queues it for each
// matching subscription, and drives one delivery loop per subscription plus the
// open SSE streams. The API (src/api/event-service.ts) is a thin layer on this.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import { baseRefusal } from '../../messages/refusal.js';
import { vendorResourceEvent } from '../../messages/event-messages.js';
import { formatMessage } from '../../messages/messages.js';
import { toIso, type Clock } from '../../platform/clock.js';
import type { DocumentStore, Setting } from '../../store/documents.js';
import { DeliveryWorker, HttpsSender, type OutboundConnections } from './delivery.js';
import type { EventPredicate } from './filter.js';
import { parseMessageId, subscriptionWants, type EventRecordBody, type LoggedEvent } from './format.js';
import { EventOutbox } from './outbox.js';
import { SseStreams, type StreamOwner } from './sse.js';
import {
  DEFAULT_MAX_EVENTS_TO_QUEUE,
  DEFAULT_RETRY_POLICY,
  SubscriptionStore,
  checkBackupDestinations,
  checkDestination,
  checkHttpHeaders,
  checkMessageIds,
  checkPrefixes,
  type SubscriptionInput,
  type SubscriptionRecord,
} from './subscriptions.js';
import type { EventBus, EventType, ServiceEvent } from './bus.js';
import type { RegistryFiles } from '../registry-files.js';
import { OEM } from '../../lib/oem-token.js';

export interface EventServiceSettings {
  ServiceEnabled: boolean;
  DeliveryRetryAttempts: number;
  DeliveryRetryIntervalSeconds: number;
}

/** EventService settings as the controller leaves the factory. */
export const DEFAULT_SETTINGS: EventServiceSettings = { ServiceEnabled: true, DeliveryRetryAttempts: 3, DeliveryRetryIntervalSeconds: 30 };

/** A subscription as the API shows it: the record plus its delivery state. */
export interface SubscriptionView extends SubscriptionRecord {
  pending: number;
  /** Failed attempts at the event now at the head of its queue. */
  failures: number;
  lastError?: string;
}

export interface TestEventInput {
  MessageId: string;
  EventType?: EventType;
  Severity?: string;
  MessageSeverity?: string;
  Message?: string;
  MessageArgs?: string[];
  OriginOfCondition?: string;
  EventTimestamp?: string;
  EventId?: string;
  EventGroupId?: number;
}

export interface HubDeps {
  store: DocumentStore;
  clock: Clock;
  log: Logger;
  bus: EventBus;
  registries: RegistryFiles;
  /** Where a subscription is, which the events about it name (lib/resource-uris.ts, handed in). */
  uris: { subscription(id: string): string };
  maxSubscriptions: () => number;
  /** Open SSE streams one account may hold (default: no cap of its own). */
  maxStreamsPerAccount?: () => number;
  /** Whether an account ranks as an administrator, whose subscriptions may displace lesser-role streams. */
  isAdministrator?: (accountId: string) => boolean;
  /** Outbound HTTPS; tests and the benchmark use the default. */
  sender?: HttpsSender;
  /** A fleet's outbound connections, shared by its controllers; a controller's own otherwise. */
  outbound?: OutboundConnections;
  /** PEMs of the CA certificates deliveries trust besides the system's roots. */
  trustedCas?: () => readonly string[];
  /** How events spell URIs on the wire (the service's dialect); default as the areas write them. */
  wireStyle?: (json: string) => string;
}

export class EventHub {
  readonly outbox: EventOutbox;
  private readonly subs: SubscriptionStore;
  private readonly sse: SseStreams;
  /** SSE EventDestinations, alive only while their stream is open. */
  private readonly sseRecords = new Map<string, SubscriptionRecord>();
  private readonly workers = new Map<string, DeliveryWorker>();
  private readonly pending: Map<string, number>;
  private readonly sender: HttpsSender;
  private readonly settingDoc: Setting<EventServiceSettings>;
  /** The stored settings over the defaults, made again when the stored value changes (or a rollback drops it). */
  private merged?: { stored: Readonly<EventServiceSettings>; value: Readonly<EventServiceSettings> };
  private readonly messageTexts = new Map<string, Record<string, { Message?: string; MessageSeverity?: string }>>();
  private unsubscribe?: () => void;
  /** While the controller is away: events are kept, not delivered. */
  private paused = false;

  constructor(private readonly d: HubDeps) {
    this.outbox = new EventOutbox(d.store.db, d.store);
    this.subs = new SubscriptionStore(d.store);
    const style = d.wireStyle ?? ((json: string) => json);
    this.sender = d.sender ?? new HttpsSender(d.clock, undefined, style, d.outbound, d.trustedCas);
    this.settingDoc = d.store.setting('event.service', DEFAULT_SETTINGS);
    this.pending = this.outbox.pendingCounts();
    this.sse = new SseStreams(
      d.clock,
      this.outbox,
      (id) => {
        this.streamChanges++;
        this.sseRecords.delete(id);
      },
      style,
    );
  }

  /** Listen to the bus and resume deliveries left pending by the last run. */
  start(): void {
    this.unsubscribe = this.d.bus.subscribe((e) => this.ingest(fromBus(e)));
    this.paused = true;
    this.resume();
  }

  /**
   * The controller is away (a reset): deliveries stop where they are and SSE streams end. Events
   * still go into the durable outbox; resume() delivers them.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    for (const w of this.workers.values()) w.stop();
    this.workers.clear();
    this.sse.closeAll();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const s of this.subs.list()) if ((this.pending.get(s.Id) ?? 0) > 0) this.worker(s.Id).kick();
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    for (const w of this.workers.values()) w.stop();
    this.sse.closeAll();
    this.outbox.flush();
    await this.sender.close();
  }

  // -- EventService settings --------------------------------------------------

  settings(): EventServiceSettings {
    return { ...this.current() };
  }

  updateSettings(patch: Partial<EventServiceSettings>): void {
    // Read from the store, not kept aside: a write whose commit fails leaves nothing behind.
    this.settingDoc.set({ ...this.current(), ...patch });
  }

  private current(): Readonly<EventServiceSettings> {
    const stored = this.settingDoc.peek();
    if (this.merged?.stored !== stored) this.merged = { stored, value: { ...DEFAULT_SETTINGS, ...stored } };
    return this.merged.value;
  }

  prefixes(): string[] {
    return this.d.registries.prefixes();
  }

  // -- subscriptions ----------------------------------------------------------

  list(): SubscriptionView[] {
    return [...this.subs.list(), ...this.sseRecords.values()].map((s) => this.view(s));
  }

  /** Bumped when an SSE stream opens or ends (durable subscriptions change the store's generation). */
  streamChanges = 0;

  /** The subscriptions' ids (durable ones, then open SSE streams), without building their views. */
  ids(): string[] {
    return [...this.subs.list().map((s) => s.Id), ...this.sseRecords.keys()];
  }

  get(id: string): SubscriptionView | undefined {
    const s = this.subs.get(id) ?? this.sseRecords.get(id);
    return s && this.view(s);
  }

  /** A new RedfishEvent subscription; `requester` is the account asking (an administrator may displace a lesser-role stream). */
  create(input: SubscriptionInput, requester?: string): SubscriptionRecord {
    this.makeRoom(requester, false);
    const destination = input.Destination ?? '';
    checkDestination(destination);
    if (input.BackupDestinations) checkBackupDestinations(input.BackupDestinations);
    const known = this.prefixes();
    if (input.RegistryPrefixes) checkPrefixes(input.RegistryPrefixes, known);
    if (input.MessageIds) checkMessageIds(input.MessageIds);
    if (input.HttpHeaders) checkHttpHeaders(input.HttpHeaders);
    const vendor = input.Oem?.[OEM] ?? {};
    const record: SubscriptionRecord = {
      Id: this.subs.allocateId(),
      Destination: destination,
      BackupDestinations: input.BackupDestinations ?? [],
      Context: input.Context ?? '',
      Protocol: 'Redfish',
      SubscriptionType: 'RedfishEvent',
      EventFormatType: input.EventFormatType ?? 'Event',
      RegistryPrefixes: input.RegistryPrefixes ?? known,
      MessageIds: input.MessageIds ?? [],
      EventTypes: input.EventTypes ?? [],
      HttpHeaders: input.HttpHeaders ?? [],
      DeliveryRetryPolicy: input.DeliveryRetryPolicy ?? DEFAULT_RETRY_POLICY,
      VerifyCertificate: input.VerifyCertificate ?? false,
      State: input.Status?.State ?? 'Enabled',
      Vendor: {
        DeliveryRetryAttempts: vendor.DeliveryRetryAttempts,
        DeliveryRetryIntervalInSeconds: vendor.DeliveryRetryIntervalInSeconds,
        RequestedMaxEventsToQueue: vendor.RequestedMaxEventsToQueue ?? DEFAULT_MAX_EVENTS_TO_QUEUE,
      },
    };
    // The listener is not contacted here.
    this.subs.put(record);
    return record;
  }

  update(id: string, input: SubscriptionInput): void {
    const s = this.subs.get(id);
    if (!s) throw this.notFoundOrReadOnly(id);
    if (input.BackupDestinations) checkBackupDestinations(input.BackupDestinations);
    if (input.RegistryPrefixes) checkPrefixes(input.RegistryPrefixes, this.prefixes());
    if (input.MessageIds) checkMessageIds(input.MessageIds);
    if (input.HttpHeaders) checkHttpHeaders(input.HttpHeaders);
    const vendor = input.Oem?.[OEM] ?? {};
    const next: SubscriptionRecord = {
      ...s,
      BackupDestinations: input.BackupDestinations ?? s.BackupDestinations,
      Context: input.Context ?? s.Context,
      RegistryPrefixes: input.RegistryPrefixes ?? s.RegistryPrefixes,
      MessageIds: input.MessageIds ?? s.MessageIds,
      EventTypes: input.EventTypes ?? s.EventTypes,
      HttpHeaders: input.HttpHeaders ?? s.HttpHeaders,
      DeliveryRetryPolicy: input.DeliveryRetryPolicy ?? s.DeliveryRetryPolicy,
      VerifyCertificate: input.VerifyCertificate ?? s.VerifyCertificate,
      State: input.Status?.State ?? s.State,
      Vendor: { ...s.Vendor, ...vendor },
    };
    this.subs.put(next);
    if (next.State === 'Enabled' && s.State === 'Disabled') this.worker(id).resume();
  }

  /** Resume (Enabled) or suspend (Disabled) a subscription; suspended ones keep their events. */
  setState(id: string, state: 'Enabled' | 'Disabled'): void {
    this.update(id, { Status: { State: state } });
  }

  remove(id: string): boolean {
    if (this.sseRecords.has(id)) return this.sse.close(id);
    if (!this.subs.delete(id)) return false;
    this.workers.get(id)?.stop();
    this.workers.delete(id);
    this.outbox.clear(id);
    this.pending.delete(id);
    return true;
  }

  /** Delivery state of a subscription (tests and diagnostics). */
  /** An injected fault (control API): deliveries to the destinations it names fail with its reason. */
  setDeliveryFault(unreachable: ((destination: string) => string | undefined) | undefined): void {
    this.sender.unreachable = unreachable;
  }

  deliveryState(id: string): { pending: number; failures: number; waitingForRetry: boolean; inFlight: boolean } {
    const w = this.workers.get(id);
    return {
      pending: this.pending.get(id) ?? 0,
      failures: w?.failures ?? 0,
      waitingForRetry: w?.waitingForRetry() ?? false,
      inFlight: w?.inFlight() ?? false,
    };
  }

  // -- events -----------------------------------------------------------------

  submitTestEvent(p: TestEventInput): LoggedEvent | undefined {
    const parsed = parseMessageId(p.MessageId);
    const def = parsed ? this.registryMessage(parsed.prefix, parsed.key) : undefined;
    const args = p.MessageArgs ?? [];
    const severity = p.MessageSeverity ?? p.Severity ?? def?.MessageSeverity ?? 'OK';
    const body: EventRecordBody = {
      EventType: p.EventType ?? 'Alert',
      EventTimestamp: p.EventTimestamp ?? toIso(this.d.clock.now()),
      Severity: p.Severity ?? severity,
      MessageSeverity: severity,
      Message: p.Message ?? (def?.Message ? formatMessage(def.Message, args) : ''),
      MessageId: p.MessageId,
      MessageArgs: args,
    };
    if (p.EventId !== undefined) body.EventId = p.EventId;
    if (p.EventGroupId !== undefined) body.EventGroupId = p.EventGroupId;
    if (p.OriginOfCondition) body.OriginOfCondition = { '@odata.id': p.OriginOfCondition };
    return this.ingest({
      kind: 'Event',
      prefix: parsed?.prefix,
      messageId: p.MessageId,
      eventType: body.EventType,
      origin: p.OriginOfCondition,
      body: body as unknown as Record<string, unknown>,
    });
  }

  /** A metric report for EventFormatType MetricReport subscribers and SSE streams. */
  /** Whether a metric report would go anywhere now (a subscription that takes reports, or an SSE stream). */
  takesMetricReports(): boolean {
    if (!this.current().ServiceEnabled) return false;
    return this.sse.count() > 0 || this.subs.list().some((s) => s.EventFormatType === 'MetricReport');
  }

  publishMetricReport(report: Record<string, unknown>, definitionUri: string): void {
    this.ingest({ kind: 'MetricReport', origin: definitionUri, body: report });
  }

  /**
   * Room for one more subscription or SSE stream of this account, or an EventSubscriptionLimitExceeded refusal.
   * Policy (issue 12, item 7): an account holds at most maxStreamsPerAccount open SSE streams. When
   * every subscription slot is taken, an administrator's new stream or subscription ends the oldest SSE
   * stream of a non-administrator (logged); anyone else, or with no such stream, gets the refusal.
   */
  makeRoom(accountId: string | undefined, stream: boolean): void {
    if (stream && accountId !== undefined && this.d.maxStreamsPerAccount) {
      const own = this.sse.list().filter((x) => x.owner?.accountId === accountId).length;
      if (own >= this.d.maxStreamsPerAccount()) throw baseRefusal('EventSubscriptionLimitExceeded');
    }
    if (this.subs.list().length + this.sseRecords.size < this.d.maxSubscriptions()) return;
    const admin = this.d.isAdministrator;
    if (accountId !== undefined && admin?.(accountId)) {
      const victim = this.sse.list().find((x) => !x.owner || !admin(x.owner.accountId));
      if (victim) {
        this.d.log.warn({ stream: victim.id, user: victim.userName, for: accountId }, 'SSE stream ended to make room for an administrator');
        this.sse.close(victim.id);
        return;
      }
    }
    throw baseRefusal('EventSubscriptionLimitExceeded');
  }

  /** End the streams opened with this session (it was deleted, timed out or evicted). */
  endSessionStreams(sessionId: string): void {
    for (const x of this.sse.list()) if (x.owner?.sessionId === sessionId) this.sse.close(x.id);
  }

  /** An account changed: end its streams that it no longer allows (deleted, disabled, rights lowered...). */
  recheckStreams(accountId: string): void {
    for (const x of this.sse.list()) if (x.owner?.accountId === accountId && !x.owner.stillAllowed()) this.sse.close(x.id);
  }

  /** Open an SSE stream: it becomes an EventDestination until the connection ends, or its owner's rights do. */
  openStream(
    res: ServerResponse,
    o: { userName: string; filter?: string; predicate: EventPredicate; lastEventId?: number; owner?: StreamOwner },
  ): string {
    this.makeRoom(o.owner?.accountId, true);
    const id = `SSE${this.subs.allocateId()}`;
    const context = randomBytes(16).toString('hex');
    this.streamChanges++;
    this.sseRecords.set(id, {
      Id: id,
      Destination: '',
      Context: context,
      Protocol: 'Redfish',
      SubscriptionType: 'SSE',
      EventFormatType: 'Event',
      RegistryPrefixes: [],
      MessageIds: [],
      EventTypes: [],
      HttpHeaders: [],
      DeliveryRetryPolicy: 'TerminateAfterRetries',
      VerifyCertificate: false,
      State: 'Enabled',
      Vendor: { RequestedMaxEventsToQueue: 0 },
    });
    this.sse.open({ id, context, userName: o.userName, owner: o.owner, filter: o.filter, predicate: o.predicate, res }, o.lastEventId);
    return id;
  }

  sseFilter(id: string): string | undefined {
    return this.sse.get(id)?.filter;
  }

  private ingest(e: Omit<LoggedEvent, 'id'>): LoggedEvent | undefined {
    if (!this.current().ServiceEnabled) return undefined;
    const probe = { ...e, id: 0 };
    const wanted = this.subs.list().filter((s) => subscriptionWants(s, probe));
    // A periodic sample nobody takes now is not logged: an idle controller's report costs no write.
    // (A stream that reconnects later replays events, not the samples it missed.)
    if (e.kind === 'MetricReport' && wanted.length === 0 && this.sse.count() === 0) return undefined;
    const targets = wanted.map((s) => ({ id: s.Id, cap: s.Vendor.RequestedMaxEventsToQueue, pending: this.pending.get(s.Id) ?? 0 }));
    const logged = this.outbox.append(e, targets);
    for (const t of targets) {
      this.pending.set(t.id, Math.min(t.pending + 1, t.cap));
      if (!this.paused) this.worker(t.id).kick();
    }
    this.sse.deliver(logged);
    return logged;
  }

  private worker(id: string): DeliveryWorker {
    let w = this.workers.get(id);
    if (w) return w;
    w = new DeliveryWorker(this.outbox, this.sender, this.d.clock, {
      target: () => {
        const s = this.subs.get(id);
        return s && { ...s, enabled: s.State === 'Enabled' };
      },
      retryAttempts: () => this.subs.get(id)?.Vendor.DeliveryRetryAttempts ?? this.current().DeliveryRetryAttempts,
      retryIntervalMs: () =>
        1000 * (this.subs.get(id)?.Vendor.DeliveryRetryIntervalInSeconds ?? this.current().DeliveryRetryIntervalSeconds),
      retryForever: () => this.subs.get(id)?.DeliveryRetryPolicy === 'RetryForever',
      delivered: () => this.pending.set(id, Math.max(0, (this.pending.get(id) ?? 1) - 1)),
      exhausted: (why) => this.exhausted(id, why),
    });
    this.workers.set(id, w);
    return w;
  }

  private exhausted(id: string, why: string): void {
    const s = this.subs.get(id);
    if (!s) return;
    const uri = this.d.uris.subscription(id);
    if (s.DeliveryRetryPolicy === 'TerminateAfterRetries') {
      this.d.log.warn({ subscription: id, destination: s.Destination, reason: why }, 'event subscription terminated after failed retries');
      this.remove(id);
      this.d.bus.publish(vendorResourceEvent('EventSubscriptionTerminated', id, s.Destination), uri, 'ResourceRemoved');
    } else {
      this.d.log.warn({ subscription: id, destination: s.Destination, reason: why }, 'event subscription suspended after failed retries');
      this.subs.put({ ...s, State: 'Disabled' });
      this.d.bus.publish(vendorResourceEvent('EventSubscriptionSuspended', id, s.Destination), uri, 'StatusChange');
    }
  }

  private view(s: SubscriptionRecord): SubscriptionView {
    const w = this.workers.get(s.Id);
    return { ...s, pending: this.pending.get(s.Id) ?? 0, failures: w?.failures ?? 0, lastError: w?.lastError };
  }

  private notFoundOrReadOnly(id: string) {
    // SSE destinations belong to their stream: they can be deleted, not changed.
    return this.sseRecords.has(id)
      ? baseRefusal('PropertyNotWritable', 'SubscriptionType')
      : baseRefusal('ResourceNotFound', 'EventDestination', id);
  }

  /** Text and severity of a message of a served registry, for test events without a Message. */
  private registryMessage(prefix: string, key: string): { Message?: string; MessageSeverity?: string } | undefined {
    let messages = this.messageTexts.get(prefix);
    if (!messages) {
      const file = this.d.registries.byPrefix(prefix);
      if (!file?.prefix) return undefined;
      const doc = JSON.parse(gunzipSync(file.gz).toString('utf8')) as {
        Messages?: Record<string, { Message?: string; MessageSeverity?: string }>;
      };
      messages = doc.Messages ?? {};
      this.messageTexts.set(prefix, messages);
    }
    return messages[key];
  }
}

function fromBus(e: ServiceEvent): Omit<LoggedEvent, 'id'> {
  const m = e.message;
  const body: EventRecordBody = {
    EventType: e.eventType,
    EventTimestamp: toIso(e.timestamp),
    Severity: m.Severity,
    MessageSeverity: m.MessageSeverity,
    Message: m.Message,
    MessageId: m.MessageId,
    MessageArgs: [...m.MessageArgs],
  };
  if (e.origin) body.OriginOfCondition = { '@odata.id': e.origin };
  return {
    kind: 'Event',
    prefix: parseMessageId(m.MessageId)?.prefix,
    messageId: m.MessageId,
    eventType: e.eventType,
    origin: e.origin,
    body: body as unknown as Record<string, unknown>,
  };
}
