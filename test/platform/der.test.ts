// The structural check of PEM files a fleet runs over its controllers' HTTPS keys and
// certificates at a restart, instead of parsing ten thousand of each with OpenSSL.
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { wellFormedPem } from '../../src/platform/der.js';
import { issueNative } from '../../src/platform/x509.js';

const KEYS = ['PRIVATE KEY', 'EC PRIVATE KEY', 'RSA PRIVATE KEY'];

describe('wellFormedPem', async () => {
  const issued = await issueNative({
    subject: 'CN=bmc-1, O=Vendor',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    notBefore: new Date('2026-06-01T00:00:00Z'),
    days: 3650,
    usage: ['server'],
  });
  const { certPem, keyPem } = issued;
  const cut = (pem: string, at: number) => {
    const lines = pem.trimEnd().split('\n');
    return `${lines.slice(0, at).join('\n')}\n${lines.at(-1)}\n`;
  };

  it('passes what OpenSSL reads: a key in PKCS #8, SEC 1 and PKCS #1, a certificate, a chain', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs1' });
    for (const pem of [keyPem, createPrivateKey(keyPem).export({ format: 'pem', type: 'sec1' }) as string, rsa as string]) {
      assert.equal(wellFormedPem(pem, KEYS), true, pem);
      createPrivateKey(pem);
    }
    assert.equal(wellFormedPem(certPem, ['CERTIFICATE']), true);
    assert.equal(wellFormedPem(`${certPem}${certPem}`, ['CERTIFICATE']), true);
    assert.equal(wellFormedPem(certPem.replace(/\n/g, '\r\n'), ['CERTIFICATE']), true);
  });

  it('fails what is cut, padded, garbage, empty, another label or encrypted', () => {
    const encrypted = createPrivateKey(keyPem).export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'x' }) as string;
    const cases: [string, string, readonly string[]][] = [
      ['a cut key', cut(keyPem, 2), KEYS],
      ['a cut certificate', cut(certPem, 5), ['CERTIFICATE']],
      ['bytes after the value', certPem.replace(/\n-----END/, 'MAAA\n-----END'), ['CERTIFICATE']],
      ['too short a value', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', KEYS],
      ['no PEM', 'not a key\n', KEYS],
      ['nothing', '', KEYS],
      ['zeros', '\0'.repeat(241), KEYS],
      ['text after the block', `${keyPem}x`, KEYS],
      ['a certificate where a key belongs', certPem, KEYS],
      ['an encrypted key', encrypted, KEYS],
      ['mismatched labels', keyPem.replace('END PRIVATE KEY', 'END EC PRIVATE KEY'), KEYS],
    ];
    for (const [what, pem, labels] of cases) assert.equal(wellFormedPem(pem, labels), false, what);
    // What it fails, OpenSSL refuses too (the fleet then asks OpenSSL, which names the file).
    assert.throws(() => new X509Certificate(cut(certPem, 5)));
    assert.throws(() => createPrivateKey(cut(keyPem, 2)));
  });
});
