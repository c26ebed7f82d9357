// The controller's HTTPS certificate: a key made here with a certificate
// signing request, and the signed certificate installed for it (or a
// certificate that comes with its own key). Both the vendor HttpsCert
// resource and the standard CertificateService use this.
import type { X509Certificate } from 'node:crypto';
import { isWellFormedUnicode, toWellFormedUnicode } from '../../lib/unicode.js';
import { baseRefusal, vendorRefusal } from '../../messages/refusal.js';
import type { Clock } from '../../platform/clock.js';
import { issueNative } from '../../platform/x509.js';
import {
  CertificateError,
  certificateMatchesKey,
  generateCsr,
  keyPolicyProblem,
  parseCertificates,
  validAt,
  type CsrSubject,
} from '../../platform/x509-verify.js';
import type { DocumentStore, Setting } from '../../store/documents.js';

interface PendingCsr {
  csrPem: string;
  keyPem: string;
}

/** Where the certificate is served from (the listener), and how it is swapped. */
export interface HttpsIdentityPort {
  readonly cert: string;
  replace(cert: string, key: string): void;
}

/** The action a CSR is generated for, and its parameter names where they differ from the subject fields. */
export interface CsrAction {
  name: string;
  parameters?: Partial<Record<keyof CsrSubject, string>>;
}

const PRIVATE_KEY = /-----BEGIN (?:EC |RSA )?PRIVATE KEY-----[\s\S]+?-----END (?:EC |RSA )?PRIVATE KEY-----\s*/;

export class HttpsCertificate {
  private readonly pending: Setting<PendingCsr | null>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly https: HttpsIdentityPort,
  ) {
    this.pending = store.setting<PendingCsr | null>('https.pendingCsr', null);
  }

  /** The certificate served now, first of its chain. */
  current(): X509Certificate {
    return parseCertificates(this.https.cert)[0] as X509Certificate;
  }

  /** The PEM text served now (certificate and chain). */
  currentPem(): string {
    return this.https.cert;
  }

  /** The request waiting for its signed certificate, if any. */
  pendingCsr(): string | null {
    return this.pending.peek()?.csrPem ?? null;
  }

  /**
   * A new key, kept on the controller, and a CSR for it; replaces any earlier pending request.
   * A subject field that is not valid Unicode (a lone surrogate has no UTF-8 form) is refused
   * naming the action's parameter (`action.parameters` maps subject fields to them).
   */
  async generateCsr(
    subject: CsrSubject,
    dnsNames: string[],
    ipAddresses: string[] = [],
    action: CsrAction = { name: 'GenerateCSR' },
  ): Promise<string> {
    for (const [field, value] of Object.entries(subject) as [keyof CsrSubject, unknown][]) {
      if (typeof value === 'string' && !isWellFormedUnicode(value)) {
        const parameter = action.parameters?.[field] ?? field;
        throw baseRefusal('ActionParameterValueFormatError', toWellFormedUnicode(value), parameter, action.name).about(parameter);
      }
    }
    const csr = await generateCsr(subject, dnsNames, ipAddresses);
    this.pending.set(csr);
    return csr.csrPem;
  }

  /**
   * Serve a new certificate (PEM, optionally followed by its chain). Its key is
   * the pending CSR's, or a private key block in the same text. What is wrong
   * is refused naming `property`. Returns the new certificate.
   */
  install(text: string, property: string): X509Certificate {
    const keyBlock = PRIVATE_KEY.exec(text)?.[0];
    const certs = this.parse(keyBlock ? text.replace(PRIVATE_KEY, '') : text, property);
    const leaf = certs[0] as X509Certificate;
    const weakKey = keyPolicyProblem(leaf);
    if (weakKey) throw vendorRefusal('CertificateInvalid', property, weakKey).about(property);
    const csr = this.pending.peek();
    const keyPem = (keyBlock ?? csr?.keyPem)?.trim();
    if (!keyPem) throw vendorRefusal('CertificateSigningRequestMissing').about(property);
    let matches: boolean;
    try {
      matches = certificateMatchesKey(leaf, keyPem);
    } catch {
      throw vendorRefusal('CertificateInvalid', property, 'its private key cannot be read').about(property);
    }
    if (!matches) throw vendorRefusal('CertificateKeyMismatch').about(property);
    if (!validAt(leaf, this.clock.now())) {
      throw vendorRefusal('CertificateInvalid', property, `it is outside its validity (${leaf.validFrom} to ${leaf.validTo})`).about(
        property,
      );
    }
    this.https.replace(certs.map((c) => c.toString()).join(''), `${keyPem}\n`);
    if (!keyBlock) this.pending.set(null);
    return leaf;
  }

  /**
   * A new self-signed certificate for hostName, as the controller leaves the
   * factory (Manager.ResetToDefaults); a pending CSR and its key are dropped.
   */
  async regenerateSelfSigned(hostName: string): Promise<void> {
    const issued = await issueNative({
      subject: `CN=${hostName}, O=Vendor, OU=Management Controller`,
      dnsNames: [...new Set(['localhost', hostName])],
      ipAddresses: ['127.0.0.1', '::1'],
      notBefore: new Date(this.clock.now() - 60_000),
      days: 3650,
      usage: ['server'],
    });
    this.pending.set(null);
    this.https.replace(issued.certPem, issued.keyPem);
  }

  private parse(text: string, property: string): X509Certificate[] {
    try {
      return parseCertificates(text);
    } catch (e) {
      if (e instanceof CertificateError) throw vendorRefusal('CertificateInvalid', property, e.message).about(property);
      throw e;
    }
  }
}
