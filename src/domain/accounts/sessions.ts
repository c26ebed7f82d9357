// Login sessions. Kept in memory only: a real controller drops them on reset.
// Tokens are looked up by their SHA-256 and compared in constant time.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock, TimerHandle } from '../../platform/clock.js';

export interface SessionRecord {
  Id: string;
  UserName: string;
  AccountId: string;
  /** Client address the session was created from. */
  ClientOriginIPAddress: string;
  CreatedTime: number;
  LastUsed: number;
  tokenHash: Buffer;
}

/** evicted: ended to make room for an administrator at the session limit. */
export type SessionEndReason = 'logout' | 'timeout' | 'account' | 'reset' | 'evicted';

/** The absolute session lifetime until a client sets one (DMTF's upper bound: a day). */
export const DEFAULT_ABSOLUTE_SESSION_TIMEOUT = 86_400;

export interface SessionOptions {
  /** Inactivity timeout in seconds, read on every check so a PATCH applies at once. */
  timeoutSeconds: () => number;
  /** Lifetime of a session from its creation whatever its activity, seconds; undefined: none. Read on every check. */
  absoluteTimeoutSeconds?: () => number | undefined;
  /** Simultaneous sessions and connections allowed. */
  limit: () => number;
}

export class SessionLimitError extends Error {
  constructor(readonly limit: number) {
    super(`session limit ${limit} reached`);
  }
}

function digest(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

export class Sessions {
  private readonly byHash = new Map<string, SessionRecord>();
  private readonly byId = new Map<string, SessionRecord>();
  private readonly endListeners: ((s: SessionRecord, why: SessionEndReason) => void)[] = [];
  /** Other holders of the shared connection limit (Basic-authenticated connections). */
  private readonly otherSlots: (() => number)[] = [];
  /** The expiry sweep, running only while there are sessions (an idle fleet's controllers have none). */
  private sweeper?: TimerHandle;
  private stopped = false;
  /** Bumped whenever a session starts or ends, so views of the set can be kept until it changes. */
  version = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: SessionOptions,
  ) {}

  /** Create a session; throws SessionLimitError when every slot is taken. */
  create(account: { Id: string; UserName: string }, origin: string): { session: SessionRecord; token: string } {
    this.expire();
    if (this.inUse() >= this.options.limit()) throw new SessionLimitError(this.options.limit());
    // 256 random bits, hex-encoded (validators test hex tokens for entropy).
    const token = randomBytes(32).toString('hex');
    const now = this.clock.now();
    const session: SessionRecord = {
      Id: randomBytes(12).toString('hex'),
      UserName: account.UserName,
      AccountId: account.Id,
      ClientOriginIPAddress: origin,
      CreatedTime: now,
      LastUsed: now,
      tokenHash: digest(token),
    };
    this.byHash.set(session.tokenHash.toString('hex'), session);
    if (!this.stopped) this.sweeper ??= this.clock.setInterval(10_000, () => this.expire());
    this.byId.set(session.Id, session);
    this.version++;
    return { session, token };
  }

  /** The live session a token belongs to, refreshing its inactivity timer. */
  authenticate(token: string): SessionRecord | undefined {
    const hash = digest(token);
    const s = this.byHash.get(hash.toString('hex'));
    if (!s || !timingSafeEqual(s.tokenHash, hash)) return undefined;
    return this.refresh(s) ? s : undefined;
  }

  /** Refresh a session already found by its token: false when it has ended or expired since. */
  refresh(s: SessionRecord): boolean {
    if (this.byId.get(s.Id) !== s) return false;
    const now = this.clock.now();
    if (this.expired(s, now)) {
      this.remove(s, 'timeout');
      return false;
    }
    s.LastUsed = now;
    return true;
  }

  get(id: string): SessionRecord | undefined {
    const s = this.byId.get(id);
    if (s && this.expired(s, this.clock.now())) {
      this.remove(s, 'timeout');
      return undefined;
    }
    return s;
  }

  list(): SessionRecord[] {
    this.expire();
    return [...this.byId.values()];
  }

  count(): number {
    return this.byId.size;
  }

  /** Sessions plus other holders of the shared limit. */
  inUse(): number {
    return this.byId.size + this.otherSlots.reduce((n, f) => n + f(), 0);
  }

  /** True when one more session or connection fits under the limit (expired sessions are let go first). */
  hasFreeSlot(): boolean {
    if (this.inUse() < this.options.limit()) return true;
    this.expire();
    return this.inUse() < this.options.limit();
  }

  /** Stop the expiry sweep (service shutdown; the clock may outlive the service). */
  stop(): void {
    this.stopped = true;
    this.sweeper?.cancel();
    this.sweeper = undefined;
  }

  addSlotHolder(count: () => number): void {
    this.otherSlots.push(count);
  }

  delete(id: string, why: SessionEndReason = 'logout'): boolean {
    const s = this.byId.get(id);
    if (!s) return false;
    this.remove(s, why);
    return true;
  }

  deleteForAccount(accountId: string): void {
    for (const s of [...this.byId.values()]) if (s.AccountId === accountId) this.remove(s, 'account');
  }

  clear(why: SessionEndReason = 'reset'): void {
    for (const s of [...this.byId.values()]) this.remove(s, why);
  }

  onEnd(fn: (s: SessionRecord, why: SessionEndReason) => void): void {
    this.endListeners.push(fn);
  }

  expire(): void {
    const now = this.clock.now();
    for (const s of [...this.byId.values()]) if (this.expired(s, now)) this.remove(s, 'timeout');
  }

  /** When a session ends whatever its activity (DMTF's ExpirationTime); undefined without an absolute timeout. */
  expiresAt(s: SessionRecord): number | undefined {
    const lifetime = this.options.absoluteTimeoutSeconds?.();
    return lifetime === undefined ? undefined : s.CreatedTime + lifetime * 1000;
  }

  /** An open event stream is no use of its session: it times out all the same, and the stream ends with it. */
  private expired(s: SessionRecord, now: number): boolean {
    const end = this.expiresAt(s);
    if (end !== undefined && now >= end) return true;
    return now - s.LastUsed > this.options.timeoutSeconds() * 1000;
  }

  private remove(s: SessionRecord, why: SessionEndReason): void {
    this.byHash.delete(s.tokenHash.toString('hex'));
    this.byId.delete(s.Id);
    if (this.byId.size === 0) {
      this.sweeper?.cancel();
      this.sweeper = undefined;
    }
    this.version++;
    for (const fn of this.endListeners) fn(s, why);
  }
}
