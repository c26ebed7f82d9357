// Password and lockout policy of the AccountService, persisted, and the login
// policy that enforces lockout on the controller clock: after
// AccountLockoutThreshold failures (counted within AccountLockoutCounterResetAfter
// seconds of each other) an account is refused for AccountLockoutDuration seconds.
import { baseRefusal, vendorRefusal } from '../../messages/refusal.js';
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../store/documents.js';
import type { AccountRecord, Accounts } from './accounts.js';

export interface AccountPolicySettings {
  MinPasswordLength: number;
  /** Failed logins before lockout; 0 disables lockout. */
  AccountLockoutThreshold: number;
  /** Seconds an account stays locked; 0 disables lockout (DSP0268). */
  AccountLockoutDuration: number;
  /** Seconds after the last failure at which the failure counter starts again. */
  AccountLockoutCounterResetAfter: number;
}

export const MAX_PASSWORD_LENGTH = 39;

export const DEFAULT_ACCOUNT_POLICY: AccountPolicySettings = {
  MinPasswordLength: 8,
  AccountLockoutThreshold: 0,
  AccountLockoutDuration: 300,
  AccountLockoutCounterResetAfter: 300,
};

/** The account unlocked, its failed logins forgotten. */
export function unlocked(a: AccountRecord): AccountRecord {
  return { ...a, Locked: false, LockedUntil: undefined, FailedLogins: 0, LastFailedLogin: undefined };
}

export interface PolicyLogger {
  warn(obj: object, msg: string): void;
}

export class AccountPolicy {
  private readonly setting;

  constructor(
    store: DocumentStore,
    private readonly accounts: Accounts,
    private readonly clock: Clock,
    private readonly log: PolicyLogger,
  ) {
    this.setting = store.setting<AccountPolicySettings>('account.policy', DEFAULT_ACCOUNT_POLICY);
  }

  get(): AccountPolicySettings {
    return { ...DEFAULT_ACCOUNT_POLICY, ...this.setting.get() };
  }

  /** Apply a validated change; the counter reset period may not exceed the lockout duration. */
  update(change: Partial<AccountPolicySettings>): AccountPolicySettings {
    const next = { ...this.get(), ...change };
    if (next.AccountLockoutCounterResetAfter > next.AccountLockoutDuration) {
      throw baseRefusal('PropertyValueConflict', 'AccountLockoutCounterResetAfter', 'AccountLockoutDuration');
    }
    this.setting.set(next);
    return next;
  }

  /** Refuses a too short password; the password itself is never quoted. */
  checkPassword(password: string): void {
    const min = this.get().MinPasswordLength;
    if (password.length < min) throw vendorRefusal('PasswordTooShort', min).about('Password');
  }

  isLocked(a: AccountRecord): boolean {
    return a.LockedUntil !== undefined && a.LockedUntil > this.clock.now();
  }

  unlock(a: AccountRecord): AccountRecord {
    return unlocked(a);
  }

  // -- the LoginPolicy of protocol/auth.ts ----------------------------------

  beforeLogin(account: AccountRecord, req: { clientIp: string }): void {
    if (!this.isLocked(account)) return;
    this.log.warn({ user: account.UserName, ip: req.clientIp }, 'login refused: account locked out');
    // The same answer as any failed login, so a lockout reveals nothing.
    throw baseRefusal('NoValidSession');
  }

  afterLogin(account: AccountRecord | undefined, ok: boolean, req: { clientIp: string }): void {
    if (!account) return;
    if (ok) {
      // A lockout that has run out ends with the login: announced, as the lockout was.
      if (account.Locked) this.accounts.save(this.unlock(account));
      else if (account.FailedLogins) this.accounts.saveQuietly(this.unlock(account));
      return;
    }
    const p = this.get();
    if (p.AccountLockoutThreshold === 0 || p.AccountLockoutDuration === 0) return;
    const now = this.clock.now();
    const fresh = account.LastFailedLogin === undefined || now - account.LastFailedLogin > p.AccountLockoutCounterResetAfter * 1000;
    const failures = (fresh ? 0 : (account.FailedLogins ?? 0)) + 1;
    const updated: AccountRecord = { ...account, FailedLogins: failures, LastFailedLogin: now };
    if (failures >= p.AccountLockoutThreshold) {
      updated.Locked = true;
      updated.LockedUntil = now + p.AccountLockoutDuration * 1000;
      updated.FailedLogins = 0;
      this.log.warn(
        { user: account.UserName, ip: req.clientIp, seconds: p.AccountLockoutDuration },
        'account locked out after failed logins',
      );
      // A lockout is a change of the account (AccountLocked event, caches dropped); counting is not.
      this.accounts.save(updated);
      return;
    }
    this.accounts.saveQuietly(updated);
  }
}
