// The generic event sources: account and session changes, and every resource
// created, removed or changed through the API (the dispatcher's write hook).
// Areas publish their own specific events (power, BIOS, updates...) themselves.
import { resourceEvent, vendorResourceEvent } from '../../messages/event-messages.js';
import type { AccountRecord, Accounts } from '../accounts/accounts.js';
import type { EventBus } from './bus.js';
import type { Sessions } from '../accounts/sessions.js';

/** What makes an account change worth an event (not failed-login counters). */
function fingerprint(a: AccountRecord): string {
  return JSON.stringify([a.UserName, a.RoleId, a.Enabled, a.Locked, a.Privileges, a.PasswordHash, a.PasswordChangeRequired]);
}

/** Where accounts and sessions are, which their events name (lib/resource-uris.ts, handed in). */
export interface AccountUris {
  account(id: string): string;
  session(id: string): string;
}

export function watchAccounts(bus: EventBus, accounts: Accounts, uris: AccountUris): void {
  const known = new Map<string, { userName: string; print: string; locked: boolean }>();
  for (const a of accounts.list()) known.set(a.Id, { userName: a.UserName, print: fingerprint(a), locked: a.Locked });
  accounts.onChange((id) => {
    const now = accounts.get(id);
    const before = known.get(id);
    const uri = uris.account(id);
    if (!now) {
      if (!before) return;
      known.delete(id);
      bus.publish(vendorResourceEvent('AccountRemoved', before.userName), uri, 'ResourceRemoved');
      return;
    }
    const print = fingerprint(now);
    known.set(id, { userName: now.UserName, print, locked: now.Locked });
    if (!before) bus.publish(vendorResourceEvent('AccountCreated', now.UserName), uri, 'ResourceAdded');
    else if (now.Locked && !before.locked) bus.publish(vendorResourceEvent('AccountLocked', now.UserName), uri, 'StatusChange');
    else if (print !== before.print) bus.publish(vendorResourceEvent('AccountModified', now.UserName), uri, 'ResourceUpdated');
  });
}

export function watchSessions(bus: EventBus, sessions: Sessions, uris: AccountUris): void {
  sessions.onEnd((s, why) => {
    bus.publish(vendorResourceEvent('SessionEnded', s.UserName, why), uris.session(s.Id), 'ResourceRemoved');
  });
}

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
