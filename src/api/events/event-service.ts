// EventService: subscriptions (EventDestination), test events and server-sent
// events. The engine (durable outbox, delivery loops, SSE streams) lives in
// src/domain/event-hub.ts; this module declares the resources over it.
import { EVENT_TYPES, MESSAGE_ID_PATTERN } from '../../domain/events/format.js';
import { FilterSyntaxError, SSE_FILTER_PROPERTIES, parseEventFilter, type EventPredicate } from '../../domain/events/filter.js';
import { subscriptionUri, type SubscriptionView, type TestEventInput } from '../../domain/events/hub.js';
import { RETRY_POLICIES, type SubscriptionInput } from '../../domain/events/subscriptions.js';
import type { StreamOwner } from '../../domain/events/sse.js';
import { Priv, VENDOR_PRIVILEGES } from '../../lib/privileges.js';
import { baseError } from '../../messages/errors.js';
import { canLogIn } from '../../protocol/auth.js';
import { collectionOf, defineType, oem, ro, statusProp, t, type ActionDef, commonProps } from '../../protocol/description.js';
import { StreamReply, collection, created } from '../../protocol/reply.js';
import type { Principal } from '../../protocol/principal.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const EVENT_SERVICE_URI = '/redfish/v1/EventService/';
export const SUBSCRIPTIONS_URI = '/redfish/v1/EventService/Subscriptions/';
export const SSE_URI = '/redfish/v1/EventService/SSE/';

const SEVERITIES = ['OK', 'Warning', 'Critical'];

const VendorEventDestinationType = defineType({
  name: 'VendorEventDestination',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Vendor extension of an event subscription: its retry settings and queue.',
  properties: {
    DeliveryRetryAttempts: t.integer({ minimum: 0, maximum: 100, description: 'Retries of a failed delivery for this subscription; defaults to EventService.DeliveryRetryAttempts.' }),
    DeliveryRetryIntervalInSeconds: t.integer({ minimum: 5, maximum: 3600, units: 's', description: 'Seconds between retries; defaults to EventService.DeliveryRetryIntervalSeconds.' }),
    RequestedMaxEventsToQueue: t.integer({ minimum: 1, maximum: 100000, description: 'Pending events kept while the listener is unreachable (default 10000); beyond it the oldest are dropped.' }),
    PendingEvents: ro(t.integer({ description: 'Events accepted for this subscription and not yet delivered.' })),
    LastDeliveryError: ro(t.string({ nullable: true, description: 'Why the last delivery attempt failed, while failing.' })),
  },
});

const resumeAction: ActionDef = { name: 'EventDestination.ResumeSubscription', description: 'Resume a suspended subscription; queued events are delivered.', parameters: {} };
const suspendAction: ActionDef = { name: 'EventDestination.SuspendSubscription', description: 'Suspend deliveries; events keep queueing.', parameters: {} };

export const EventDestinationType = defineType({
  name: 'EventDestination',
  version: '1.13.0',
  owner: 'DMTF',
  description: 'An event subscription.',
  properties: {
    ...commonProps,
    Destination: t.string({ required: true, createOnly: true, format: 'uri', description: 'https:// URL of the listener.' }),
    Context: t.string({ maxLength: 256, description: 'Returned in every event sent to this listener.' }),
    Protocol: t.enum(['Redfish'], { createOnly: true }),
    SubscriptionType: t.enum(['RedfishEvent', 'SSE'], { createOnly: true }),
    EventFormatType: t.enum(['Event', 'MetricReport'], { createOnly: true }),
    RegistryPrefixes: t.array(t.string({ maxLength: 64 }), { maxItems: 64 }),
    MessageIds: t.array(t.string({ maxLength: 128 }), { maxItems: 64 }),
    EventTypes: t.array(t.enum(EVENT_TYPES), { description: 'Deprecated filter on EventType.' }),
    HttpHeaders: t.array(t.object({}, { additionalProperties: t.string({ maxLength: 1024 }), typeName: 'HttpHeaderProperty' }), {
      maxItems: 16,
      // Listener credentials: no error message quotes a value.
      secret: true,
      description: 'Headers added to every delivery (listener credentials); always read back empty.',
    }),
    DeliveryRetryPolicy: t.enum(RETRY_POLICIES),
    VerifyCertificate: t.boolean({ description: 'Verify the listener\'s TLS certificate (default false).' }),
    Status: t.object(
      {
        State: t.enum(['Enabled', 'Disabled'], { description: 'Disabled: suspended; events are kept. PATCH to Enabled resumes.' }),
        Health: ro(t.enum(SEVERITIES, { nullable: true })),
      },
      { typeName: 'Status' },
    ),
    Oem: oem(VendorEventDestinationType),
  },
  actions: [resumeAction, suspendAction],
});

export const EventDestinationCollectionType = collectionOf(EventDestinationType);

const submitTestEvent: ActionDef = {
  name: 'EventService.SubmitTestEvent',
  description: 'Send a test event to every subscription whose RegistryPrefixes contain the MessageId\'s prefix.',
  parameters: {
    MessageId: t.string({ required: true, pattern: MESSAGE_ID_PATTERN }),
    EventType: t.enum(EVENT_TYPES),
    Severity: t.string({ maxLength: 32 }),
    MessageSeverity: t.enum(SEVERITIES),
    Message: t.string({ maxLength: 1024 }),
    MessageArgs: t.array(t.string({ maxLength: 256 }), { maxItems: 32 }),
    OriginOfCondition: t.string({ format: 'uri-reference', maxLength: 512 }),
    EventTimestamp: t.dateTime(),
    EventId: t.string({ maxLength: 64 }),
    EventGroupId: t.integer({ minimum: 0 }),
  },
};

export const EventServiceType = defineType({
  name: 'EventService',
  version: '1.10.0',
  owner: 'DMTF',
  description: 'Event subscriptions and delivery.',
  properties: {
    ...commonProps,
    ServiceEnabled: t.boolean(),
    DeliveryRetryAttempts: t.integer({ minimum: 0, maximum: 100 }),
    DeliveryRetryIntervalSeconds: t.integer({ minimum: 5, maximum: 3600, units: 's' }),
    EventFormatTypes: ro(t.array(t.enum(['Event', 'MetricReport']))),
    RegistryPrefixes: ro(t.array(t.string())),
    ServerSentEventUri: ro(t.string({ format: 'uri-reference' })),
    SSEFilterPropertiesSupported: ro(
      t.object(
        Object.fromEntries(
          ['EventFormatType', 'EventType', 'MessageId', 'MetricReportDefinition', 'OriginResource', 'RegistryPrefix', 'ResourceType', 'SubordinateResources'].map((k) => [k, ro(t.boolean())]),
        ),
        { typeName: 'SSEFilterPropertiesSupported' },
      ),
    ),
    Status: statusProp,
    Subscriptions: t.link({ readOnly: true }),
  },
  actions: [submitTestEvent],
});

function destinationBody(s: Services, v: SubscriptionView): Record<string, unknown> {
  const settings = s.eventHub.settings();
  const sse = v.SubscriptionType === 'SSE';
  return {
    Id: v.Id,
    Name: sse ? 'Server-Sent Event Stream' : 'Event Subscription',
    Description: sse ? 'An open server-sent event stream; deleting it closes the stream.' : 'Event subscription',
    ...(sse ? {} : { Destination: v.Destination }),
    Context: v.Context,
    Protocol: v.Protocol,
    SubscriptionType: v.SubscriptionType,
    EventFormatType: v.EventFormatType,
    RegistryPrefixes: v.RegistryPrefixes,
    MessageIds: v.MessageIds,
    ...(v.EventTypes.length ? { EventTypes: v.EventTypes } : {}),
    // The values are secrets (listener credentials): never read back.
    HttpHeaders: [],
    DeliveryRetryPolicy: v.DeliveryRetryPolicy,
    VerifyCertificate: v.VerifyCertificate,
    Status: { State: v.State, Health: v.State === 'Disabled' || v.failures > 0 ? 'Warning' : 'OK' },
    Oem: {
      Vendor: {
        DeliveryRetryAttempts: v.Vendor.DeliveryRetryAttempts ?? settings.DeliveryRetryAttempts,
        DeliveryRetryIntervalInSeconds: v.Vendor.DeliveryRetryIntervalInSeconds ?? settings.DeliveryRetryIntervalSeconds,
        RequestedMaxEventsToQueue: v.Vendor.RequestedMaxEventsToQueue,
        PendingEvents: v.pending,
        LastDeliveryError: v.lastError ?? null,
      },
    },
  };
}

/** The validated body as the domain takes it; PATCH array markers ({} / null) mean nothing for headers. */
function subscriptionInput(body: Record<string, unknown>): SubscriptionInput {
  const input = { ...body } as SubscriptionInput & Record<string, unknown>;
  if (Array.isArray(body.HttpHeaders)) {
    input.HttpHeaders = (body.HttpHeaders as unknown[]).filter(
      (h): h is Record<string, string> => typeof h === 'object' && h !== null && Object.keys(h).length > 0,
    );
  }
  return input;
}

function subscriptionOf(s: Services, ctx: RequestContext): SubscriptionView {
  return present(s.eventHub.get(ctx.params.SubscriptionId ?? ''), ctx);
}

function sseStream(s: Services, ctx: RequestContext): StreamReply {
  const hub = s.eventHub;
  if (!hub.settings().ServiceEnabled) throw baseError('ServiceDisabled', EVENT_SERVICE_URI);
  let predicate: EventPredicate = () => true;
  const filter = ctx.query.filter;
  if (filter !== undefined) {
    try {
      predicate = parseEventFilter(filter);
    } catch (e) {
      if (e instanceof FilterSyntaxError) throw baseError('QueryParameterValueFormatError', filter, '$filter');
      throw e;
    }
  }
  // The per-account cap, and room at the limit (an administrator displaces a lesser-role stream).
  hub.makeRoom(ctx.principal.accountId, true);
  // Last-Event-ID is the EventId of the last event the client saw; anything else replays nothing.
  const last = String(ctx.headers['last-event-id'] ?? '').trim();
  const lastEventId = /^\d+$/.test(last) ? Number(last) : undefined;
  const userName = ctx.principal.userName;
  const owner = streamOwner(s, ctx.principal);
  return new StreamReply(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' }, (res) => {
    // While the stream is open its session is in use: it does not time out, and ending it ends the stream.
    if (owner.sessionId !== undefined && !s.sessions.pin(owner.sessionId)) {
      res.end(); // the session ended meanwhile
      return;
    }
    try {
      hub.openStream(res, { userName, filter, predicate, lastEventId, owner });
    } catch {
      owner.released?.();
      res.end(); // the limit was reached between the check and the start
    }
  });
}

/**
 * The owner of a new stream. It ends (issue 12, item 8) with its session, and when its account
 * is deleted, disabled, loses LoginPriv or any other privilege it had (a lowered role), must
 * change its password, or, for a stream opened with Basic, has a new password.
 */
function streamOwner(s: Services, p: Principal): StreamOwner {
  const opened = s.accounts.peek(p.accountId);
  const had = opened ? { ...opened.Privileges } : undefined;
  const passwordHash = opened?.PasswordHash;
  const sessionId = p.sessionId;
  return {
    accountId: p.accountId,
    sessionId,
    stillAllowed: () => {
      const now = s.accounts.peek(p.accountId);
      if (!now || !had || !canLogIn(now) || now.PasswordChangeRequired) return false;
      if (VENDOR_PRIVILEGES.some((k) => had[k] && !now.Privileges[k])) return false;
      return p.method !== 'basic' || now.PasswordHash === passwordHash;
    },
    released: () => {
      if (sessionId !== undefined) s.sessions.unpin(sessionId);
    },
  };
}

export function registerEventServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.EventService = EVENT_SERVICE_URI;
  const hub = s.eventHub;

  routes.add({
    path: EVENT_SERVICE_URI,
    type: EventServiceType,
    get: {
      privilege: Priv.login,
      handler: () => {
        const settings = hub.settings();
        return {
          Id: 'EventService',
          Name: 'Event Service',
          Description: 'Event Subscription service',
          ServiceEnabled: settings.ServiceEnabled,
          DeliveryRetryAttempts: settings.DeliveryRetryAttempts,
          DeliveryRetryIntervalSeconds: settings.DeliveryRetryIntervalSeconds,
          EventFormatTypes: ['Event', 'MetricReport'],
          RegistryPrefixes: hub.prefixes(),
          ServerSentEventUri: SSE_URI,
          SSEFilterPropertiesSupported: {
            MetricReportDefinition: false,
            ResourceType: false,
            SubordinateResources: false,
            ...Object.fromEntries(SSE_FILTER_PROPERTIES.map((p) => [p, true])),
          },
          Status: { State: settings.ServiceEnabled ? 'Enabled' : 'Disabled', Health: 'OK' },
          Subscriptions: { '@odata.id': SUBSCRIPTIONS_URI },
        };
      },
    },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        hub.updateSettings(ctx.body as Partial<{ ServiceEnabled: boolean; DeliveryRetryAttempts: number; DeliveryRetryIntervalSeconds: number }>);
      },
    },
    actions: [
      {
        def: submitTestEvent,
        privilege: Priv.managerConfig,
        handler: (ctx) => {
          if (!hub.settings().ServiceEnabled) throw baseError('ServiceDisabled', EVENT_SERVICE_URI);
          hub.submitTestEvent(ctx.body as unknown as TestEventInput);
        },
      },
    ],
  });

  routes.add({
    path: SUBSCRIPTIONS_URI,
    type: EventDestinationCollectionType,
    get: {
      privilege: Priv.login,
      handler: () => collection('Event Subscriptions', hub.list().map((v) => subscriptionUri(v.Id)), { Description: 'Event subscriptions' }),
    },
    post: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const input = subscriptionInput(ctx.body);
        if ((ctx.body.SubscriptionType ?? 'RedfishEvent') !== 'RedfishEvent') {
          // SSE destinations come from opening the stream, not from a POST.
          throw baseError('PropertyValueNotInList', String(ctx.body.SubscriptionType), 'SubscriptionType').about('SubscriptionType');
        }
        const record = hub.create(input, ctx.principal.accountId);
        return created(subscriptionUri(record.Id), destinationBody(s, subscriptionOf(s, { ...ctx, params: { SubscriptionId: record.Id } })));
      },
    },
  });

  routes.add({
    path: `${SUBSCRIPTIONS_URI}{SubscriptionId}/`,
    type: EventDestinationType,
    params: { SubscriptionId: (id) => hub.get(id) !== undefined },
    get: { privilege: Priv.login, handler: (ctx) => destinationBody(s, subscriptionOf(s, ctx)) },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        hub.update(ctx.params.SubscriptionId ?? '', subscriptionInput(ctx.body));
      },
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        hub.remove(ctx.params.SubscriptionId ?? '');
      },
    },
    actions: [resumeAction, suspendAction].map((def) => ({
      def,
      privilege: Priv.managerConfig,
      handler: (ctx: RequestContext) => {
        const v = subscriptionOf(s, ctx);
        if (v.SubscriptionType === 'SSE') throw baseError('ActionNotSupported', def.name);
        hub.setState(v.Id, def === resumeAction ? 'Enabled' : 'Disabled');
      },
    })),
  });

  routes.add({
    path: SSE_URI,
    get: { privilege: Priv.login, filter: true, handler: (ctx) => sseStream(s, ctx) },
  });
}
