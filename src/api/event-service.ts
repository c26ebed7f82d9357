// EventService. The events area adds subscriptions, delivery, SSE and test events.
import { Priv } from '../domain/privileges.js';
import { collectionOf, defineType, ro, statusProp, t } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const EVENT_SERVICE_URI = '/redfish/v1/EventService/';
export const SUBSCRIPTIONS_URI = '/redfish/v1/EventService/Subscriptions/';

export const EventDestinationType = defineType({
  name: 'EventDestination',
  version: '1.13.0',
  owner: 'DMTF',
  description: 'An event subscription.',
  properties: { Id: ro(t.string()), Name: ro(t.string()) },
});

export const EventServiceType = defineType({
  name: 'EventService',
  version: '1.10.0',
  owner: 'DMTF',
  description: 'Event subscriptions and delivery.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    RegistryPrefixes: ro(t.array(t.string())),
    Subscriptions: t.link({ readOnly: true }),
  },
});

export function registerEventServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.EventService = EVENT_SERVICE_URI;
  routes.add({
    path: EVENT_SERVICE_URI,
    type: EventServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'EventService',
        Name: 'Event Service',
        ServiceEnabled: true,
        Status: { State: 'Enabled', Health: 'OK' },
        RegistryPrefixes: s.registries.prefixes(),
        Subscriptions: { '@odata.id': SUBSCRIPTIONS_URI },
      }),
    },
  });
  routes.add({
    path: SUBSCRIPTIONS_URI,
    type: collectionOf(EventDestinationType),
    get: { privilege: Priv.login, handler: () => collection('Event Subscriptions', []) },
  });
}
