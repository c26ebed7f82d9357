// CertificateService: where the certificates are, a CSR for a new HTTPS key,
// and replacement of the served certificate, checked on new TLS connections.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { issueCertificate, type IssuedCertificate } from '../../../src/platform/x509.js';
import { servedFingerprint, signCsr } from '../../support/certificates.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SERVICE = '/redfish/v1/CertificateService/';
const HTTPS_CERTS = '/redfish/v1/Managers/1/NetworkProtocol/HTTPS/Certificates/';
const HTTPS_CERT = `${HTTPS_CERTS}1/`;
const GENERATE = `${SERVICE}Actions/CertificateService.GenerateCSR/`;
const REPLACE = `${SERVICE}Actions/CertificateService.ReplaceCertificate/`;
const DAY = 86_400_000;

describe('CertificateService', () => {
  let svc: TestService;
  let ca: IssuedCertificate;
  before(async () => {
    svc = await startTestService();
    ca = await issueCertificate({ subject: 'CN=Test Root CA, O=Test', ca: true, notBefore: new Date(svc.clock.now() - DAY), days: 3650 });
  });
  after(() => svc.close());

  const replace = (CertificateString: string, uri = HTTPS_CERT) =>
    svc.req('POST', REPLACE, { body: { CertificateUri: { '@odata.id': uri }, CertificateString, CertificateType: 'PEM' } });

  it('is linked from the root, lists the certificates installed, and shows the HTTPS one', async () => {
    assert.equal((await svc.get('/redfish/v1/', { auth: 'none' })).body.CertificateService['@odata.id'], SERVICE);
    const service = await svc.get(SERVICE);
    assert.equal(service.body['@odata.type'], '#CertificateService.v1_2_1.CertificateService');
    assert.equal(service.body.Actions['#CertificateService.GenerateCSR'].target, GENERATE);
    assert.equal(service.body.Actions['#CertificateService.ReplaceCertificate'].target, REPLACE);
    const locations = await svc.get(service.body.CertificateLocations['@odata.id']);
    const linked: string[] = locations.body.Links.Certificates.map((l: { '@odata.id': string }) => l['@odata.id']);
    assert.equal(linked[0], HTTPS_CERT);
    assert.ok(
      linked.some((u) => u.includes('/SecureBoot/SecureBootDatabases/PKDefault/Certificates/')),
      'secure boot certificates too',
    );
    for (const uri of linked) assert.equal((await svc.get(uri)).status, 200, uri);

    const np = await svc.get('/redfish/v1/Managers/1/NetworkProtocol/');
    assert.equal(np.body.HTTPS.Certificates['@odata.id'], HTTPS_CERTS);
    assert.deepEqual((await svc.get(HTTPS_CERTS)).body.Members, [{ '@odata.id': HTTPS_CERT }]);
    const cert = await svc.get(HTTPS_CERT);
    assert.equal(cert.body['@odata.type'], '#Certificate.v1_11_0.Certificate');
    const served = await servedFingerprint(svc.port);
    assert.equal(new X509Certificate(cert.body.CertificateString).fingerprint256, served);
    assert.equal(cert.body.Subject.CommonName, cert.body.Issuer.CommonName, 'the generated one is self-signed');
    assert.equal((await svc.get(`${HTTPS_CERTS}2/`)).status, 404);
  });

  it('replaces the served certificate with one signed for a CSR it generated', async () => {
    const none = await replace(ca.certPem);
    assert.equal(none.status, 400);
    assert.deepEqual(messageIds(none.body), ['Vendor.1.0.CertificateSigningRequestMissing']);

    const gen = await svc.req('POST', GENERATE, {
      body: {
        CertificateCollection: { '@odata.id': HTTPS_CERTS },
        CommonName: 'bmc.example.com',
        AlternativeNames: ['localhost'],
        Organization: 'Test',
        Country: 'US',
      },
    });
    assert.equal(gen.status, 200, gen.text);
    assert.match(gen.body.CSRString, /BEGIN CERTIFICATE REQUEST/);
    assert.deepEqual(gen.body.CertificateCollection, { '@odata.id': HTTPS_CERTS });
    // The vendor resource drives the same key: it shows the pending request.
    assert.equal((await svc.get('/redfish/v1/Managers/1/SecurityService/HttpsCert/')).body.CertificateSigningRequest, gen.body.CSRString);

    const mismatch = await replace(ca.certPem);
    assert.equal(mismatch.status, 400);
    assert.deepEqual(messageIds(mismatch.body), ['Vendor.1.0.CertificateKeyMismatch']);
    const expired = await replace(await signCsr(gen.body.CSRString, ca, new Date(svc.clock.now() - 400 * DAY)));
    assert.equal(expired.status, 400);
    assert.match(expired.body.error['@Message.ExtendedInfo'][0].Message, /outside its validity/);

    const signed = await signCsr(gen.body.CSRString, ca, new Date(svc.clock.now() - DAY));
    const ok = await replace(signed + ca.certPem);
    assert.equal(ok.status, 200, ok.text);
    const fp = new X509Certificate(signed).fingerprint256;
    assert.equal(await servedFingerprint(svc.port), fp, 'new connections get the new certificate');
    const shown = (await svc.get(HTTPS_CERT)).body;
    assert.equal(shown.CertificateType, 'PEMchain');
    assert.equal(shown.Subject.CommonName, 'bmc.example.com');
    assert.equal(shown.Issuer.CommonName, 'Test Root CA');
    assert.equal((await svc.get('/redfish/v1/Managers/1/SecurityService/HttpsCert/')).body.SelfSigned, false);
  });

  it('takes a certificate followed by its own private key', async () => {
    const own = await issueCertificate({ subject: 'CN=own.example.com', issuer: ca, notBefore: new Date(svc.clock.now() - DAY), days: 90 });
    const other = await issueCertificate({ subject: 'CN=other', notBefore: new Date(svc.clock.now() - DAY), days: 90 });
    const wrongKey = await replace(own.certPem + other.keyPem);
    assert.equal(wrongKey.status, 400);
    assert.deepEqual(messageIds(wrongKey.body), ['Vendor.1.0.CertificateKeyMismatch']);
    const ok = await replace(own.certPem + own.keyPem);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(await servedFingerprint(svc.port), new X509Certificate(own.certPem).fingerprint256);
    assert.ok(!(await svc.get(HTTPS_CERT)).body.CertificateString.includes('PRIVATE KEY'), 'the key is never shown');
  });

  it('refuses other targets, bad parameters, and callers without ConfigureManager', async () => {
    const pk = await replace(ca.certPem, '/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/PK/Certificates/1/');
    assert.equal(pk.status, 400);
    assert.deepEqual(messageIds(pk.body), ['Base.1.12.ActionParameterValueError']);
    const elsewhere = await svc.req('POST', GENERATE, {
      body: { CertificateCollection: { '@odata.id': '/redfish/v1/AccountService/' }, CommonName: 'x' },
    });
    assert.equal(elsewhere.status, 400);
    assert.deepEqual(messageIds(elsewhere.body), ['Base.1.12.ActionParameterValueError']);
    const rsa = await svc.req('POST', GENERATE, {
      body: { CertificateCollection: { '@odata.id': HTTPS_CERTS }, CommonName: 'x', KeyPairAlgorithm: 'TPM_ALG_RSA' },
    });
    assert.equal(rsa.status, 400);
    const missing = await svc.req('POST', REPLACE, { body: { CertificateString: 'x', CertificateType: 'PEM' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(messageIds(missing.body), ['Base.1.12.ActionParameterMissing']);
    const garbage = await replace('not a certificate');
    assert.equal(garbage.status, 400);
    assert.deepEqual(messageIds(garbage.body), ['Vendor.1.0.CertificateInvalid']);

    const create = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'operator', Password: 'Operator-Pass-1', RoleId: 'Operator' },
    });
    assert.equal(create.status, 201, create.text);
    const asOperator = { auth: { user: 'operator', password: 'Operator-Pass-1' } } as const;
    assert.equal((await svc.get(SERVICE, asOperator)).status, 200);
    const refused = await svc.req('POST', GENERATE, {
      ...asOperator,
      body: { CertificateCollection: { '@odata.id': HTTPS_CERTS }, CommonName: 'x' },
    });
    assert.equal(refused.status, 403);
  });
});
