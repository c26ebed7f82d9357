// UEFI Secure Boot of the system: the SecureBoot resource, the twelve key
// databases, their certificates (real X.509) and signatures (SHA-256 hashes).
// The ...Default databases are read-only: writes there get 405 with Allow.
// The dispatcher announces each write to the addressed resource; this module
// announces what else changed (actions, SecureBootMode, the boot).
import { Priv } from '../../lib/privileges.js';
import type { ChangeSet, CertificateRecord, SignatureRecord } from '../../domain/secure-boot/secure-boot.js';
import { DATABASES, findDatabase, type DatabaseId, type DatabaseInfo } from '../../domain/secure-boot/databases.js';
import { vendorMessage } from '../../messages/errors.js';
import { baseError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collection, messages } from '../../protocol/reply.js';
import {
  action,
  present,
  type ActionContext,
  type Context,
  type PatchContext,
  type PostContext,
  type RouteTable,
} from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  CertificateEnrollBody,
  SecureBootDatabaseCollectionType,
  SecureBootDatabaseResetKeys,
  SecureBootDatabaseType,
  SecureBootResetKeys,
  SecureBootType,
  SignatureAddBody,
  SignatureType,
} from './secure-boot-types.js';
import { CertificateType, certificateProperties } from '../certificates/certificate-types.js';

/** What the Secure Boot area uses. */
export type SecureBootDeps = Pick<Services, 'uris' | 'secureBoot' | 'events'>;

// Handlers' paths (the routes below spell them out in full).
type SecureBootPath = '/redfish/v1/Systems/{SystemId}/SecureBoot/';
type DatabasePath = '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/';

/** A certificate or signature, with the database it is in. */
interface Entry<R> {
  db: DatabaseInfo;
  record: R;
}

/** Values of SecureBootDatabase.ResetKeys that make sense per database. */
function databaseResetValues(db: DatabaseInfo | undefined): readonly ('ResetAllKeysToDefault' | 'DeleteAllKeys')[] {
  return db?.writable === false ? ['ResetAllKeysToDefault'] : ['ResetAllKeysToDefault', 'DeleteAllKeys'];
}

const readOnlyFor = (p: { DatabaseId: string }): boolean => findDatabase(p.DatabaseId)?.writable === false;
/** PK and KEK hold no signatures, so their Signatures take no POST either (Allow: GET, HEAD). */
const signaturesReadOnlyFor = (p: { DatabaseId: string }): boolean => readOnlyFor(p) || findDatabase(p.DatabaseId)?.signatures === false;

/** @Redfish.AllowableValues of SecureBootDatabase.ResetKeys, per database. */
function allowable({ params }: { params: Readonly<Record<string, string>> }): Record<string, readonly string[]> {
  return { ResetKeysType: databaseResetValues(DATABASES.find((db) => db.id === params.DatabaseId)) };
}

function certificateBody({ db, record }: Entry<CertificateRecord>): Record<string, unknown> {
  return {
    Id: record.Id,
    Name: record.info.subject.CommonName ?? `Certificate ${record.Id}`,
    Description: `Certificate enrolled in the ${db.id} database`,
    ...certificateProperties(record.info),
    // UEFI's keys and signers: what DMTF calls a BIOS certificate.
    CertificateUsageTypes: ['BIOS'],
    UefiSignatureOwner: record.owner,
  };
}

function signatureBody({ db, record }: Entry<SignatureRecord>): Record<string, unknown> {
  return {
    Id: record.Id,
    Name: `Signature ${record.Id}`,
    Description: `SHA-256 hash in the ${db.id} database`,
    SignatureString: record.hash,
    SignatureTypeRegistry: 'UEFI',
    SignatureType: record.type,
    UefiSignatureOwner: record.owner,
  };
}

function certificatesExtra(p: { DatabaseId: string }): Record<string, unknown> {
  return {
    Description: `Certificates in the ${p.DatabaseId} database`,
    ...(findDatabase(p.DatabaseId)?.writable ? { '@Redfish.SupportedCertificates': ['PEM'] } : {}),
  };
}

/** The entries of one kind in the database a path names. */
function entries<R extends { Id: string }>(
  list: (db: DatabaseId) => R[],
  get: (db: DatabaseId, id: string) => R | undefined,
): MemberStore<Entry<R>, { readonly DatabaseId: string }> {
  return {
    list: (p) => {
      const db = findDatabase(p.DatabaseId);
      return db ? list(db.id).map((record) => ({ db, record })) : [];
    },
    get: (id, p) => {
      const db = findDatabase(p.DatabaseId);
      const record = db && get(db.id, id);
      return db && record && { db, record };
    },
    id: (e) => e.record.Id,
  };
}

/** The resources a Secure Boot change touched, announced (ResourceChanged). */
function announce(d: Pick<Services, 'uris' | 'events'>, change: ChangeSet): void {
  const uri = d.uris.system('SecureBoot');
  for (const db of change.databases)
    d.events.publish(resourceEvent('ResourceChanged'), `${uri}SecureBootDatabases/${db}/`, 'ResourceUpdated');
  if (change.secureBoot) d.events.publish(resourceEvent('ResourceChanged'), uri, 'ResourceUpdated');
}

/**
 * The POST step SecureBootSetup: a boot applies SecureBootEnable (the firmware enforces Secure Boot,
 * or not), and what that changes is announced. No need to wait for the defaults: before they exist,
 * Secure Boot is off.
 */
export function secureBootAtPost(d: Pick<Services, 'uris' | 'events' | 'secureBoot'>): () => void {
  return () => announce(d, d.secureBoot.applyAtBoot());
}

function handlers(d: SecureBootDeps) {
  const sb = d.secureBoot;
  const database = (ctx: { params: { DatabaseId: string }; uri: string }): DatabaseInfo =>
    present(findDatabase(ctx.params.DatabaseId), ctx);
  return {
    // A database's content exists once the factory defaults are made (on first use):
    // every route under {DatabaseId} waits for them before its member ids resolve.
    databaseExists: async (id: string) => {
      await sb.ready();
      return findDatabase(id) !== undefined;
    },
    certificates: entries(
      (db) => sb.certificates(db),
      (db, id) => sb.certificate(db, id),
    ),
    signatures: entries(
      (db) => sb.signatures(db),
      (db, id) => sb.signature(db, id),
    ),
    getSecureBoot,
    patchSecureBoot,
    postResetKeys,
    getDatabases,
    getDatabase,
    postDatabaseResetKeys,
    enrollCertificate,
    deleteCertificate,
    addSignature,
    deleteSignature,
  };

  async function getSecureBoot(ctx: Context<SecureBootPath>) {
    await sb.ready();
    const st = sb.status();
    return {
      Id: 'SecureBoot',
      Name: 'UEFI Secure Boot',
      Description: 'UEFI Secure Boot settings and key databases',
      SecureBootEnable: st.enable,
      SecureBootCurrentBoot: st.currentBoot,
      SecureBootMode: st.mode,
      SecureBootDatabases: { '@odata.id': `${ctx.uri}SecureBootDatabases/` },
    };
  }

  async function patchSecureBoot(ctx: PatchContext<SecureBootPath, typeof SecureBootType.properties>) {
    await sb.ready();
    const change = sb.setEnable(ctx.body.SecureBootEnable === true);
    // Like any firmware setting, it is applied by the next boot.
    return change.secureBoot ? messages(vendorMessage('SystemResetRequired'), ...ctx.problems) : undefined;
  }

  async function postResetKeys(ctx: ActionContext<SecureBootPath, typeof SecureBootResetKeys>) {
    await sb.ready();
    announce(d, sb.resetKeys(ctx.body.ResetKeysType));
  }

  async function getDatabases(ctx: Context<`${SecureBootPath}SecureBootDatabases/`>) {
    await sb.ready();
    return collection(
      'UEFI SecureBoot Database Collection',
      DATABASES.map((db) => `${ctx.uri}${db.id}/`),
      { Description: 'The UEFI Secure Boot databases of the system' },
    );
  }

  function getDatabase(ctx: Context<DatabasePath>) {
    const db = database(ctx);
    return {
      Id: db.id,
      Name: db.name,
      Description: db.description,
      DatabaseId: db.id,
      Certificates: { '@odata.id': `${ctx.uri}Certificates/` },
      Signatures: { '@odata.id': `${ctx.uri}Signatures/` },
    };
  }

  function postDatabaseResetKeys(ctx: ActionContext<DatabasePath, typeof SecureBootDatabaseResetKeys>) {
    const db = database(ctx);
    const type = ctx.body.ResetKeysType;
    if (!databaseResetValues(db).includes(type)) {
      throw baseError('ActionParameterValueNotInList', type, 'ResetKeysType', SecureBootDatabaseResetKeys.name).about('ResetKeysType');
    }
    announce(d, sb.resetDatabase(db, type));
  }

  function enrollCertificate(ctx: PostContext<`${DatabasePath}Certificates/`, typeof CertificateEnrollBody>): Entry<CertificateRecord> {
    const db = database(ctx);
    const record = sb.enrollCertificate(db, ctx.body.CertificateString, ctx.body.UefiSignatureOwner?.toLowerCase());
    // The first PK moves the system from Setup Mode to User Mode.
    if (db.id === 'PK') announce(d, { databases: [], secureBoot: true });
    return { db, record };
  }

  function deleteCertificate({ db, record }: Entry<CertificateRecord>, ctx: Context<`${DatabasePath}Certificates/{CertificateId}/`>) {
    const change = present(sb.deleteCertificate(db, record.Id), ctx);
    // Removing the PK also changes SecureBootMode (and maybe SecureBootEnable).
    announce(d, { ...change, databases: [] });
  }

  function addSignature(ctx: PostContext<`${DatabasePath}Signatures/`, typeof SignatureAddBody>): Entry<SignatureRecord> {
    const db = database(ctx);
    return { db, record: sb.addSignature(db, ctx.body.SignatureString, ctx.body.UefiSignatureOwner?.toLowerCase()) };
  }

  function deleteSignature({ db, record }: Entry<SignatureRecord>, ctx: Context<`${DatabasePath}Signatures/{SignatureId}/`>) {
    present(sb.deleteSignature(db, record.Id), ctx);
  }
}

export function registerSecureBootRoutes(routes: RouteTable, d: SecureBootDeps): void {
  const h = handlers(d);
  const databaseParams = { DatabaseId: h.databaseExists };
  // A database's certificates and signatures: read-only in the ...Default databases.
  const inDatabase = { params: databaseParams, readOnlyFor, privileges: { read: Priv.login, write: Priv.hostBios } };

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/',
    type: SecureBootType,
    get: { privilege: Priv.login, handler: h.getSecureBoot },
    patch: { privilege: Priv.hostBios, handler: h.patchSecureBoot },
    actions: [action(SecureBootResetKeys, Priv.hostBios, h.postResetKeys)],
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/',
    type: SecureBootDatabaseCollectionType,
    get: { privilege: Priv.login, handler: h.getDatabases },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/',
    type: SecureBootDatabaseType,
    params: databaseParams,
    get: { privilege: Priv.login, handler: h.getDatabase },
    actions: [
      action(SecureBootDatabaseResetKeys, Priv.hostBios, h.postDatabaseResetKeys, {
        allowable,
      }),
    ],
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Certificates/',
    member: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Certificates/{CertificateId}/',
    type: CertificateType,
    name: 'Certificate Collection',
    extra: certificatesExtra,
    ...inDatabase,
    store: h.certificates,
    show: certificateBody,
    create: { body: CertificateEnrollBody, handler: h.enrollCertificate },
    remove: h.deleteCertificate,
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Signatures/',
    member: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Signatures/{SignatureId}/',
    type: SignatureType,
    name: 'Signature Collection',
    extra: (p) => ({ Description: `Signatures in the ${p.DatabaseId} database` }),
    ...inDatabase,
    readOnlyFor: signaturesReadOnlyFor,
    store: h.signatures,
    show: signatureBody,
    create: { body: SignatureAddBody, handler: h.addSignature },
    remove: h.deleteSignature,
  });
}
