// Controller user accounts: storage, password checks and change notification.
// The rules of account changes (an enabled administrator always remains...)
// live in account-change.ts.
import { randomUUID } from 'node:crypto';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { hashPassword, unmatchableHash, verifyPassword } from './passwords.js';
import {
  effectivePrivileges,
  roleOf,
  vendorPrivilegesOfRole,
  type Privilege,
  type RoleId,
  type VendorPrivileges,
} from '../../lib/privileges.js';

export interface AccountRecord {
  Id: string;
  UserName: string;
  PasswordHash: string;
  RoleId: RoleId;
  Enabled: boolean;
  Locked: boolean;
  Privileges: VendorPrivileges;
  PasswordChangeRequired: boolean;
  /** The vendor's descriptive name of the account (iLO's LoginName); the UserName when never given. */
  LoginName?: string;
  /** Controller time (ms) until which the account stays locked after failed logins. */
  LockedUntil?: number;
  /** Failed logins counted towards lockout, and when the last one happened (controller ms). */
  FailedLogins?: number;
  LastFailedLogin?: number;
}

export interface NewAccount {
  UserName: string;
  Password: string;
  RoleId: RoleId;
  Enabled?: boolean;
  Privileges?: Partial<VendorPrivileges>;
  PasswordChangeRequired?: boolean;
  LoginName?: string;
}

/** The account with a new password hash, which clears PasswordChangeRequired. */
export function withPasswordHash(record: AccountRecord, PasswordHash: string): AccountRecord {
  return { ...record, PasswordHash, PasswordChangeRequired: false };
}

export class Accounts {
  private readonly docs: DocumentCollection<AccountRecord>;
  private readonly listeners: ((id: string) => void)[] = [];
  /** Bumped on every change, so caches keyed on it drop stale entries. */
  generation = 0;
  /** Password verifications done so far (every login attempt does exactly one; tests count them). */
  passwordChecks = 0;
  /**
   * A hash of a random password, made once with the same cost as real ones: logins of unknown,
   * disabled or locked-out accounts verify against it, so they take as long as a wrong password.
   */
  private readonly dummyHash: string;

  constructor(
    store: DocumentStore,
    private readonly scryptLogN: number,
  ) {
    this.docs = store.collection<AccountRecord>('account');
    this.dummyHash = unmatchableHash(scryptLogN);
  }

  list(): AccountRecord[] {
    return this.docs.list();
  }

  get(id: string): AccountRecord | undefined {
    return this.docs.get(id);
  }

  /** The stored record, shared and frozen: for checks that only read it (every authenticated request). */
  peek(id: string): Readonly<AccountRecord> | undefined {
    return this.docs.peek(id);
  }

  findByUserName(userName: string): AccountRecord | undefined {
    return this.docs.list().find((a) => a.UserName === userName);
  }

  /** Create an account; `check` runs again once the hash is made, right before storing (limits, unique names). */
  async create(input: NewAccount, check?: () => void, passwordHash?: string): Promise<AccountRecord> {
    const privileges = { ...vendorPrivilegesOfRole(input.RoleId), ...input.Privileges };
    // A hash made already (a fleet's first administrator) is taken as it is.
    const PasswordHash = passwordHash ?? (await this.hashPassword(input.Password));
    check?.();
    const record: AccountRecord = {
      Id: this.nextId(),
      UserName: input.UserName,
      PasswordHash,
      RoleId: input.RoleId,
      Enabled: input.Enabled ?? true,
      Locked: false,
      Privileges: privileges,
      PasswordChangeRequired: input.PasswordChangeRequired ?? false,
      ...(input.LoginName !== undefined ? { LoginName: input.LoginName } : {}),
    };
    this.docs.put(record.Id, record);
    this.changed(record.Id);
    return record;
  }

  /** Store a modified record; the caller has validated it. */
  save(record: AccountRecord): void {
    this.docs.put(record.Id, record);
    this.changed(record.Id);
  }

  /**
   * Change an account in one step: `next` gets the account and every account as stored at this
   * moment, and what it returns is written before anything else runs. Slow parts (a password hash)
   * are made before, so every rule `next` checks holds when the change lands. Undefined when the
   * account is gone.
   */
  update(
    id: string,
    next: (current: AccountRecord, all: readonly AccountRecord[]) => AccountRecord,
  ): { before: AccountRecord; after: AccountRecord } | undefined {
    const before = this.docs.get(id);
    if (!before) return undefined;
    const after = next(before, this.docs.list());
    this.save(after);
    return { before, after };
  }

  /** Store login bookkeeping (failure counters, lockout) without announcing a change: caches stay valid. */
  saveQuietly(record: AccountRecord): void {
    this.docs.put(record.Id, record);
  }

  /** A hash of `password` at this controller's cost, made before the change that stores it is checked. */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password, this.scryptLogN);
  }

  /** Set an account's password: hashed first, then written onto the account as it is by then. */
  async setPassword(record: AccountRecord, password: string): Promise<AccountRecord | undefined> {
    const hash = await this.hashPassword(password);
    return this.update(record.Id, (current) => withPasswordHash(current, hash))?.after;
  }

  /** The record with a new password hash (not stored), which clears PasswordChangeRequired. */
  async withPassword(record: AccountRecord, password: string): Promise<AccountRecord> {
    return withPasswordHash(record, await this.hashPassword(password));
  }

  setRole(record: AccountRecord, role: RoleId): AccountRecord {
    return { ...record, RoleId: role, Privileges: vendorPrivilegesOfRole(role) };
  }

  delete(id: string): boolean {
    const removed = this.docs.delete(id);
    if (removed) this.changed(id);
    return removed;
  }

  /**
   * Verify a password. Without a record (unknown user, or an account that may not log in now) the
   * same scrypt work is done against the dummy hash and the answer is false: no timing oracle.
   */
  async checkPassword(record: AccountRecord | undefined, password: string): Promise<boolean> {
    this.passwordChecks++;
    if (!record) {
      await verifyPassword(password, this.dummyHash);
      return false;
    }
    return verifyPassword(password, record.PasswordHash);
  }

  privilegesOf(record: AccountRecord): Set<Privilege> {
    return effectivePrivileges(record.Privileges);
  }

  /** RoleId as the vendor reports it: derived from the privilege booleans. */
  roleOf(record: AccountRecord): RoleId {
    return roleOf(record.Privileges);
  }

  onChange(fn: (id: string) => void): void {
    this.listeners.push(fn);
  }

  private changed(id: string): void {
    this.generation++;
    for (const fn of this.listeners) fn(id);
  }

  private nextId(): string {
    const used = new Set(this.docs.ids());
    for (let i = 1; i < 10_000; i++) if (!used.has(String(i))) return String(i);
    return randomUUID();
  }
}
