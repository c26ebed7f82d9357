// Issue 28 item 3 (AccountService): what iLO clients read of the directory
// settings (ilorest directory): the vendor's AccountService properties and its
// DirectoryTest, run against the configured directory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const AS = '/redfish/v1/AccountService/';
const TEST = `${AS}DirectoryTest/`;

describe('AccountService vendor directory properties and DirectoryTest', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('shows the directory settings as the vendor does, following the LDAP settings and the password policy', async () => {
    let oem = (await svc.get(AS)).body.Oem.Vendor;
    assert.deepEqual(oem.DirectorySettings, {
      LdapAuthenticationMode: 'Disabled',
      LdapCaCertificateLoaded: false,
      LdapCaCertificates: { '@odata.id': '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/' },
      LdapServerPort: 636,
    });
    assert.deepEqual(oem.KerberosSettings, { KDCServerPort: 88, KerberosRealm: null });
    assert.equal(oem.MinPasswordLength, 8);
    assert.equal(oem.DirectoryTest['@odata.id'], TEST);
    const p = await svc.req('PATCH', AS, {
      body: { MinPasswordLength: 10, LDAP: { ServiceEnabled: true, ServiceAddresses: ['ldap.example.com:3269'] } },
    });
    assert.ok(p.status < 300, p.text);
    oem = (await svc.get(AS)).body.Oem.Vendor;
    assert.equal(oem.MinPasswordLength, 10);
    assert.deepEqual(oem.DirectorySettings.LdapAuthenticationMode, 'DefaultSchema');
    assert.equal(oem.DirectorySettings.LdapServerPort, 3269);
  });

  it('StartTest finds the server unreachable from the simulated controller; with no directory nothing runs', async () => {
    const before = (await svc.get(TEST)).body;
    assert.equal(before.OverallStatus, 'NotRun');
    assert.equal(before.TestResults.length, 10);
    assert.equal((await svc.req('POST', `${TEST}Actions/VendorDirectoryTest.StartTest/`, { body: {} })).status, 200);
    const ran = (await svc.get(TEST)).body;
    assert.equal(ran.OverallStatus, 'Failed');
    assert.deepEqual(ran.TestResults[1], {
      TestName: 'Ping Directory Server',
      Status: 'Failed',
      Notes: 'ldap.example.com:3269 cannot be reached from the simulated controller.',
    });
    await svc.req('PATCH', AS, { body: { LDAP: { ServiceEnabled: false } } });
    await svc.req('POST', `${TEST}Actions/VendorDirectoryTest.StartTest/`, { body: {} });
    assert.equal((await svc.get(TEST)).body.OverallStatus, 'NotRun');
    assert.equal((await svc.req('POST', `${TEST}Actions/VendorDirectoryTest.StopTest/`, { body: {} })).status, 200);
  });
});
