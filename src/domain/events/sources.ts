// The generic event source: every resource created, removed or changed through
// the API (the dispatcher's write hook). Areas publish their own specific events
// (accounts, power, BIOS, updates...) themselves.
import { resourceEvent } from '../../messages/event-messages.js';
import type { EventBus } from './bus.js';

/** The dispatcher's write notice, structurally (domain does not import protocol). */
export interface ResourceWrite {
  method: string;
  uri: string;
  /** Accepted for later (a task): nothing changed yet. */
  accepted: boolean;
  /** Outside the Redfish tree (the control API): no resource of the service. */
  outside: boolean;
}

/**
 * The dispatcher's onWrite hook: the one source of ResourceCreated, ResourceChanged and
 * ResourceRemoved for the resource an API write addresses. Handlers announce only what else
 * changed (and actions, which the hook does not see), so each change is one event.
 */
export function resourceWriteEvents(bus: EventBus): (w: ResourceWrite) => void {
  return (w) => {
    // The control API (/control/) is not a Redfish resource: its writes are simulated events of their own.
    if (w.outside) return;
    // Accepted (a task): nothing changed yet; the area announces the change when it happens.
    if (w.accepted) return;
    if (w.method === 'POST') bus.publish(resourceEvent('ResourceCreated'), w.uri, 'ResourceAdded');
    else if (w.method === 'DELETE') bus.publish(resourceEvent('ResourceRemoved'), w.uri, 'ResourceRemoved');
    else bus.publish(resourceEvent('ResourceChanged'), w.uri, 'ResourceUpdated');
  };
}
