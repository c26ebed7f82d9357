// The twelve UEFI Secure Boot databases (docs/simulated-server.md):
// six the owner writes, and six read-only twins holding the platform defaults.

export const USER_DATABASES = ['PK', 'KEK', 'db', 'dbx', 'dbt', 'dbr'] as const;
export const DEFAULT_DATABASES = ['PKDefault', 'KEKDefault', 'dbDefault', 'dbxDefault', 'dbtDefault', 'dbrDefault'] as const;
export type UserDatabaseId = (typeof USER_DATABASES)[number];
export type DefaultDatabaseId = (typeof DEFAULT_DATABASES)[number];
export type DatabaseId = UserDatabaseId | DefaultDatabaseId;

export interface DatabaseInfo {
  id: DatabaseId;
  name: string;
  description: string;
  writable: boolean;
  /** Most certificates it may hold (PK: one). */
  maxCertificates?: number;
  /** PK and KEK hold keys only, never hashes. */
  signatures: boolean;
}

const PURPOSE: Record<UserDatabaseId, [name: string, purpose: string]> = {
  PK: ['Platform Key', 'trust between the platform owner and the firmware'],
  KEK: ['Key Exchange Key Database', 'trust between the operating system and the firmware; it protects the signature databases'],
  db: ['Authorized Signature Database', 'signatures and certificates of code allowed to run'],
  dbx: ['Forbidden Signature Database', 'signatures and certificates of code forbidden to run'],
  dbt: ['Authorized Timestamp Signature Database', 'certificates of the timestamp authorities for signed code'],
  dbr: ['Authorized Recovery Signature Database', 'signatures and certificates of OS recovery code allowed to run'],
};

function info(id: UserDatabaseId): DatabaseInfo[] {
  const [name, purpose] = PURPOSE[id];
  const limits = { maxCertificates: id === 'PK' ? 1 : undefined, signatures: id !== 'PK' && id !== 'KEK' };
  return [
    { id, name, description: `UEFI Secure Boot ${id} database: ${purpose}.`, writable: true, ...limits },
    {
      id: `${id}Default`,
      name: `Default ${name}`,
      description: `Platform default content of the ${id} database, read-only; ResetKeys with ResetAllKeysToDefault restores it.`,
      writable: false,
      ...limits,
    },
  ];
}

const ALL = [...USER_DATABASES.flatMap(info)];

/** The twelve databases in iLO's order: user databases, then defaults. */
export const DATABASES: readonly DatabaseInfo[] = [...ALL.filter((d) => d.writable), ...ALL.filter((d) => !d.writable)];

const BY_ID = new Map<string, DatabaseInfo>(DATABASES.map((d) => [d.id, d]));

/** Look a database up by its exact id (ids are case-sensitive, like every resource id). */
export function findDatabase(id: string): DatabaseInfo | undefined {
  return BY_ID.get(id);
}

export function defaultOf(id: UserDatabaseId): DefaultDatabaseId {
  return `${id}Default`;
}

export function isUserDatabase(id: DatabaseId): id is UserDatabaseId {
  return (USER_DATABASES as readonly string[]).includes(id);
}
