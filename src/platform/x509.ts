// X.509 issuing for the controller: its own HTTPS certificate, platform
// default keys, and the test tooling. Uses WebCrypto through @peculiar/x509lib().
import type * as x509 from '@peculiar/x509';
import { x509lib } from './x509-lib.js';
import {
  createHash,
  createPrivateKey,
  generateKeyPair,
  generateKeyPairSync,
  randomBytes,
  sign as cryptoSign,
  webcrypto,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import * as der from './der.js';
import { children } from './der.js';

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  cert: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
}

export interface IssueOptions {
  /** Distinguished name, e.g. "CN=localhost, O=Vendor". */
  subject: string;
  /** Host names and IP addresses for the subjectAltName. */
  dnsNames?: string[];
  ipAddresses?: string[];
  days?: number;
  /** Start of validity; callers take it from their clock (the controller's: a minute before now). */
  notBefore: Date;
  /** Make a CA certificate (basicConstraints cA=true, keyCertSign). */
  ca?: boolean;
  /** Issuer; self-signed when absent. */
  issuer?: IssuedCertificate;
  /** 'server' and/or 'client' extended key usage. */
  usage?: ('server' | 'client' | 'codeSigning')[];
  keyType?: 'ec' | 'rsa';
}

function toPem(label: string, bytes: ArrayBuffer | Buffer): string {
  const b64 = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}

const EKU = {
  server: '1.3.6.1.5.5.7.3.1',
  client: '1.3.6.1.5.5.7.3.2',
  codeSigning: '1.3.6.1.5.5.7.3.3',
} as const;

export async function issueCertificate(o: IssueOptions): Promise<IssuedCertificate> {
  const alg = o.keyType === 'rsa' ? RSA : EC;
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const notBefore = o.notBefore;
  const notAfter = new Date(notBefore.getTime() + (o.days ?? 3650) * 86_400_000);
  // An EC key only signs (ECDHE agrees the keys); keyEncipherment is for RSA keys alone.
  const leafUsage =
    o.keyType === 'rsa'
      ? x509lib().KeyUsageFlags.digitalSignature | x509lib().KeyUsageFlags.keyEncipherment
      : x509lib().KeyUsageFlags.digitalSignature;
  const extensions: x509.Extension[] = [
    new (x509lib().BasicConstraintsExtension)(Boolean(o.ca), undefined, true),
    new (x509lib().KeyUsagesExtension)(
      o.ca ? x509lib().KeyUsageFlags.keyCertSign | x509lib().KeyUsageFlags.cRLSign | x509lib().KeyUsageFlags.digitalSignature : leafUsage,
      true,
    ),
    await x509lib().SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (o.usage?.length) extensions.push(new (x509lib().ExtendedKeyUsageExtension)(o.usage.map((u) => EKU[u])));
  const names = [
    ...(o.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (names.length) extensions.push(new (x509lib().SubjectAlternativeNameExtension)(names));
  const serialNumber = Buffer.from(webcrypto.getRandomValues(new Uint8Array(12)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  const cert = o.issuer
    ? await x509lib().X509CertificateGenerator.create({
        serialNumber,
        subject: o.subject,
        issuer: o.issuer.cert.subject,
        notBefore,
        notAfter,
        signingAlgorithm: o.issuer.keys.privateKey.algorithm.name === 'ECDSA' ? EC : RSA,
        publicKey: keys.publicKey,
        signingKey: o.issuer.keys.privateKey,
        extensions: [...extensions, await x509lib().AuthorityKeyIdentifierExtension.create(o.issuer.keys.publicKey)],
      })
    : await x509lib().X509CertificateGenerator.createSelfSigned({
        serialNumber,
        name: o.subject,
        notBefore,
        notAfter,
        signingAlgorithm: alg,
        keys,
        extensions,
      });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: toPem('PRIVATE KEY', pkcs8), cert, keys };
}

/** An issuer kept as PEM (a fleet's CA): its certificate and PKCS#8 key, for issueCertificate. */
export async function loadIssuer(certPem: string, keyPem: string): Promise<IssuedCertificate> {
  const cert = new (x509lib().X509Certificate)(certPem);
  const alg = cert.publicKey.algorithm.name === 'ECDSA' ? EC : RSA;
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, alg, true, ['sign']);
  const publicKey = await cert.publicKey.export(alg, ['verify']);
  return { certPem, keyPem, cert, keys: { privateKey, publicKey } };
}

/** An issuer for the native writer: its subject as encoded, its private key and its key identifier. */
export interface FastIssuer {
  subject: Buffer;
  key: KeyObject;
  keyId: Buffer;
}

/** The issuer for issueServerCertificate, or undefined when it is not an EC CA with a key identifier. */
export function fastIssuer(ca: IssuedCertificate): FastIssuer | undefined {
  const keyId = ca.cert.getExtension(x509lib().SubjectKeyIdentifierExtension)?.keyId;
  if (ca.cert.publicKey.algorithm.name !== 'ECDSA' || !keyId) return undefined;
  const tbs = children(Buffer.from(ca.cert.rawData))[0]!;
  // version, serialNumber, signature, issuer, validity, subject, ...
  const subject = children(tbs)[5]!;
  return { subject, key: createPrivateKey(ca.keyPem), keyId: Buffer.from(keyId, 'hex') };
}

const NAME_OIDS: Record<string, string> = { CN: '2.5.4.3', O: '2.5.4.10', OU: '2.5.4.11', L: '2.5.4.7', ST: '2.5.4.8', C: '2.5.4.6' };
const ECDSA_SHA256 = der.seq(der.oid('1.2.840.10045.4.3.2'));
const RSA_SHA256 = der.seq(der.oid('1.2.840.113549.1.1.11'), der.nul());

/** "CN=a, O=b" as a Name: UTF8String values, but countryName, which is a PrintableString (RFC 5280). */
function encodeName(dn: string): Buffer {
  return der.seq(
    ...dn.split(/\s*,\s*/).map((rdn) => {
      const [k, ...v] = rdn.split('=');
      const key = k!.trim();
      const type = NAME_OIDS[key];
      if (!type) throw new Error(`certificate name: unsupported attribute ${key}`);
      const value = v.join('=');
      return der.set(der.seq(der.oid(type), key === 'C' ? der.printable(value) : der.utf8(value)));
    }),
  );
}

type NativeOptions = Pick<IssueOptions, 'subject' | 'dnsNames' | 'ipAddresses' | 'notBefore' | 'days' | 'ca' | 'usage'>;

/**
 * A certificate for a public key, written as DER by hand and signed with node:crypto: the
 * extensions of issueCertificate's (basic constraints and key usage, critical; subject key
 * id; extended key usage; subject alternative names; the issuer's key id when not self-signed).
 */
function writeCertificate(
  publicKey: KeyObject,
  o: NativeOptions,
  issuer: FastIssuer | undefined,
  ownKey: KeyObject,
): { cert: Buffer; self: FastIssuer } {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subjectKey = children(spki)[1]!.subarray(3); // the BIT STRING's bits, past its header and unused-bits byte
  const keyId = createHash('sha1').update(subjectKey).digest();
  const name = encodeName(o.subject);
  const rsa = publicKey.asymmetricKeyType === 'rsa';
  const ext = (id: string, critical: boolean, value: Buffer) =>
    der.seq(der.oid(id), ...(critical ? [der.bool(true)] : []), der.octets(value));
  const names = [
    ...(o.dnsNames ?? []).map((d) => der.implicit(2, Buffer.from(d, 'ascii'))),
    ...(o.ipAddresses ?? []).map((ip) => der.implicit(7, der.ipBytes(ip))),
  ];
  // KeyUsage bits from the first: digitalSignature (0), keyEncipherment (2), keyCertSign (5), cRLSign (6);
  // DER drops trailing zero bits. An EC key only signs (ECDHE agrees the keys).
  const usage = o.ca ? der.bits(Buffer.from([0x86]), 1) : rsa ? der.bits(Buffer.from([0xa0]), 5) : der.bits(Buffer.from([0x80]), 7);
  const extensions = [
    ext('2.5.29.19', true, o.ca ? der.seq(der.bool(true)) : der.seq()),
    ext('2.5.29.15', true, usage),
    ext('2.5.29.14', false, der.octets(keyId)),
    ...(o.usage?.length ? [ext('2.5.29.37', false, der.seq(...o.usage.map((u) => der.oid(EKU[u]))))] : []),
    ...(names.length ? [ext('2.5.29.17', false, der.seq(...names))] : []),
    ...(issuer ? [ext('2.5.29.35', false, der.seq(der.implicit(0, issuer.keyId)))] : []),
  ];
  const signer = issuer?.key ?? ownKey;
  const algorithm = signer.asymmetricKeyType === 'rsa' ? RSA_SHA256 : ECDSA_SHA256;
  const serial = randomBytes(12);
  serial[0]! &= 0x7f;
  serial[0]! |= 0x10;
  const notAfter = new Date(o.notBefore.getTime() + (o.days ?? 3650) * 86_400_000);
  const tbs = der.seq(
    der.explicit(0, der.integer(Buffer.from([2]))),
    der.integer(serial),
    algorithm,
    issuer?.subject ?? name,
    der.seq(der.time(o.notBefore), der.time(notAfter)),
    name,
    spki,
    der.explicit(3, der.seq(...extensions)),
  );
  const signature = cryptoSign('sha256', tbs, signer);
  return { cert: der.seq(tbs, algorithm, der.bits(signature)), self: { subject: name, key: ownKey, keyId } };
}

/**
 * A server certificate with a new P-256 key, signed by an EC issuer: the same certificate as
 * issueCertificate's (`usage: ['server']`), written with node:crypto and DER by hand. A fleet
 * makes a thousand of them; the generic path costs about 6 ms each, this one a fraction of that.
 */
export function issueServerCertificate(
  issuer: FastIssuer,
  o: Pick<IssueOptions, 'subject' | 'dnsNames' | 'ipAddresses' | 'notBefore' | 'days'>,
): { certPem: string; keyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const { cert } = writeCertificate(publicKey, { ...o, usage: ['server'] }, issuer, privateKey);
  return { certPem: toPem('CERTIFICATE', cert), keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

const generateKeys = promisify(generateKeyPair);

/** A certificate made without @peculiar/x509 (a controller's first start): a new key, written and signed natively. */
export interface NativeCertificate {
  certPem: string;
  keyPem: string;
  /** This certificate as the issuer of others. */
  issuer: FastIssuer;
}

/**
 * issueCertificate's certificates (EC P-256 or RSA 2048, CA or leaf, self-signed or
 * issued), written natively: a start that makes its own certificates does not load the
 * ASN.1 library, and the keys are made off the main thread.
 */
export async function issueNative(o: NativeOptions & { keyType?: 'ec' | 'rsa'; issuer?: FastIssuer }): Promise<NativeCertificate> {
  const { publicKey, privateKey } =
    o.keyType === 'rsa'
      ? await generateKeys('rsa', { modulusLength: 2048, publicExponent: 0x10001 })
      : await generateKeys('ec', { namedCurve: 'prime256v1' });
  const { cert, self } = writeCertificate(publicKey, o, o.issuer, privateKey);
  return { certPem: toPem('CERTIFICATE', cert), keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, issuer: self };
}
