// Controller user accounts: storage, password checks and change notification.
// The AccountService API (issue "accounts") builds on this.
import { randomUUID } from 'node:crypto';
import type { DocumentCollection, DocumentStore } from '../store/documents.js';
import { hashPassword, verifyPassword } from './passwords.js';
import {
  effectivePrivileges,
  roleOf,
  vendorPrivilegesOfRole,
  type Privilege,
  type RoleId,
  type VendorPrivileges,
} from './privileges.js';

export interface AccountRecord {
  Id: string;
  UserName: string;
  PasswordHash: string;
  RoleId: RoleId;
  Enabled: boolean;
  Locked: boolean;
  Privileges: VendorPrivileges;
  PasswordChangeRequired: boolean;
  /** Controller time (ms) until which the account stays locked after failed logins. */
  LockedUntil?: number;
  FailedLogins?: number;
}

export interface NewAccount {
  UserName: string;
  Password: string;
  RoleId: RoleId;
  Enabled?: boolean;
  Privileges?: Partial<VendorPrivileges>;
  PasswordChangeRequired?: boolean;
}

export class Accounts {
  private readonly docs: DocumentCollection<AccountRecord>;
  private readonly listeners: ((id: string) => void)[] = [];
  /** Bumped on every change, so caches keyed on it drop stale entries. */
  generation = 0;

  constructor(
    store: DocumentStore,
    private readonly scryptLogN: number,
  ) {
    this.docs = store.collection<AccountRecord>('account');
  }

  list(): AccountRecord[] {
    return this.docs.list();
  }

  get(id: string): AccountRecord | undefined {
    return this.docs.get(id);
  }

  findByUserName(userName: string): AccountRecord | undefined {
    return this.docs.list().find((a) => a.UserName === userName);
  }

  async create(input: NewAccount): Promise<AccountRecord> {
    const privileges = { ...vendorPrivilegesOfRole(input.RoleId), ...input.Privileges };
    const record: AccountRecord = {
      Id: this.nextId(),
      UserName: input.UserName,
      PasswordHash: await hashPassword(input.Password, this.scryptLogN),
      RoleId: input.RoleId,
      Enabled: input.Enabled ?? true,
      Locked: false,
      Privileges: privileges,
      PasswordChangeRequired: input.PasswordChangeRequired ?? false,
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

  async setPassword(record: AccountRecord, password: string): Promise<AccountRecord> {
    const updated = { ...record, PasswordHash: await hashPassword(password, this.scryptLogN), PasswordChangeRequired: false };
    this.save(updated);
    return updated;
  }

  setRole(record: AccountRecord, role: RoleId): AccountRecord {
    return { ...record, RoleId: role, Privileges: vendorPrivilegesOfRole(role) };
  }

  delete(id: string): boolean {
    const removed = this.docs.delete(id);
    if (removed) this.changed(id);
    return removed;
  }

  async checkPassword(record: AccountRecord, password: string): Promise<boolean> {
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
