// What authentication needs of accounts and sessions, declared here so the
// protocol layer does not depend on the service's state machines: the domain
// classes (domain/accounts/) satisfy these shapes, and the composition root
// (app.ts) hands them to Authentication.
import type { Privilege, RoleId } from '../lib/privileges.js';

/** The members of an account that authentication reads. */
export interface AuthAccount {
  readonly Id: string;
  readonly UserName: string;
  readonly Enabled: boolean;
  /** The vendor privilege booleans; LoginPriv lets the account log in at all. */
  readonly Privileges: { readonly LoginPriv: boolean };
  readonly PasswordChangeRequired: boolean;
  /** Compared only: a login whose password was checked against a hash that has since changed fails. */
  readonly PasswordHash: string;
}

/** The accounts, as authentication looks them up and checks them. */
export interface AccountDirectory<A extends AuthAccount = AuthAccount> {
  /** Bumped on every account change: cached principals and credentials are dropped when it moves. */
  readonly generation: number;
  findByUserName(userName: string): A | undefined;
  /** A copy of the account. */
  get(id: string): A | undefined;
  /** The shared frozen account, for reading only. */
  peek(id: string): Readonly<A> | undefined;
  /** Verify a password; without an account the same work is done and the answer is false. */
  checkPassword(account: A | undefined, password: string): Promise<boolean>;
  roleOf(account: A): RoleId;
  privilegesOf(account: A): ReadonlySet<Privilege>;
}

/** The members of a login session that authentication reads. */
export interface AuthSession {
  readonly Id: string;
  readonly UserName: string;
  readonly AccountId: string;
  /** Controller time (ms) the session was created. */
  readonly CreatedTime: number;
}

/** The login sessions, and the shared limit that sessions and Basic/certificate connections count against. */
export interface SessionStore<S extends AuthSession = AuthSession> {
  /** The session of a token, refreshed, or undefined. */
  authenticate(token: string): S | undefined;
  /** Refresh a session authenticate returned before; false when it has ended. */
  refresh(session: S): boolean;
  list(): readonly S[];
  /** True while sessions plus slot holders stay under the limit. */
  hasFreeSlot(): boolean;
  /** End a session to make room for an administrator. */
  delete(id: string, why: 'evicted'): boolean;
  /** Count further holders of slots (connections) against the limit. */
  addSlotHolder(count: () => number): void;
  /** Called as each session ends, however it ends. */
  onEnd(fn: (session: S) => void): void;
}
