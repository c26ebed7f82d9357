// A list of trusted CA certificates kept in the store: what certificate login trusts for client
// certificates, and what event delivery trusts for listeners. Each import is checked (one CA
// certificate, a key the controller accepts); the same certificate twice is one entry.
import { createHash, randomBytes, type X509Certificate } from 'node:crypto';
import type { Clock } from './clock.js';
import { CertificateError, describeCertificate, keyPolicyProblem, parseCertificates } from './x509-verify.js';
import type { DocumentCollection } from '../store/documents.js';

export interface TrustedCa {
  Id: string;
  Pem: string;
  /** SHA-256 fingerprint, colon-separated upper-case hex. */
  Fingerprint: string;
  Info: Record<string, unknown>;
  Imported: number;
}

export interface TrustedCas {
  list(): TrustedCa[];
  get(id: string): TrustedCa | undefined;
  /** Import one CA certificate; throws CertificateError saying why it cannot be used. */
  import(pemText: string): { ca: TrustedCa; created: boolean };
  delete(id: string): boolean;
  count(): number;
  pems(): string[];
}

export function fingerprintOf(cert: X509Certificate): string {
  return cert.fingerprint256.toUpperCase();
}

/** The lowest unused small number, as the vendor's controller numbers its entries. */
export function nextFreeId(used: readonly string[]): string {
  const taken = new Set(used);
  for (let i = 1; i < 10_000; i++) if (!taken.has(String(i))) return String(i);
  return createHash('sha256').update(randomBytes(16)).digest('hex').slice(0, 12);
}

export function trustedCas(cas: DocumentCollection<TrustedCa>, clock: Clock): TrustedCas {
  return {
    list: () => cas.list(),
    get: (id) => cas.get(id),
    delete: (id) => cas.delete(id),
    count: () => cas.count(),
    pems: () => cas.list().map((c) => c.Pem),
    import(pemText) {
      const certs = parseCertificates(pemText);
      if (certs.length !== 1) throw new CertificateError('send exactly one CA certificate per request');
      const cert = certs[0] as X509Certificate;
      if (!cert.ca) throw new CertificateError('it is not a CA certificate (basicConstraints CA:TRUE is missing)');
      const weakKey = keyPolicyProblem(cert);
      if (weakKey) throw new CertificateError(weakKey);
      const fp = fingerprintOf(cert);
      const existing = cas.list().find((c) => c.Fingerprint === fp);
      if (existing) return { ca: existing, created: false };
      const ca: TrustedCa = {
        Id: nextFreeId(cas.ids()),
        Pem: cert.toString(),
        Fingerprint: fp,
        Info: describeCertificate(cert),
        Imported: clock.now(),
      };
      cas.put(ca.Id, ca);
      return { ca, created: true };
    },
  };
}
