// UEFI Secure Boot of the system: the SecureBoot resource, the twelve key
// databases, their certificates (real X.509) and signatures (SHA-256 hashes).
// The ...Default databases are read-only: writes there get 405 with Allow.
// The dispatcher announces each write to the addressed resource; this module
// announces what else changed (actions, SecureBootMode, the boot).
import { Priv } from '../../lib/privileges.js';
import type { ChangeSet, CertificateRecord, ResetKeysType, SignatureRecord } from '../../domain/secure-boot/secure-boot.js';
import { DATABASES, findDatabase, type DatabaseInfo } from '../../domain/secure-boot/databases.js';
import { baseError, vendorMessage } from '../../messages/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { collection, created, messages } from '../../protocol/reply.js';
import { missing, present, type Handler, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  CertificateCollectionType,
  CertificateEnrollBody,
  CertificateType,
  SecureBootDatabaseCollectionType,
  SecureBootDatabaseResetKeys,
  SecureBootDatabaseType,
  SecureBootResetKeys,
  SecureBootType,
  SignatureAddBody,
  SignatureCollectionType,
  SignatureType,
  certificateProperties,
} from './secure-boot-types.js';

export function secureBootUri(systemId: string): string {
  return `/redfish/v1/Systems/${encodeURIComponent(systemId)}/SecureBoot/`;
}

function databaseUri(systemId: string, db: string): string {
  return `${secureBootUri(systemId)}SecureBootDatabases/${db}/`;
}

/** Values of SecureBootDatabase.ResetKeys that make sense per database. */
function databaseResetValues(db: DatabaseInfo | undefined): readonly ('ResetAllKeysToDefault' | 'DeleteAllKeys')[] {
  return db?.writable === false ? ['ResetAllKeysToDefault'] : ['ResetAllKeysToDefault', 'DeleteAllKeys'];
}

export function certificateBody(c: CertificateRecord, db: DatabaseInfo): Record<string, unknown> {
  const { info } = c;
  return {
    Id: c.Id,
    Name: info.subject.CommonName ?? `Certificate ${c.Id}`,
    Description: `Certificate enrolled in the ${db.id} database`,
    ...certificateProperties(info),
    UefiSignatureOwner: c.owner,
  };
}

export function signatureBody(sig: SignatureRecord, db: DatabaseInfo): Record<string, unknown> {
  return {
    Id: sig.Id,
    Name: `Signature ${sig.Id}`,
    Description: `SHA-256 hash in the ${db.id} database`,
    SignatureString: sig.hash,
    SignatureTypeRegistry: 'UEFI',
    SignatureType: sig.type,
    UefiSignatureOwner: sig.owner,
  };
}

export function registerSecureBootRoutes(routes: RouteTable, s: Services): void {
  const sb = s.secureBoot;

  const system = (): string => s.config.systemId;
  const database = (ctx: RequestContext): DatabaseInfo => present(findDatabase(ctx.params.DatabaseId ?? ''), ctx);
  // Members of the defaults exist once the defaults are made (on first use).
  const params = {
    DatabaseId: (id: string) => findDatabase(id) !== undefined,
    CertificateId: async (id: string, p: Readonly<Record<string, string>>) => {
      await sb.ready();
      const db = findDatabase(p.DatabaseId ?? '');
      return db !== undefined && sb.certificate(db.id, id) !== undefined;
    },
    SignatureId: async (id: string, p: Readonly<Record<string, string>>) => {
      await sb.ready();
      const db = findDatabase(p.DatabaseId ?? '');
      return db !== undefined && sb.signature(db.id, id) !== undefined;
    },
  };
  // Every handler waits for the factory defaults, made on first use.
  const ready =
    (fn: Handler): Handler =>
    async (ctx) => {
      await sb.ready();
      return fn(ctx);
    };
  const announce = (systemId: string, change: ChangeSet): void => {
    for (const db of change.databases) {
      s.events.publish(resourceEvent('ResourceChanged'), databaseUri(systemId, db), 'ResourceUpdated');
    }
    if (change.secureBoot) s.events.publish(resourceEvent('ResourceChanged'), secureBootUri(systemId), 'ResourceUpdated');
  };
  const readOnlyFor = (p: Record<string, string>): boolean => findDatabase(p.DatabaseId ?? '')?.writable === false;

  // A boot applies SecureBootEnable: the firmware enforces Secure Boot, or not.
  // No need to wait for the defaults: before they exist, Secure Boot is off.
  s.host.onPost('SecureBootSetup', () => announce(s.config.systemId, sb.applyAtBoot()));

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/',
    type: SecureBootType,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const id = system();
        const st = sb.status();
        return {
          Id: 'SecureBoot',
          Name: 'UEFI Secure Boot',
          Description: 'UEFI Secure Boot settings and key databases',
          SecureBootEnable: st.enable,
          SecureBootCurrentBoot: st.currentBoot,
          SecureBootMode: st.mode,
          SecureBootDatabases: { '@odata.id': `${secureBootUri(id)}SecureBootDatabases/` },
        };
      }),
    },
    patch: {
      privilege: Priv.hostBios,
      handler: ready((ctx) => {
        const id = system();
        // Validation leaves SecureBootEnable, a boolean, as the one writable property.
        const change = sb.setEnable(ctx.body.SecureBootEnable === true);
        // Like any firmware setting, it is applied by the next boot.
        return change.secureBoot ? messages(vendorMessage('SystemResetRequired'), ...ctx.problems) : undefined;
      }),
    },
    actions: [
      {
        def: SecureBootResetKeys,
        privilege: Priv.hostBios,
        handler: ready((ctx) => {
          const id = system();
          announce(id, sb.resetKeys(ctx.body.ResetKeysType as ResetKeysType));
          return undefined;
        }),
      },
    ],
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/',
    type: SecureBootDatabaseCollectionType,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) =>
        collection(
          'UEFI SecureBoot Database Collection',
          DATABASES.map((d) => `${ctx.uri}${d.id}/`),
          { Description: 'The UEFI Secure Boot databases of the system' },
        ),
      ),
    },
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/',
    params,
    type: SecureBootDatabaseType,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const db = database(ctx);
        return {
          Id: db.id,
          Name: db.name,
          Description: db.description,
          DatabaseId: db.id,
          Certificates: { '@odata.id': `${ctx.uri}Certificates/` },
          Signatures: { '@odata.id': `${ctx.uri}Signatures/` },
        };
      }),
    },
    actions: [
      {
        def: SecureBootDatabaseResetKeys,
        privilege: Priv.hostBios,
        allowable: ({ params }) => ({ ResetKeysType: databaseResetValues(findDatabase(params.DatabaseId ?? '')) }),
        handler: ready((ctx) => {
          const db = database(ctx);
          const type = ctx.body.ResetKeysType as 'ResetAllKeysToDefault' | 'DeleteAllKeys';
          if (!databaseResetValues(db).includes(type)) {
            throw baseError('ActionParameterValueNotInList', type, 'ResetKeysType', SecureBootDatabaseResetKeys.name).about('ResetKeysType');
          }
          announce(system(), sb.resetDatabase(db, type));
          return undefined;
        }),
      },
    ],
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Certificates/',
    params,
    type: CertificateCollectionType,
    readOnlyFor,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const db = database(ctx);
        return collection(
          'Certificate Collection',
          sb.certificates(db.id).map((c) => `${ctx.uri}${c.Id}/`),
          {
            Description: `Certificates in the ${db.id} database`,
            ...(db.writable ? { '@Redfish.SupportedCertificates': ['PEM'] } : {}),
          },
        );
      }),
    },
    post: {
      privilege: Priv.hostBios,
      body: CertificateEnrollBody,
      handler: ready((ctx) => {
        const db = database(ctx);
        const owner = ctx.body.UefiSignatureOwner as string | undefined;
        const record = sb.enrollCertificate(db, ctx.body.CertificateString as string, owner?.toLowerCase());
        // The first PK moves the system from Setup Mode to User Mode.
        if (db.id === 'PK') announce(system(), { databases: [], secureBoot: true });
        return created(`${ctx.uri}${record.Id}/`, certificateBody(record, db));
      }),
    },
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Certificates/{CertificateId}/',
    params,
    type: CertificateType,
    readOnlyFor,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const db = database(ctx);
        const record = present(sb.certificate(db.id, ctx.params.CertificateId ?? ''), ctx);
        return certificateBody(record, db);
      }),
    },
    delete: {
      privilege: Priv.hostBios,
      handler: ready((ctx) => {
        const db = database(ctx);
        const change = sb.deleteCertificate(db, ctx.params.CertificateId ?? '');
        if (!change) throw missing(ctx);
        // Removing the PK also changes SecureBootMode (and maybe SecureBootEnable).
        announce(system(), { ...change, databases: [] });
        return undefined;
      }),
    },
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Signatures/',
    params,
    type: SignatureCollectionType,
    readOnlyFor,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const db = database(ctx);
        return collection(
          'Signature Collection',
          sb.signatures(db.id).map((sig) => `${ctx.uri}${sig.Id}/`),
          { Description: `Signatures in the ${db.id} database` },
        );
      }),
    },
    post: {
      privilege: Priv.hostBios,
      body: SignatureAddBody,
      handler: ready((ctx) => {
        const db = database(ctx);
        const owner = ctx.body.UefiSignatureOwner as string | undefined;
        const record = sb.addSignature(db, ctx.body.SignatureString as string, owner?.toLowerCase());
        return created(`${ctx.uri}${record.Id}/`, signatureBody(record, db));
      }),
    },
  });

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureBoot/SecureBootDatabases/{DatabaseId}/Signatures/{SignatureId}/',
    params,
    type: SignatureType,
    readOnlyFor,
    get: {
      privilege: Priv.login,
      handler: ready((ctx) => {
        const db = database(ctx);
        const record = present(sb.signature(db.id, ctx.params.SignatureId ?? ''), ctx);
        return signatureBody(record, db);
      }),
    },
    delete: {
      privilege: Priv.hostBios,
      handler: ready((ctx) => {
        const db = database(ctx);
        if (!sb.deleteSignature(db, ctx.params.SignatureId ?? '')) throw missing(ctx);
        return undefined;
      }),
    },
  });
}
