// HTTPS only (G1): TLS 1.2 minimum, a self-signed certificate made once and reused.
import assert from 'node:assert/strict';
import type { X509Certificate } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { hostname } from 'node:os';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

function handshake(
  port: number,
  options: { minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2'; maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' },
) {
  return new Promise<{ protocol: string | null; cert: X509Certificate }>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...options }, () => {
      const raw = socket.getPeerX509Certificate();
      resolve({ protocol: socket.getProtocol(), cert: raw! });
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('TLS', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ keepData: true });
  });
  after(() => svc.close());

  it('speaks TLS 1.3 and 1.2 but refuses 1.1', async () => {
    assert.equal((await handshake(svc.port, {})).protocol, 'TLSv1.3');
    assert.equal((await handshake(svc.port, { maxVersion: 'TLSv1.2' })).protocol, 'TLSv1.2');
    await assert.rejects(handshake(svc.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1' }));
  });

  it('presents a generated X.509 v3 certificate for localhost, 127.0.0.1 and the host name', async () => {
    const { cert } = await handshake(svc.port, {});
    assert.match(cert.subjectAltName ?? '', /DNS:localhost/);
    assert.match(cert.subjectAltName ?? '', /IP Address:127\.0\.0\.1/);
    assert.ok((cert.subjectAltName ?? '').includes(`DNS:${hostname()}`));
    assert.equal(cert.issuer, cert.subject);
    assert.ok(cert.verify(cert.publicKey), 'self-signed');
  });

  it('reuses the certificate across restarts', async () => {
    const before = (await handshake(svc.port, {})).cert.fingerprint256;
    svc = await svc.restart();
    assert.equal((await handshake(svc.port, {})).cert.fingerprint256, before);
  });

  it('offers no plain HTTP', async () => {
    const answer = await new Promise<string>((resolve) => {
      const req = httpGet({ host: '127.0.0.1', port: svc.port, path: '/redfish/v1/' }, (res) => resolve(`status ${res.statusCode}`));
      req.on('error', (e) => resolve(`error ${e.message}`));
      req.setTimeout(3000, () => req.destroy(new Error('timeout')));
    });
    assert.doesNotMatch(answer, /status 200/);
  });
});
