// What an event looks like on the wire, and which subscription gets which:
// MessageId parsing, the Redfish Event / MetricReport bodies, and matching.
import type { EventType } from './bus.js';

/** `<Prefix>.<Major>.<Minor>.<Key>`. */
export const MESSAGE_ID_PATTERN = '^[A-Za-z][A-Za-z0-9_]*\\.[0-9]+\\.[0-9]+\\.[A-Za-z][A-Za-z0-9_]*$';
const MESSAGE_ID = new RegExp(MESSAGE_ID_PATTERN);

export interface ParsedMessageId {
  prefix: string;
  version: string;
  key: string;
}

/** Ids parsed so far (every write logs an event); at most 1,000, so ids clients make up cannot grow it without bound. */
const parsedIds = new Map<string, ParsedMessageId | undefined>();
const PARSED_IDS_KEPT = 1000;

export function parseMessageId(id: string): ParsedMessageId | undefined {
  if (parsedIds.has(id)) return parsedIds.get(id);
  let parsed: ParsedMessageId | undefined;
  if (MESSAGE_ID.test(id)) {
    const [prefix, major, minor, key] = id.split('.') as [string, string, string, string];
    parsed = Object.freeze({ prefix, version: `${major}.${minor}`, key });
  }
  if (parsedIds.size < PARSED_IDS_KEPT) parsedIds.set(id, parsed);
  return parsed;
}

export const EVENT_TYPES: readonly EventType[] = ['Alert', 'ResourceAdded', 'ResourceRemoved', 'ResourceUpdated', 'StatusChange', 'Other'];
export const EVENT_ODATA_TYPE = '#Event.v1_13_0.Event';
export const METRIC_REPORT_ODATA_TYPE = '#MetricReport.v1_5_2.MetricReport';

/** One member of Event.Events[], as stored in the event log (EventId filled at read). */
export interface EventRecordBody {
  EventType: EventType;
  EventId?: string;
  EventTimestamp: string;
  Severity: string;
  MessageSeverity: string;
  Message: string;
  MessageId: string;
  MessageArgs: string[];
  OriginOfCondition?: { '@odata.id': string };
  EventGroupId?: number;
}

/** A row of the durable event log: an event, or a metric report. */
export interface LoggedEvent {
  id: number;
  kind: 'Event' | 'MetricReport';
  /** Registry prefix and MessageId (events only). */
  prefix?: string;
  messageId?: string;
  eventType?: string;
  origin?: string;
  /** EventRecordBody for events, the MetricReport resource for reports. */
  body: Record<string, unknown>;
}

/** Who receives what: the filters a subscription (or an SSE stream) sets. */
export interface EventFilterSpec {
  EventFormatType: 'Event' | 'MetricReport';
  RegistryPrefixes: readonly string[];
  MessageIds: readonly string[];
  EventTypes: readonly string[];
}

/** A subscription gets an event when the MessageId's prefix is one of its RegistryPrefixes. */
export function subscriptionWants(f: EventFilterSpec, e: LoggedEvent): boolean {
  if (e.kind !== f.EventFormatType) return false;
  if (e.kind === 'MetricReport') return true;
  if (f.RegistryPrefixes.length && !f.RegistryPrefixes.includes(e.prefix ?? '')) return false;
  if (f.EventTypes.length && !f.EventTypes.includes(e.eventType ?? '')) return false;
  if (f.MessageIds.length && !f.MessageIds.some((m) => sameMessage(m, e.messageId ?? ''))) return false;
  return true;
}

/** "Prefix.Key" or a full id with any version matches the same message. */
export function sameMessage(wanted: string, actual: string): boolean {
  const a = parseMessageId(actual);
  if (!a) return wanted === actual;
  const w = parseMessageId(wanted);
  if (w) return w.prefix === a.prefix && w.key === a.key;
  return wanted === `${a.prefix}.${a.key}` || wanted === a.prefix;
}

/** The body POSTed to a listener (or sent as SSE data) for one logged event. */
/**
 * What is sent for logged events, spelled as the service's dialect spells URIs (`style`):
 * a metric report alone, or event records together in one Event's Events array (in order).
 */
export function wireJson(events: readonly LoggedEvent[], context: string, style: (json: string) => string): string {
  return style(JSON.stringify(wireBody(events, context)));
}

function wireBody(events: readonly LoggedEvent[], context: string): Record<string, unknown> {
  const first = events[0];
  if (!first) throw new Error('no event to send');
  if (first.kind === 'MetricReport') return { ...first.body, Context: context };
  const records = events.map((e) => {
    const record = { ...(e.body as unknown as EventRecordBody) };
    record.EventId ??= String(e.id);
    return record;
  });
  return {
    '@odata.type': EVENT_ODATA_TYPE,
    Id: String(first.id),
    Name: 'Event Array',
    Context: context,
    Events: records,
  };
}
