// UEFI Secure Boot state and its key databases, kept in the store so every
// change survives a restart. Rules (docs/simulated-server.md, UEFI 2.x):
// - SecureBootMode is SetupMode while PK is empty and UserMode once a PK is
//   enrolled. Audit and Deployed modes are entered from the host OS through
//   UEFI variables, which this controller does not model.
// - SecureBootEnable cannot be true while PK is empty. When PK is emptied
//   (DELETE of its certificate, DeletePK, DeleteAllKeys) it drops to false:
//   in Setup Mode the firmware enforces nothing, so the setting could not
//   take effect anyway, and the owner must enable again after enrolling a PK.
// - SecureBootEnable takes effect at the next boot, where SecureBootCurrentBoot
//   follows it (the SecureBootSetup step of POST).
// - The same certificate (by SHA-256 fingerprint) or hash twice in one database
//   is refused (the vendor message first, then Base ResourceAlreadyExists), as
//   bmcweb refuses it; across databases it is allowed.
import { baseRefusal, refusals, vendorRefusal, type Refusal } from '../../messages/refusal.js';
import { parsePemCertificate, PemError, type CertificateInfo } from '../../platform/certificate-info.js';
import type { Clock } from '../../platform/clock.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { DATABASES, USER_DATABASES, defaultOf, isUserDatabase, type DatabaseId, type DatabaseInfo } from './databases.js';
import { generateDefaults, VENDOR_OWNER_GUID, type DefaultContent } from './defaults.js';

export const SHA256_SIGNATURE_TYPE = 'EFI_CERT_SHA256_GUID';

export interface CertificateRecord {
  Id: string;
  info: CertificateInfo;
  /** UEFI SignatureOwner GUID. */
  owner: string;
}

export interface SignatureRecord {
  Id: string;
  type: typeof SHA256_SIGNATURE_TYPE;
  /** Upper-case hex of the SHA-256 hash. */
  hash: string;
  owner: string;
}

export type SecureBootMode = 'SetupMode' | 'UserMode' | 'AuditMode' | 'DeployedMode';
export type ResetKeysType = 'ResetAllKeysToDefault' | 'DeleteAllKeys' | 'DeletePK';

export interface SecureBootStatus {
  enable: boolean;
  currentBoot: 'Enabled' | 'Disabled';
  mode: SecureBootMode;
}

/** What a change touched, so the caller can announce it. */
export interface ChangeSet {
  databases: DatabaseId[];
  /** SecureBootEnable, SecureBootMode or SecureBootCurrentBoot changed. */
  secureBoot: boolean;
}

interface State {
  enable: boolean;
  currentBoot: 'Enabled' | 'Disabled';
  /** Next id per database: ids are never reused, so a stale URI never names another entry. */
  nextId: Partial<Record<DatabaseId, number>>;
  /** The factory defaults were generated and enrolled. */
  initialized: boolean;
}

const INITIAL: State = { enable: false, currentBoot: 'Disabled', nextId: {}, initialized: false };

export interface SecureBootOptions {
  /** Owner GUID given to entries a client enrolls without naming one. */
  enrollOwner: string;
  /** Factory content; generated on first use when absent (tests may pass their own). */
  defaults?: (now: number) => Promise<DefaultContent>;
}

export class SecureBoot {
  private readonly state;
  private readonly certs = new Map<DatabaseId, DocumentCollection<CertificateRecord>>();
  private readonly sigs = new Map<DatabaseId, DocumentCollection<SignatureRecord>>();
  private initializing?: Promise<void>;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly opts: SecureBootOptions,
  ) {
    this.state = store.setting<State>('secureBoot.state', INITIAL);
    for (const d of DATABASES) {
      this.certs.set(d.id, store.collection<CertificateRecord>(`secureBoot.certificates.${d.id}`));
      this.sigs.set(d.id, store.collection<SignatureRecord>(`secureBoot.signatures.${d.id}`));
    }
  }

  /**
   * Resolves once the factory defaults exist. They are made on first use, not
   * at service start, so starting the service stays fast; made once, then kept.
   */
  ready(): Promise<void> {
    if (this.state.get().initialized) return Promise.resolve();
    this.initializing ??= this.initialize().finally(() => {
      this.initializing = undefined;
    });
    return this.initializing;
  }

  status(): SecureBootStatus {
    const s = this.state.get();
    return { enable: s.enable, currentBoot: s.currentBoot, mode: this.mode() };
  }

  mode(): SecureBootMode {
    return this.col(this.certs, 'PK').count() > 0 ? 'UserMode' : 'SetupMode';
  }

  /** PATCH SecureBootEnable: stored now, applied at the next boot. */
  setEnable(enable: boolean): ChangeSet {
    const s = this.state.get();
    if (enable && this.mode() === 'SetupMode') throw vendorRefusal('SecureBootPlatformKeyRequired');
    if (s.enable === enable) return { databases: [], secureBoot: false };
    this.state.set({ ...s, enable });
    return { databases: [], secureBoot: true };
  }

  /** The SecureBootSetup step of POST: the firmware enforces what was asked for. */
  applyAtBoot(): ChangeSet {
    const s = this.state.get();
    const currentBoot = s.enable && this.mode() === 'UserMode' ? 'Enabled' : 'Disabled';
    if (currentBoot === s.currentBoot) return { databases: [], secureBoot: false };
    this.state.set({ ...s, currentBoot });
    return { databases: [], secureBoot: true };
  }

  certificates(db: DatabaseId): CertificateRecord[] {
    return this.col(this.certs, db).list();
  }

  certificate(db: DatabaseId, id: string): CertificateRecord | undefined {
    return this.col(this.certs, db).get(id);
  }

  signatures(db: DatabaseId): SignatureRecord[] {
    return this.col(this.sigs, db).list();
  }

  signature(db: DatabaseId, id: string): SignatureRecord | undefined {
    return this.col(this.sigs, db).get(id);
  }

  /** Enroll one PEM certificate; refusals name CertificateString and say why. */
  enrollCertificate(db: DatabaseInfo, pem: string, owner?: string): CertificateRecord {
    writable(db);
    let info: CertificateInfo;
    try {
      info = parsePemCertificate(pem);
    } catch (e) {
      if (!(e instanceof PemError)) throw e;
      throw refusals([
        baseRefusal('PropertyValueFormatError', abbreviate(pem), 'CertificateString').about('CertificateString'),
        vendorRefusal('CertificateInvalid', 'CertificateString', e.message).about('CertificateString'),
      ]);
    }
    const col = this.col(this.certs, db.id);
    if (col.list().some((c) => c.info.fingerprint === info.fingerprint)) {
      throw duplicate(db.id, 'Certificate', 'Fingerprint', info.fingerprint);
    }
    if (db.maxCertificates !== undefined && col.count() >= db.maxCertificates) {
      throw refusals([baseRefusal('CreateLimitReachedForResource'), vendorRefusal('SecureBootDatabaseLimit', db.id, db.maxCertificates)]);
    }
    const record: CertificateRecord = { Id: '', info, owner: owner ?? this.opts.enrollOwner };
    this.store.transaction(() => {
      record.Id = this.takeId(db.id);
      col.put(record.Id, record);
    });
    return record;
  }

  /** Add a SHA-256 hash to db, dbx, dbt or dbr. */
  addSignature(db: DatabaseInfo, hash: string, owner?: string): SignatureRecord {
    writable(db);
    if (!db.signatures) throw vendorRefusal('SecureBootSignaturesNotAccepted', db.id);
    if (!/^[0-9A-Fa-f]{64}$/.test(hash)) {
      throw baseRefusal('PropertyValueFormatError', hash, 'SignatureString').about('SignatureString');
    }
    const upper = hash.toUpperCase();
    const col = this.col(this.sigs, db.id);
    if (col.list().some((s) => s.hash === upper)) throw duplicate(db.id, 'Signature', 'SignatureString', upper);
    const record: SignatureRecord = { Id: '', type: SHA256_SIGNATURE_TYPE, hash: upper, owner: owner ?? this.opts.enrollOwner };
    this.store.transaction(() => {
      record.Id = this.takeId(db.id);
      col.put(record.Id, record);
    });
    return record;
  }

  /** Remove one certificate; undefined when there is no such certificate. */
  deleteCertificate(db: DatabaseInfo, id: string): ChangeSet | undefined {
    writable(db);
    return this.store.transaction(() => {
      if (!this.col(this.certs, db.id).delete(id)) return undefined;
      const dropped = this.settle();
      return { databases: [db.id], secureBoot: dropped || db.id === 'PK' };
    });
  }

  deleteSignature(db: DatabaseInfo, id: string): ChangeSet | undefined {
    writable(db);
    return this.col(this.sigs, db.id).delete(id) ? { databases: [db.id], secureBoot: false } : undefined;
  }

  /** SecureBoot.ResetKeys: over all user databases, or PK alone. */
  resetKeys(type: ResetKeysType): ChangeSet {
    return this.store.transaction(() => {
      if (type === 'DeletePK') this.clear('PK');
      for (const db of type === 'DeletePK' ? [] : USER_DATABASES) {
        if (type === 'ResetAllKeysToDefault') this.copyDefaults(db);
        else this.clear(db);
      }
      this.settle();
      return { databases: type === 'DeletePK' ? ['PK'] : [...USER_DATABASES], secureBoot: true };
    });
  }

  /** SecureBootDatabase.ResetKeys on one database. */
  resetDatabase(db: DatabaseInfo, type: 'ResetAllKeysToDefault' | 'DeleteAllKeys'): ChangeSet {
    // A default database already holds its defaults: there is nothing to restore.
    if (!isUserDatabase(db.id)) return { databases: [], secureBoot: false };
    const id = db.id;
    return this.store.transaction(() => {
      if (type === 'ResetAllKeysToDefault') this.copyDefaults(id);
      else this.clear(id);
      const secureBoot = this.settle() || id === 'PK';
      return { databases: [id], secureBoot };
    });
  }

  // -- internals ---------------------------------------------------------------

  private async initialize(): Promise<void> {
    const make = this.opts.defaults ?? generateDefaults;
    const content = await make(this.clock.now());
    const entries = Object.entries(content.certificates) as [DatabaseId, string[]][];
    const infos = entries.map(([db, pems]) => [db, pems.map((p) => parsePemCertificate(p))] as const);
    this.store.transaction(() => {
      if (this.state.get().initialized) return;
      for (const [db, list] of infos) {
        this.clear(db);
        for (const info of list) this.putCertificate(db, { Id: '', info, owner: VENDOR_OWNER_GUID });
      }
      for (const [db, hashes] of Object.entries(content.sha256) as [DatabaseId, string[]][]) {
        this.col(this.sigs, db).clear();
        for (const hash of hashes) this.putSignature(db, { Id: '', type: SHA256_SIGNATURE_TYPE, hash, owner: VENDOR_OWNER_GUID });
      }
      // A server leaves the factory with its default keys enrolled and Secure Boot off.
      for (const db of USER_DATABASES) this.copyDefaults(db);
      this.state.set({ ...this.state.get(), enable: false, currentBoot: 'Disabled', initialized: true });
    });
  }

  private copyDefaults(db: (typeof USER_DATABASES)[number]): void {
    const from = defaultOf(db);
    this.clear(db);
    for (const c of this.certificates(from)) this.putCertificate(db, { ...c });
    for (const s of this.signatures(from)) this.putSignature(db, { ...s });
  }

  private putCertificate(db: DatabaseId, record: CertificateRecord): void {
    record.Id = this.takeId(db);
    this.col(this.certs, db).put(record.Id, record);
  }

  private putSignature(db: DatabaseId, record: SignatureRecord): void {
    record.Id = this.takeId(db);
    this.col(this.sigs, db).put(record.Id, record);
  }

  private clear(db: DatabaseId): void {
    this.col(this.certs, db).clear();
    this.col(this.sigs, db).clear();
  }

  /** Keep the rule: no Secure Boot without a PK. True when SecureBootEnable had to drop. */
  private settle(): boolean {
    const s = this.state.get();
    if (!s.enable || this.mode() === 'UserMode') return false;
    this.state.set({ ...s, enable: false });
    return true;
  }

  private takeId(db: DatabaseId): string {
    const s = this.state.get();
    const next = s.nextId[db] ?? 1;
    this.state.set({ ...s, nextId: { ...s.nextId, [db]: next + 1 } });
    return String(next);
  }

  private col<T>(map: Map<DatabaseId, DocumentCollection<T>>, db: DatabaseId): DocumentCollection<T> {
    const c = map.get(db);
    if (!c) throw new Error(`unknown secure boot database ${db}`);
    return c;
  }
}

function writable(db: DatabaseInfo): void {
  if (!db.writable) throw vendorRefusal('SecureBootDatabaseReadOnly', db.id);
}

function duplicate(db: DatabaseId, kind: string, property: string, value: string): Refusal {
  return refusals([
    vendorRefusal('SecureBootEntryExists', db),
    baseRefusal('ResourceAlreadyExists', kind, property, value).about(property),
  ]);
}

/** A long PEM quoted in a message: its start is enough to recognise it. */
function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 48 ? `${flat.slice(0, 48)}...` : flat;
}
