// The manager's SecurityService: ImportCACertificate answers like a create,
// with the new trusted CA member decorated as its own GET shows it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, type TLSSocket } from 'node:tls';
import { get as httpsGet } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '../../../src/platform/x509.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, startTestService, type TestService } from '../../support/service.js';

const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const IMPORT = `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`;
const SECURITY = '/redfish/v1/Managers/1/SecurityService/';

describe('security service', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('ImportCACertificate answers 201 with Location and the new member as its GET shows it; the same CA again is 200', async () => {
    const ca = await issueCertificate({ subject: 'CN=Import CA', ca: true, notBefore: new Date(svc.clock.now() - 86_400_000) });
    const r = await svc.req('POST', IMPORT, { body: { Certificate: ca.certPem } });
    assert.equal(r.status, 201, r.text);
    const location = r.headers.location as string;
    assert.match(location, new RegExp(`^${CERT_AUTH}CACertificates/[^/]+/$`));
    assert.equal(r.body['@odata.id'], location);
    assert.match(r.body['@odata.type'], /^#VendorCACertificate\.v\d+_\d+_\d+\.VendorCACertificate$/);
    assert.equal(r.body['@odata.context'], '/redfish/v1/$metadata#VendorCACertificate.VendorCACertificate');
    assert.ok(r.body['@odata.etag'], '@odata.etag');
    assert.equal(r.headers.etag, r.body['@odata.etag']);

    const member = await svc.get(location);
    assert.equal(member.status, 200);
    assert.deepEqual(r.body, member.body);
    assert.equal(member.headers.etag, r.headers.etag);
    assert.deepEqual((await svc.get(`${CERT_AUTH}CACertificates/`)).body.Members, [{ '@odata.id': location }]);

    const again = await svc.req('POST', IMPORT, { body: { Certificate: ca.certPem } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.location, undefined);
    assert.deepEqual(again.body, member.body);
    assert.equal((await svc.get(`${CERT_AUTH}CACertificates/`)).body['Members@odata.count'], 1);
  });

  it("carries the controller's factory identity (its release is 6): an IDevID and an IAK certificate, both issued by the CA in BMCIDevIDPca, kept across a restart", async () => {
    const security = (await svc.get(SECURITY)).body;
    const certificatesOf = async (set: string) => {
      // iLO 6 links the system's LAK set as SystemLAKCert.
      const uri = `${SECURITY}${set === 'SystemLAKCert' ? 'SystemLAK' : set}/Certificates/`;
      assert.equal(security[set].Certificates['@odata.id'], uri);
      const c = await svc.get(uri);
      assert.equal(c.status, 200, uri);
      const out = [];
      for (const m of c.body.Members) out.push((await svc.get(m['@odata.id'])).body);
      return out;
    };
    const [ca] = await certificatesOf('BMCIDevIDPca');
    const [idevid] = await certificatesOf('iLOIDevID');
    const [iak] = await certificatesOf('BMCIAK');
    assert.equal(idevid['@odata.type'], '#Certificate.v1_11_0.Certificate');
    assert.deepEqual([idevid.CertificateUsageTypes, iak.CertificateUsageTypes], [['IDevID'], ['IAK']]);
    const issuer = new X509Certificate(ca.CertificateString);
    assert.ok(issuer.ca);
    for (const leaf of [idevid, iak]) {
      const x = new X509Certificate(leaf.CertificateString);
      assert.ok(x.checkIssued(issuer) && x.verify(issuer.publicKey), 'issued and signed by the PCA');
      assert.deepEqual(leaf.Issuer, ca.Subject);
      assert.equal(leaf.Subject.CommonName, svc.running.services.serviceUuid);
    }
    // No owner provisioned local identities; the platform's are the server maker's.
    for (const set of [
      'iLOLDevID',
      'BMCLAK',
      'SystemLAKCert',
      'SystemLDevID',
      'SystemIDevID',
      'SystemIAK',
      'PlatformCert',
      'PlatformCertUpdate',
    ])
      assert.deepEqual(await certificatesOf(set), [], set);
    assert.equal((await svc.get(`${SECURITY}iLOIDevID/Certificates/2/`)).status, 404);
    assert.equal((await svc.req('DELETE', `${SECURITY}iLOIDevID/Certificates/1/`)).status, 405);
    svc = await svc.restart();
    assert.equal((await svc.get(`${SECURITY}iLOIDevID/Certificates/1/`)).body.CertificateString, idevid.CertificateString);
    assert.equal((await svc.get(`${SECURITY}BMCIDevIDPca/Certificates/1/`)).body.CertificateString, ca.CertificateString);
  });

  it('TLSVersion names the TLS versions the listener accepts: a handshake at each succeeds exactly where it says Enabled', async () => {
    const s = (await svc.get('/redfish/v1/Managers/1/SecurityService/')).body;
    assert.deepEqual(s.TLSVersion, { TLS1_0: 'Disabled', TLS1_1: 'Disabled', TLS1_2: 'Enabled', TLS1_3: 'Enabled' });
    assert.equal(s.DisableWeakCiphers, true);
    const versions = { TLS1_0: 'TLSv1', TLS1_1: 'TLSv1.1', TLS1_2: 'TLSv1.2', TLS1_3: 'TLSv1.3' } as const;
    for (const [name, version] of Object.entries(versions)) {
      const accepted = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: svc.port, rejectUnauthorized: false, minVersion: version, maxVersion: version });
        socket.once('secureConnect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      assert.equal(accepted, s.TLSVersion[name] === 'Enabled', name);
    }
  });

  it('CurrentCipher is the cipher suite of the connection that reads it', async () => {
    for (const [version, ciphers] of [
      ['TLSv1.2', 'ECDHE-ECDSA-AES128-GCM-SHA256'],
      ['TLSv1.2', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
      ['TLSv1.3', undefined],
    ] as const) {
      const { cipher, body } = await new Promise<{ cipher: string; body: any }>((resolve, reject) => {
        const req = httpsGet(
          {
            host: '127.0.0.1',
            port: svc.port,
            path: SECURITY,
            rejectUnauthorized: false,
            minVersion: version,
            maxVersion: version,
            ...(ciphers ? { ciphers } : {}),
            headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD) },
            agent: false,
          },
          (res) => {
            const cipher = (res.socket as TLSSocket).getCipher().name;
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ cipher, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
      });
      if (ciphers) assert.equal(cipher, ciphers);
      assert.equal(body.CurrentCipher, cipher, version);
    }
  });

  it('CertificateAuthentication links the user certificate mappings certificate login reads', async () => {
    const link = (await svc.get(CERT_AUTH)).body.Links.UserCertificateMapping['@odata.id'];
    assert.equal(link, '/redfish/v1/AccountService/UserCertificateMapping/');
    assert.equal((await svc.get(link)).status, 200);
  });
});

describe('security service of an iLO 5 (--oem-name Hpe, a Gen10 server)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  it('links the identity certificate sets, each an empty certificate collection as on an iLO 5 of a Gen10 Plus server, and none of iLO 6', async () => {
    const security = (await svc.get(SECURITY)).body;
    for (const set of ['iLOIDevID', 'iLOLDevID', 'SystemIDevID', 'SystemIAK', 'PlatformCert', 'PlatformCertUpdate']) {
      const uri = `${SECURITY}${set}/Certificates/`;
      assert.equal(security[set].Certificates['@odata.id'], uri);
      const r = await svc.get(uri);
      assert.equal(r.status, 200, uri);
      assert.equal(r.body['@odata.type'], '#CertificateCollection.CertificateCollection');
      assert.deepEqual(r.body.Members, []);
      assert.equal(r.body['Members@odata.count'], 0);
      assert.match(r.body.Description, new RegExp(set));
      assert.equal((await svc.req('POST', uri, { body: {} })).status, 405);
    }
    for (const set of ['BMCIDevIDPca', 'BMCIAK', 'BMCLAK', 'SystemLAKCert', 'SystemLDevID']) assert.equal(security[set], undefined, set);
    assert.equal((await svc.get(`${SECURITY}BMCIAK/Certificates/`)).status, 404);
    assert.equal((await svc.get(`${SECURITY}iLOIDevID/Certificates/1/`)).status, 404);
  });
});

describe('security service of an iLO 6 (--oem-name Hpe, a Gen11 server)', () => {
  let svc: TestService;
  let dir: string;
  before(async () => {
    // The default server, as a Gen11: its controller is an iLO 6.
    dir = mkdtempSync(join(tmpdir(), 'gen11-'));
    const profile = join(dir, 'gen11.yaml');
    writeFileSync(
      profile,
      readFileSync(new URL('../../../profiles/default.yaml', import.meta.url), 'utf8').replaceAll('VS380 Gen10', 'VS380 Gen11'),
    );
    svc = await startTestService({ config: { oemName: 'Hpe', hardware: profile } });
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("links iLO 6's identity sets and shows its factory identity", async () => {
    assert.equal((await svc.get('/redfish/v1/Managers/1/')).body.Model, 'iLO 6');
    const security = (await svc.get(SECURITY)).body;
    for (const set of ['BMCIDevIDPca', 'BMCIAK', 'BMCLAK', 'SystemLAKCert', 'SystemLDevID'])
      assert.equal((await svc.get(security[set].Certificates['@odata.id'])).status, 200, set);
    const idevid = (await svc.get(`${SECURITY}iLOIDevID/Certificates/1/`)).body;
    assert.deepEqual(idevid.CertificateUsageTypes, ['IDevID']);
    assert.equal(idevid.Subject.CommonName, svc.running.services.serviceUuid);
  });
});
