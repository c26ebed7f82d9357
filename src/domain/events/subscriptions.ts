// Event subscriptions (EventDestination): their stored form, the defaults the
// service fills in, and the checks on what a client sends.
import { withoutCredentials } from '../../lib/uri-credentials.js';
import { baseRefusal } from '../../messages/refusal.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import type { Secrets } from '../../store/secrets.js';
import { parseMessageId, type EventFilterSpec } from './format.js';

export const RETRY_POLICIES = ['TerminateAfterRetries', 'SuspendRetries', 'RetryForever'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

/**
 * Defaults of an omitted property (documented in docs/events.md):
 * EventFormatType Event; RegistryPrefixes every prefix the service emits;
 * DeliveryRetryPolicy RetryForever (an outage never loses events or the
 * subscription); VerifyCertificate false; Oem/Vendor RequestedMaxEventsToQueue
 * 10000, and the retry attempts/interval follow the EventService's values.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = 'RetryForever';
export const DEFAULT_MAX_EVENTS_TO_QUEUE = 10_000;

export interface VendorSubscriptionSettings {
  /** Override of EventService.DeliveryRetryAttempts for this subscription. */
  DeliveryRetryAttempts?: number;
  /** Override of EventService.DeliveryRetryIntervalSeconds for this subscription. */
  DeliveryRetryIntervalInSeconds?: number;
  /** Pending events kept for this listener; beyond it the oldest are dropped. */
  RequestedMaxEventsToQueue: number;
}

export interface SubscriptionRecord extends EventFilterSpec {
  Id: string;
  Destination: string;
  /** Listeners that take the events, in order, when Destination does not (dmtf dialect); absent in older stores. */
  BackupDestinations?: string[];
  Context: string;
  Protocol: 'Redfish';
  SubscriptionType: 'RedfishEvent' | 'SSE';
  HttpHeaders: Record<string, string>[];
  DeliveryRetryPolicy: RetryPolicy;
  VerifyCertificate: boolean;
  /** Disabled: suspended (by SuspendRetries or a client); events keep queueing. */
  State: 'Enabled' | 'Disabled';
  Vendor: VendorSubscriptionSettings;
}

export interface SubscriptionInput {
  Destination?: string;
  BackupDestinations?: string[];
  Context?: string;
  Protocol?: 'Redfish';
  EventFormatType?: 'Event' | 'MetricReport';
  RegistryPrefixes?: string[];
  MessageIds?: string[];
  EventTypes?: string[];
  HttpHeaders?: Record<string, string>[];
  DeliveryRetryPolicy?: RetryPolicy;
  VerifyCertificate?: boolean;
  Status?: { State?: 'Enabled' | 'Disabled' };
  Oem?: { Vendor?: Partial<VendorSubscriptionSettings> };
}

/** Header names the service sets itself or that would break the request. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'odata-version',
  'expect',
  'upgrade',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A listener URL (Destination, or a BackupDestinations member named by `property`). */
export function checkDestination(destination: string, property = 'Destination'): void {
  let url: URL | undefined;
  try {
    url = new URL(destination);
  } catch {
    url = undefined;
  }
  // Deliveries are HTTPS POSTs, so only an https:// URL with a host can work.
  if (!url || url.protocol !== 'https:' || !url.hostname || url.username || url.password) {
    throw baseRefusal('PropertyValueFormatError', withoutCredentials(destination), property).about(property);
  }
}

export function checkBackupDestinations(backups: readonly string[]): void {
  backups.forEach((b, i) => checkDestination(b, `BackupDestinations/${i}`));
}

export function checkHttpHeaders(headers: readonly Record<string, string>[]): void {
  headers.forEach((h, i) => {
    for (const [name, value] of Object.entries(h)) {
      // The values are secrets (listener credentials): errors name the header, never its value.
      if (!TOKEN.test(name) || RESERVED_HEADERS.has(name.toLowerCase()) || typeof value !== 'string' || /[\r\n\0]/.test(value)) {
        throw baseRefusal('PropertyValueFormatError', name, `HttpHeaders/${i}`).about(`HttpHeaders/${i}`);
      }
    }
  });
}

export function checkPrefixes(prefixes: readonly string[], known: readonly string[]): void {
  for (const p of prefixes) {
    if (!known.includes(p)) throw baseRefusal('PropertyValueNotInList', p, 'RegistryPrefixes').about('RegistryPrefixes');
  }
}

export function checkMessageIds(ids: readonly string[]): void {
  for (const id of ids) {
    const ok = parseMessageId(id) || /^[A-Za-z][A-Za-z0-9_]*\.[A-Za-z][A-Za-z0-9_]*$/.test(id);
    if (!ok) throw baseRefusal('PropertyValueFormatError', id, 'MessageIds').about('MessageIds');
  }
}

/**
 * A subscription as stored: HttpHeaders (listener credentials) sealed as one
 * string (store/secrets.ts). An array is the plain form older versions wrote.
 */
type StoredSubscription = Omit<SubscriptionRecord, 'HttpHeaders'> & { HttpHeaders: string | Record<string, string>[] };

/** Subscriptions that persist (RedfishEvent), cached in memory (headers open) for the publish path. */
export class SubscriptionStore {
  private readonly docs: DocumentCollection<StoredSubscription>;
  private readonly nextId: { get(): number; set(n: number): void };
  private readonly cache = new Map<string, SubscriptionRecord>();
  private readonly secrets: Secrets;

  constructor(store: DocumentStore) {
    this.docs = store.collection<StoredSubscription>('event.subscription');
    this.nextId = store.setting('event.subscription.next', 1);
    this.secrets = store.secrets;
    for (const stored of this.docs.list()) {
      const headers = stored.HttpHeaders;
      const s: SubscriptionRecord = { ...stored, HttpHeaders: typeof headers === 'string' ? this.secrets.openJson(headers) : headers };
      this.cache.set(s.Id, s);
      // Headers an older version stored in plain text are sealed now.
      if (typeof headers !== 'string') this.put(s);
    }
  }

  list(): SubscriptionRecord[] {
    return [...this.cache.values()];
  }

  get(id: string): SubscriptionRecord | undefined {
    return this.cache.get(id);
  }

  /** A fresh id, never reused (so a stale listener URI cannot name a new subscription). */
  allocateId(): string {
    const n = this.nextId.get();
    this.nextId.set(n + 1);
    return String(n);
  }

  put(s: SubscriptionRecord): void {
    this.docs.put(s.Id, { ...s, HttpHeaders: this.secrets.sealJson(s.HttpHeaders) });
    this.cache.set(s.Id, s);
  }

  delete(id: string): boolean {
    this.cache.delete(id);
    return this.docs.delete(id);
  }
}
