// The rules of creating, changing and removing accounts, as pure functions of
// the accounts as they are: who may change what (ConfigureSelf covers one's
// own password only), a role and privilege switches that must agree, unique
// user names, the account limit, and the enabled administrator that always
// remains. Each broken rule is the registry error the client gets.
import { roleOf, vendorPrivilegesOfRole, type RoleId, type VendorPrivileges } from '../../lib/privileges.js';
import { nameKey } from '../../lib/unicode.js';
import { baseRefusal, vendorRefusal } from '../../messages/refusal.js';
import { unlocked } from './account-policy.js';
import { withPasswordHash, type AccountRecord } from './accounts.js';
import { OEM } from '../../lib/oem-token.js';

/** What a client asks to change of an account; every part is optional. */
export interface AccountChange {
  readonly UserName?: string;
  readonly Password?: string;
  readonly RoleId?: RoleId;
  readonly Enabled?: boolean;
  /** Only false is a change (unlock): an account is locked by failed logins, never by a client. */
  readonly Locked?: boolean;
  readonly PasswordChangeRequired?: boolean;
  /** Privilege switches on top of the role (or of the account's switches); RoleId follows from them. */
  readonly Privileges?: Partial<VendorPrivileges>;
  readonly LoginName?: string;
}

export interface AccountFacts {
  /** Every account as stored. */
  readonly accounts: readonly AccountRecord[];
  /** The caller may administer accounts (UserConfigPriv, no password change pending); otherwise only its own password may change. */
  readonly mayManageAccounts: boolean;
}

/** Can log in and administer accounts and the manager. */
export function isEnabledAdministrator(a: AccountRecord): boolean {
  return a.Enabled && a.Privileges.LoginPriv && roleOf(a.Privileges) === 'Administrator';
}

/**
 * The privilege switches an account ends up with: the role's when a role is
 * given, else the current ones (ReadOnly's for a new account), then any
 * switches given on top. When a role and switches are both given they must
 * agree, since RoleId is derived from the switches (the vendor's rule).
 */
export function privilegesFor(
  current: VendorPrivileges | undefined,
  role: RoleId | undefined,
  given: Partial<VendorPrivileges> = {},
): VendorPrivileges {
  const base = role ? vendorPrivilegesOfRole(role) : (current ?? vendorPrivilegesOfRole('ReadOnly'));
  const merged = { ...base, ...given };
  if (role && roleOf(merged) !== role) throw baseRefusal('PropertyValueConflict', 'RoleId', `Oem/${OEM}/Privileges`);
  return merged;
}

/**
 * Refuse a user name another account has, or one that only looks different: the same after case
 * folding and Unicode NFKC (`ATKADMIN` or full-width letters next to `atkadmin`).
 */
export function requireUniqueUserName(accounts: readonly AccountRecord[], userName: string, except?: string): void {
  const key = nameKey(userName);
  if (accounts.some((a) => a.Id !== except && nameKey(a.UserName) === key)) {
    throw baseRefusal('ResourceAlreadyExists', 'ManagerAccount', 'UserName', userName).about('UserName');
  }
}

/** A new account fits: fewer than `maxAccounts` accounts exist, and its user name is free. */
export function requireRoomForAccount(accounts: readonly AccountRecord[], userName: string, maxAccounts: number): void {
  if (accounts.length >= maxAccounts) throw baseRefusal('CreateLimitReachedForResource');
  requireUniqueUserName(accounts, userName);
}

/** Refuse replacing `before` by `after` (or removing it, `after` undefined) when no enabled administrator would remain. */
export function requireAdministratorLeft(
  accounts: readonly AccountRecord[],
  before: AccountRecord,
  after: AccountRecord | undefined,
): void {
  if (!isEnabledAdministrator(before)) return;
  const left = accounts.map((a) => (a.Id === before.Id ? after : a)).filter((a) => a !== undefined && isEnabledAdministrator(a));
  if (left.length === 0) throw vendorRefusal('LastAdministrator', before.UserName);
}

/**
 * The account after a change. The rules, in the order their errors win: who may change what, Locked
 * only false, a free user name, role and switches that agree, an enabled administrator remaining.
 * The new password comes hashed (the caller hashes it before checking, so the check and the write
 * are one step); without the hash the change is only checked. A new password clears
 * PasswordChangeRequired, which the change may then set again (an administrator may require it).
 */
export function changedAccount(before: AccountRecord, change: AccountChange, facts: AccountFacts, passwordHash?: string): AccountRecord {
  const given = Object.entries(change).filter(([, v]) => v !== undefined);
  if (!facts.mayManageAccounts && given.some(([k]) => k !== 'Password')) throw baseRefusal('InsufficientPrivilege');
  if (change.Locked === true) throw baseRefusal('PropertyValueIncorrect', 'Locked', 'true');
  if (change.UserName !== undefined) requireUniqueUserName(facts.accounts, change.UserName, before.Id);
  let after: AccountRecord = { ...before };
  if (change.UserName !== undefined) after.UserName = change.UserName;
  if (change.Enabled !== undefined) after.Enabled = change.Enabled;
  if (change.LoginName !== undefined) after.LoginName = change.LoginName;
  if (change.RoleId !== undefined || change.Privileges) {
    after.Privileges = privilegesFor(before.Privileges, change.RoleId, change.Privileges);
    after.RoleId = roleOf(after.Privileges);
  }
  if (change.Locked === false) after = unlocked(after);
  requireAdministratorLeft(facts.accounts, before, after);
  if (passwordHash !== undefined) after = withPasswordHash(after, passwordHash);
  if (change.PasswordChangeRequired !== undefined) after.PasswordChangeRequired = change.PasswordChangeRequired;
  return after;
}
