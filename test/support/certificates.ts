// Certificates for tests: sign a controller's CSR with a test CA, and read
// which certificate a new TLS connection is served.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { connect } from 'node:tls';
import type { IssuedCertificate } from '../../src/platform/x509.js';

const DAY = 86_400_000;

export async function signCsr(csrPem: string, ca: IssuedCertificate, notBefore: Date): Promise<string> {
  const csr = new x509.Pkcs10CertificateRequest(csrPem);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '0a1b2c3d',
    subject: csr.subject,
    issuer: ca.cert.subject,
    notBefore,
    notAfter: new Date(notBefore.getTime() + 365 * DAY),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    publicKey: await csr.publicKey.export({ name: 'ECDSA', namedCurve: 'P-256' }, ['verify']),
    signingKey: ca.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.1']),
      ...csr.extensions.filter((e) => e.type === '2.5.29.17'),
    ],
  });
  return cert.toString('pem');
}

/** SHA-256 fingerprint of the certificate a new TLS connection is served. */
export function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const fp = socket.getPeerX509Certificate()?.fingerprint256 ?? '';
      socket.end();
      resolve(fp);
    });
    socket.on('error', reject);
  });
}
