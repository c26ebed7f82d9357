import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../../src/platform/x509.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const AS = '/redfish/v1/AccountService/';
const BIND_PASSWORD = 'Bind-S3cret-Directory-9';

function databaseBytes(dataDir: string): Buffer {
  return Buffer.concat(
    ['bmc.sqlite', 'bmc.sqlite-wal'].map((f) => (existsSync(join(dataDir, f)) ? readFileSync(join(dataDir, f)) : Buffer.alloc(0))),
  );
}

describe('AccountService LDAP and ActiveDirectory settings', () => {
  let svc: TestService;
  const operator = { user: 'operator', password: 'Operator-Pass-1' };
  const reader = { user: 'reader', password: 'Reader-Pass-1' };
  before(async () => {
    svc = await startTestService();
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: operator.user, Password: operator.password, RoleId: 'Operator' });
    await accounts.create({ UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' });
  });
  after(() => svc.close());

  it('both are present and off by default', async () => {
    const b = (await svc.get(AS)).body;
    assert.equal(b.LDAP.AccountProviderType, 'LDAPService');
    assert.equal(b.ActiveDirectory.AccountProviderType, 'ActiveDirectoryService');
    assert.equal(b.LDAP.ServiceEnabled, false);
    // No server: one empty address, as the vendor's controller shows it (ilorest directory reads the first).
    assert.deepEqual(b.LDAP.ServiceAddresses, ['']);
    assert.equal(b.LDAP.PasswordSet, false);
    assert.equal(b.LDAP.Authentication.Password, null);
    assert.equal(b.LDAP.LDAPService.SearchSettings.UsernameAttribute, 'uid');
    assert.equal(b.ActiveDirectory.LDAPService.SearchSettings.UsernameAttribute, 'sAMAccountName');
    assert.deepEqual(b.ActiveDirectory.RemoteRoleMapping, []);
  });

  it('a full LDAP configuration is stored, the password sealed and never read back, across a restart', async () => {
    const r = await svc.req('PATCH', AS, {
      body: {
        LDAP: {
          ServiceEnabled: true,
          ServiceAddresses: ['ldaps://ldap.example.com:636', '192.0.2.5', '[2001:db8::5]:389'],
          Authentication: {
            AuthenticationType: 'UsernameAndPassword',
            Username: 'cn=bmc,ou=svc,dc=example,dc=com',
            Password: BIND_PASSWORD,
          },
          LDAPService: {
            SearchSettings: {
              BaseDistinguishedNames: ['ou=people,dc=example,dc=com'],
              UsernameAttribute: 'uid',
              GroupsAttribute: 'memberOf',
            },
          },
          RemoteRoleMapping: [
            { RemoteGroup: 'cn=bmc-admins,ou=groups,dc=example,dc=com', LocalRole: 'Administrator' },
            { RemoteGroup: 'cn=ops,ou=groups,dc=example,dc=com', LocalRole: 'Operator' },
          ],
        },
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.text.includes(BIND_PASSWORD), false);
    svc = await svc.restart();
    const got = await svc.get(AS);
    assert.equal(got.text.includes(BIND_PASSWORD), false);
    const l = got.body.LDAP;
    assert.equal(l.ServiceEnabled, true);
    assert.deepEqual(l.ServiceAddresses, ['ldaps://ldap.example.com:636', '192.0.2.5', '[2001:db8::5]:389']);
    assert.equal(l.Authentication.Username, 'cn=bmc,ou=svc,dc=example,dc=com');
    assert.equal(l.Authentication.Password, null);
    assert.equal(l.PasswordSet, true);
    assert.deepEqual(l.LDAPService.SearchSettings.BaseDistinguishedNames, ['ou=people,dc=example,dc=com']);
    assert.deepEqual(
      l.RemoteRoleMapping.map((m: any) => m.LocalRole),
      ['Administrator', 'Operator'],
    );
    // Sealed at rest: the database bytes never hold it, and the stored value opens to it.
    assert.equal(databaseBytes(svc.dataDir).indexOf(BIND_PASSWORD), -1);
    const store = svc.running.services.store;
    const stored = store.setting<any>('accounts.ldap', null).get();
    assert.match(stored.Authentication.Password, /^enc:v1:/);
    assert.equal(store.secrets.open(stored.Authentication.Password), BIND_PASSWORD);

    // A later change without Password keeps it; null clears it.
    assert.equal(
      (await svc.req('PATCH', AS, { body: { LDAP: { Authentication: { Username: 'cn=other,dc=example,dc=com' } } } })).status,
      200,
    );
    assert.equal((await svc.get(AS)).body.LDAP.PasswordSet, true);
    assert.equal((await svc.req('PATCH', AS, { body: { LDAP: { Authentication: { Password: null } } } })).status, 200);
    assert.equal((await svc.get(AS)).body.LDAP.PasswordSet, false);
    // ActiveDirectory untouched by all this.
    assert.equal((await svc.get(AS)).body.ActiveDirectory.ServiceEnabled, false);
  });

  it('bad values are 400 with the registry message naming the property, and change nothing', async () => {
    const before = (await svc.get(AS)).body;
    const cases: [unknown, string, string][] = [
      [{ LDAP: { ServiceAddresses: ['http://ldap.example.com'] } }, 'PropertyValueFormatError', 'LDAP/ServiceAddresses'],
      [{ LDAP: { ServiceAddresses: ['ldap.example.com:99999'] } }, 'PropertyValueFormatError', 'LDAP/ServiceAddresses'],
      [{ LDAP: { ServiceAddresses: ['bad_host!'] } }, 'PropertyValueFormatError', 'LDAP/ServiceAddresses'],
      [
        { ActiveDirectory: { ServiceAddresses: ['a.example', 'b.example', 'c.example', 'd.example', 'e.example'] } },
        'PropertyValueOutOfRange',
        'ActiveDirectory/ServiceAddresses',
      ],
      [
        { ActiveDirectory: { RemoteRoleMapping: [{ RemoteGroup: 'Domain Admins', LocalRole: 'SuperUser' }] } },
        'PropertyValueNotInList',
        'ActiveDirectory/RemoteRoleMapping/0/LocalRole',
      ],
      [
        { ActiveDirectory: { RemoteRoleMapping: [{ LocalRole: 'ReadOnly' }] } },
        'PropertyMissing',
        'ActiveDirectory/RemoteRoleMapping/0/RemoteGroup',
      ],
      [
        { LDAP: { LDAPService: { SearchSettings: { BaseDistinguishedNames: ['not a dn'] } } } },
        'PropertyValueFormatError',
        'LDAP/LDAPService/SearchSettings/BaseDistinguishedNames',
      ],
      [
        { LDAP: { LDAPService: { SearchSettings: { UsernameAttribute: 'u id' } } } },
        'PropertyValueFormatError',
        'LDAP/LDAPService/SearchSettings/UsernameAttribute',
      ],
      // Enabling without any server to ask.
      [{ ActiveDirectory: { ServiceEnabled: true } }, 'PropertyValueConflict', 'ActiveDirectory/ServiceEnabled'],
      [
        { LDAP: { Authentication: { AuthenticationType: 'KerberosKeytab' } } },
        'PropertyValueNotInList',
        'LDAP/Authentication/AuthenticationType',
      ],
      [{ LDAP: { AccountProviderType: 'OEM' } }, 'PropertyNotWritable', 'LDAP/AccountProviderType'],
    ];
    for (const [body, id, property] of cases) {
      const r = await svc.req('PATCH', AS, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      const infos = r.body.error['@Message.ExtendedInfo'];
      const info = infos.find((m: any) => m.MessageId === `Base.1.12.${id}`);
      assert.ok(info, `${JSON.stringify(body)}: ${messageIds(r.body).join()}`);
      assert.ok(
        (info.RelatedProperties ?? []).some((p: string) => p.endsWith(property)),
        `${id}: ${JSON.stringify(info.RelatedProperties)}`,
      );
    }
    const after = (await svc.get(AS)).body;
    assert.deepEqual(after.LDAP, before.LDAP);
    assert.deepEqual(after.ActiveDirectory, before.ActiveDirectory);
    // A refused directory setting takes the password policy of the same request down with it.
    const mixed = await svc.req('PATCH', AS, { body: { LDAP: { ServiceAddresses: ['bad_host!'] }, MinPasswordLength: 12 } });
    assert.equal(mixed.status, 400);
    assert.equal((await svc.get(AS)).body.MinPasswordLength, before.MinPasswordLength);
  });

  it('a bad password policy in the same PATCH leaves the directory settings alone', async () => {
    const r = await svc.req('PATCH', AS, {
      body: {
        ActiveDirectory: { ServiceAddresses: ['dc1.corp.example'] },
        AccountLockoutDuration: 10,
        AccountLockoutCounterResetAfter: 20,
      },
    });
    assert.equal(r.status, 400);
    assert.deepEqual((await svc.get(AS)).body.ActiveDirectory.ServiceAddresses, ['']);
  });

  it('an Active Directory setup with a group mapping', async () => {
    const r = await svc.req('PATCH', AS, {
      body: {
        ActiveDirectory: {
          ServiceEnabled: true,
          ServiceAddresses: ['dc1.corp.example'],
          RemoteRoleMapping: [{ RemoteGroup: 'CN=BMC Readers,OU=Groups,DC=corp,DC=example', LocalRole: 'ReadOnly' }],
        },
      },
    });
    assert.equal(r.status, 200, r.text);
    const ad = (await svc.get(AS)).body.ActiveDirectory;
    assert.equal(ad.ServiceEnabled, true);
    assert.deepEqual(ad.RemoteRoleMapping, [
      {
        RemoteGroup: 'CN=BMC Readers,OU=Groups,DC=corp,DC=example',
        LocalRole: 'ReadOnly',
        '@Redfish.WriteableProperties': ['RemoteGroup', 'LocalRole'],
      },
    ]);
  });

  it('only ConfigureUsers changes them: Operator and ReadOnly users get 403', async () => {
    for (const auth of [operator, reader]) {
      const r = await svc.req('PATCH', AS, { body: { LDAP: { ServiceAddresses: ['evil.example'] } }, auth });
      assert.equal(r.status, 403);
      assert.equal((await svc.get(AS, { auth })).body.LDAP.Authentication.Password, null);
    }
    assert.notDeepEqual((await svc.get(AS)).body.LDAP.ServiceAddresses, ['evil.example']);
  });

  it("LDAP's CA certificates: added by POST (one CA certificate, PEM), shown as DMTF Certificates, kept across a restart, deleted", async () => {
    const certs = '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/';
    const before = (await svc.get(AS)).body;
    assert.equal(before.LDAP.Certificates['@odata.id'], certs);
    assert.equal(before.ActiveDirectory.Certificates, undefined);
    assert.equal(before.Oem.Vendor.DirectorySettings.LdapCaCertificates['@odata.id'], certs);
    assert.equal(before.Oem.Vendor.DirectorySettings.LdapCaCertificateLoaded, false);
    assert.deepEqual((await svc.get(certs)).body.Members, []);

    const ca = await issueCertificate({
      subject: 'CN=Directory CA, O=Example',
      ca: true,
      notBefore: new Date(svc.clock.now() - 86_400_000),
    });
    const r = await svc.req('POST', certs, { body: { CertificateString: ca.certPem, CertificateType: 'PEM' } });
    assert.equal(r.status, 201, r.text);
    const member = r.headers.location as string;
    assert.equal(r.body['@odata.type'], '#Certificate.v1_11_0.Certificate');
    assert.equal(r.body.Subject.CommonName, 'Directory CA');
    assert.equal(r.body.CertificateString.trim(), ca.certPem.trim());

    const leaf = await issueCertificate({ subject: 'CN=not a CA', notBefore: new Date(svc.clock.now() - 86_400_000) });
    const bad = await svc.req('POST', certs, { body: { CertificateString: leaf.certPem, CertificateType: 'PEM' } });
    assert.equal(bad.status, 400, bad.text);
    const byReader = await svc.req('POST', certs, { body: { CertificateString: ca.certPem, CertificateType: 'PEM' }, auth: reader });
    assert.equal(byReader.status, 403);

    svc = await svc.restart();
    assert.deepEqual((await svc.get(certs)).body.Members, [{ '@odata.id': member }]);
    assert.equal((await svc.get(AS)).body.Oem.Vendor.DirectorySettings.LdapCaCertificateLoaded, true);
    assert.equal((await svc.req('DELETE', member)).status, 200);
    assert.equal((await svc.get(member)).status, 404);
    assert.equal((await svc.get(AS)).body.Oem.Vendor.DirectorySettings.LdapCaCertificateLoaded, false);
  });
});
