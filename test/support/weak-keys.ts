// Certificates with keys the service must refuse (issue 12, item 10): short
// RSA keys and EC keys on curves other than P-256, P-384 and P-521.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import type { IssuedCertificate } from '../../src/platform/x509.js';

x509.cryptoProvider.set(webcrypto);

const DAY = 86_400_000;

function pem(label: string, der: ArrayBuffer | Buffer): string {
  const b64 = Buffer.from(der as ArrayBuffer)
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

/** A self-signed RSA certificate of `bits` (a CA certificate when ca), with its PKCS#8 key. */
export async function rsaCertificate(
  bits: number,
  o: { subject: string; notBefore: Date; ca?: boolean },
): Promise<{ certPem: string; keyPem: string }> {
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: bits };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: o.subject,
    notBefore: o.notBefore,
    notAfter: new Date(o.notBefore.getTime() + 365 * DAY),
    signingAlgorithm: alg,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(Boolean(o.ca), undefined, true),
      new x509.KeyUsagesExtension(
        o.ca
          ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
          : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ]),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}

/**
 * A CA certificate whose key is on secp256k1 (WebCrypto cannot sign with that
 * curve, so `issuer` signs it: it is a CA certificate all the same).
 */
export async function secp256k1Ca(issuer: IssuedCertificate, notBefore: Date): Promise<string> {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=secp256k1 CA',
    issuer: issuer.cert.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + 365 * DAY),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    publicKey: publicKey.export({ type: 'spki', format: 'der' }),
    signingKey: issuer.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ],
  });
  return cert.toString('pem') + '\n';
}
