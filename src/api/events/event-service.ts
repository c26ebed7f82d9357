// EventService: subscriptions (EventDestination), test events and server-sent
// events. The engine (durable outbox, delivery loops, SSE streams) lives in
// src/domain/events/hub.ts; this module declares the resources over it.
import { Representations } from '../../lib/memo.js';
import { EVENT_TYPES } from '../../domain/events/format.js';
import { FilterSyntaxError, SSE_FILTER_PROPERTIES, parseEventFilter, type EventPredicate } from '../../domain/events/filter.js';
import type { EventHub, SubscriptionView } from '../../domain/events/hub.js';
import { serviceUris } from '../../lib/resource-uris.js';
import type { SubscriptionInput } from '../../domain/events/subscriptions.js';
import type { StreamOwner } from '../../domain/events/sse.js';
import { Priv, VENDOR_PRIVILEGES } from '../../lib/privileges.js';
import { Refusal } from '../../messages/refusal.js';
import { baseError } from '../../protocol/errors.js';
import { canLogIn } from '../../protocol/auth.js';
import type { Principal } from '../../protocol/principal.js';
import { StreamReply, collection, created } from '../../protocol/reply.js';
import {
  action,
  present,
  type ActionContext,
  type Context,
  type PatchContext,
  type PostContext,
  type RouteTable,
} from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  EventDestinationCollectionType,
  EventDestinationType,
  EventServiceType,
  ImportEventCaAction,
  ResumeSubscription,
  SubmitTestEvent,
  SuspendSubscription,
  VendorEventServiceType,
} from './event-service-types.js';
import { OEM } from '../../protocol/naming.js';
import { addCollection } from '../../protocol/collections.js';
import type { TrustedCa } from '../../platform/trusted-cas.js';
import { odataType } from '../../protocol/description.js';
import { DEFAULT_MAX_EVENTS_TO_QUEUE } from '../../domain/events/subscriptions.js';
import { VendorCACertificateCollectionType, VendorCACertificateType, caBody, importTrustedCa } from '../certificates/certificate-types.js';

export const EVENT_SERVICE_URI = '/redfish/v1/EventService/';
const SUBSCRIPTIONS_URI = '/redfish/v1/EventService/Subscriptions/';
const CA_CERTIFICATES_URI = '/redfish/v1/EventService/CACertificates/';
const SSE_URI = '/redfish/v1/EventService/SSE/';

/** What the event service reads. */
export type EventServiceDeps = Pick<Services, 'eventHub' | 'eventCas' | 'events' | 'sessions' | 'accounts' | 'log' | 'store'>;

type Destination = typeof EventDestinationType.properties;
type SubscriptionPath = '/redfish/v1/EventService/Subscriptions/{SubscriptionId}/';
type SubscriptionBody =
  PostContext<'/redfish/v1/EventService/Subscriptions/', Destination>['body'] | PatchContext<SubscriptionPath, Destination>['body'];

function destinationBody(hub: EventHub, v: SubscriptionView): Record<string, unknown> {
  const settings = hub.settings();
  const sse = v.SubscriptionType === 'SSE';
  return {
    Id: v.Id,
    Name: sse ? 'Server-Sent Event Stream' : 'Event Subscription',
    Description: sse ? 'An open server-sent event stream; deleting it closes the stream.' : 'Event subscription',
    ...(sse ? {} : { Destination: v.Destination, BackupDestinations: v.BackupDestinations ?? [] }),
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
    // Warning also while a backup takes the events Destination does not.
    Status: { State: v.State, Health: v.State === 'Disabled' || v.failures > 0 || v.lastError !== undefined ? 'Warning' : 'OK' },
    Oem: {
      [OEM]: {
        DeliveryRetryAttempts: v.Vendor.DeliveryRetryAttempts ?? settings.DeliveryRetryAttempts,
        DeliveryRetryIntervalInSeconds: v.Vendor.DeliveryRetryIntervalInSeconds ?? settings.DeliveryRetryIntervalSeconds,
        RequestedMaxEventsToQueue: v.Vendor.RequestedMaxEventsToQueue,
        PendingEvents: v.pending,
        LastDeliveryError: v.lastError ?? null,
      },
    },
  };
}

/**
 * The validated body as the domain takes it. HttpHeaders: the PATCH array markers
 * ({} keeps, null removes an element) mean nothing for headers, so only header sets remain.
 */
function subscriptionInput({ HttpHeaders, ...rest }: SubscriptionBody): SubscriptionInput {
  return HttpHeaders === undefined ? rest : { ...rest, HttpHeaders: HttpHeaders.filter(isHeaderSet) };
}

function isHeaderSet(h: unknown): h is Record<string, string> {
  return typeof h === 'object' && h !== null && Object.keys(h).length > 0 && Object.values(h).every((v) => typeof v === 'string');
}

function handlers(d: EventServiceDeps) {
  const hub = d.eventHub;
  const subscriptionLists = new Representations(1);
  return {
    getEventService,
    patchEventService,
    postSubmitTestEvent,
    getSubscriptionCollection,
    postSubscription,
    getSubscription,
    patchSubscription,
    deleteSubscription,
    postResumeSubscription,
    postSuspendSubscription,
    getSse,
    postImportCaCertificate,
  };

  function getEventService() {
    const settings = hub.settings();
    return {
      Id: 'EventService',
      Name: 'Event Service',
      Description: 'Event Subscription service',
      ServiceEnabled: settings.ServiceEnabled,
      DeliveryRetryAttempts: settings.DeliveryRetryAttempts,
      DeliveryRetryIntervalSeconds: settings.DeliveryRetryIntervalSeconds,
      EventFormatTypes: ['Event', 'MetricReport'],
      EventTypesForSubscription: [...EVENT_TYPES],
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
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorEventServiceType),
          CACertificates: { '@odata.id': CA_CERTIFICATES_URI },
          RequestedMaxEventsToQueueDefault: DEFAULT_MAX_EVENTS_TO_QUEUE,
          // iLO's value for a subscription that never expires, as none does here.
          TTLCountDefault: 999_999,
          TTLUnitsDefault: 'minutes',
        },
      },
    };
  }

  function postImportCaCertificate(ctx: ActionContext<'/redfish/v1/EventService/', typeof ImportEventCaAction>) {
    return importTrustedCa(d.eventCas, ctx.body.Certificate, CA_CERTIFICATES_URI, d.events);
  }

  function patchEventService(ctx: PatchContext<'/redfish/v1/EventService/', typeof EventServiceType.properties>): void {
    hub.updateSettings(ctx.body);
  }

  function postSubmitTestEvent(ctx: ActionContext<'/redfish/v1/EventService/', typeof SubmitTestEvent>): void {
    if (!hub.settings().ServiceEnabled) throw baseError('ServiceDisabled', EVENT_SERVICE_URI);
    hub.submitTestEvent(ctx.body);
  }

  /** Rebuilt when a subscription is stored, changed or removed, or an SSE stream opens or ends. */
  function getSubscriptionCollection() {
    return subscriptionLists.get(SUBSCRIPTIONS_URI, [d.store.generation, hub.streamChanges], () =>
      collection('Event Subscriptions', hub.ids().map(serviceUris.subscription), { Description: 'Event subscriptions' }),
    );
  }

  function postSubscription(ctx: PostContext<'/redfish/v1/EventService/Subscriptions/', Destination>) {
    const input = subscriptionInput(ctx.body);
    if ((ctx.body.SubscriptionType ?? 'RedfishEvent') !== 'RedfishEvent') {
      // SSE destinations come from opening the stream, not from a POST.
      throw baseError('PropertyValueNotInList', String(ctx.body.SubscriptionType), 'SubscriptionType').about('SubscriptionType');
    }
    const record = hub.create(input, ctx.principal.accountId);
    return created(serviceUris.subscription(record.Id), destinationBody(hub, present(hub.get(record.Id), ctx)));
  }

  function getSubscription(ctx: Context<SubscriptionPath>) {
    return destinationBody(hub, present(hub.get(ctx.params.SubscriptionId), ctx));
  }

  function patchSubscription(ctx: PatchContext<SubscriptionPath, Destination>): void {
    hub.update(ctx.params.SubscriptionId, subscriptionInput(ctx.body));
  }

  function deleteSubscription(ctx: Context<SubscriptionPath>): void {
    hub.remove(ctx.params.SubscriptionId);
  }

  function postResumeSubscription(ctx: ActionContext<SubscriptionPath, typeof ResumeSubscription>): void {
    setState(ctx, ResumeSubscription.name, 'Enabled');
  }

  function postSuspendSubscription(ctx: ActionContext<SubscriptionPath, typeof SuspendSubscription>): void {
    setState(ctx, SuspendSubscription.name, 'Disabled');
  }

  /** Resume or suspend deliveries; an SSE stream has none to suspend. */
  function setState(ctx: Context<SubscriptionPath>, actionName: string, state: 'Enabled' | 'Disabled'): void {
    const v = present(hub.get(ctx.params.SubscriptionId), ctx);
    if (v.SubscriptionType === 'SSE') throw baseError('ActionNotSupported', actionName);
    hub.setState(v.Id, state);
  }

  function getSse(ctx: Context<'/redfish/v1/EventService/SSE/'>): StreamReply {
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
    const owner = streamOwner(d, ctx.principal);
    return new StreamReply(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' }, (res) => {
      // The stream ends with its session (logout, SessionTimeout...): one that ended meanwhile gets none.
      if (owner.sessionId !== undefined && !d.sessions.get(owner.sessionId)) {
        res.end();
        return;
      }
      try {
        hub.openStream(res, { userName, filter, predicate, lastEventId, owner });
      } catch (e) {
        // The limit reached between the check and the start is expected; anything else is a fault to see.
        if (!(e instanceof Refusal)) d.log.error({ err: e }, 'an event stream could not start');
        res.end();
      }
    });
  }
}

/**
 * The owner of a new stream. It ends (issue 12, item 8) with its session, and when its account
 * is deleted, disabled, loses LoginPriv or any other privilege it had (a lowered role), must
 * change its password, or, for a stream opened with Basic, has a new password.
 */
function streamOwner(d: Pick<EventServiceDeps, 'accounts' | 'sessions'>, p: Principal): StreamOwner {
  const opened = d.accounts.peek(p.accountId);
  const had = opened ? { ...opened.Privileges } : undefined;
  const passwordHash = opened?.PasswordHash;
  const sessionId = p.sessionId;
  return {
    accountId: p.accountId,
    sessionId,
    stillAllowed: () => {
      const now = d.accounts.peek(p.accountId);
      if (!now || !had || !canLogIn(now) || now.PasswordChangeRequired) return false;
      if (VENDOR_PRIVILEGES.some((k) => had[k] && !now.Privileges[k])) return false;
      return p.method !== 'basic' || now.PasswordHash === passwordHash;
    },
  };
}

export function registerEventServiceRoutes(routes: RouteTable, d: EventServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/EventService/',
    type: EventServiceType,
    get: { privilege: Priv.login, handler: h.getEventService },
    patch: { privilege: Priv.managerConfig, handler: h.patchEventService },
    actions: [
      action(SubmitTestEvent, Priv.managerConfig, h.postSubmitTestEvent),
      action(ImportEventCaAction, Priv.managerConfig, h.postImportCaCertificate),
    ],
  });
  addCollection(routes, {
    collection: '/redfish/v1/EventService/CACertificates/',
    member: '/redfish/v1/EventService/CACertificates/{CertificateId}/',
    type: VendorCACertificateType,
    collectionType: VendorCACertificateCollectionType,
    name: 'Event Service CA Certificates',
    extra: () => ({ Description: 'The CA certificates event delivery trusts, besides the system roots' }),
    store: { list: () => d.eventCas.list(), get: (id: string) => d.eventCas.get(id), id: (ca: TrustedCa) => ca.Id },
    show: caBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    remove: (ca) => {
      d.eventCas.delete(ca.Id);
    },
  });
  routes.add({
    path: '/redfish/v1/EventService/Subscriptions/',
    type: EventDestinationCollectionType,
    get: { privilege: Priv.login, handler: h.getSubscriptionCollection },
    post: { privilege: Priv.managerConfig, handler: h.postSubscription },
  });
  routes.add({
    path: '/redfish/v1/EventService/Subscriptions/{SubscriptionId}/',
    type: EventDestinationType,
    params: { SubscriptionId: (id) => d.eventHub.get(id) !== undefined },
    get: { privilege: Priv.login, handler: h.getSubscription },
    patch: { privilege: Priv.managerConfig, handler: h.patchSubscription },
    delete: { privilege: Priv.managerConfig, handler: h.deleteSubscription },
    actions: [
      // The path as a type argument: action() cannot infer it from the handler's context.
      action(ResumeSubscription, Priv.managerConfig, h.postResumeSubscription),
      action(SuspendSubscription, Priv.managerConfig, h.postSuspendSubscription),
    ],
  });
  routes.add({
    path: '/redfish/v1/EventService/SSE/',
    get: { privilege: Priv.login, filter: true, handler: h.getSse },
  });
}
