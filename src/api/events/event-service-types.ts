// Descriptions of the EventService resources: the service, its subscriptions
// (EventDestination, with the vendor retry and queue settings) and their actions.
import { EVENT_TYPES, MESSAGE_ID_PATTERN } from '../../domain/events/format.js';
import { RETRY_POLICIES } from '../../domain/events/subscriptions.js';
import { collectionOf, commonProps, defineAction, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const SEVERITIES = ['OK', 'Warning', 'Critical'] as const;
/** Backups per subscription: each failed one costs a delivery up to the delivery timeout. */
const MAX_BACKUP_DESTINATIONS = 4;

const VendorEventDestinationType = defineType({
  name: oemType('EventDestination'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of an event subscription: its retry settings and queue.',
  properties: {
    DeliveryRetryAttempts: t.integer({
      minimum: 0,
      maximum: 100,
      description: 'Retries of a failed delivery for this subscription; defaults to EventService.DeliveryRetryAttempts.',
    }),
    DeliveryRetryIntervalInSeconds: t.integer({
      minimum: 5,
      maximum: 3600,
      units: 's',
      description: 'Seconds between retries; defaults to EventService.DeliveryRetryIntervalSeconds.',
    }),
    RequestedMaxEventsToQueue: t.integer({
      minimum: 1,
      maximum: 100000,
      description: 'Pending events kept while the listener is unreachable (default 10000); beyond it the oldest are dropped.',
    }),
    PendingEvents: ro(t.integer({ description: 'Events accepted for this subscription and not yet delivered.' })),
    LastDeliveryError: ro(t.string({ nullable: true, description: 'Why the last delivery attempt failed, while failing.' })),
  },
});

export const ResumeSubscription = defineAction({
  name: 'EventDestination.ResumeSubscription',
  description: 'Resume a suspended subscription; queued events are delivered.',
  parameters: {},
});
export const SuspendSubscription = defineAction({
  name: 'EventDestination.SuspendSubscription',
  description: 'Suspend deliveries; events keep queueing.',
  parameters: {},
});

export const EventDestinationType = defineType({
  name: 'EventDestination',
  version: '1.16.0',
  owner: 'DMTF',
  description: 'An event subscription.',
  properties: {
    ...commonProps,
    Destination: t.string({ required: true, createOnly: true, format: 'uri', description: 'https:// URL of the listener.' }),
    BackupDestinations: t.array(t.string({ format: 'uri' }), {
      maxItems: MAX_BACKUP_DESTINATIONS,
      onlyIn: 'dmtf',
      description:
        'https:// URLs that take a delivery, in order, when Destination does not (error, no answer); each delivery tries Destination first.',
    }),
    Context: t.string({ maxLength: 256, description: 'Returned in every event sent to this listener.' }),
    Protocol: t.enum(['Redfish'], { createOnly: true }),
    SubscriptionType: t.enum(['RedfishEvent', 'SSE'], { createOnly: true }),
    EventFormatType: t.enum(['Event', 'MetricReport'], { createOnly: true }),
    RegistryPrefixes: t.array(t.string({ maxLength: 64 }), { maxItems: 64 }),
    MessageIds: t.array(t.string({ maxLength: 128 }), { maxItems: 64 }),
    EventTypes: t.array(t.enum(EVENT_TYPES), { description: 'Filter on EventType.', deprecated: 'RegistryPrefixes and ResourceTypes' }),
    HttpHeaders: t.array(t.object({}, { additionalProperties: t.string({ maxLength: 1024 }), typeName: 'HttpHeaderProperty' }), {
      maxItems: 16,
      // Listener credentials: no error message quotes a value.
      secret: true,
      description: 'Headers added to every delivery (listener credentials); always read back empty.',
    }),
    DeliveryRetryPolicy: t.enum(RETRY_POLICIES),
    VerifyCertificate: t.boolean({ description: "Verify the listener's TLS certificate (default false)." }),
    Status: t.object(
      {
        State: t.enum(['Enabled', 'Disabled'], { description: 'Disabled: suspended; events are kept. PATCH to Enabled resumes.' }),
        Health: ro(t.enum(SEVERITIES, { nullable: true })),
      },
      { typeName: 'Status' },
    ),
    Oem: oem(VendorEventDestinationType),
  },
  actions: [ResumeSubscription, SuspendSubscription],
});

export const EventDestinationCollectionType = collectionOf(EventDestinationType);

export const SubmitTestEvent = defineAction({
  name: 'EventService.SubmitTestEvent',
  description: "Send a test event to every subscription whose RegistryPrefixes contain the MessageId's prefix.",
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
});

/** The vendor's part of the EventService: the CA certificates deliveries trust, and the defaults of a subscription. */
export const VendorEventServiceType = defineType({
  name: oemType('EventService'),
  version: '1.0.0',
  owner: OEM,
  description: "The CA certificates event delivery trusts, and what a new subscription's vendor settings default to.",
  properties: {
    CACertificates: t.link({ readOnly: true }),
    RequestedMaxEventsToQueueDefault: ro(t.integer({ description: 'Pending events a subscription keeps unless it asks otherwise.' })),
    TTLCountDefault: ro(t.integer({ description: 'TTLUnits a subscription lives; 999999: for ever (subscriptions here never expire).' })),
    TTLUnitsDefault: ro(t.enum(['minutes'])),
  },
});

export const ImportEventCaAction = defineAction({
  name: `${oemType('EventService')}.ImportCACertificate`,
  oem: true,
  description: 'Trust a CA certificate (PEM) for event delivery to subscriptions that verify the listener (VerifyCertificate).',
  parameters: { Certificate: t.string({ required: true }) },
});

export const EventServiceType = defineType({
  name: 'EventService',
  version: '1.12.0',
  owner: 'DMTF',
  description: 'Event subscriptions and delivery.',
  properties: {
    ...commonProps,
    ServiceEnabled: t.boolean(),
    DeliveryRetryAttempts: t.integer({ minimum: 0, maximum: 100 }),
    DeliveryRetryIntervalSeconds: t.integer({ minimum: 5, maximum: 3600, units: 's' }),
    EventFormatTypes: ro(t.array(t.enum(['Event', 'MetricReport']))),
    EventTypesForSubscription: ro(
      t.array(t.enum(EVENT_TYPES), {
        description: 'The EventTypes a subscription may filter on.',
        deprecated: 'RegistryPrefixes and ResourceTypes',
      }),
    ),
    RegistryPrefixes: ro(t.array(t.string())),
    ServerSentEventUri: ro(t.string({ format: 'uri-reference' })),
    SSEFilterPropertiesSupported: ro(
      t.object(
        Object.fromEntries(
          [
            'EventFormatType',
            'EventType',
            'MessageId',
            'MetricReportDefinition',
            'OriginResource',
            'RegistryPrefix',
            'ResourceType',
            'SubordinateResources',
          ].map((k) => [k, k === 'EventType' ? ro(t.boolean({ deprecated: 'RegistryPrefix and ResourceType' })) : ro(t.boolean())]),
        ),
        { typeName: 'SSEFilterPropertiesSupported' },
      ),
    ),
    Status: statusProp,
    Subscriptions: t.link({ readOnly: true }),
    Oem: oem(VendorEventServiceType, { readOnly: true }),
  },
  actions: [SubmitTestEvent, ImportEventCaAction],
});
