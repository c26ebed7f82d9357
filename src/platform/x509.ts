// X.509 issuing for the controller: its own HTTPS certificate, platform
// default keys, and the test tooling. Uses WebCrypto through @peculiar/x509.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto);

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

function toPem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
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
    o.keyType === 'rsa' ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment : x509.KeyUsageFlags.digitalSignature;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(Boolean(o.ca), undefined, true),
    new x509.KeyUsagesExtension(
      o.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature : leafUsage,
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (o.usage?.length) extensions.push(new x509.ExtendedKeyUsageExtension(o.usage.map((u) => EKU[u])));
  const names = [
    ...(o.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (names.length) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  const serialNumber = Buffer.from(webcrypto.getRandomValues(new Uint8Array(12)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
  const cert = o.issuer
    ? await x509.X509CertificateGenerator.create({
        serialNumber,
        subject: o.subject,
        issuer: o.issuer.cert.subject,
        notBefore,
        notAfter,
        signingAlgorithm: o.issuer.keys.privateKey.algorithm.name === 'ECDSA' ? EC : RSA,
        publicKey: keys.publicKey,
        signingKey: o.issuer.keys.privateKey,
        extensions: [...extensions, await x509.AuthorityKeyIdentifierExtension.create(o.issuer.keys.publicKey)],
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
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
  const cert = new x509.X509Certificate(certPem);
  const alg = cert.publicKey.algorithm.name === 'ECDSA' ? EC : RSA;
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, alg, true, ['sign']);
  const publicKey = await cert.publicKey.export(alg, ['verify']);
  return { certPem, keyPem, cert, keys: { privateKey, publicKey } };
}
