// The events of the accounts area: an account created, changed, locked or
// removed, and a session ended (Vendor resource event registry).
import { vendorResourceEvent } from '../../messages/event-messages.js';
import type { EventBus } from '../events/bus.js';
import type { AccountRecord, Accounts } from './accounts.js';
import type { Sessions } from './sessions.js';

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
