// Federation groups of the controller: named groups sharing a key, each
// granting its members' peers a set of the vendor privileges. Stored only:
// the simulation has no peers to federate with, so no multicast is sent and
// FederationPeers stays empty. The key is sealed at rest and never read back.
import { VENDOR_PRIVILEGES, type VendorPrivilege, type VendorPrivileges } from '../../lib/privileges.js';
import { baseRefusal, refusals, type Refusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export interface FederationGroup {
  Name: string;
  /** Sealed (store/secrets.ts). */
  Key: string;
  Privileges: VendorPrivileges;
}

const KIND = 'manager.federationGroups';
/** As many groups as the vendor's controller keeps; names and keys as long as it takes them. */
export const MAX_FEDERATION_GROUPS = 10;
const NAME = /^[\x21-\x7e]{1,31}$/;
const KEY_LENGTH = { min: 3, max: 31 } as const;

/** The group every controller leaves the factory in: its peers may log in and look. */
export const DEFAULT_GROUP_NAME = 'DEFAULT';
const DEFAULT_PRIVILEGES: VendorPrivileges = privileges({ LoginPriv: true });

function privileges(granted: Partial<Record<VendorPrivilege, boolean>>): VendorPrivileges {
  return Object.fromEntries(VENDOR_PRIVILEGES.map((p) => [p, granted[p] ?? false])) as VendorPrivileges;
}

export interface FederationChange {
  readonly Name?: string;
  readonly Key?: string;
  readonly Privileges?: Partial<Record<VendorPrivilege, boolean>>;
}

export class FederationGroups {
  constructor(private readonly store: DocumentStore) {}

  private get docs() {
    return this.store.collection<FederationGroup>(KIND);
  }

  /** The factory group appears on first use (and again after a factory reset). */
  private seeded() {
    const docs = this.docs;
    if (!this.store.setting<boolean>(`${KIND}.seeded`, false).get()) {
      this.store.setting<boolean>(`${KIND}.seeded`, false).set(true);
      docs.put(DEFAULT_GROUP_NAME, { Name: DEFAULT_GROUP_NAME, Key: this.store.secrets.seal(''), Privileges: DEFAULT_PRIVILEGES });
    }
    return docs;
  }

  list(): readonly Readonly<FederationGroup>[] {
    return this.seeded().peekList();
  }

  get(name: string): Readonly<FederationGroup> | undefined {
    return this.seeded().peek(name);
  }

  create(c: FederationChange): Readonly<FederationGroup> {
    const docs = this.seeded();
    const problems: Refusal[] = [];
    if (c.Name === undefined) problems.push(baseRefusal('PropertyMissing', 'Name').about('Name'));
    else if (!NAME.test(c.Name)) problems.push(baseRefusal('PropertyValueFormatError', c.Name, 'Name').about('Name'));
    if (c.Key === undefined) problems.push(baseRefusal('PropertyMissing', 'Key').about('Key'));
    else problems.push(...keyProblems(c.Key));
    if (problems.length) throw refusals(problems);
    const name = c.Name!;
    if (docs.ids().some((id) => id.toLowerCase() === name.toLowerCase()))
      throw baseRefusal('ResourceAlreadyExists', 'FederationGroup', 'Name', name).about('Name');
    if (docs.count() >= MAX_FEDERATION_GROUPS) throw baseRefusal('CreateLimitReachedForResource');
    const group = { Name: name, Key: this.store.secrets.seal(c.Key!), Privileges: privileges(c.Privileges ?? {}) };
    docs.put(name, group);
    return group;
  }

  change(name: string, c: FederationChange): void {
    const docs = this.seeded();
    const group = docs.get(name);
    if (!group) return;
    if (c.Key !== undefined) {
      const problems = keyProblems(c.Key);
      if (problems.length) throw refusals(problems);
      group.Key = this.store.secrets.seal(c.Key);
    }
    if (c.Privileges) group.Privileges = { ...group.Privileges, ...c.Privileges };
    docs.put(name, group);
  }

  delete(name: string): boolean {
    return this.seeded().delete(name);
  }

  /** Back to the factory group alone (factory defaults). */
  reset(): void {
    this.docs.clear();
    this.store.setting<boolean>(`${KIND}.seeded`, false).set(false);
  }
}

function keyProblems(key: string): Refusal[] {
  return key.length < KEY_LENGTH.min || key.length > KEY_LENGTH.max
    ? [baseRefusal('PropertyValueOutOfRange', '<hidden>', 'Key').about('Key')]
    : [];
}
