// Issue 3, point 4: certificate login over real mutual TLS, with every
// precondition of certificate login (docs/accounts.md) unmet in turn and named.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { issueCertificate, type IssuedCertificate } from '../../../src/platform/x509.js';
import { signCsr, servedFingerprint } from '../../support/certificates.js';
import { installLicense } from '../../support/licenses.js';
import { basic, messageIds, startTestService, type TestService } from '../../support/service.js';

const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const HTTPS_CERT = '/redfish/v1/Managers/1/SecurityService/HttpsCert/';
const MAPPINGS = '/redfish/v1/AccountService/UserCertificateMapping/';
const DAY = 86_400_000;

describe('certificate login', () => {
  let svc: TestService;
  let ca: IssuedCertificate;
  let rogueCa: IssuedCertificate;
  let client: IssuedCertificate;
  let expiredClient: IssuedCertificate;
  let rogueClient: IssuedCertificate;
  const agents: Agent[] = [];
  const mtls = (c: IssuedCertificate) => {
    const a = new Agent({ connect: { cert: c.certPem, key: c.keyPem, rejectUnauthorized: false } });
    agents.push(a);
    return a;
  };
  const call = async (agent: Agent, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const res = await request(svc.url + path, {
      method: method as 'GET',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, text, body: text ? JSON.parse(text) : undefined };
  };
  /** A 401 naming the unmet precondition. */
  const refusedFor = async (agent: Agent, pattern: RegExp) => {
    const r = await call(agent, 'GET', '/redfish/v1/AccountService/');
    assert.equal(r.status, 401, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.CertificateLoginUnavailable']);
    assert.match(r.body.error['@Message.ExtendedInfo'][0].Message, pattern);
  };

  /** Meet at once every precondition the first test meets one by one, unless they are met already. */
  const ensureReady = async () => {
    if ((await svc.get(CERT_AUTH)).body.LoginReadiness.Ready) return;
    await installLicense(svc, 'Advanced');
    const ntp = await svc.req('PATCH', '/redfish/v1/Managers/1/NetworkProtocol/', {
      body: { NTP: { ProtocolEnabled: true, NTPServers: ['ntp.example.com'] } },
    });
    assert.equal(ntp.status, 200, ntp.text);
    const gen = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.GenerateCSR/`, {
      body: { CommonName: 'localhost', Country: 'US', OrgName: 'Test' },
    });
    assert.equal(gen.status, 200, gen.text);
    const signed = await signCsr(gen.body.CSRString, ca, new Date(svc.clock.now() - DAY));
    const imported = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.ImportCertificate/`, {
      body: { Certificate: signed + ca.certPem },
    });
    assert.equal(imported.status, 200, imported.text);
    assert.equal((await svc.req('PATCH', CERT_AUTH, { body: { CertificateLoginEnabled: true } })).status, 200);
    const okCa = await svc.req('POST', `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`, { body: { Certificate: ca.certPem } });
    assert.equal(okCa.status, 201, okCa.text);
    assert.equal((await svc.req('POST', MAPPINGS, { body: { UserName: 'certuser', Fingerprint: client.certPem } })).status, 201);
    assert.equal((await svc.get(CERT_AUTH)).body.LoginReadiness.Ready, true);
  };

  before(async () => {
    svc = await startTestService();
    const notBefore = new Date(svc.clock.now() - DAY);
    ca = await issueCertificate({ subject: 'CN=Test Root CA, O=Test', ca: true, notBefore, days: 3650 });
    rogueCa = await issueCertificate({ subject: 'CN=Rogue CA', ca: true, notBefore, days: 3650 });
    client = await issueCertificate({ subject: 'CN=certuser', issuer: ca, usage: ['client'], notBefore, days: 365 });
    expiredClient = await issueCertificate({
      subject: 'CN=certuser-old',
      issuer: ca,
      usage: ['client'],
      notBefore: new Date(svc.clock.now() - 30 * DAY),
      days: 10,
    });
    rogueClient = await issueCertificate({ subject: 'CN=certuser', issuer: rogueCa, usage: ['client'], notBefore, days: 365 });
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'certuser', Password: 'certuser-pass', RoleId: 'ReadOnly' },
    });
  });
  after(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await svc.close();
  });

  it('names each unmet precondition until all are met, then logs in as the mapped user over mTLS', async () => {
    const agent = mtls(client);
    const readiness = async () => (await svc.get(CERT_AUTH)).body.LoginReadiness;
    assert.equal((await readiness()).Ready, false);

    // 1. License: enabling needs Advanced, and the login says so.
    const early = await svc.req('PATCH', CERT_AUTH, { body: { CertificateLoginEnabled: true } });
    assert.equal(early.status, 403);
    assert.deepEqual(messageIds(early.body), ['Vendor.1.0.FeatureRequiresLicense']);
    await refusedFor(agent, /no Advanced license is installed/);
    await installLicense(svc, 'Advanced');

    // 2. Time source.
    await refusedFor(agent, /time source is not configured/);
    const ntp = await svc.req('PATCH', '/redfish/v1/Managers/1/NetworkProtocol/', {
      body: { NTP: { ProtocolEnabled: true, NTPServers: ['ntp.example.com'] } },
    });
    assert.equal(ntp.status, 200, ntp.text);

    // 3. Signed controller certificate, through CSR and import.
    await refusedFor(agent, /self-signed/);
    assert.equal((await svc.get(HTTPS_CERT)).body.SelfSigned, true);
    const noCsr = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.ImportCertificate/`, {
      body: { Certificate: client.certPem },
    });
    assert.equal(noCsr.status, 400);
    assert.deepEqual(messageIds(noCsr.body), ['Vendor.1.0.CertificateSigningRequestMissing']);
    const gen = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.GenerateCSR/`, {
      body: { Action: 'VendorHttpsCert.GenerateCSR', CommonName: 'localhost', Country: 'US', OrgName: 'Test' },
    });
    assert.equal(gen.status, 200, gen.text);
    assert.match(gen.body.CSRString, /BEGIN CERTIFICATE REQUEST/);
    assert.equal((await svc.get(HTTPS_CERT)).body.CertificateSigningRequest, gen.body.CSRString);
    const mismatch = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.ImportCertificate/`, {
      body: { Certificate: client.certPem },
    });
    assert.equal(mismatch.status, 400);
    assert.deepEqual(messageIds(mismatch.body), ['Vendor.1.0.CertificateKeyMismatch']);
    const signed = await signCsr(gen.body.CSRString, ca, new Date(svc.clock.now() - DAY));
    const imported = await svc.req('POST', `${HTTPS_CERT}Actions/VendorHttpsCert.ImportCertificate/`, {
      body: { Action: 'VendorHttpsCert.ImportCertificate', Certificate: signed + ca.certPem },
    });
    assert.equal(imported.status, 200, imported.text);
    const info = (await svc.get(HTTPS_CERT)).body;
    assert.equal(info.SelfSigned, false);
    assert.equal(info.CertificateSigningRequest, null);
    const signedFp = new X509Certificate(signed).fingerprint256;
    assert.equal(info.X509CertificateInformation.Fingerprint, signedFp);
    assert.equal(await servedFingerprint(svc.port), signedFp);

    // 4. The switch.
    await refusedFor(agent, /certificate login is disabled/);
    assert.equal((await svc.req('PATCH', CERT_AUTH, { body: { CertificateLoginEnabled: true } })).status, 200);

    // 5. A trusted CA: bad PEM and non-CA certificates are refused.
    await refusedFor(agent, /no trusted CA certificate/);
    const importCa = (Certificate: string) =>
      svc.req('POST', `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`, {
        body: { Action: 'VendorCertAuth.ImportCACertificate', Certificate },
      });
    const badPem = await importCa('-----BEGIN CERTIFICATE-----\\nnot base64\\n-----END CERTIFICATE-----');
    assert.equal(badPem.status, 400);
    assert.deepEqual(messageIds(badPem.body), ['Vendor.1.0.CertificateInvalid']);
    assert.equal((await importCa('hello')).status, 400);
    const notCa = await importCa(client.certPem);
    assert.equal(notCa.status, 400);
    assert.match(notCa.body.error['@Message.ExtendedInfo'][0].Message, /not a CA certificate/);
    const okCa = await importCa(ca.certPem);
    assert.equal(okCa.status, 201, okCa.text);
    const cas = await svc.get(`${CERT_AUTH}CACertificates/`);
    assert.equal(cas.body.Members.length, 1);

    // 6. The chain must verify against an imported CA.
    await refusedFor(mtls(rogueClient), /not issued by an imported trusted CA/);
    // 7. Validity.
    await refusedFor(mtls(expiredClient), /outside its validity/);
    // 8. The mapping.
    await refusedFor(agent, /no UserCertificateMapping exists/);
    const map = await svc.req('POST', MAPPINGS, { body: { UserName: 'certuser', Fingerprint: client.certPem } });
    assert.equal(map.status, 201, map.text);
    assert.match(map.body.Fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.equal((await svc.req('POST', MAPPINGS, { body: { UserName: 'certuser', Fingerprint: client.certPem } })).status, 409);
    assert.equal((await svc.req('POST', MAPPINGS, { body: { UserName: 'nobody', Fingerprint: client.certPem } })).status, 400);
    assert.equal((await svc.req('POST', MAPPINGS, { body: { UserName: 'certuser', Fingerprint: 'garbage' } })).status, 400);
    assert.equal((await svc.get(MAPPINGS)).body.Members.length, 1);
    assert.equal((await readiness()).Ready, true);

    // Logged in as certuser (ReadOnly): reads work, account administration is refused.
    const ok = await call(agent, 'GET', '/redfish/v1/AccountService/');
    assert.equal(ok.status, 200, ok.text);
    const own = await call(agent, 'GET', map.body.Links.Account['@odata.id']);
    assert.equal(own.status, 200);
    assert.equal(own.body.UserName, 'certuser');
    const admin = await call(agent, 'PATCH', '/redfish/v1/AccountService/', {}, { MinPasswordLength: 9 });
    assert.equal(admin.status, 403);
  });

  it('lets explicit credentials decide when the certificate does not qualify', async () => {
    const r = await call(mtls(rogueClient), 'GET', '/redfish/v1/AccountService/', { authorization: basic('certuser', 'certuser-pass') });
    assert.equal(r.status, 200);
  });

  it('keeps CAs, mappings and the installed HTTPS certificate across a restart', async () => {
    await ensureReady();
    const before = await servedFingerprint(svc.port);
    for (const a of agents.splice(0)) await a.close();
    svc = await svc.restart();
    assert.equal(await servedFingerprint(svc.port), before);
    assert.equal((await svc.get(HTTPS_CERT)).body.SelfSigned, false);
    const r = await call(mtls(client), 'GET', '/redfish/v1/AccountService/');
    assert.equal(r.status, 200, r.text);
  });

  it('refuses again when the mapping, the CA or the license goes', async () => {
    await ensureReady();
    const agent = mtls(client);
    const mapping = (await svc.get(MAPPINGS)).body.Members[0]['@odata.id'];
    assert.equal((await svc.req('DELETE', mapping)).status, 200);
    await refusedFor(agent, /no UserCertificateMapping/);
    await svc.req('POST', MAPPINGS, { body: { UserName: 'certuser', Fingerprint: client.certPem } });
    assert.equal((await call(agent, 'GET', '/redfish/v1/AccountService/')).status, 200);
    // Deleting the account removes its mappings.
    const acct = (await svc.get(MAPPINGS)).body.Members[0]['@odata.id'];
    const account = (await svc.get(acct)).body.Links.Account['@odata.id'];
    assert.equal((await svc.req('DELETE', account)).status, 200);
    assert.equal((await svc.get(MAPPINGS)).body.Members.length, 0);
    const ca1 = (await svc.get(`${CERT_AUTH}CACertificates/`)).body.Members[0]['@odata.id'];
    assert.equal((await svc.req('DELETE', ca1)).status, 200);
    await refusedFor(agent, /no trusted CA certificate/);
    assert.equal((await svc.req('DELETE', '/redfish/v1/Managers/1/LicenseService/1/')).status, 200);
    await refusedFor(agent, /no Advanced license/);
  });
});
