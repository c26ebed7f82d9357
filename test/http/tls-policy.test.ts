// TLS and key policy (issue 12, item 10): TLS 1.3, and TLS 1.2 only with
// ECDHE and AEAD suites; no client renegotiation; HSTS on every answer; the
// same after a certificate swap; keys under the accepted strength refused at
// start, on certificate replacement and for certificate-login CAs.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type ConnectionOptions } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { issueCertificate } from '../../src/platform/x509.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';
import { rsaCertificate, secp256k1Ca } from '../support/weak-keys.js';

const DAY = 86_400_000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const HTTPS_CERT = '/redfish/v1/Managers/1/SecurityService/HttpsCert/';
const REPLACE = '/redfish/v1/CertificateService/Actions/CertificateService.ReplaceCertificate/';
const HTTPS_CERT_URI = '/redfish/v1/Managers/1/NetworkProtocol/HTTPS/Certificates/1/';

interface Handshake {
  ok: boolean;
  protocol?: string | null;
  cipher?: string;
  cert?: Buffer;
  error?: string;
}

/** One TLS handshake with the given client options; never throws, gives up after 5 s. */
function handshake(port: number, options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...options }, () => {
      resolve({ ok: true, protocol: socket.getProtocol(), cipher: socket.getCipher().name, cert: socket.getPeerX509Certificate()?.raw });
      socket.end();
    });
    socket.setTimeout(5_000, () => {
      resolve({ ok: false, error: 'timeout' });
      socket.destroy();
    });
    socket.on('error', (e: Error & { code?: string }) => resolve({ ok: false, error: e.code ?? e.message }));
  });
}

describe('TLS policy', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('speaks TLS 1.3, and TLS 1.2 with ECDHE-ECDSA AES-GCM and ChaCha20-Poly1305', async () => {
    const tls13 = await handshake(svc.port, {});
    assert.equal(tls13.protocol, 'TLSv1.3');
    for (const cipher of ['ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305']) {
      const h = await handshake(svc.port, { maxVersion: 'TLSv1.2', ciphers: cipher });
      assert.ok(h.ok, `${cipher}: ${h.error}`);
      assert.equal(h.protocol, 'TLSv1.2');
      assert.equal(h.cipher, cipher);
    }
  });

  it('refuses CBC suites, SHA-1 MACs, RSA key exchange and TLS 1.1', async () => {
    for (const ciphers of [
      'ECDHE-ECDSA-AES128-SHA',
      'ECDHE-ECDSA-AES256-SHA',
      'ECDHE-ECDSA-AES128-SHA256',
      'ECDHE-RSA-AES128-SHA',
      'AES128-SHA',
      'AES128-GCM-SHA256',
    ]) {
      const h = await handshake(svc.port, { maxVersion: 'TLSv1.2', ciphers });
      assert.equal(h.ok, false, `${ciphers} was accepted`);
      assert.notEqual(h.error, 'timeout');
    }
    const old = await handshake(svc.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
    assert.equal(old.ok, false);
  });

  it('refuses a client-initiated TLS 1.2 renegotiation', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ port: svc.port, host: '127.0.0.1', rejectUnauthorized: false, maxVersion: 'TLSv1.2' }, () => {
        const started = socket.renegotiate({ rejectUnauthorized: false }, (err) => resolve(err ? 'refused' : 'renegotiated'));
        if (!started) resolve('refused');
      });
      socket.setTimeout(5_000, () => resolve('no answer'));
      socket.on('error', () => resolve('refused'));
      socket.on('close', () => resolve('refused'));
    });
    assert.equal(outcome, 'refused');
  });

  it('sends Strict-Transport-Security on every answer, errors included', async () => {
    const answers = await Promise.all([
      svc.get('/redfish/v1/', { auth: 'none' }),
      svc.get('/redfish/v1/Systems/', { auth: 'none' }),
      svc.get('/redfish/v1/Nope/'),
      svc.req('POST', '/redfish/v1/', { auth: 'none', body: {} }),
      svc.req('POST', '/redfish/v1/SessionService/Sessions', {
        auth: 'none',
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }),
    ]);
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 401, 404, 405, 400],
    );
    for (const r of answers) assert.equal(r.headers['strict-transport-security'], 'max-age=31536000');
  });

  it('generates an ECDSA certificate that claims digitalSignature only (no keyEncipherment)', async () => {
    const { cert } = await handshake(svc.port, {});
    const parsed = new x509.X509Certificate(new Uint8Array(cert as Buffer));
    assert.equal(parsed.publicKey.algorithm.name, 'ECDSA');
    const usage = parsed.getExtension(x509.KeyUsagesExtension);
    assert.ok(usage, 'keyUsage present');
    assert.equal(usage.usages, x509.KeyUsageFlags.digitalSignature);
  });

  it('refuses trusted CA certificates with weak keys: RSA 1024, secp256k1 (400)', async () => {
    const notBefore = new Date(svc.clock.now() - DAY);
    const importCa = (Certificate: string) =>
      svc.req('POST', `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`, {
        body: { Action: 'VendorCertAuth.ImportCACertificate', Certificate },
      });
    const rsa1024 = await rsaCertificate(1024, { subject: 'CN=Weak RSA CA', notBefore, ca: true });
    const weak = await importCa(rsa1024.certPem);
    assert.equal(weak.status, 400, weak.text);
    assert.deepEqual(messageIds(weak.body), ['Vendor.1.0.CertificateInvalid']);
    assert.match(weak.body.error['@Message.ExtendedInfo'][0].Message, /1024 bits; at least 2048/);
    const issuer = await issueCertificate({ subject: 'CN=Issuer', ca: true, notBefore, days: 365 });
    const k1 = await importCa(await secp256k1Ca(issuer, notBefore));
    assert.equal(k1.status, 400, k1.text);
    assert.deepEqual(messageIds(k1.body), ['Vendor.1.0.CertificateInvalid']);
    assert.match(k1.body.error['@Message.ExtendedInfo'][0].Message, /secp256k1.*P-256, P-384 and P-521/);
    // A P-256 CA is fine, and no weak one was stored.
    const good = await importCa(issuer.certPem);
    assert.equal(good.status, 201, good.text);
    assert.equal((await svc.get(`${CERT_AUTH}CACertificates/`)).body['Members@odata.count'], 1);
  });

  it('refuses a 1024-bit RSA HTTPS certificate on both replacement routes (400), and keeps serving the old one', async () => {
    const before = (await handshake(svc.port, {})).cert?.toString('hex');
    const weak = await rsaCertificate(1024, { subject: 'CN=localhost', notBefore: new Date(svc.clock.now() - DAY) });
    const vendor = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.ImportCertificate/`, {
      body: { Certificate: weak.certPem + weak.keyPem },
    });
    assert.equal(vendor.status, 400, vendor.text);
    assert.deepEqual(messageIds(vendor.body), ['Vendor.1.0.CertificateInvalid']);
    const standard = await svc.req('POST', REPLACE, {
      body: { CertificateUri: { '@odata.id': HTTPS_CERT_URI }, CertificateString: weak.certPem + weak.keyPem, CertificateType: 'PEM' },
    });
    assert.equal(standard.status, 400, standard.text);
    assert.deepEqual(messageIds(standard.body), ['Vendor.1.0.CertificateInvalid']);
    assert.match(standard.body.error['@Message.ExtendedInfo'][0].Message, /1024 bits/);
    assert.equal((await handshake(svc.port, {})).cert?.toString('hex'), before);
  });

  it('applies the same policy after the certificate is swapped (an RSA 2048 one)', async () => {
    const rsa = await rsaCertificate(2048, { subject: 'CN=localhost', notBefore: new Date(svc.clock.now() - DAY) });
    const r = await svc.req('POST', REPLACE, {
      body: { CertificateUri: { '@odata.id': HTTPS_CERT_URI }, CertificateString: rsa.certPem + rsa.keyPem, CertificateType: 'PEM' },
    });
    assert.equal(r.status, 200, r.text);
    const gcm = await handshake(svc.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' });
    assert.ok(gcm.ok, gcm.error);
    assert.equal(new x509.X509Certificate(new Uint8Array(gcm.cert as Buffer)).publicKey.algorithm.name, 'RSASSA-PKCS1-v1_5');
    for (const ciphers of ['ECDHE-RSA-AES128-SHA', 'AES128-SHA', 'AES128-GCM-SHA256']) {
      assert.equal((await handshake(svc.port, { maxVersion: 'TLSv1.2', ciphers })).ok, false, `${ciphers} accepted after the swap`);
    }
    assert.equal((await handshake(svc.port, {})).protocol, 'TLSv1.3');
  });
});

describe('--tls-cert with a weak key', () => {
  let dir: string;
  let certFile: string;
  let keyFile: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-weak-tls-'));
    const weak = await rsaCertificate(1024, { subject: 'CN=localhost', notBefore: new Date(Date.now() - DAY) });
    certFile = join(dir, 'weak-cert.pem');
    keyFile = join(dir, 'weak-key.pem');
    writeFileSync(certFile, weak.certPem);
    writeFileSync(keyFile, weak.keyPem);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('does not start: the service says which key is too weak', async () => {
    await assert.rejects(
      startTestService({ config: { tlsCert: certFile, tlsKey: keyFile } }),
      /--tls-cert .*weak-cert\.pem: .*RSA key has 1024 bits; at least 2048/,
    );
  });

  it('the command line exits 2 (a configuration error) with that message and no stack trace', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'src', 'cli.ts'),
        '--tls-cert',
        certFile,
        '--tls-key',
        keyFile,
        '--data-dir',
        join(dir, 'data'),
        '--port',
        '0',
      ],
      { cwd: ROOT, env: { ...process.env, BMC_SSDP_PORT: '0', BMC_SCRYPT_LOG_N: '10' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 30_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /RSA key has 1024 bits; at least 2048 are required/);
    assert.doesNotMatch(stderr, /\n\s+at /);
  });
});
