// The other writable collections under conflicting requests in parallel:
// certificate mappings (one per fingerprint), trusted CAs (one per
// certificate), the Platform Key (at most one certificate), volumes (a drive
// in one volume), virtual media (one image per device), the license (one
// installed, one of those sent). Every 2xx write is visible afterwards.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { issueCertificate } from '../../src/platform/x509.js';
import { installLicense, issueTestLicense } from '../support/licenses.js';
import { ok, refusedAs, rounds, statuses } from '../support/race.js';
import { startTestService, type Response, type TestService } from '../support/service.js';

const MAPPINGS = '/redfish/v1/AccountService/UserCertificateMapping/';
const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const PK = '/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/PK/Certificates/';
const STORAGE = '/redfish/v1/Systems/1/Storage/DE00A000/';
const CD = '/redfish/v1/Managers/1/VirtualMedia/2/';
const LICENSES = '/redfish/v1/Managers/1/LicenseService/';

describe('other collections under concurrent writes', () => {
  let svc: TestService;
  let admin = { token: '' };
  let images: Server;
  let imageBase = '';

  before(async () => {
    svc = await startTestService();
    admin = { token: await svc.adminToken() };
    await installLicense(svc, 'Advanced');
    // Images take a few milliseconds to read, so inserts overlap.
    images = createServer((req, res) => {
      res.writeHead(200, { 'content-length': '65536' });
      if (req.method === 'HEAD') return res.end();
      setTimeout(() => res.end(Buffer.alloc(65536)), 3);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => images.close(resolve));
    await svc.close();
  });

  const req = (method: string, path: string, body?: unknown): Promise<Response> => svc.req(method, path, { auth: admin, body });
  const listed = async (collection: string): Promise<string[]> =>
    (await req('GET', collection)).body.Members.map((m: any) => m['@odata.id']);

  it('maps a certificate fingerprint to one account once', async () => {
    await rounds(svc, fc.integer({ min: 2, max: 5 }), async (count, fire, n) => {
      const Fingerprint = (n % 16).toString(16).repeat(64);
      const answers = await fire(
        Array.from({ length: count }, () => () => req('POST', MAPPINGS, { UserName: 'Administrator', Fingerprint })),
      );
      assert.equal(answers.filter(ok).length, 1, statuses(answers));
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.ResourceAlreadyExists']);
      const made = answers.find(ok) as Response;
      assert.deepEqual(await listed(MAPPINGS), [made.headers.location]);
      assert.equal((await req('DELETE', made.headers.location as string)).status, 200);
    });
  });

  it('trusts a CA certificate imported several times at once once', async () => {
    await rounds(svc, fc.integer({ min: 2, max: 5 }), async (count, fire, n) => {
      const ca = await issueCertificate({ subject: `CN=Race CA ${n}`, ca: true, notBefore: new Date(svc.clock.now() - 86_400_000) });
      const answers = await fire(
        Array.from(
          { length: count },
          () => () => req('POST', `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`, { Certificate: ca.certPem }),
        ),
      );
      assert.equal(answers.filter(ok).length, count, statuses(answers));
      const ids = new Set(answers.map((r) => r.body['@odata.id']));
      assert.equal(ids.size, 1, 'one CA, the same for every import');
      assert.deepEqual(await listed(`${CERT_AUTH}CACertificates/`), [...ids]);
      assert.equal((await req('DELETE', [...ids][0] as string)).status, 200);
    });
  });

  it('keeps at most one Platform Key certificate', async () => {
    await rounds(svc, fc.integer({ min: 2, max: 4 }), async (count, fire, n) => {
      for (const uri of await listed(PK)) assert.equal((await req('DELETE', uri)).status, 200);
      const pems = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          issueCertificate({ subject: `CN=Race PK ${n}.${i}`, ca: true, notBefore: new Date(Date.now() - 60_000) }),
        ),
      );
      const answers = await fire(pems.map((c) => () => req('POST', PK, { CertificateString: c.certPem, CertificateType: 'PEM' })));
      assert.equal(answers.filter(ok).length, 1, statuses(answers));
      assert.deepEqual(await listed(PK), [answers.find(ok)?.headers.location]);
    });
  });

  it('builds a drive into one volume only', async () => {
    const drive = (i: number) => ({ '@odata.id': `${STORAGE}Drives/${i}/` });
    await rounds(svc, fc.array(fc.integer({ min: 3, max: 5 }), { minLength: 2, maxLength: 4 }), async (drives, fire) => {
      const before = await listed(`${STORAGE}Volumes/`);
      const answers = await fire(
        drives.map((i) => () => req('POST', `${STORAGE}Volumes/`, { RAIDType: 'RAID0', Links: { Drives: [drive(i)] } })),
      );
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.ResourceInUse']);
      assert.equal(answers.filter(ok).length, new Set(drives).size, statuses(answers));
      const added = (await listed(`${STORAGE}Volumes/`)).filter((v) => !before.includes(v));
      assert.equal(added.length, new Set(drives).size);
      const used: string[] = [];
      for (const v of added) {
        used.push(...(await req('GET', v)).body.Links.Drives.map((d: any) => d['@odata.id']));
        // Still pending (no reset since): withdrawn at once.
        assert.equal((await req('DELETE', v)).status, 200);
      }
      assert.equal(new Set(used).size, used.length, `no drive in two volumes: ${used.join(', ')}`);
    });
  });

  it('connects one image to a device at a time', async () => {
    await rounds(svc, fc.integer({ min: 2, max: 4 }), async (count, fire, n) => {
      const answers = await fire(
        Array.from(
          { length: count },
          (_, i) => () => req('POST', `${CD}Actions/VirtualMedia.InsertMedia/`, { Image: `${imageBase}/r${n}-${i}.iso` }),
        ),
      );
      assert.equal(answers.filter(ok).length, 1, statuses(answers));
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.ResourceInUse']);
      const i = answers.findIndex(ok);
      assert.equal((await req('GET', CD)).body.Image, `${imageBase}/r${n}-${i}.iso`);
      assert.equal((await req('POST', `${CD}Actions/VirtualMedia.EjectMedia/`, {})).status, 200);
    });
  });

  it('installs one license of those sent at once', async () => {
    await rounds(svc, fc.integer({ min: 2, max: 4 }), async (count, fire) => {
      const keys = Array.from({ length: count }, () => issueTestLicense(svc, 'Advanced'));
      const answers = await fire(keys.map((LicenseKey) => () => req('POST', LICENSES, { LicenseKey })));
      assert.equal(answers.filter(ok).length, count, statuses(answers));
      const members = await listed(LICENSES);
      assert.equal(members.length, 1);
      const shown = (await req('GET', members[0] as string)).body.LicenseKey as string;
      assert.ok(
        keys.some((k) => k.trim().endsWith(shown.slice(-5))),
        `the installed key is one of those sent: ${shown}`,
      );
    });
  });
});
