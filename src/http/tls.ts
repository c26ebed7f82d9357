// The controller's HTTPS identity: a given certificate, or a self-signed one
// generated into the data dir on first start and reused afterwards.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readDataFile } from '../lib/data-file-error.js';
import { checkKeyPairFiles } from '../lib/key-file.js';
import type { Clock } from '../platform/clock.js';
import { wellFormedPem } from '../platform/der.js';
import { issueNative } from '../platform/x509.js';
import { CertificateError, certificateMatchesKey, keyPolicyProblem, parseCertificates } from '../platform/x509-verify.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** True when the certificate was generated here (self-signed). */
  generated: boolean;
}

/** Unencrypted private keys (PKCS #8, SEC 1, PKCS #1): an encrypted one is left to OpenSSL to refuse. */
const PLAIN_KEY_LABELS = ['PRIVATE KEY', 'EC PRIVATE KEY', 'RSA PRIVATE KEY'];

export const SELF_SIGNED_CERT = 'https-cert.pem';
export const SELF_SIGNED_KEY = 'https-key.pem';

/** A given HTTPS identity (--tls-cert, --tls-key) the service cannot serve; the message says why. */
export class TlsIdentityError extends Error {}

/** The certificate parses, its key is one the policy accepts, and the private key is its own. */
function checkIdentity(certPem: string, keyPem: string, certPath: string, keyPath: string): void {
  let leaf;
  try {
    [leaf] = parseCertificates(certPem);
  } catch (e) {
    if (e instanceof CertificateError) throw new TlsIdentityError(`--tls-cert ${certPath}: ${e.message}`);
    throw e;
  }
  if (!leaf) throw new TlsIdentityError(`--tls-cert ${certPath}: no certificate found`);
  const weak = keyPolicyProblem(leaf);
  if (weak) throw new TlsIdentityError(`--tls-cert ${certPath}: the certificate cannot be used for HTTPS: ${weak}`);
  if (!certificateMatchesKey(leaf, keyPem)) {
    throw new TlsIdentityError(
      `--tls-key ${keyPath}: not the private key of the certificate in ${certPath} (or not a readable PEM private key)`,
    );
  }
}

/** The identity to serve; a generated one is valid from a minute before the clock's now. */
export async function ensureTlsMaterial(
  dataDir: string,
  clock: Pick<Clock, 'now'>,
  certPath?: string,
  keyPath?: string,
  /** Makes the identity when the data dir has none (a fleet's CA signs it); default self-signed. */
  issue?: () => Promise<{ certPem: string; keyPem: string }>,
): Promise<TlsMaterial> {
  if (certPath && keyPath) {
    const cert = readFileSync(certPath, 'utf8');
    const key = readFileSync(keyPath, 'utf8');
    checkIdentity(cert, key, certPath, keyPath);
    return { cert, key, generated: false };
  }
  const certFile = join(dataDir, SELF_SIGNED_CERT);
  const keyFile = join(dataDir, SELF_SIGNED_KEY);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readDataFile(certFile).toString('utf8');
    const key = readDataFile(keyFile).toString('utf8');
    // Checked here: a fleet's listener reads them only at the first handshake. A fleet's ten thousand
    // are checked for their structure (a damaged or cut file fails it); OpenSSL reads what it passes then.
    checkKeyPairFiles(
      certFile,
      cert,
      keyFile,
      key,
      'clients that trusted the old certificate must trust the new one',
      issue ? (pem, kind) => wellFormedPem(pem, kind === 'key' ? PLAIN_KEY_LABELS : ['CERTIFICATE']) : undefined,
    );
    return { cert, key, generated: true };
  }
  const host = hostname();
  const issued = issue
    ? await issue()
    : await issueNative({
        subject: `CN=${host}, O=Vendor, OU=Management Controller`,
        dnsNames: [...new Set(['localhost', host])],
        ipAddresses: ['127.0.0.1', '::1'],
        notBefore: new Date(clock.now() - 60_000),
        days: 3650,
        usage: ['server'],
      });
  writeFileSync(keyFile, issued.keyPem, { mode: 0o600 });
  writeFileSync(certFile, issued.certPem, { mode: 0o600 });
  return { cert: issued.certPem, key: issued.keyPem, generated: true };
}

/** Persist a newly installed identity (certificate replacement) so the next start serves it: both files fsync'ed, then renamed. */
export function saveTlsMaterial(dataDir: string, cert: string, key: string): void {
  const staged = (
    [
      [SELF_SIGNED_KEY, key, 0o600],
      [SELF_SIGNED_CERT, cert, 0o600],
    ] as const
  ).map(([name, text, mode]) => {
    const tmp = join(dataDir, `${name}.tmp`);
    writeFileSync(tmp, text, { mode });
    const fd = openSync(tmp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return [tmp, join(dataDir, name)] as const;
  });
  for (const [tmp, file] of staged) renameSync(tmp, file);
}
