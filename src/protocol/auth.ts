// Authentication: X-Auth-Token sessions and HTTP Basic, plus any further
// authenticators (client certificates) that other areas add. Basic does not
// pay the password hash on every request: verified credentials are cached
// under a keyed hash, briefly, and dropped on any account change.
// Each TCP connection that authenticates with Basic holds one slot of the
// session limit until it closes (docs/accounts.md).
//
// Slots by role (issue 12, item 7): one account holds at most `perAccount`
// slots (its sessions plus its Basic/certificate connections; 503
// SessionLimitExceeded beyond). When every slot is taken and an administrator
// (role Administrator: UserConfigPriv and ManagerConfigPriv) logs in, the
// oldest session of a lesser-role account is ended to make room (logged; its
// SSE streams end with it), or, with no such session, the oldest connection
// of a lesser-role account is closed. Only a pool full of administrators
// refuses an administrator.
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { baseError, type RedfishError } from './errors.js';
import type { Clock } from '../platform/clock.js';
import type { AccountDirectory, AuthAccount, AuthSession, SessionStore } from './identity.js';
import type { Principal, AuthMethod } from './principal.js';

export interface AuthRequest {
  headers: IncomingHttpHeaders;
  clientIp: string;
  socket?: TLSSocket;
}

/** Returns a principal, undefined when its kind of credential is absent, or throws a 401. */
export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthRequest): Promise<Principal | undefined> | Principal | undefined;
}

/** Decides whether an account may log in now; throws to refuse (lockout, disabled...). */
export interface LoginPolicy<A extends AuthAccount = AuthAccount> {
  beforeLogin(account: A, req: AuthRequest): void;
  afterLogin(account: A | undefined, ok: boolean, req: AuthRequest, userName: string): void;
}

export interface AuthLogger {
  warn(obj: object, msg: string): void;
}

export interface AuthLimits {
  /** Slots (sessions plus connections) one account may hold at once. */
  perAccount: () => number;
}

const BASIC_CACHE_MS = 60_000;
const BASIC_CACHE_MAX = 1024;
const PRINCIPAL_CACHE_MAX = 4096;

function principalKey(accountId: string, method: AuthMethod, sessionId?: string): string {
  return `${accountId}\n${method}\n${sessionId ?? ''}`;
}

export function unauthorized(): RedfishError {
  // One answer for every failure, so nothing tells whether a user exists.
  return baseError('NoValidSession');
}

/** An account may log in when it is enabled and holds the vendor login privilege. */
export function canLogIn(account: AuthAccount): boolean {
  return account.Enabled && account.Privileges.LoginPriv;
}

/** A: the account records the directory hands out (login returns them); S: the session records. */
export class Authentication<A extends AuthAccount = AuthAccount, S extends AuthSession = AuthSession> {
  private readonly authenticators: Authenticator[] = [];
  private readonly policies: LoginPolicy<A>[] = [];
  private readonly cacheKey = randomBytes(32);
  private readonly basicCache = new Map<string, { accountId: string; generation: number; expires: number }>();
  /** Per connection: the last verified Authorization header, with the same lifetime rules as the cache. */
  private readonly basicBySocket = new WeakMap<
    object,
    { header: string; accountId: string; generation: number; expires: number; principal: Principal }
  >();
  /** Per connection: the last token that authenticated, its session, and the key of its principal (not made again at every request). */
  private readonly tokenBySocket = new WeakMap<object, { token: string; session: S; key: string }>();
  /** Connections holding a slot of the session limit (Basic or certificate), oldest first, with their account. */
  private readonly basicConnections = new Map<TLSSocket, { accountId: string; userName: string }>();
  /** Principals by account, method and session, valid while accounts.generation is unchanged. */
  private readonly principals = new Map<string, Principal>();
  private principalGeneration = -1;

  constructor(
    private readonly accounts: AccountDirectory<A>,
    private readonly sessions: SessionStore<S>,
    private readonly clock: Clock,
    private readonly log: AuthLogger,
    private readonly limits: AuthLimits = { perAccount: () => Infinity },
  ) {
    this.authenticators.push(
      { name: 'session', authenticate: (req) => this.fromToken(req) },
      { name: 'basic', authenticate: (req) => this.fromBasic(req) },
    );
    sessions.addSlotHolder(() => this.basicConnections.size);
    // An ended session's principal is never asked for again: kept, each login's stayed until the cache
    // filled (4,096 per controller, about 3 MiB; a fleet of 1,000 grew by that for every login).
    sessions.onEnd((s) => this.principals.delete(principalKey(s.AccountId, 'session', s.Id)));
  }

  /** Basic-authenticated connections open now. */
  basicConnectionCount(): number {
    return this.basicConnections.size;
  }

  /** Principals cached now: those of live sessions and of the other ways each account logged in. */
  cachedPrincipalCount(): number {
    return this.principals.size;
  }

  /**
   * Make sure the account may take one more slot (a new session or connection): its own cap,
   * then the shared limit, evicting a lesser-role holder for an administrator. Throws 503.
   */
  makeRoom(account: A, req: AuthRequest): void {
    const held = this.sessions.list().filter((s) => s.AccountId === account.Id).length + this.connectionsOf(account.Id);
    if (held >= this.limits.perAccount()) {
      this.log.warn(
        { user: account.UserName, ip: req.clientIp, held },
        'login refused: sessions and connections per account limit reached',
      );
      throw baseError('SessionLimitExceeded');
    }
    if (this.sessions.hasFreeSlot()) return;
    if (this.isAdministrator(account) && this.evictLesser(account, req)) return;
    this.log.warn({ user: account.UserName, ip: req.clientIp }, 'login refused: session and connection limit reached');
    throw baseError('SessionLimitExceeded');
  }

  private connectionsOf(accountId: string): number {
    let n = 0;
    for (const c of this.basicConnections.values()) if (c.accountId === accountId) n++;
    return n;
  }

  private isAdministrator(account: Readonly<A> | undefined): boolean {
    return account !== undefined && this.accounts.roleOf(account) === 'Administrator';
  }

  /** End the oldest session, else close the oldest connection, of a non-administrator; false when there is none. */
  private evictLesser(admin: A, req: AuthRequest): boolean {
    const lesser = (accountId: string) => !this.isAdministrator(this.accounts.peek(accountId));
    const session = this.sessions
      .list()
      .filter((s) => lesser(s.AccountId))
      .sort((a, b) => a.CreatedTime - b.CreatedTime)[0];
    if (session) {
      this.log.warn(
        { user: admin.UserName, ip: req.clientIp, evicted: session.UserName, session: session.Id },
        'session ended to make room for an administrator',
      );
      this.sessions.delete(session.Id, 'evicted');
      return true;
    }
    for (const [socket, c] of this.basicConnections) {
      if (socket === req.socket || !lesser(c.accountId)) continue;
      this.log.warn({ user: admin.UserName, ip: req.clientIp, evicted: c.userName }, 'connection closed to make room for an administrator');
      this.basicConnections.delete(socket);
      socket.destroy();
      return true;
    }
    return false;
  }

  /** Add an authenticator tried before the built-in ones (client certificates). */
  addAuthenticator(a: Authenticator): void {
    this.authenticators.unshift(a);
  }

  addLoginPolicy(p: LoginPolicy<A>): void {
    this.policies.push(p);
  }

  /** The principal of a request, or undefined when it carries no credentials at all. */
  authenticate(req: AuthRequest): Principal | undefined | Promise<Principal | undefined> {
    // Only a password check is asynchronous: a request that needs none gets its answer without a microtask.
    for (let i = 0; i < this.authenticators.length; i++) {
      const p = this.authenticators[i]!.authenticate(req);
      if (p instanceof Promise) return this.finishAuthentication(req, p, i + 1);
      if (p) return p;
    }
    return undefined;
  }

  private async finishAuthentication(
    req: AuthRequest,
    pending: Promise<Principal | undefined>,
    next: number,
  ): Promise<Principal | undefined> {
    const p = await pending;
    if (p) return p;
    for (let i = next; i < this.authenticators.length; i++) {
      const q = await this.authenticators[i]!.authenticate(req);
      if (q) return q;
    }
    return undefined;
  }

  /** Check a user name and password, as session login and Basic both do. */
  async login(userName: string, password: string, req: AuthRequest): Promise<A> {
    // Credentials verified recently (a session login or Basic) skip the slow hash; a wrong
    // password or an unknown user never hits, so they still pay exactly one hash.
    const key = this.credentialKey(userName, password);
    const known = this.verifiedAccount(key, req);
    if (known) {
      for (const p of this.policies) p.afterLogin(known, true, req, userName);
      return known;
    }
    const verified = await this.verifyLogin(userName, password, req);
    this.rememberVerified(key, verified.Id, this.clock.now());
    return verified;
  }

  /** An in-memory keyed digest of a user name and password: what the verified-credentials cache holds. */
  private credentialKey(userName: string, password: string): string {
    return createHmac('sha256', this.cacheKey).update(`${userName}:${password}`).digest('base64');
  }

  /**
   * The account of credentials verified within BASIC_CACHE_MS, while no account changed since
   * (password, role, enabled...: the directory's generation); its lockout still applies.
   */
  private verifiedAccount(key: string, req: AuthRequest): A | undefined {
    const hit = this.basicCache.get(key);
    if (!hit) return undefined;
    if (hit.generation === this.accounts.generation && hit.expires > this.clock.now()) {
      const account = this.accounts.get(hit.accountId);
      if (account && canLogIn(account)) {
        for (const p of this.policies) p.beforeLogin(account, req);
        return account;
      }
    }
    this.basicCache.delete(key);
    return undefined;
  }

  private rememberVerified(key: string, accountId: string, now: number): { accountId: string; generation: number; expires: number } {
    if (this.basicCache.size >= BASIC_CACHE_MAX) this.basicCache.clear();
    const entry = { accountId, generation: this.accounts.generation, expires: now + BASIC_CACHE_MS };
    this.basicCache.set(key, entry);
    return entry;
  }

  private async verifyLogin(userName: string, password: string, req: AuthRequest): Promise<A> {
    const account = this.accounts.findByUserName(userName);
    // Every attempt pays exactly one password hash: an unknown user, a disabled account or a
    // locked-out one is checked against a dummy hash of the same cost, and a lockout is only
    // thrown after it, so the time of the 401 tells nothing about the account.
    let refused: unknown;
    if (account) {
      try {
        for (const p of this.policies) p.beforeLogin(account, req);
      } catch (e) {
        refused = e;
      }
    }
    const usable = account !== undefined && refused === undefined && canLogIn(account);
    const matches = await this.accounts.checkPassword(usable ? account : undefined, password);
    if (refused !== undefined) throw refused;
    // The account as it is now: one deleted, disabled or given a new password while the hash
    // was made is not let in (its sessions were ended; this one would outlive that).
    // A right password that no longer opens it is no failed attempt (no lockout count).
    const current = account ? this.accounts.get(account.Id) : undefined;
    const still = current !== undefined && canLogIn(current) && current.PasswordHash === account?.PasswordHash;
    const ok = usable && matches && still;
    if (ok || !(usable && matches)) for (const p of this.policies) p.afterLogin(current, ok, req, userName);
    if (!ok || !current) {
      this.log.warn({ user: userName, ip: req.clientIp }, 'login failed');
      throw unauthorized();
    }
    return current;
  }

  /**
   * Let an account in that another authenticator identified (client certificate):
   * the login policies (lockout) apply and the connection takes a slot like Basic.
   */
  admit(account: A, req: AuthRequest, method: AuthMethod): Principal {
    if (!canLogIn(account)) throw unauthorized();
    for (const p of this.policies) p.beforeLogin(account, req);
    this.holdConnectionSlot(req, account);
    return this.principalOf(account, method);
  }

  principalOf(account: A, method: AuthMethod, sessionId?: string): Principal {
    // Principals depend on the account record only; any account change bumps the generation.
    const key = principalKey(account.Id, method, sessionId);
    if (this.principalGeneration !== this.accounts.generation) {
      this.principals.clear();
      this.principalGeneration = this.accounts.generation;
    }
    let principal = this.principals.get(key);
    if (!principal) {
      if (this.principals.size >= PRINCIPAL_CACHE_MAX) this.principals.clear();
      principal = this.buildPrincipal(account, method, sessionId);
      this.principals.set(key, principal);
    }
    return principal;
  }

  private buildPrincipal(account: A, method: AuthMethod, sessionId?: string): Principal {
    return Object.freeze({
      userName: account.UserName,
      accountId: account.Id,
      roleId: this.accounts.roleOf(account),
      privileges: this.accounts.privilegesOf(account),
      method,
      sessionId,
      passwordChangeRequired: account.PasswordChangeRequired,
    });
  }

  private fromToken(req: AuthRequest): Principal | undefined {
    const token = req.headers['x-auth-token'];
    if (token === undefined) return undefined;
    if (typeof token !== 'string') throw unauthorized();
    return this.principalOfToken(token, req);
  }

  /**
   * The principal of a session token, however the request carries it: the X-Auth-Token
   * header, or the upload's sessionKey cookie or form part. Throws the same 401 for all.
   */
  principalOfToken(token: string, req: AuthRequest): Principal {
    // The same connection re-sending the same token: no digest. A plain comparison is enough,
    // as for Basic: the memo only holds what this same connection sent and was let in with.
    const socket = req.socket;
    let memo = socket ? this.tokenBySocket.get(socket) : undefined;
    if (memo?.token !== token || !this.sessions.refresh(memo.session)) {
      const session = this.sessions.authenticate(token);
      if (!session) throw unauthorized();
      memo = { token, session, key: principalKey(session.AccountId, 'session', session.Id) };
      if (socket) this.tokenBySocket.set(socket, memo);
    }
    const session = memo.session;
    // Unchanged accounts since this session's principal was made: it still holds.
    if (this.principalGeneration === this.accounts.generation) {
      const known = this.principals.get(memo.key);
      if (known) return known;
    }
    const account = this.accounts.peek(session.AccountId);
    if (!account || !canLogIn(account)) throw unauthorized();
    return this.principalOf(account, 'session', session.Id);
  }

  private fromBasic(req: AuthRequest): Principal | undefined | Promise<Principal> {
    const header = req.headers.authorization;
    if (!header) return undefined;
    const now = this.clock.now();
    // The same connection re-sending the same credentials: no decoding or hashing at all.
    const socket = req.socket;
    const memo = socket ? this.basicBySocket.get(socket) : undefined;
    // A plain comparison is enough here: the memo only ever holds what this same connection sent.
    if (memo && memo.header === header && memo.generation === this.accounts.generation && memo.expires > now) {
      const account = this.accounts.peek(memo.accountId);
      if (account && canLogIn(account)) {
        for (const p of this.policies) p.beforeLogin(account, req);
        // Made under the same generation of the accounts: no key to build and look up again.
        return memo.principal;
      }
    }

    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m?.[1]) throw unauthorized();
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthorized();
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);

    // Credentials verified recently answer at once (a lockout applies to them too).
    const key = this.credentialKey(user, password);
    const known = this.verifiedAccount(key, req);
    if (known) return this.admitBasic(req, known, header, key, now);
    return this.verifyLogin(user, password, req).then((account) => this.admitBasic(req, account, header, key, now));
  }

  /** After verified credentials: hold a slot, remember them (and this connection's header), and let the account in. */
  private admitBasic(req: AuthRequest, account: A, header: string, key: string, now: number): Principal {
    const socket = req.socket;
    this.holdConnectionSlot(req, account);
    const entry = this.basicCache.get(key) ?? this.rememberVerified(key, account.Id, now);
    const principal = this.principalOf(account, 'basic');
    if (socket) this.basicBySocket.set(socket, { header, ...entry, principal });
    return principal;
  }

  /** The first Basic request of a connection takes a slot, released when the socket closes; none left: 503. */
  private holdConnectionSlot(req: AuthRequest, account: A): void {
    const socket = req.socket;
    if (!socket || this.basicConnections.has(socket)) return;
    this.makeRoom(account, req);
    this.basicConnections.set(socket, { accountId: account.Id, userName: account.UserName });
    socket.once('close', () => this.basicConnections.delete(socket));
  }
}
