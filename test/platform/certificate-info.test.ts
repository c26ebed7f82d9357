import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePemCertificate, PemError } from '../../src/platform/certificate-info.js';
import { issueCertificate } from '../../src/platform/x509.js';

const notBefore = new Date('2026-01-01T00:00:00Z');

describe('parsePemCertificate', () => {
  it('reads an RSA certificate issued by a CA', async () => {
    const ca = await issueCertificate({ subject: 'CN=Issuing CA, O=Acme, C=DE', ca: true, keyType: 'rsa', notBefore });
    const leaf = await issueCertificate({ subject: 'CN=Boot Loader Signer, O=Acme', issuer: ca, usage: ['codeSigning'], notBefore });
    const info = parsePemCertificate(leaf.certPem);
    assert.deepEqual(info.subject, { CommonName: 'Boot Loader Signer', Organization: 'Acme' });
    assert.deepEqual(info.issuer, { CommonName: 'Issuing CA', Organization: 'Acme', Country: 'DE' });
    assert.equal(info.signatureAlgorithm, 'sha256WithRSAEncryption', 'the issuer signed with RSA');
    // The leaf's own key is EC: it signs, it cannot encipher keys.
    assert.deepEqual(info.keyUsage, ['DigitalSignature', 'CodeSigning']);
    assert.match(info.serialNumber, /^([0-9A-F]{2}:)+[0-9A-F]{2}$/);
    assert.equal(info.pem, leaf.certPem);
  });

  it('accepts CRLF line breaks and surrounding whitespace, and re-encodes canonically', async () => {
    const c = await issueCertificate({ subject: 'CN=Whitespace', notBefore });
    const info = parsePemCertificate(`\r\n  ${c.certPem.replace(/\n/g, '\r\n')}\r\n`);
    assert.equal(info.pem, c.certPem);
  });

  it('refuses trailing data after the DER structure', async () => {
    const c = await issueCertificate({ subject: 'CN=Trailing', notBefore });
    const der = Buffer.from(c.certPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const padded = Buffer.concat([der, Buffer.from([0, 0, 0])]).toString('base64');
    const pem = `-----BEGIN CERTIFICATE-----\n${padded}\n-----END CERTIFICATE-----\n`;
    assert.throws(
      () => parsePemCertificate(pem),
      (e: unknown) => e instanceof PemError && /trailing data/.test(e.message),
    );
  });

  it('refuses a lone END line or a second, incomplete block', async () => {
    const c = await issueCertificate({ subject: 'CN=Halves', notBefore });
    assert.throws(() => parsePemCertificate('-----END CERTIFICATE-----'), PemError);
    assert.throws(() => parsePemCertificate(`${c.certPem}-----BEGIN CERTIFICATE-----\nMIIB\n`), /incomplete second PEM block/);
  });
});
