// Issue 3, point 4 (LicenseService) and point 5 (license keys never shown).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ensureVendorLicenseKey, issueLicenseKey, verifyLicenseKey } from '../../../src/domain/licensing/license-keys.js';
import { generateKeyPairSync } from 'node:crypto';
import { issueTestLicense } from '../../support/licenses.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const LS = '/redfish/v1/Managers/1/LicenseService/';

describe('LicenseService', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('starts with no license: an empty collection and tier None', async () => {
    const r = await svc.get(LS);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#VendorLicenseCollection.VendorLicenseCollection');
    assert.deepEqual(r.body.Members, []);
    assert.equal(svc.running.services.licenseTier.tier(), 'None');
    assert.equal((await svc.get('/redfish/v1/Managers/2/LicenseService/')).status, 404);
  });

  it('refuses malformed, forged and expired keys with 400 and a clear message, never echoing the key', async () => {
    const garbage = 'NOT-A-LICENSE-KEY-12345';
    const bad = await svc.req('POST', LS, { body: { LicenseKey: garbage } });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Vendor.1.0.LicenseKeyInvalid']);
    assert.ok(!bad.text.includes(garbage));

    // Signed by another vendor key: the signature does not verify.
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = issueLicenseKey(privateKey, {
      tier: 'PremiumSecurity',
      licensee: 'Mallory',
      serial: 'X',
      issued: '2026-01-01T00:00:00Z',
    });
    const f = await svc.req('POST', LS, { body: { LicenseKey: forged } });
    assert.equal(f.status, 400);
    assert.deepEqual(messageIds(f.body), ['Vendor.1.0.LicenseKeyInvalid']);
    assert.match(f.body.error['@Message.ExtendedInfo'][0].Message, /signature/);

    // A genuine key with a tampered payload.
    const genuine = issueTestLicense(svc, 'Standard');
    const [prefix, , sig] = genuine.split('.');
    const tampered = `${prefix}.${Buffer.from(JSON.stringify({ tier: 'PremiumSecurity', licensee: 'x', serial: 'y', issued: '2026-01-01T00:00:00Z' })).toString('base64url')}.${sig}`;
    assert.equal((await svc.req('POST', LS, { body: { LicenseKey: tampered } })).status, 400);

    const expired = issueTestLicense(svc, 'Advanced', { expires: '2026-01-01T00:00:00Z' });
    const e = await svc.req('POST', LS, { body: { LicenseKey: expired } });
    assert.equal(e.status, 400);
    assert.deepEqual(messageIds(e.body), ['Vendor.1.0.LicenseKeyExpired']);
    assert.ok(!e.text.includes(expired));

    const typed = await svc.req('POST', LS, { body: { LicenseKey: 12345 } });
    assert.equal(typed.status, 400);
    const missing = await svc.req('POST', LS, { body: {} });
    assert.equal(missing.status, 400);
    assert.equal(svc.running.services.licenseTier.tier(), 'None');
  });

  it('installs a genuine key (201), shows it masked, answers ?only with the license, and persists it', async () => {
    const key = issueTestLicense(svc, 'Advanced', { licensee: 'ACME Corp' });
    const r = await svc.req('POST', LS, { body: { LicenseKey: key } });
    assert.equal(r.status, 201);
    assert.equal(r.headers.location, `${LS}1/`);
    assert.equal(r.body.LicenseTier, 'Advanced');
    assert.equal(r.body.Licensee, 'ACME Corp');
    assert.equal(r.body.LicenseKey, `VND1-XXXXX-XXXXX-XXXXX-${key.slice(-5)}`);
    assert.deepEqual(r.body.Features, ['CertificateLogin']);
    assert.ok(!r.text.includes(key.split('.')[1] as string));
    assert.equal(svc.running.services.licenseTier.tier(), 'Advanced');

    const only = await svc.get(`${LS}?only`);
    assert.equal(only.status, 200);
    assert.equal(only.body['@odata.id'], `${LS}1/`);
    assert.equal(only.body.LicenseTier, 'Advanced');

    svc = await svc.restart();
    const after = await svc.get(`${LS}1/`);
    assert.equal(after.status, 200);
    assert.equal(after.body.LicenseTier, 'Advanced');
    assert.ok(!after.text.includes(key));
    assert.equal(svc.running.services.licenseTier.tier(), 'Advanced');
  });

  it('replaces the installed license with a new key, and counts an expiring one only until it expires', async () => {
    const expires = new Date(svc.clock.now() + 86_400_000).toISOString();
    const r = await svc.req('POST', LS, { body: { LicenseKey: issueTestLicense(svc, 'PremiumSecurity', { expires }) } });
    assert.equal(r.status, 201);
    assert.equal((await svc.get(LS)).body.Members.length, 1);
    assert.equal(svc.running.services.licenseTier.tier(), 'PremiumSecurity');
    assert.equal(r.body.LicenseType, 'Subscription');
    await svc.clock.advance(86_400_000 + 1000);
    assert.equal(svc.running.services.licenseTier.tier(), 'None');
    // The admin session timed out meanwhile: Basic from here on.
    const got = await svc.get(`${LS}1/`, { auth: 'basic' });
    assert.equal(got.body.Expired, true);
    assert.equal(got.body.Status.State, 'Disabled');
  });

  it('deletes the license (Administrator only)', async () => {
    // A license to delete: the one the tests above installed, or one installed here.
    if ((await svc.get(`${LS}1/`, { auth: 'basic' })).status === 404) {
      assert.equal((await svc.req('POST', LS, { body: { LicenseKey: issueTestLicense(svc, 'Advanced') }, auth: 'basic' })).status, 201);
    }
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'lic-op', Password: 'lic-op-password', RoleId: 'Operator' },
      auth: 'basic',
    });
    const op = { user: 'lic-op', password: 'lic-op-password' };
    assert.equal((await svc.req('POST', LS, { body: { LicenseKey: issueTestLicense(svc, 'Advanced') }, auth: op })).status, 403);
    assert.equal((await svc.req('DELETE', `${LS}1/`, { auth: op })).status, 403);
    assert.equal((await svc.get(`${LS}1/`, { auth: op })).status, 200);
    assert.equal((await svc.req('DELETE', `${LS}1/`, { auth: 'basic' })).status, 200);
    assert.equal((await svc.get(`${LS}1/`, { auth: 'basic' })).status, 404);
    assert.equal((await svc.req('DELETE', `${LS}1/`, { auth: 'basic' })).status, 404);
    assert.equal(svc.running.services.licenseTier.tier(), 'None');
  });
});

describe('license CLI', () => {
  it('issues a key that the data dir vendor key verifies, and rejects an unknown tier', async () => {
    const svc = await startTestService();
    try {
      const run = promisify(execFile);
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli.ts',
          'license',
          'issue',
          '--data-dir',
          svc.dataDir,
          '--tier',
          'PremiumSecurity',
          '--licensee',
          'CLI Test',
        ],
        { cwd: process.cwd() },
      );
      const key = stdout.trim();
      const payload = verifyLicenseKey(ensureVendorLicenseKey(svc.dataDir).publicKey, key);
      assert.equal(payload.tier, 'PremiumSecurity');
      assert.equal(payload.licensee, 'CLI Test');
      const r = await svc.req('POST', LS, { body: { LicenseKey: key } });
      assert.equal(r.status, 201);
      await assert.rejects(
        run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'license', 'issue', '--data-dir', svc.dataDir, '--tier', 'Gold']),
        /tier must be one of/,
      );
    } finally {
      await svc.close();
    }
  });
});
