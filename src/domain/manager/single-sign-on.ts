// Single sign-on trust of the controller: the records of the management
// servers it trusts (by DNS name or by certificate), numbered 1.. in the order
// imported, and the trust mode. Stored only: no SSO login is offered by the
// simulation, so the records are what a client configured and reads back.
import { X509Certificate } from 'node:crypto';
import { isHostName } from '../../lib/network-names.js';
import { toIso } from '../../platform/clock.js';
import { baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export const SSO_TRUST_MODES = ['Disabled', 'TrustAll', 'TrustbyName', 'TrustbyCert'] as const;
export type SsoTrustMode = (typeof SSO_TRUST_MODES)[number];
/** As many trusted records as the vendor's controller keeps. */
export const MAX_SSO_RECORDS = 60;

export interface SsoRecord {
  RecordType: 'DNSName' | 'Certificate';
  ServerName: string;
  Certificate?: string;
  CertificateDetails?: { Issuer: string; Subject: string; ValidNotAfter: string; ValidNotBefore: string };
}

interface SsoState {
  SSOTrustMode: SsoTrustMode;
  records: SsoRecord[];
}

const SETTING = 'manager.sso';
const DEFAULT_SSO: SsoState = { SSOTrustMode: 'Disabled', records: [] };

export class SingleSignOn {
  constructor(private readonly store: DocumentStore) {}

  private get setting() {
    return this.store.setting<SsoState>(SETTING, DEFAULT_SSO);
  }

  state(): Readonly<SsoState> {
    return this.setting.peek();
  }

  setTrustMode(mode: SsoTrustMode): void {
    this.setting.set({ ...this.setting.get(), SSOTrustMode: mode });
  }

  private add(record: SsoRecord): void {
    const s = this.setting.get();
    if (s.records.length >= MAX_SSO_RECORDS) throw baseRefusal('CreateLimitReachedForResource');
    s.records.push(record);
    this.setting.set(s);
  }

  importDnsName(name: string): void {
    if (!isHostName(name)) throw baseRefusal('ActionParameterValueFormatError', name, 'DNSName', 'ImportDNSName').about('DNSName');
    this.add({ RecordType: 'DNSName', ServerName: name });
  }

  /** A PEM certificate; the server name is its subject's common name. */
  importCertificate(pem: string, action: string): void {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      throw baseRefusal('ActionParameterValueFormatError', '<certificate>', 'CertInput', action).about('CertInput');
    }
    const cn = (dn: string) => /(?:^|\n)CN=([^\n]*)/.exec(dn)?.[1] ?? dn.replace(/\n/g, ', ');
    this.add({
      RecordType: 'Certificate',
      ServerName: cn(cert.subject),
      Certificate: cert.toString().trim(),
      CertificateDetails: {
        Issuer: cn(cert.issuer),
        Subject: cn(cert.subject),
        ValidNotAfter: toIso(Date.parse(cert.validTo)),
        ValidNotBefore: toIso(Date.parse(cert.validFrom)),
      },
    });
  }

  /** Delete record number n (1-based); false when there is none. */
  deleteRecord(n: number): boolean {
    const s = this.setting.get();
    if (!Number.isInteger(n) || n < 1 || n > s.records.length) return false;
    s.records.splice(n - 1, 1);
    this.setting.set(s);
    return true;
  }

  deleteAll(): void {
    this.setting.set({ ...this.setting.get(), records: [] });
  }

  /** Back to the factory settings (factory defaults). */
  reset(): void {
    this.setting.set(DEFAULT_SSO);
  }
}
