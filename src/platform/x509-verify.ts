// Checking X.509 material the controller is given: PEM parsing, self-signed
// detection, chain verification against trusted CAs on the controller clock,
// key matching, and certificate signing requests for the HTTPS identity.
import { x509lib } from './x509-lib.js';
import { nameText } from './certificate-info.js';
import { X509Certificate, createPrivateKey, webcrypto } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export class CertificateError extends Error {}

/** PEM text as clients send it: real line breaks, or literal "\n" left over from double escaping. */
export function normalizePem(text: string): string {
  return text
    .replace(/\\r\\n|\\n/g, '\n')
    .replace(/\r\n/g, '\n')
    .trim();
}

/** Every certificate of a PEM text, in order; throws CertificateError when there is none or one is broken. */
export function parseCertificates(text: string): X509Certificate[] {
  const blocks = normalizePem(text).match(PEM_BLOCK);
  if (!blocks) throw new CertificateError('no PEM "BEGIN CERTIFICATE" block found');
  return blocks.map((b, i) => {
    try {
      return new X509Certificate(b);
    } catch {
      throw new CertificateError(`certificate ${i + 1} of the PEM text cannot be decoded`);
    }
  });
}

export function parseCertificate(text: string): X509Certificate {
  const [first] = parseCertificates(text);
  return first as X509Certificate;
}

export function isSelfSigned(cert: X509Certificate | string): boolean {
  const c = typeof cert === 'string' ? parseCertificate(cert) : cert;
  // Not checkIssued(): OpenSSL also demands keyCertSign, which a self-signed leaf lacks.
  return c.subject === c.issuer && c.verify(c.publicKey);
}

/** Validity bounds in ms; Node 20 has only the textual validFrom/validTo. */
export function validity(cert: X509Certificate): { notBefore: number; notAfter: number } {
  return { notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo) };
}

export function validAt(cert: X509Certificate, ms: number): boolean {
  const v = validity(cert);
  return ms >= v.notBefore && ms <= v.notAfter;
}

function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  return child.checkIssued(parent) && child.verify(parent.publicKey);
}

export type ChainResult = { ok: true; anchor: X509Certificate } | { ok: false; reason: string };

/**
 * Verify that `leaf` chains to one of `trusted`, through any intermediates the
 * client presented, with every certificate valid at `now` (controller time).
 */
export function verifyChain(
  leaf: X509Certificate,
  presented: readonly X509Certificate[],
  trusted: readonly X509Certificate[],
  now: number,
): ChainResult {
  if (!validAt(leaf, now)) {
    return { ok: false, reason: `the client certificate is outside its validity (${leaf.validFrom} to ${leaf.validTo})` };
  }
  let current = leaf;
  for (let depth = 0; depth < 8; depth++) {
    const anchor = trusted.find((ca) => issuedBy(current, ca));
    if (anchor) {
      if (!validAt(anchor, now))
        return { ok: false, reason: `the trusted CA certificate ${anchor.subject.replace(/\n/g, ', ')} is outside its validity` };
      return { ok: true, anchor };
    }
    const next = presented.find((c) => c !== current && c.ca && issuedBy(current, c));
    if (!next) break;
    if (!validAt(next, now)) return { ok: false, reason: 'an intermediate CA certificate is outside its validity' };
    current = next;
  }
  return { ok: false, reason: 'the client certificate was not issued by an imported trusted CA certificate' };
}

/** The EC curves accepted, by OpenSSL's name and the name said back to the client. */
const ACCEPTED_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };
const RSA_MIN_BITS = 2048;
const RSA_MAX_BITS = 8192;

/**
 * Why the key of a certificate is not accepted for the HTTPS identity or a
 * trusted CA, as a phrase for CertificateInvalid; undefined when it is:
 * RSA of 2048 to 8192 bits, or EC on P-256, P-384 or P-521. Anything else
 * (short RSA, other curves, explicit curve parameters, DSA, EdDSA, RSA-PSS) is not.
 */
export function keyPolicyProblem(cert: X509Certificate): string | undefined {
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'rsa': {
      const bits = details.modulusLength ?? 0;
      if (bits < RSA_MIN_BITS) return `its RSA key has ${bits} bits; at least ${RSA_MIN_BITS} are required`;
      if (bits > RSA_MAX_BITS) return `its RSA key has ${bits} bits; at most ${RSA_MAX_BITS} are accepted`;
      const e = details.publicExponent ?? 0n;
      if (e < 3n || e % 2n === 0n) return `its RSA public exponent ${e} is not accepted`;
      return undefined;
    }
    case 'ec': {
      const curve = details.namedCurve;
      if (curve && ACCEPTED_CURVES[curve]) return undefined;
      return `its EC key is on the curve ${curve ?? 'given by explicit parameters'}; only P-256, P-384 and P-521 are accepted`;
    }
    default:
      return `its ${key.asymmetricKeyType ?? 'unknown'} key is not accepted; use an RSA key of at least ${RSA_MIN_BITS} bits or an EC key on P-256, P-384 or P-521`;
  }
}

/** True when the private key (PEM) belongs to the certificate. */
export function certificateMatchesKey(cert: X509Certificate, keyPem: string): boolean {
  try {
    return cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

export interface CsrSubject {
  CommonName: string;
  Country?: string;
  State?: string;
  City?: string;
  OrgName?: string;
  OrgUnit?: string;
}

function dnString(s: CsrSubject): string {
  const parts = {
    CommonName: s.CommonName,
    OrganizationalUnit: s.OrgUnit,
    Organization: s.OrgName,
    City: s.City,
    State: s.State,
    Country: s.Country,
  };
  return nameText(parts, (v) => v.replace(/([,+"\\<>;=])/g, '\\$1'));
}

/** A new EC P-256 key and a PKCS#10 request for it; the key never leaves the controller. */
export async function generateCsr(
  subject: CsrSubject,
  dnsNames: string[],
  ipAddresses: string[],
): Promise<{ csrPem: string; keyPem: string }> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const names = [
    ...dnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...ipAddresses.map((value) => ({ type: 'ip' as const, value })),
  ];
  const csr = await x509lib().Pkcs10CertificateRequestGenerator.create({
    name: dnString(subject),
    keys,
    signingAlgorithm: alg,
    extensions: names.length ? [new (x509lib().SubjectAlternativeNameExtension)(names)] : [],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  return { csrPem: `${csr.toString('pem')}\n`, keyPem };
}

/** The X509CertificateInformation-style summary shown for a certificate. */
export function describeCertificate(cert: X509Certificate): Record<string, unknown> {
  return {
    Subject: cert.subject.replace(/\n/g, ', '),
    Issuer: cert.issuer.replace(/\n/g, ', '),
    SerialNumber: cert.serialNumber,
    ValidNotBefore: new Date(validity(cert).notBefore).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ValidNotAfter: new Date(validity(cert).notAfter).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Fingerprint: cert.fingerprint256,
    FingerprintHashAlgorithm: 'TLS_HASH_ALG_SHA256',
  };
}
