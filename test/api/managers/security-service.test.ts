// The manager's SecurityService: ImportCACertificate answers like a create,
// with the new trusted CA member decorated as its own GET shows it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { issueCertificate } from '../../../src/platform/x509.js';
import { startTestService, type TestService } from '../../support/service.js';

const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const IMPORT = `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`;

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

  it("links the controller's identity certificate sets, each an empty certificate collection as on an iLO 5 of a Gen10 Plus server", async () => {
    const security = (await svc.get('/redfish/v1/Managers/1/SecurityService/')).body;
    for (const set of ['iLOIDevID', 'iLOLDevID', 'SystemIDevID', 'SystemIAK', 'PlatformCert', 'PlatformCertUpdate']) {
      const uri = `/redfish/v1/Managers/1/SecurityService/${set}/Certificates/`;
      assert.equal(security[set].Certificates['@odata.id'], uri);
      const r = await svc.get(uri);
      assert.equal(r.status, 200, uri);
      assert.equal(r.body['@odata.type'], '#CertificateCollection.CertificateCollection');
      assert.deepEqual(r.body.Members, []);
      assert.equal(r.body['Members@odata.count'], 0);
      assert.match(r.body.Description, new RegExp(set));
      assert.equal((await svc.req('POST', uri, { body: {} })).status, 405);
    }
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

  it('CertificateAuthentication links the user certificate mappings certificate login reads', async () => {
    const link = (await svc.get(CERT_AUTH)).body.Links.UserCertificateMapping['@odata.id'];
    assert.equal(link, '/redfish/v1/AccountService/UserCertificateMapping/');
    assert.equal((await svc.get(link)).status, 200);
  });
});
