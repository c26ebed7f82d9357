// A vendor BIOS resource with a current and a pending area (server configuration
// lock, key management, UEFI HTTPS boot TLS): clients write the pending area,
// the ROM takes it into the current area at POST (step ApplyBiosSettings).
// Write-only secrets are sealed at rest (store/secrets.ts). Bios.ResetBios
// does not touch these resources.
import { createHash } from 'node:crypto';
import { nameText, parsePemCertificate, PemError, type CertificateInfo } from '../../platform/certificate-info.js';
import type { BootInfo, HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import { settingsApplied, type SettingsApplied } from './settings-applied.js';

type VendorValue = string | number | boolean | null | readonly Readonly<Record<string, string>>[];
export type VendorValues = Record<string, VendorValue>;

interface Stored<T> {
  current: T;
  /** Only what clients changed since the last POST. */
  pending: Partial<T>;
}

export interface VendorSettingsOptions<T extends VendorValues> {
  /** The setting's key in the store. */
  key: string;
  defaults: T;
  /** Write-only secrets (strings or null): sealed in the store, read back as null. */
  secrets: readonly (keyof T & string)[];
  /** Values the ROM works out at POST from what it takes in (read-only ones). */
  derive?: (next: T, boot: BootInfo) => T;
}

export class VendorBiosSettings<T extends VendorValues> {
  private readonly saved;
  readonly applied: SettingsApplied;

  constructor(
    private readonly store: DocumentStore,
    host: HostLifecycle,
    private readonly options: VendorSettingsOptions<T>,
  ) {
    this.saved = store.setting<Stored<T>>(options.key, { current: { ...options.defaults }, pending: {} });
    this.applied = settingsApplied(store, options.key);
    host.onPost('ApplyBiosSettings', (boot) => this.applyPending(boot));
  }

  /** The current area, secrets hidden (null). */
  current(): T {
    return this.hide({ ...this.options.defaults, ...this.saved.get().current });
  }

  /** The defaults (BaseConfigs), secrets hidden (null). */
  defaults(): T {
    return this.hide({ ...this.options.defaults });
  }

  /** The current area with the pending changes on top, secrets hidden (null). */
  pending(): T {
    const s = this.saved.get();
    return this.hide({ ...this.options.defaults, ...s.current, ...s.pending });
  }

  /** Store pending changes; secrets are sealed before they reach the store. */
  setPending(change: Partial<T>): void {
    const sealed: Partial<T> = { ...change };
    for (const name of this.options.secrets) {
      const v = sealed[name];
      if (typeof v === 'string') (sealed as VendorValues)[name] = this.store.secrets.seal(v);
    }
    this.store.transaction(() => {
      const s = this.saved.get();
      this.saved.set({ ...s, pending: { ...s.pending, ...sealed } });
    });
  }

  /** The POST step: the pending changes become current. */
  applyPending(boot: BootInfo): void {
    const s = this.saved.get();
    if (Object.keys(s.pending).length === 0) return;
    let next = { ...this.options.defaults, ...s.current, ...s.pending };
    if (this.options.derive) next = this.options.derive(next, boot);
    this.saved.set({ current: next, pending: {} });
    this.applied.mark(boot);
  }

  private hide(v: T): T {
    const out: VendorValues = { ...v };
    for (const name of this.options.secrets) out[name] = null;
    return out as T;
  }
}

/** The three resources of the system ROM. */
export interface VendorBiosAreas {
  lock: VendorBiosSettings<VendorValues>;
  kms: VendorBiosSettings<VendorValues>;
  tls: VendorBiosSettings<VendorValues>;
}

const DEFAULT_LOCK = {
  ServerConfigLockStatus: 'Disabled',
  ServerConfigLockPassword: null,
  ServerConfigLockExcludeFwRevs: false,
  ServerConfigLockExcludeCpus: false,
  ServerConfigLockExcludeDimms: false,
  ServerConfigLockExcludePciSlots: false,
  ServerConfigLockDigest: null,
} satisfies VendorValues;

const DEFAULT_KMS = {
  PrimaryKmsServer: '',
  PrimaryKmsPort: 5696,
  SecondaryKmsServer: '',
  SecondaryKmsPort: 5696,
  KmsAccountName: '',
  KmsPassword: null,
  KmsRequireRedundancy: false,
  KeyManagementType: 'Disabled',
  DeleteUnusedEncryptionKeys: 'Disabled',
  OpalBlockSid: 'Disabled',
} satisfies VendorValues;

const DEFAULT_TLS = {
  Certificates: [],
  NewCertificates: [],
  DeleteCertificates: [],
  TlsCaCertificateCount: 0,
  ProtocolVersion: 'AUTO',
  Ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384',
  VerifyMode: 'PEER',
  HostnameCheck: 'DISABLED',
} satisfies VendorValues;

/** What the lock's digest may cover besides the serial number: each part's inventory, as text. */
export interface LockedParts {
  cpus: string;
  dimms: string;
  pciSlots: string;
}

/**
 * Server configuration lock: at POST the ROM records a digest of the configuration it locks at
 * this boot: the processors, DIMMs and PCIe slots unless excluded.
 */
export function serverConfigLockOptions(serialNumber: string, parts: LockedParts): VendorSettingsOptions<VendorValues> {
  return {
    key: 'bios.serverConfigLock',
    defaults: DEFAULT_LOCK,
    secrets: ['ServerConfigLockPassword'],
    derive: (next, boot) => {
      const covered = [
        next.ServerConfigLockExcludeCpus === true ? '' : parts.cpus,
        next.ServerConfigLockExcludeDimms === true ? '' : parts.dimms,
        next.ServerConfigLockExcludePciSlots === true ? '' : parts.pciSlots,
      ];
      return {
        ...next,
        ServerConfigLockDigest:
          next.ServerConfigLockStatus === 'Enabled'
            ? createHash('sha256')
                .update([serialNumber, boot.bootCount, String(next.ServerConfigLockExcludeFwRevs), ...covered].join('|'))
                .digest('hex')
            : null,
      };
    },
  };
}

/** Key management servers (KMIP). */
export const KMS_CONFIG_OPTIONS: VendorSettingsOptions<VendorValues> = {
  key: 'bios.kmsConfig',
  defaults: DEFAULT_KMS,
  secrets: ['KmsPassword'],
};

/** A CA certificate UEFI HTTPS boot trusts, as the ROM lists it. */
export interface TlsCaCertificate {
  FingerPrint: string;
  Subject: string;
  Issuer: string;
  SerialNumber: string;
  ValidNotBefore: string;
  ValidNotAfter: string;
}

/** "CN=..., O=..., C=..." of a name's parts. */
/** The certificate a NewCertificates entry carries, or undefined when its PEM is not one. */
export function tlsCaCertificate(pem: string): TlsCaCertificate | undefined {
  let info: CertificateInfo;
  try {
    info = parsePemCertificate(pem);
  } catch (e) {
    if (e instanceof PemError) return undefined;
    throw e;
  }
  return {
    FingerPrint: info.fingerprint,
    Subject: nameText(info.subject),
    Issuer: nameText(info.issuer),
    SerialNumber: info.serialNumber,
    ValidNotBefore: info.validNotBefore,
    ValidNotAfter: info.validNotAfter,
  };
}

/**
 * UEFI HTTPS boot TLS. At POST the ROM enrolls the CA certificates of NewCertificates (each once,
 * by fingerprint; one that is not a certificate is dropped) and removes those DeleteCertificates
 * names by FingerPrint; both lists are empty again afterwards.
 */
export const TLS_CONFIG_OPTIONS: VendorSettingsOptions<VendorValues> = {
  key: 'bios.tlsConfig',
  defaults: DEFAULT_TLS,
  secrets: [],
  derive: (next) => {
    const listed = (v: VendorValue | undefined) => (Array.isArray(v) ? (v as readonly Readonly<Record<string, string>>[]) : []);
    const gone = new Set(listed(next.DeleteCertificates).map((d) => d.FingerPrint?.toUpperCase()));
    const certificates = new Map<string, Readonly<Record<string, string>>>();
    for (const c of listed(next.Certificates)) certificates.set(String(c.FingerPrint), c);
    for (const n of listed(next.NewCertificates)) {
      const c = tlsCaCertificate(String(n.X509Certificate ?? ''));
      if (c) certificates.set(c.FingerPrint, { ...c });
    }
    const kept = [...certificates.values()].filter((c) => !gone.has(String(c.FingerPrint).toUpperCase()));
    return { ...next, Certificates: kept, NewCertificates: [], DeleteCertificates: [], TlsCaCertificateCount: kept.length };
  },
};
