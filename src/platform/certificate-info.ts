// Reads one PEM-encoded X.509 certificate and extracts what a Redfish
// Certificate resource reports. Strict: exactly one CERTIFICATE block, valid
// base64, a DER structure with nothing after it, and a parse by OpenSSL.
import type * as x509 from '@peculiar/x509';
import { x509lib } from './x509-lib.js';
import { X509Certificate } from 'node:crypto';
import { toIso } from './clock.js';

/** Redfish Certificate "Identifier": the parts of a distinguished name. */
export interface NameParts {
  CommonName?: string;
  Organization?: string;
  OrganizationalUnit?: string;
  City?: string;
  State?: string;
  Country?: string;
  Email?: string;
}

/** A distinguished name as one line, most specific part first: `CN=Boot CA, O=Example` (values escaped by `escape`). */
export function nameText(n: NameParts, escape: (value: string) => string = (v) => v): string {
  const parts: [string, string | undefined][] = [
    ['CN', n.CommonName],
    ['OU', n.OrganizationalUnit],
    ['O', n.Organization],
    ['L', n.City],
    ['ST', n.State],
    ['C', n.Country],
  ];
  return parts.flatMap(([k, v]) => (v ? [`${k}=${escape(v)}`] : [])).join(', ');
}

export interface CertificateInfo {
  /** The certificate re-encoded as canonical PEM (64-column lines, LF). */
  pem: string;
  subject: NameParts;
  issuer: NameParts;
  validNotBefore: string;
  validNotAfter: string;
  /** Hex pairs separated by colons, as the Redfish schema's pattern wants. */
  serialNumber: string;
  /** SHA-256 over the DER, hex pairs separated by colons. */
  fingerprint: string;
  /** OpenSSL long name of the signature algorithm (its dotted OID when unknown). */
  signatureAlgorithm: string;
  /** Redfish KeyUsage values from the keyUsage and extendedKeyUsage extensions. */
  keyUsage: string[];
}

/** Why a PEM text was refused; the message is meant for the client. */
export class PemError extends Error {}

const NAME_OIDS: Record<keyof NameParts, string> = {
  CommonName: '2.5.4.3',
  Organization: '2.5.4.10',
  OrganizationalUnit: '2.5.4.11',
  City: '2.5.4.7',
  State: '2.5.4.8',
  Country: '2.5.4.6',
  Email: '1.2.840.113549.1.9.1',
};

const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'ED25519',
};

/** Key usage bits and their Redfish names (the library's flags: made at first use, as the library is). */
let keyUsageFlags: [number, string][] | undefined;
const KEY_USAGE_FLAGS = (): [number, string][] =>
  (keyUsageFlags ??= [
    [x509lib().KeyUsageFlags.digitalSignature, 'DigitalSignature'],
    [x509lib().KeyUsageFlags.nonRepudiation, 'NonRepudiation'],
    [x509lib().KeyUsageFlags.keyEncipherment, 'KeyEncipherment'],
    [x509lib().KeyUsageFlags.dataEncipherment, 'DataEncipherment'],
    [x509lib().KeyUsageFlags.keyAgreement, 'KeyAgreement'],
    [x509lib().KeyUsageFlags.keyCertSign, 'KeyCertSign'],
    [x509lib().KeyUsageFlags.cRLSign, 'CRLSigning'],
    [x509lib().KeyUsageFlags.encipherOnly, 'EncipherOnly'],
    [x509lib().KeyUsageFlags.decipherOnly, 'DecipherOnly'],
  ]);

const EXTENDED_KEY_USAGES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'ServerAuthentication',
  '1.3.6.1.5.5.7.3.2': 'ClientAuthentication',
  '1.3.6.1.5.5.7.3.3': 'CodeSigning',
  '1.3.6.1.5.5.7.3.4': 'EmailProtection',
  '1.3.6.1.5.5.7.3.8': 'Timestamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
};

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** Parse text that must hold exactly one PEM certificate. Throws PemError with the reason. */
export function parsePemCertificate(text: string): CertificateInfo {
  const der = singleCertificateDer(text);
  let cert: X509Certificate;
  let peculiar: x509.X509Certificate;
  try {
    cert = new X509Certificate(der);
    peculiar = new (x509lib().X509Certificate)(new Uint8Array(der));
  } catch {
    throw new PemError('the PEM body is not a valid DER-encoded X.509 certificate (it is truncated or corrupted)');
  }
  return {
    pem: toPem(der),
    subject: nameParts(peculiar.subjectName),
    issuer: nameParts(peculiar.issuerName),
    validNotBefore: toIso(peculiar.notBefore.getTime()),
    validNotAfter: toIso(peculiar.notAfter.getTime()),
    serialNumber: colonHex(cert.serialNumber),
    fingerprint: cert.fingerprint256,
    signatureAlgorithm: signatureAlgorithm(der),
    keyUsage: keyUsage(peculiar),
  };
}

function singleCertificateDer(text: string): Buffer {
  if (text.trim() === '') throw new PemError('the string is empty');
  if (/\\n/.test(text) && !/[\r\n]/.test(text.trim())) {
    throw new PemError('its line breaks are the two characters backslash and n; in JSON write each line break as the escape \\n');
  }
  const blocks = [...text.matchAll(BLOCK)];
  const certs = blocks.filter((b) => b[1] === 'CERTIFICATE');
  const others = blocks.filter((b) => b[1] !== 'CERTIFICATE');
  if (others.length) throw new PemError(`it holds a ${others[0]?.[1]} block; send the certificate alone`);
  if (certs.length > 1) throw new PemError(`it holds ${certs.length} certificates; enroll one certificate per request`);
  const block = certs[0];
  if (!block) {
    if (text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new PemError('the PEM block is truncated: -----END CERTIFICATE----- is missing');
    }
    throw new PemError('no -----BEGIN CERTIFICATE----- block was found');
  }
  const outside = text.replace(block[0], '');
  if (outside.includes('-----BEGIN') || outside.includes('-----END')) {
    throw new PemError('it holds an incomplete second PEM block');
  }
  const b64 = (block[2] ?? '').replace(/\s+/g, '');
  if (b64 === '' || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
    throw new PemError('the PEM body is not valid base64 (it is truncated or corrupted)');
  }
  const der = Buffer.from(b64, 'base64');
  const outer = derHeader(der, 0);
  if (!outer || outer.tag !== 0x30 || outer.end !== der.length) {
    throw new PemError('the PEM body is not a single DER-encoded X.509 certificate (it is truncated or has trailing data)');
  }
  return der;
}

function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function nameParts(name: x509.Name): NameParts {
  const out: NameParts = {};
  for (const [key, oid] of Object.entries(NAME_OIDS) as [keyof NameParts, string][]) {
    const values = name.getField(oid);
    if (values.length) out[key] = values.join(', ');
  }
  return out;
}

function colonHex(hex: string): string {
  const even = hex.length % 2 ? `0${hex}` : hex;
  return (even.toUpperCase().match(/../g) ?? []).join(':');
}

function keyUsage(cert: x509.X509Certificate): string[] {
  const out: string[] = [];
  const ku = cert.getExtension(x509lib().KeyUsagesExtension);
  if (ku) for (const [flag, name] of KEY_USAGE_FLAGS()) if (ku.usages & flag) out.push(name);
  const eku = cert.getExtension(x509lib().ExtendedKeyUsageExtension);
  for (const oid of eku?.usages ?? []) {
    const name = EXTENDED_KEY_USAGES[String(oid)];
    if (name) out.push(name);
  }
  return out;
}

// -- a minimal DER reader: enough to find the outer signatureAlgorithm -------

interface DerHeader {
  tag: number;
  /** Offset of the content. */
  start: number;
  /** Offset just past the content. */
  end: number;
}

export function derHeader(buf: Buffer, at: number): DerHeader | undefined {
  const tag = buf[at];
  const lenByte = buf[at + 1];
  if (tag === undefined || lenByte === undefined) return undefined;
  let start = at + 2;
  let length = lenByte;
  if (lenByte & 0x80) {
    const n = lenByte & 0x7f;
    // A long form: the next n bytes (at most 4, all inside buf) are the length, big-endian.
    if (n === 0 || n > 4 || start + n > buf.length) return undefined;
    length = buf.readUIntBE(start, n);
    start += n;
  }
  const end = start + length;
  return end <= buf.length ? { tag, start, end } : undefined;
}

/** Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm SEQUENCE { OID, ... }, signature }. */
function signatureAlgorithm(der: Buffer): string {
  const outer = derHeader(der, 0);
  const tbs = outer && derHeader(der, outer.start);
  const alg = tbs && derHeader(der, tbs.end);
  const oid = alg && derHeader(der, alg.start);
  if (!oid || oid.tag !== 0x06) return 'unknown';
  const dotted = decodeOid(der.subarray(oid.start, oid.end));
  return SIGNATURE_ALGORITHMS[dotted] ?? dotted;
}

function decodeOid(bytes: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}
