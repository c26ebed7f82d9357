// The controller's HTTPS identity: a given certificate, or a self-signed one
// generated into the data dir on first start and reused afterwards.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '../platform/x509.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** True when the certificate was generated here (self-signed). */
  generated: boolean;
}

export const SELF_SIGNED_CERT = 'https-cert.pem';
export const SELF_SIGNED_KEY = 'https-key.pem';

export async function ensureTlsMaterial(dataDir: string, certPath?: string, keyPath?: string): Promise<TlsMaterial> {
  if (certPath && keyPath) {
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), generated: false };
  }
  const certFile = join(dataDir, SELF_SIGNED_CERT);
  const keyFile = join(dataDir, SELF_SIGNED_KEY);
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), generated: true };
  }
  const host = hostname();
  const issued = await issueCertificate({
    subject: `CN=${host}, O=Vendor, OU=Management Controller`,
    dnsNames: [...new Set(['localhost', host])],
    ipAddresses: ['127.0.0.1', '::1'],
    days: 3650,
    usage: ['server'],
  });
  writeFileSync(keyFile, issued.keyPem, { mode: 0o600 });
  writeFileSync(certFile, issued.certPem, { mode: 0o600 });
  return { cert: issued.certPem, key: issued.keyPem, generated: true };
}

/** Persist a newly installed identity (certificate replacement) so the next start serves it: both files fsync'ed, then renamed. */
export function saveTlsMaterial(dataDir: string, cert: string, key: string): void {
  const staged = ([[SELF_SIGNED_KEY, key, 0o600], [SELF_SIGNED_CERT, cert, 0o600]] as const).map(([name, text, mode]) => {
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
