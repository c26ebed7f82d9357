// Certificate login (docs/accounts.md): its setting, the
// trusted CA certificates, the user certificate mappings, and the decision
// whether a presented client certificate may log in. Every precondition is
// checked on every request; the first unmet one is named, never skipped.
import type { X509Certificate } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { parseCertificates, verifyChain } from '../../platform/x509-verify.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { fingerprintOf, nextFreeId, trustedCas, type TrustedCa, type TrustedCas } from '../../platform/trusted-cas.js';
import type { AccountRecord, Accounts } from './accounts.js';
import { FEATURE_TIER, tierAtLeast, type LicenseState } from '../licensing/tiers.js';

export interface CertificateMapping {
  Id: string;
  UserName: string;
  AccountId: string;
  Fingerprint: string;
}

export interface CertLoginSettings {
  CertificateLoginEnabled: boolean;
}

/** What certificate login depends on outside this module. */
export interface CertLoginEnvironment {
  licenses: LicenseState;
  /** True while the controller's HTTPS certificate is self-signed. */
  httpsSelfSigned(): boolean;
  /** True when the manager's NTP time source is configured. */
  timeSourceConfigured(): boolean;
}

export type LoginDecision = { ok: true; account: AccountRecord } | { ok: false; precondition: string };

const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;

/** A SHA-256 fingerprint in its canonical form, from hex with or without colons; undefined if it is none. */
export function canonicalFingerprint(text: string): string | undefined {
  const hex = text.trim().toUpperCase().replace(/[:\s]/g, '');
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  const out = hex.match(/../g)?.join(':');
  return out && FINGERPRINT.test(out) ? out : undefined;
}

export class CertificateLogin {
  /** The CA certificates client certificates are checked against. */
  readonly cas: TrustedCas;
  private readonly maps: DocumentCollection<CertificateMapping>;
  private readonly setting;

  constructor(
    store: DocumentStore,
    private readonly accounts: Accounts,
    private readonly clock: Clock,
    private readonly env: CertLoginEnvironment,
  ) {
    this.cas = trustedCas(store.collection<TrustedCa>('certauth.ca'), clock);
    this.maps = store.collection<CertificateMapping>('certauth.mapping');
    this.setting = store.setting<CertLoginSettings>('certauth.settings', { CertificateLoginEnabled: false });
    // Mappings follow their account: deleting it removes them, a rename renames them.
    accounts.onChange((id) => {
      const account = accounts.get(id);
      for (const m of this.maps.list()) {
        if (m.AccountId !== id) continue;
        if (!account) this.maps.delete(m.Id);
        else if (account.UserName !== m.UserName) this.maps.put(m.Id, { ...m, UserName: account.UserName });
      }
    });
  }

  settings(): CertLoginSettings {
    return this.setting.get();
  }

  setEnabled(enabled: boolean): void {
    this.setting.set({ ...this.setting.get(), CertificateLoginEnabled: enabled });
  }

  // -- trusted CAs -----------------------------------------------------------

  listCas(): TrustedCa[] {
    return this.cas.list();
  }

  getCa(id: string): TrustedCa | undefined {
    return this.cas.get(id);
  }

  /** Import one CA certificate; throws CertificateError saying why it cannot be used. */
  importCa(pemText: string): { ca: TrustedCa; created: boolean } {
    return this.cas.import(pemText);
  }

  deleteCa(id: string): boolean {
    return this.cas.delete(id);
  }

  caPems(): string[] {
    return this.cas.pems();
  }

  // -- user certificate mappings ----------------------------------------------

  listMappings(): CertificateMapping[] {
    return this.maps.list();
  }

  getMapping(id: string): CertificateMapping | undefined {
    return this.maps.get(id);
  }

  findMapping(fingerprint: string): CertificateMapping | undefined {
    return this.maps.list().find((m) => m.Fingerprint === fingerprint);
  }

  addMapping(account: AccountRecord, fingerprint: string): CertificateMapping {
    const m: CertificateMapping = {
      Id: nextFreeId(this.maps.ids()),
      UserName: account.UserName,
      AccountId: account.Id,
      Fingerprint: fingerprint,
    };
    this.maps.put(m.Id, m);
    return m;
  }

  deleteMapping(id: string): boolean {
    return this.maps.delete(id);
  }

  // -- the login decision -----------------------------------------------------

  /** Preconditions that do not depend on the certificate, in the order a user fixes them. */
  unmetServicePreconditions(): string[] {
    const out: string[] = [];
    const need = FEATURE_TIER.CertificateLogin;
    const have = this.env.licenses.tier();
    if (!tierAtLeast(have, need)) out.push(`no ${need} license is installed (installed tier: ${have})`);
    if (!this.env.timeSourceConfigured())
      out.push("the time source is not configured (enable NTP with at least one server in the manager's NetworkProtocol)");
    if (this.env.httpsSelfSigned())
      out.push('the controller HTTPS certificate is self-signed (install a CA-signed one with --tls-cert or SecurityService/HttpsCert)');
    if (!this.settings().CertificateLoginEnabled) out.push('certificate login is disabled (CertificateLoginEnabled is false)');
    if (this.cas.count() === 0) out.push('no trusted CA certificate is imported (VendorCertAuth.ImportCACertificate)');
    return out;
  }

  /** Whether `leaf` (with the intermediates the client sent) logs in, and as whom. */
  decide(leaf: X509Certificate, presented: readonly X509Certificate[]): LoginDecision {
    const [first] = this.unmetServicePreconditions();
    if (first) return { ok: false, precondition: first };
    const trusted = this.cas.list().map((c) => parseCertificates(c.Pem)[0] as X509Certificate);
    const chain = verifyChain(leaf, presented, trusted, this.clock.now());
    if (!chain.ok) return { ok: false, precondition: chain.reason };
    const fp = fingerprintOf(leaf);
    const mapping = this.findMapping(fp);
    if (!mapping) return { ok: false, precondition: `no UserCertificateMapping exists for the certificate with SHA-256 fingerprint ${fp}` };
    const account = this.accounts.get(mapping.AccountId);
    if (!account) return { ok: false, precondition: `the mapped user ${mapping.UserName} no longer exists` };
    if (!account.Enabled || !account.Privileges.LoginPriv)
      return { ok: false, precondition: `the mapped user ${account.UserName} is disabled or may not log in` };
    return { ok: true, account };
  }
}
