import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ServiceEvent } from '../../../src/domain/events/bus.js';
import { issueCertificate } from '../../../src/platform/x509.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SB = '/redfish/v1/Systems/1/SecureBoot/';
const DBS = `${SB}SecureBootDatabases/`;

const TABLE: [string, string][] = [
  ['PK', 'Platform Key'],
  ['KEK', 'Key Exchange Key Database'],
  ['db', 'Authorized Signature Database'],
  ['dbx', 'Forbidden Signature Database'],
  ['dbt', 'Authorized Timestamp Signature Database'],
  ['dbr', 'Authorized Recovery Signature Database'],
  ['PKDefault', 'Default Platform Key'],
  ['KEKDefault', 'Default Key Exchange Key Database'],
  ['dbDefault', 'Default Authorized Signature Database'],
  ['dbxDefault', 'Default Forbidden Signature Database'],
  ['dbtDefault', 'Default Authorized Timestamp Signature Database'],
  ['dbrDefault', 'Default Authorized Recovery Signature Database'],
];

async function newPem(cn: string): Promise<string> {
  const c = await issueCertificate({
    subject: `CN=${cn}, O=Acme Corp, OU=Firmware Signing, L=Austin, ST=Texas, C=US, E=keys@acme.example`,
    ca: true,
    notBefore: new Date(Date.now() - 60_000),
  });
  return c.certPem;
}

const sha256 = (): string => createHash('sha256').update(randomBytes(32)).digest('hex');

describe('secure boot', () => {
  let svc: TestService;
  let events: ServiceEvent[] = [];
  let unsubscribe = () => {};
  /** Record the events published from now on. */
  const listen = () => {
    unsubscribe();
    events = [];
    unsubscribe = svc.running.services.events.subscribe((e) => events.push(e));
  };
  const ids = (type: string) => events.filter((e) => e.message.MessageId.endsWith(`.${type}`)).map((e) => e.origin);
  const members = async (uri: string): Promise<string[]> => {
    const r = await svc.get(uri);
    assert.equal(r.status, 200, r.text);
    return r.body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
  };
  const enroll = (db: string, pem: string, extra: Record<string, unknown> = {}) =>
    svc.req('POST', `${DBS}${db}/Certificates/`, { body: { CertificateString: pem, CertificateType: 'PEM', ...extra } });
  const fingerprints = async (db: string): Promise<string[]> =>
    Promise.all((await members(`${DBS}${db}/Certificates/`)).map(async (u) => (await svc.get(u)).body.Fingerprint));
  /** A real boot of the simulated server through ComputerSystem.Reset: power on, POST (hooks), OS. */
  const boot = async () => {
    const server = svc.running.services.server;
    const ResetType = server.powerState() === 'Off' ? 'On' : 'ForceRestart';
    const r = await svc.req('POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/', { body: { ResetType } });
    assert.equal(r.status, 200, r.text);
    for (let i = 0; i < 20 && server.snapshot().phase !== 'OsRunning'; i++) {
      await svc.clock.advance(1000);
      await server.postSettled();
    }
    assert.equal(server.snapshot().phase, 'OsRunning');
  };

  before(async () => {
    svc = await startTestService();
    // The administrator's session exists before any test listens for ResourceCreated events.
    await svc.adminToken();
  });
  after(() => svc.close());

  describe('1. SecureBoot resource', () => {
    it('starts with the default keys enrolled (User Mode) and Secure Boot off', async () => {
      const r = await svc.get(SB);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['@odata.type'], '#SecureBoot.v1_1_2.SecureBoot');
      assert.equal(r.body['@odata.id'], SB);
      assert.equal(r.body.SecureBootEnable, false);
      assert.equal(r.body.SecureBootCurrentBoot, 'Disabled');
      assert.equal(r.body.SecureBootMode, 'UserMode');
      assert.deepEqual(r.body.SecureBootDatabases, { '@odata.id': DBS });
      const action = r.body.Actions['#SecureBoot.ResetKeys'];
      assert.equal(action.target, `${SB}Actions/SecureBoot.ResetKeys/`);
      assert.deepEqual(action['ResetKeysType@Redfish.AllowableValues'], ['ResetAllKeysToDefault', 'DeleteAllKeys', 'DeletePK']);
      assert.match(r.headers.allow ?? '', /PATCH/);
    });

    it('applies SecureBootEnable at the next boot, not before', async () => {
      listen();
      const p = await svc.req('PATCH', SB, { body: { SecureBootEnable: true } });
      assert.equal(p.status, 200, p.text);
      assert.deepEqual(messageIds(p.body), ['Vendor.1.0.SystemResetRequired']);
      let r = await svc.get(SB);
      assert.equal(r.body.SecureBootEnable, true);
      assert.equal(r.body.SecureBootCurrentBoot, 'Disabled');
      assert.deepEqual(ids('ResourceChanged'), [SB]);

      await boot();
      r = await svc.get(SB);
      assert.equal(r.body.SecureBootCurrentBoot, 'Enabled');

      await svc.req('PATCH', SB, { body: { SecureBootEnable: false } });
      assert.equal((await svc.get(SB)).body.SecureBootCurrentBoot, 'Enabled');
      await boot();
      assert.equal((await svc.get(SB)).body.SecureBootCurrentBoot, 'Disabled');
    });

    it('refuses to enable while PK is empty, and DeletePK disables it (Setup Mode)', async () => {
      assert.equal((await svc.req('PATCH', SB, { body: { SecureBootEnable: true } })).status, 200);
      const del = await svc.req('POST', `${SB}Actions/SecureBoot.ResetKeys/`, { body: { ResetKeysType: 'DeletePK' } });
      assert.equal(del.status, 200, del.text);
      let r = await svc.get(SB);
      assert.equal(r.body.SecureBootMode, 'SetupMode');
      assert.equal(r.body.SecureBootEnable, false, 'the rule: no Secure Boot without a PK');
      assert.deepEqual(await members(`${DBS}PK/Certificates/`), []);
      assert.equal((await members(`${DBS}KEK/Certificates/`)).length, 1, 'DeletePK leaves KEK alone');

      const p = await svc.req('PATCH', SB, { body: { SecureBootEnable: true } });
      assert.equal(p.status, 400);
      assert.deepEqual(messageIds(p.body), ['Vendor.1.0.SecureBootPlatformKeyRequired']);
      assert.match(p.body.error['@Message.ExtendedInfo'][0].Message, /Platform Key/);
      r = await svc.get(SB);
      assert.equal(r.body.SecureBootEnable, false);

      // Enrolling a PK leaves Setup Mode; then enabling works.
      const pk = await enroll('PK', await newPem('Owner PK'));
      assert.equal(pk.status, 201, pk.text);
      assert.equal((await svc.get(SB)).body.SecureBootMode, 'UserMode');
      assert.equal((await svc.req('PATCH', SB, { body: { SecureBootEnable: true } })).status, 200);

      // Deleting the PK certificate itself drops the setting too.
      assert.equal((await svc.req('DELETE', pk.headers.location as string)).status, 200);
      r = await svc.get(SB);
      assert.equal(r.body.SecureBootMode, 'SetupMode');
      assert.equal(r.body.SecureBootEnable, false);
      await boot();
      assert.equal((await svc.get(SB)).body.SecureBootCurrentBoot, 'Disabled');
    });

    it('rejects bad PATCH and action bodies', async () => {
      let r = await svc.req('PATCH', SB, { body: { SecureBootEnable: 'yes' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueTypeError$/);
      r = await svc.req('PATCH', SB, { body: { SecureBootMode: 'UserMode' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyNotWritable$/);
      r = await svc.req('POST', `${SB}Actions/SecureBoot.ResetKeys/`, { body: { ResetKeysType: 'Everything' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /ActionParameterValueNotInList$/);
      r = await svc.req('POST', `${SB}Actions/SecureBoot.ResetKeys/`, { body: {} });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /ActionParameterMissing$/);
      assert.equal((await svc.get('/redfish/v1/Systems/2/SecureBoot/')).status, 404);
    });
  });

  describe('2. the twelve databases', () => {
    it('lists exactly the twelve databases of the table with their names', async () => {
      const r = await svc.get(DBS);
      assert.equal(r.body['@odata.type'], '#SecureBootDatabaseCollection.SecureBootDatabaseCollection');
      assert.equal(r.body['Members@odata.count'], 12);
      assert.deepEqual(
        await members(DBS),
        TABLE.map(([id]) => `${DBS}${id}/`),
      );
      for (const [id, name] of TABLE) {
        const d = await svc.get(`${DBS}${id}/`);
        assert.equal(d.status, 200);
        assert.equal(d.body['@odata.type'], '#SecureBootDatabase.v1_0_3.SecureBootDatabase');
        assert.equal(d.body.Id, id);
        assert.equal(d.body.DatabaseId, id);
        assert.equal(d.body.Name, name);
        assert.equal(typeof d.body.Description, 'string');
        assert.deepEqual(d.body.Certificates, { '@odata.id': `${DBS}${id}/Certificates/` });
        assert.deepEqual(d.body.Signatures, { '@odata.id': `${DBS}${id}/Signatures/` });
        const action = d.body.Actions['#SecureBootDatabase.ResetKeys'];
        assert.equal(action.target, `${DBS}${id}/Actions/SecureBootDatabase.ResetKeys/`);
        const expected = id.endsWith('Default') ? ['ResetAllKeysToDefault'] : ['ResetAllKeysToDefault', 'DeleteAllKeys'];
        assert.deepEqual(action['ResetKeysType@Redfish.AllowableValues'], expected);
      }
      assert.equal((await svc.get(`${DBS}pk/`)).status, 404, 'database ids are case-sensitive');
      assert.equal((await svc.get(`${DBS}dbz/`)).status, 404);
    });

    it('answers ?$select=Actions with the action list only', async () => {
      const r = await svc.get(`${DBS}dbx/?$select=Actions`);
      assert.equal(r.status, 200);
      assert.deepEqual(
        Object.keys(r.body).filter((k) => !k.startsWith('@odata')),
        ['Actions'],
      );
      assert.deepEqual(r.body.Actions, {
        '#SecureBootDatabase.ResetKeys': {
          target: `${DBS}dbx/Actions/SecureBootDatabase.ResetKeys/`,
          '@Redfish.ActionInfo': `${DBS}dbx/ResetKeysActionInfo/`,
          'ResetKeysType@Redfish.AllowableValues': ['ResetAllKeysToDefault', 'DeleteAllKeys'],
        },
      });
    });

    it('resets one database: DeleteAllKeys empties it, ResetAllKeysToDefault restores it', async () => {
      const target = `${DBS}db/Actions/SecureBootDatabase.ResetKeys/`;
      listen();
      assert.equal((await svc.req('POST', target, { body: { ResetKeysType: 'DeleteAllKeys' } })).status, 200);
      assert.deepEqual(await members(`${DBS}db/Certificates/`), []);
      assert.deepEqual(ids('ResourceChanged'), [`${DBS}db/`]);
      assert.equal((await svc.req('POST', target, { body: { ResetKeysType: 'ResetAllKeysToDefault' } })).status, 200);
      assert.deepEqual(await fingerprints('db'), await fingerprints('dbDefault'));
      assert.equal((await members(`${DBS}KEK/Certificates/`)).length, 1, 'other databases untouched');

      const bad = await svc.req('POST', `${DBS}dbDefault/Actions/SecureBootDatabase.ResetKeys/`, {
        body: { ResetKeysType: 'DeleteAllKeys' },
      });
      assert.equal(bad.status, 400);
      assert.match(messageIds(bad.body)[0] ?? '', /ActionParameterValueNotInList$/);
      assert.equal((await members(`${DBS}dbDefault/Certificates/`)).length, 2);
      const noop = await svc.req('POST', `${DBS}dbDefault/Actions/SecureBootDatabase.ResetKeys/`, {
        body: { ResetKeysType: 'ResetAllKeysToDefault' },
      });
      assert.equal(noop.status, 200);
      assert.equal(
        (await svc.req('POST', `${DBS}nope/Actions/SecureBootDatabase.ResetKeys/`, { body: { ResetKeysType: 'DeleteAllKeys' } })).status,
        404,
      );
    });
  });

  describe('3. certificates', () => {
    it('enrolls a PEM certificate: 201, Location, the standard Certificate fields', async () => {
      listen();
      const pem = await newPem('Acme Signing CA');
      const r = await enroll('db', pem.replace(/\n/g, '\r\n'));
      assert.equal(r.status, 201, r.text);
      const location = r.headers.location as string;
      assert.match(location, new RegExp(`^${DBS}db/Certificates/\\d+/$`));
      assert.equal(r.body['@odata.id'], location);
      const g = await svc.get(location);
      assert.equal(g.status, 200);
      const c = g.body;
      assert.equal(c['@odata.type'], '#Certificate.v1_11_0.Certificate');
      assert.equal(c.CertificateString, pem);
      assert.equal(c.CertificateType, 'PEM');
      assert.deepEqual(c.Subject, {
        CommonName: 'Acme Signing CA',
        Organization: 'Acme Corp',
        OrganizationalUnit: 'Firmware Signing',
        City: 'Austin',
        State: 'Texas',
        Country: 'US',
        Email: 'keys@acme.example',
        DisplayString: 'CN=Acme Signing CA, OU=Firmware Signing, O=Acme Corp, L=Austin, ST=Texas, C=US',
      });
      assert.deepEqual(c.Issuer, c.Subject, 'self-signed');
      assert.deepEqual(c.CertificateUsageTypes, ['BIOS']);
      assert.match(c.ValidNotBefore, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.ok(Date.parse(c.ValidNotAfter) > Date.parse(c.ValidNotBefore));
      assert.match(c.SerialNumber, /^([0-9A-F]{2}:)*[0-9A-F]{2}$/);
      const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
      const fp = createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)?.join(':');
      assert.equal(c.Fingerprint, fp);
      assert.equal(c.FingerprintHashAlgorithm, 'TPM_ALG_SHA256');
      assert.equal(c.SignatureAlgorithm, 'ecdsa-with-SHA256');
      assert.match(c.UefiSignatureOwner, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.deepEqual(c.KeyUsage, ['DigitalSignature', 'KeyCertSign', 'CRLSigning']);
      assert.ok((await members(`${DBS}db/Certificates/`)).includes(location));
      assert.deepEqual(ids('ResourceCreated'), [location]);

      const owner = '77fa9abd-0359-4d32-bd60-28f4e78f784b';
      const withOwner = await enroll('KEK', await newPem('Acme KEK'), { UefiSignatureOwner: owner });
      assert.equal(withOwner.status, 201);
      assert.equal(withOwner.body.UefiSignatureOwner, owner);
    });

    it('says how to enroll on the collection', async () => {
      const r = await svc.get(`${DBS}KEK/Certificates/`);
      assert.equal(r.body['@odata.type'], '#CertificateCollection.CertificateCollection');
      assert.deepEqual(r.body['@Redfish.SupportedCertificates'], ['PEM']);
      assert.match(r.headers.allow ?? '', /POST/);
    });

    it('rejects PEM that is not exactly one valid certificate, naming CertificateString', async () => {
      const pem = await newPem('Bad Input');
      const other = await newPem('Other');
      const cases: [string, string, RegExp][] = [
        ['garbage', 'hello world', /no -----BEGIN CERTIFICATE-----/],
        ['empty', '', /empty/],
        ['truncated (no END line)', pem.slice(0, 300), /truncated/],
        [
          'a line missing',
          pem
            .split('\n')
            .filter((_, i) => i !== 3)
            .join('\n'),
          /truncated/,
        ],
        ['corrupted base64', pem.replace(/\n[A-Za-z]/, '\n*'), /base64/],
        ['two certificates', pem + other, /2 certificates/],
        ['certificate and key', pem + '-----BEGIN PRIVATE KEY-----\nMIGHAgEA\n-----END PRIVATE KEY-----\n', /PRIVATE KEY/],
        ['escaped twice (literal backslash n)', pem.replace(/\n/g, '\\n'), /backslash and n/],
        ['not a certificate', '-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n', /not a valid DER|X\.509/],
      ];
      for (const [what, text, reason] of cases) {
        const r = await enroll('db', text);
        assert.equal(r.status, 400, what);
        const infos = r.body.error['@Message.ExtendedInfo'];
        assert.match(infos[0].MessageId, /PropertyValueFormatError$/, what);
        assert.deepEqual(infos[0].RelatedProperties, ['#/CertificateString'], what);
        assert.equal(infos[1].MessageId, 'Vendor.1.0.CertificateInvalid', what);
        assert.match(infos[1].Message, reason, what);
      }
    });

    it('answers a raw line break inside the JSON string with a clear 400', async () => {
      const pem = await newPem('Raw Newlines');
      const raw = `{"CertificateString": "${pem}", "CertificateType": "PEM"}`;
      assert.ok(raw.includes('\n'));
      const r = await svc.req('POST', `${DBS}db/Certificates/`, { rawBody: raw, headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /MalformedJSON$/);
      const ok = await svc.req('POST', `${DBS}db/Certificates/`, {
        rawBody: JSON.stringify({ CertificateString: pem, CertificateType: 'PEM' }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(ok.status, 201, 'the same certificate with \\n escapes is fine');
    });

    it('rejects an unknown CertificateType and missing properties', async () => {
      const pem = await newPem('Types');
      let r = await enroll('db', pem, { CertificateType: 'DER' });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueNotInList$/);
      r = await enroll('db', pem, { CertificateType: 'PKCS7' });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueNotInList$/);
      r = await svc.req('POST', `${DBS}db/Certificates/`, { body: { CertificateString: pem } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyMissing$/);
      r = await enroll('db', pem, { UefiSignatureOwner: 'not-a-guid' });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueFormatError$/);
    });

    it('refuses the same certificate twice in one database (400 ResourceAlreadyExists), not across databases', async () => {
      const pem = await newPem('Twice');
      assert.equal((await enroll('dbt', pem)).status, 201);
      const before = await members(`${DBS}dbt/Certificates/`);
      const r = await enroll('dbt', pem);
      assert.equal(r.status, 400);
      assert.deepEqual(
        messageIds(r.body).map((m) => m.replace(/^Base\.\d+\.\d+\./, 'Base.')),
        ['Vendor.1.0.SecureBootEntryExists', 'Base.ResourceAlreadyExists'],
      );
      assert.deepEqual(await members(`${DBS}dbt/Certificates/`), before);
      assert.equal((await enroll('dbr', pem)).status, 201);
    });

    it('holds at most one certificate in PK', async () => {
      const pks = await members(`${DBS}PK/Certificates/`);
      if (pks.length === 0) assert.equal((await enroll('PK', await newPem('First PK'))).status, 201);
      const r = await enroll('PK', await newPem('Second PK'));
      assert.equal(r.status, 400);
      assert.deepEqual(
        messageIds(r.body).map((m) => m.replace(/^Base\.\d+\.\d+\./, 'Base.')),
        ['Base.CreateLimitReachedForResource', 'Vendor.1.0.SecureBootDatabaseLimit'],
      );
      assert.equal((await members(`${DBS}PK/Certificates/`)).length, 1);
    });

    it('answers writes to a ...Default database with 405 and Allow: GET', async () => {
      const pem = await newPem('Default Write');
      for (const db of ['PKDefault', 'KEKDefault', 'dbDefault', 'dbxDefault', 'dbtDefault', 'dbrDefault']) {
        const r = await enroll(db, pem);
        assert.equal(r.status, 405, db);
        assert.equal(r.headers.allow, 'GET, HEAD', db);
        const g = await svc.get(`${DBS}${db}/Certificates/`);
        assert.equal(g.headers.allow, 'GET, HEAD', db);
        assert.equal(g.body['@Redfish.SupportedCertificates'], undefined);
      }
      const alias = await svc.req('POST', `${DBS}dbDefault/Certificates/Members/`, {
        body: { CertificateString: pem, CertificateType: 'PEM' },
      });
      assert.equal(alias.status, 405);
      const [first] = await members(`${DBS}dbDefault/Certificates/`);
      const d = await svc.req('DELETE', first as string);
      assert.equal(d.status, 405);
      assert.equal(d.headers.allow, 'GET, HEAD');
      assert.equal((await svc.get(first as string)).status, 200);
    });

    it('deletes a certificate from a writable database; unknown ids are 404', async () => {
      const r = await enroll('dbx', await newPem('Revoked Vendor'));
      const uri = r.headers.location as string;
      listen();
      const d = await svc.req('DELETE', uri);
      assert.equal(d.status, 200);
      assert.match(messageIds(d.body)[0] ?? '', /Success$/);
      assert.equal((await svc.get(uri)).status, 404);
      assert.equal((await svc.req('DELETE', uri)).status, 404);
      assert.deepEqual(ids('ResourceRemoved'), [uri]);
      assert.equal((await svc.get(`${DBS}db/Certificates/999/`)).status, 404);
      assert.equal((await enroll('nope', await newPem('Nowhere'))).status, 404);
      assert.equal((await svc.get('/redfish/v1/Systems/9/SecureBoot/SecureBootDatabases/db/Certificates/')).status, 404);
    });

    it('needs HostBIOSConfigPriv to write and Login to read', async () => {
      const pem = await newPem('Privileges');
      const created = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
        body: { UserName: 'sbreader', Password: 'Reader-Pass-123', RoleId: 'ReadOnly' },
      });
      assert.equal(created.status, 201, created.text);
      const auth = { user: 'sbreader', password: 'Reader-Pass-123' };
      assert.equal((await svc.req('GET', `${DBS}db/Certificates/`, { auth })).status, 200);
      assert.equal(
        (await svc.req('POST', `${DBS}db/Certificates/`, { auth, body: { CertificateString: pem, CertificateType: 'PEM' } })).status,
        403,
      );
      assert.equal((await svc.req('PATCH', SB, { auth, body: { SecureBootEnable: false } })).status, 403);
      assert.equal(
        (await svc.req('POST', `${SB}Actions/SecureBoot.ResetKeys/`, { auth, body: { ResetKeysType: 'DeletePK' } })).status,
        403,
      );
      assert.equal((await svc.get(`${DBS}db/Certificates/`, { auth: 'none' })).status, 401);
    });
  });

  describe('4. signatures', () => {
    it('serves the SHA-256 signatures of dbxDefault', async () => {
      const list = await members(`${DBS}dbxDefault/Signatures/`);
      assert.ok(list.length >= 4);
      const s = (await svc.get(list[0] as string)).body;
      assert.equal(s['@odata.type'], '#Signature.v1_0_3.Signature');
      assert.match(s.SignatureString, /^[0-9A-F]{64}$/);
      assert.equal(s.SignatureTypeRegistry, 'UEFI');
      assert.equal(s.SignatureType, 'EFI_CERT_SHA256_GUID');
      assert.match(s.UefiSignatureOwner, /^[0-9a-f-]{36}$/);
      const col = await svc.get(`${DBS}dbxDefault/Signatures/`);
      assert.equal(col.body['@odata.type'], '#SignatureCollection.SignatureCollection');
      assert.equal(col.headers.allow, 'GET, HEAD');
    });

    it('adds SHA-256 signatures to db, dbx, dbt and dbr, and deletes them', async () => {
      for (const db of ['db', 'dbx', 'dbt', 'dbr']) {
        const hash = sha256();
        listen();
        const r = await svc.req('POST', `${DBS}${db}/Signatures/`, {
          body: { SignatureString: hash, SignatureTypeRegistry: 'UEFI', SignatureType: 'EFI_CERT_SHA256_GUID' },
        });
        assert.equal(r.status, 201, `${db}: ${r.text}`);
        const uri = r.headers.location as string;
        assert.match(uri, new RegExp(`^${DBS}${db}/Signatures/\\d+/$`));
        const g = (await svc.get(uri)).body;
        assert.equal(g.SignatureString, hash.toUpperCase());
        assert.equal(g.SignatureType, 'EFI_CERT_SHA256_GUID');
        assert.deepEqual(ids('ResourceCreated'), [uri]);

        const dup = await svc.req('POST', `${DBS}${db}/Signatures/`, {
          body: { SignatureString: hash.toUpperCase(), SignatureTypeRegistry: 'UEFI', SignatureType: 'EFI_CERT_SHA256_GUID' },
        });
        assert.equal(dup.status, 400, `${db} duplicate`);
        assert.equal(messageIds(dup.body)[0], 'Vendor.1.0.SecureBootEntryExists');

        assert.equal((await svc.req('DELETE', uri)).status, 200);
        assert.equal((await svc.get(uri)).status, 404);
        assert.deepEqual(ids('ResourceRemoved'), [uri]);
      }
    });

    it('refuses signatures in PK and KEK (no POST there: Allow says so), malformed hashes and other types', async () => {
      const body = { SignatureString: sha256(), SignatureTypeRegistry: 'UEFI', SignatureType: 'EFI_CERT_SHA256_GUID' };
      for (const db of ['PK', 'KEK', 'PKDefault', 'KEKDefault']) {
        assert.equal((await svc.get(`${DBS}${db}/Signatures/`)).headers.allow, 'GET, HEAD', db);
        const r = await svc.req('POST', `${DBS}${db}/Signatures/`, { body });
        assert.equal(r.status, 405, db);
        assert.equal(r.headers.allow, 'GET, HEAD', db);
        assert.deepEqual(messageIds(r.body), ['Vendor.1.0.MethodNotAllowed']);
      }
      for (const db of ['db', 'dbx', 'dbt', 'dbr'])
        assert.equal((await svc.get(`${DBS}${db}/Signatures/`)).headers.allow, 'GET, HEAD, POST', db);
      let r = await svc.req('POST', `${DBS}db/Signatures/`, { body: { ...body, SignatureString: 'abc123' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueFormatError$/);
      r = await svc.req('POST', `${DBS}db/Signatures/`, { body: { ...body, SignatureType: 'EFI_CERT_X509_GUID' } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyValueNotInList$/);
      r = await svc.req('POST', `${DBS}db/Signatures/`, { body: { SignatureString: body.SignatureString } });
      assert.equal(r.status, 400);
      assert.match(messageIds(r.body)[0] ?? '', /PropertyMissing$/);
      r = await svc.req('POST', `${DBS}dbxDefault/Signatures/`, { body });
      assert.equal(r.status, 405);
      const [first] = await members(`${DBS}dbxDefault/Signatures/`);
      assert.equal((await svc.req('DELETE', first as string)).status, 405);
    });
  });

  describe('5. platform defaults', () => {
    it('ships realistic vendor keys in the ...Default databases', async () => {
      const subject = async (db: string) =>
        Promise.all((await members(`${DBS}${db}/Certificates/`)).map(async (u) => (await svc.get(u)).body));
      const [pk] = await subject('PKDefault');
      assert.equal(pk.Subject.CommonName, 'Vendor Platform Key');
      assert.equal(pk.Subject.Organization, 'Vendor');
      assert.equal(pk.SignatureAlgorithm, 'sha256WithRSAEncryption');
      assert.equal(pk.UefiSignatureOwner, '5d3c7a5e-8f4b-4e2a-9c61-0b8e2f6d4a17');
      assert.deepEqual(
        (await subject('KEKDefault')).map((c) => c.Subject.CommonName),
        ['Vendor KEK CA'],
      );
      const db = await subject('dbDefault');
      assert.deepEqual(
        db.map((c) => c.Subject.CommonName),
        ['Vendor UEFI CA 2026', 'Vendor Production PCA 2026'],
      );
      assert.ok(db.every((c) => c.Issuer.CommonName === 'Vendor Root Certificate Authority 2026'));
      assert.equal((await members(`${DBS}dbxDefault/Signatures/`)).length, 8);
      assert.deepEqual(await members(`${DBS}dbtDefault/Certificates/`), []);
    });

    it('DeleteAllKeys empties every user database; ResetAllKeysToDefault copies the defaults back', async () => {
      const action = `${SB}Actions/SecureBoot.ResetKeys/`;
      listen();
      assert.equal((await svc.req('POST', action, { body: { ResetKeysType: 'DeleteAllKeys' } })).status, 200);
      for (const db of ['PK', 'KEK', 'db', 'dbx', 'dbt', 'dbr']) {
        assert.deepEqual(await members(`${DBS}${db}/Certificates/`), [], db);
        assert.deepEqual(await members(`${DBS}${db}/Signatures/`), [], db);
      }
      assert.equal((await svc.get(SB)).body.SecureBootMode, 'SetupMode');
      assert.equal((await members(`${DBS}PKDefault/Certificates/`)).length, 1, 'defaults stay');
      assert.deepEqual(
        new Set(ids('ResourceChanged')),
        new Set([SB, ...['PK', 'KEK', 'db', 'dbx', 'dbt', 'dbr'].map((d) => `${DBS}${d}/`)]),
      );

      assert.equal((await svc.req('POST', action, { body: { ResetKeysType: 'ResetAllKeysToDefault' } })).status, 200);
      for (const db of ['PK', 'KEK', 'db', 'dbx', 'dbt', 'dbr']) {
        assert.deepEqual(await fingerprints(db), await fingerprints(`${db}Default`), db);
        const sigs = async (d: string) =>
          Promise.all((await members(`${DBS}${d}/Signatures/`)).map(async (u) => (await svc.get(u)).body.SignatureString));
        assert.deepEqual(await sigs(db), await sigs(`${db}Default`), db);
      }
      assert.equal((await svc.get(SB)).body.SecureBootMode, 'UserMode');
    });
  });

  describe('6. persistence', () => {
    it('keeps enrolled entries, the setting and the last boot across a restart', async () => {
      const pem = await newPem('Survives Restart');
      const c = await enroll('db', pem);
      assert.equal(c.status, 201);
      const s = await svc.req('POST', `${DBS}dbr/Signatures/`, {
        body: { SignatureString: sha256(), SignatureTypeRegistry: 'UEFI', SignatureType: 'EFI_CERT_SHA256_GUID' },
      });
      assert.equal(s.status, 201);
      assert.equal((await svc.req('PATCH', SB, { body: { SecureBootEnable: true } })).status, 200);
      await boot();
      const before = {
        sb: (await svc.get(SB)).body,
        db: await members(`${DBS}db/Certificates/`),
        defaults: await fingerprints('PKDefault'),
      };
      svc = await svc.restart();
      const r = await svc.get(SB);
      assert.equal(r.body.SecureBootEnable, true);
      assert.equal(r.body.SecureBootCurrentBoot, 'Enabled');
      assert.equal(r.body['@odata.etag'], before.sb['@odata.etag']);
      assert.deepEqual(await members(`${DBS}db/Certificates/`), before.db);
      assert.equal((await svc.get(c.headers.location as string)).body.CertificateString, pem);
      assert.equal((await svc.get(s.headers.location as string)).status, 200);
      assert.deepEqual(await fingerprints('PKDefault'), before.defaults, 'defaults are generated once');
      // Ids are never reused after a delete.
      assert.equal((await svc.req('DELETE', c.headers.location as string)).status, 200);
      const again = await enroll('db', pem);
      assert.notEqual(again.headers.location, c.headers.location);
    });
  });
});
