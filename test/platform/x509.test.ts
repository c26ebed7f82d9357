// The fleet's server certificates, written with node:crypto and DER by hand: they
// must be what the generic path (@peculiar/x509) makes, as TLS and X.509 readers see it.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { children, ipBytes, time } from '../../src/platform/der.js';
import { fastIssuer, issueCertificate, issueNative, issueServerCertificate } from '../../src/platform/x509.js';

describe('server certificates signed natively by an EC CA', async () => {
  const notBefore = new Date('2026-06-01T00:00:00Z');
  const ca = await issueCertificate({ subject: 'CN=bmc-redfish fleet CA, O=Vendor', notBefore, ca: true });
  const signer = fastIssuer(ca)!;
  const leaf = issueServerCertificate(signer, {
    subject: 'CN=bmc-42, O=Vendor, OU=Management Controller',
    dnsNames: ['localhost', 'bmc-fleet-0.bmc-fleet.default.svc.cluster.local'],
    ipAddresses: ['127.0.0.1', '::1', '127.0.1.43', 'fd00::1:2'],
    notBefore,
    days: 3650,
  });

  it('verifies against the CA and holds its own key', () => {
    const cert = new X509Certificate(leaf.certPem);
    assert.equal(cert.verify(new X509Certificate(ca.certPem).publicKey), true);
    assert.equal(cert.checkIssued(new X509Certificate(ca.certPem)), true);
    assert.equal(cert.checkPrivateKey(createPrivateKey(leaf.keyPem)), true);
    assert.equal(cert.ca, false);
    assert.equal(cert.issuer, 'CN=bmc-redfish fleet CA\nO=Vendor');
    assert.equal(cert.subject, 'CN=bmc-42\nO=Vendor\nOU=Management Controller');
    assert.equal(new Date(cert.validFrom).toISOString(), notBefore.toISOString());
    assert.equal(new Date(cert.validTo).toISOString(), new Date(notBefore.getTime() + 3650 * 86_400_000).toISOString());
  });

  it('names every address and host name, as a TLS client checks them', () => {
    const cert = new X509Certificate(leaf.certPem);
    for (const ip of ['127.0.0.1', '::1', '127.0.1.43', 'fd00::1:2']) assert.equal(cert.checkIP(ip), ip);
    assert.equal(cert.checkIP('127.0.1.44'), undefined);
    assert.equal(cert.checkHost('bmc-fleet-0.bmc-fleet.default.svc.cluster.local'), 'bmc-fleet-0.bmc-fleet.default.svc.cluster.local');
    assert.equal(cert.checkHost('example.com'), undefined);
  });

  it("carries the extensions of the generic path, its authority key id the CA's subject key id", () => {
    const cert = new x509.X509Certificate(leaf.certPem);
    const generic = new x509.X509Certificate(ca.certPem);
    assert.equal(cert.getExtension(x509.BasicConstraintsExtension)?.ca, false);
    assert.equal(cert.getExtension(x509.BasicConstraintsExtension)?.critical, true);
    assert.equal(cert.getExtension(x509.KeyUsagesExtension)?.usages, x509.KeyUsageFlags.digitalSignature);
    assert.deepEqual([...(cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [])], ['1.3.6.1.5.5.7.3.1']);
    assert.equal(
      cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId,
      generic.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId,
    );
    assert.match(cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? '', /^[0-9a-f]{40}$/);
    assert.equal(cert.publicKey.algorithm.name, 'ECDSA');
  });

  it('makes a new key and serial number every time', () => {
    const again = issueServerCertificate(signer, { subject: 'CN=bmc-42', notBefore });
    assert.notEqual(new X509Certificate(again.certPem).serialNumber, new X509Certificate(leaf.certPem).serialNumber);
    assert.notEqual(again.keyPem, leaf.keyPem);
  });

  it('writes DER as X.690 says: long lengths, times, addresses', () => {
    assert.deepEqual(children(Buffer.from([0x30, 0x06, 0x02, 0x01, 0x05, 0x04, 0x01, 0xff])).length, 2);
    assert.equal(time(new Date('2049-12-31T23:59:59Z')).toString('latin1'), '\x17\x0d491231235959Z');
    assert.equal(time(new Date('2050-01-01T00:00:00Z')).toString('latin1'), '\x18\x0f20500101000000Z');
    assert.deepEqual([...ipBytes('10.1.2.3')], [10, 1, 2, 3]);
    assert.equal(ipBytes('fd00::1:2').toString('hex'), 'fd000000000000000000000000010002');
    assert.equal(ipBytes('::1').toString('hex'), '00000000000000000000000000000001');
  });
});

describe('certificates a first start makes natively (issueNative)', async () => {
  const notBefore = new Date('2026-01-01T00:00:00Z');
  const org = 'O=Vendor, OU=Platform Firmware, L=Houston, ST=Texas, C=US';
  const root = await issueNative({ keyType: 'rsa', ca: true, notBefore, days: 365 * 25, subject: `CN=Vendor Root CA, ${org}` });
  const sub = await issueNative({
    keyType: 'rsa',
    ca: true,
    notBefore,
    days: 365 * 15,
    issuer: root.issuer,
    subject: `CN=Vendor UEFI CA, ${org}`,
  });
  const server = await issueNative({
    subject: 'CN=bmc-host, O=Vendor, OU=Management Controller',
    dnsNames: ['localhost', 'bmc-host'],
    ipAddresses: ['127.0.0.1', '::1'],
    notBefore,
    days: 3650,
    usage: ['server'],
  });

  it('chains an RSA CA to an RSA root, each a CA with its own key', () => {
    const r = new X509Certificate(root.certPem);
    const s = new X509Certificate(sub.certPem);
    assert.equal(r.verify(r.publicKey), true, 'the root is self-signed');
    assert.equal(s.verify(r.publicKey), true);
    assert.equal(s.checkIssued(r), true);
    assert.equal(r.ca && s.ca, true);
    assert.equal(s.checkPrivateKey(createPrivateKey(sub.keyPem)), true);
    assert.equal(s.issuer, r.subject);
    assert.equal(r.subject, 'CN=Vendor Root CA\nO=Vendor\nOU=Platform Firmware\nL=Houston\nST=Texas\nC=US');
    assert.equal(r.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
    // 25 years from 2026 is past 2049: GeneralizedTime.
    assert.equal(new Date(r.validTo).toISOString(), new Date(notBefore.getTime() + 365 * 25 * 86_400_000).toISOString());
  });

  it('carries the extensions of the generic path', async () => {
    const generic = await issueCertificate({ keyType: 'rsa', ca: true, notBefore, subject: 'CN=Generic CA, O=Vendor' });
    const g = new x509.X509Certificate(generic.certPem);
    const n = new x509.X509Certificate(sub.certPem);
    assert.equal(n.getExtension(x509.BasicConstraintsExtension)?.critical, true);
    assert.equal(g.getExtension(x509.BasicConstraintsExtension)?.critical, true);
    assert.equal(n.getExtension(x509.KeyUsagesExtension)?.critical, true);
    assert.equal(g.getExtension(x509.KeyUsagesExtension)?.critical, true);
    assert.equal(n.getExtension(x509.BasicConstraintsExtension)?.ca, g.getExtension(x509.BasicConstraintsExtension)?.ca);
    assert.equal(n.getExtension(x509.KeyUsagesExtension)?.usages, g.getExtension(x509.KeyUsagesExtension)?.usages);
    assert.equal(
      n.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId,
      new x509.X509Certificate(root.certPem).getExtension(x509.SubjectKeyIdentifierExtension)?.keyId,
    );
    assert.equal(new X509Certificate(sub.certPem).toLegacyObject().asn1Curve, undefined, 'an RSA certificate');
    assert.match(JSON.stringify(n.signatureAlgorithm), /RSASSA-PKCS1-v1_5/);
    const leaf = new x509.X509Certificate(server.certPem);
    const genericLeaf = new x509.X509Certificate(
      (await issueCertificate({ subject: 'CN=x', notBefore, usage: ['server'], dnsNames: ['localhost'] })).certPem,
    );
    assert.equal(leaf.getExtension(x509.KeyUsagesExtension)?.usages, genericLeaf.getExtension(x509.KeyUsagesExtension)?.usages);
    assert.deepEqual([...(leaf.getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [])], ['1.3.6.1.5.5.7.3.1']);
    assert.equal(leaf.getExtension(x509.AuthorityKeyIdentifierExtension), null, 'self-signed: no authority key id, as the generic path');
  });

  it('a self-signed server certificate names its host and addresses, and OpenSSL accepts the chain', () => {
    const cert = new X509Certificate(server.certPem);
    assert.equal(cert.verify(cert.publicKey), true);
    assert.equal(cert.checkHost('bmc-host'), 'bmc-host');
    assert.equal(cert.checkIP('::1'), '::1');
    assert.equal(cert.checkPrivateKey(createPrivateKey(server.keyPem)), true);
    const dir = mkdtempSync(join(tmpdir(), 'x509-native-'));
    try {
      writeFileSync(join(dir, 'root.pem'), root.certPem);
      writeFileSync(join(dir, 'sub.pem'), sub.certPem);
      const out = spawnSync('openssl', ['verify', '-CAfile', join(dir, 'root.pem'), join(dir, 'sub.pem')], { encoding: 'utf8' });
      if (out.error) return; // no openssl here: node's checks above stand
      assert.equal(out.status, 0, out.stderr);
      assert.match(out.stdout, /: OK/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
