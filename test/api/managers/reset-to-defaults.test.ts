import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';

const MANAGER = '/redfish/v1/Managers/1/';
const RESET_TO_DEFAULTS = `${MANAGER}Actions/Manager.ResetToDefaults/`;
const NP = `${MANAGER}NetworkProtocol/`;
const NIC = `${MANAGER}EthernetInterfaces/1/`;
const HI = `${MANAGER}HostInterfaces/1/`;
const SERIAL = `${MANAGER}SerialInterfaces/1/`;
const AS = '/redfish/v1/AccountService/';
const ACCOUNTS = `${AS}Accounts/`;
const ES = '/redfish/v1/EventService/';
const SUBS = `${ES}Subscriptions/`;
const SYS = '/redfish/v1/Systems/1/';
const IEL = `${MANAGER}LogServices/IEL/Entries/`;

const CHANGED_ADMIN_PASSWORD = 'Changed-Admin-Pass-7';
const OPERATOR = { user: 'ops1', password: 'Operator-Pass-1' };

/** Every category changed from its factory value; the admin's password too. */
async function configure(svc: TestService): Promise<{ cert: string }> {
  const ok = async (method: string, uri: string, body: unknown, expected = 200) => {
    const r = await svc.req(method, uri, { body, auth: 'basic' });
    assert.equal(r.status, expected, `${method} ${uri}: ${r.text}`);
    return r;
  };
  // network
  await ok('PATCH', NP, { HostName: 'mc-custom', NTP: { ProtocolEnabled: true, NTPServers: ['192.0.2.123'] } });
  await ok('PATCH', NIC, { DHCPv4: { DHCPEnabled: false }, IPv4StaticAddresses: [{ Address: '192.0.2.10', SubnetMask: '255.255.255.0' }] });
  await ok('PATCH', HI, { InterfaceEnabled: false });
  // users
  await ok('POST', ACCOUNTS, { UserName: OPERATOR.user, Password: OPERATOR.password, RoleId: 'Operator' }, 201);
  const services = svc.running.services;
  const admin = services.accounts.findByUserName(ADMIN_USER)!;
  services.certificateLogin.addMapping(admin, 'AA'.repeat(32));
  // settings
  await ok('PATCH', AS, { MinPasswordLength: 12, LDAP: { ServiceAddresses: ['ldap.example.com'] } });
  await ok('PATCH', SERIAL, { BitRate: '9600' });
  await ok('PATCH', ES, { DeliveryRetryAttempts: 5 });
  await ok('POST', SUBS, { Destination: 'https://127.0.0.1:9/listener', Context: 'ctx' }, 201);
  services.certificateLogin.setEnabled(true);
  // kept whatever the type: the host's settings
  await ok('PATCH', SYS, { HostName: 'host-kept', LocationIndicatorActive: true });
  // the admin's password last (Basic auth above used the old one)
  const adminUri = `${ACCOUNTS}${admin.Id}/`;
  await ok('PATCH', adminUri, { Password: CHANGED_ADMIN_PASSWORD });
  return { cert: services.https.cert };
}

async function resetToDefaults(svc: TestService, ResetType: string, password: string) {
  const token = await svc.login(ADMIN_USER, password);
  const r = await svc.req('POST', RESET_TO_DEFAULTS, { body: { ResetType }, auth: { token } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
  // The controller restarted: the caller's session is gone.
  assert.equal((await svc.get(MANAGER, { auth: { token } })).status, 401);
}

describe('Manager.ResetToDefaults', () => {
  it('is listed with its reset types and refuses others, an Operator and a ReadOnly user', async () => {
    const svc = await startTestService();
    try {
      const m = (await svc.get(MANAGER)).body;
      assert.deepEqual(m.Actions['#Manager.ResetToDefaults'], {
        target: RESET_TO_DEFAULTS,
        '@Redfish.ActionInfo': '/redfish/v1/Managers/1/ResetToDefaultsActionInfo/',
        'ResetType@Redfish.AllowableValues': ['ResetAll', 'PreserveNetworkAndUsers', 'PreserveNetwork'],
      });
      const bad = await svc.req('POST', RESET_TO_DEFAULTS, { body: { ResetType: 'GracefulRestart' } });
      assert.equal(bad.status, 400);
      assert.deepEqual(messageIds(bad.body), ['Base.1.12.ActionParameterValueNotInList']);
      const missing = await svc.req('POST', RESET_TO_DEFAULTS, { body: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(messageIds(missing.body), ['Base.1.12.ActionParameterMissing']);
      await svc.running.services.accounts.create({ UserName: 'op', Password: 'Operator-Pass-1', RoleId: 'Operator' });
      await svc.running.services.accounts.create({ UserName: 'ro', Password: 'Reader-Pass-1', RoleId: 'ReadOnly' });
      await svc.req('PATCH', NP, { body: { HostName: 'mc-keep' } });
      for (const auth of [
        { user: 'op', password: 'Operator-Pass-1' },
        { user: 'ro', password: 'Reader-Pass-1' },
      ]) {
        assert.equal((await svc.req('POST', RESET_TO_DEFAULTS, { body: { ResetType: 'ResetAll' }, auth })).status, 403);
      }
      assert.equal((await svc.get(NP)).body.HostName, 'mc-keep');
      assert.equal(svc.running.services.accounts.list().length, 3);
    } finally {
      await svc.close();
    }
  });

  it('ResetAll: network, users and settings back to the factory; logs and the host kept; survives a restart', async () => {
    let svc = await startTestService();
    try {
      const { cert } = await configure(svc);
      const ielBefore = (await svc.get(IEL, { auth: { user: ADMIN_USER, password: CHANGED_ADMIN_PASSWORD } })).body['Members@odata.count'];
      await resetToDefaults(svc, 'ResetAll', CHANGED_ADMIN_PASSWORD);
      svc = await svc.restart();
      const admin = { user: ADMIN_USER, password: ADMIN_PASSWORD };
      // users: the factory password logs in, the changed one no longer does; only the administrator is left
      assert.equal((await svc.get(MANAGER, { auth: { user: ADMIN_USER, password: CHANGED_ADMIN_PASSWORD } })).status, 401);
      const accounts = (await svc.get(ACCOUNTS, { auth: admin })).body;
      assert.equal(accounts['Members@odata.count'], 1);
      const first = svc.running.services.accounts.list()[0]!;
      assert.equal(first.UserName, ADMIN_USER);
      assert.equal(svc.running.services.accounts.roleOf(first), 'Administrator');
      assert.deepEqual(svc.running.services.certificateLogin.listMappings(), []);
      // network
      const np = (await svc.get(NP, { auth: admin })).body;
      assert.equal(np.HostName, 'mc-host');
      assert.deepEqual(np.NTP.NTPServers, []);
      assert.equal((await svc.get(NIC, { auth: admin })).body.DHCPv4.DHCPEnabled, true);
      assert.equal((await svc.get(HI, { auth: admin })).body.InterfaceEnabled, true);
      // settings
      await assertSettingsReset(svc, admin, cert);
      // kept: the host's settings and the logs (which record the reset)
      const sys = (await svc.get(SYS, { auth: admin })).body;
      assert.equal(sys.HostName, 'host-kept');
      assert.equal(sys.LocationIndicatorActive, true);
      const iel = (await svc.get(`${IEL}?$expand=.`, { auth: admin })).body;
      assert.ok(iel['Members@odata.count'] > ielBefore);
      const ids = iel.Members.map((e: any) => e.MessageId);
      assert.ok(ids.includes('Vendor.1.0.ControllerResetToDefaults'));
      assert.ok(ids.includes('Vendor.1.0.ControllerReset'));
    } finally {
      await svc.close();
    }
  });

  it('PreserveNetworkAndUsers: network and local accounts kept, the settings reset', async () => {
    const svc = await startTestService();
    try {
      const { cert } = await configure(svc);
      await resetToDefaults(svc, 'PreserveNetworkAndUsers', CHANGED_ADMIN_PASSWORD);
      const admin = { user: ADMIN_USER, password: CHANGED_ADMIN_PASSWORD };
      // users kept: the changed password, the operator, the certificate mapping
      assert.equal((await svc.get(MANAGER, { auth: admin })).status, 200);
      assert.equal((await svc.get(MANAGER, { auth: OPERATOR })).status, 200);
      assert.equal(svc.running.services.certificateLogin.listMappings().length, 1);
      // network kept
      assert.equal((await svc.get(NP, { auth: admin })).body.HostName, 'mc-custom');
      assert.deepEqual((await svc.get(NIC, { auth: admin })).body.IPv4Addresses[0].Address, '192.0.2.10');
      assert.equal((await svc.get(HI, { auth: admin })).body.InterfaceEnabled, false);
      // settings reset
      await assertSettingsReset(svc, admin, cert);
    } finally {
      await svc.close();
    }
  });

  it('PreserveNetwork: network kept, users and settings reset', async () => {
    const svc = await startTestService();
    try {
      const { cert } = await configure(svc);
      await resetToDefaults(svc, 'PreserveNetwork', CHANGED_ADMIN_PASSWORD);
      const admin = { user: ADMIN_USER, password: ADMIN_PASSWORD };
      assert.equal((await svc.get(MANAGER, { auth: admin })).status, 200);
      assert.equal((await svc.get(MANAGER, { auth: OPERATOR })).status, 401);
      assert.equal(svc.running.services.accounts.list().length, 1);
      assert.deepEqual(svc.running.services.certificateLogin.listMappings(), []);
      assert.equal((await svc.get(NP, { auth: admin })).body.HostName, 'mc-custom');
      assert.equal((await svc.get(NIC, { auth: admin })).body.DHCPv4.DHCPEnabled, false);
      assert.equal((await svc.get(HI, { auth: admin })).body.InterfaceEnabled, false);
      await assertSettingsReset(svc, admin, cert);
    } finally {
      await svc.close();
    }
  });

  it('restores a deleted first administrator, with the password written at first start when none is configured', async () => {
    const svc = await startTestService({ config: { adminPassword: undefined } });
    try {
      const generated = readFileSync(join(svc.dataDir, 'initial-admin-password'), 'utf8').trim();
      const accounts = svc.running.services.accounts;
      await accounts.create({ UserName: 'admin2', Password: 'Admin2-Pass-123', RoleId: 'Administrator' });
      const admin2 = { user: 'admin2', password: 'Admin2-Pass-123' };
      const first = accounts.findByUserName(ADMIN_USER)!;
      assert.equal((await svc.req('DELETE', `${ACCOUNTS}${first.Id}/`, { auth: admin2 })).status, 200);
      assert.equal(accounts.findByUserName(ADMIN_USER), undefined);
      const r = await svc.req('POST', RESET_TO_DEFAULTS, { body: { ResetType: 'ResetAll' }, auth: admin2 });
      assert.equal(r.status, 200, r.text);
      assert.equal((await svc.get(MANAGER, { auth: admin2 })).status, 401);
      assert.equal((await svc.get(MANAGER, { auth: { user: ADMIN_USER, password: generated } })).status, 200);
    } finally {
      await svc.close();
    }
  });
});

async function assertSettingsReset(svc: TestService, auth: { user: string; password: string }, cert: string): Promise<void> {
  const as = (await svc.get(AS, { auth })).body;
  assert.equal(as.MinPasswordLength, 8);
  assert.deepEqual(as.LDAP.ServiceAddresses, ['']);
  assert.equal((await svc.get(SERIAL, { auth })).body.BitRate, '115200');
  const es = (await svc.get(ES, { auth })).body;
  assert.equal(es.DeliveryRetryAttempts, 3);
  assert.equal((await svc.get(SUBS, { auth })).body['Members@odata.count'], 0);
  assert.equal(svc.running.services.certificateLogin.settings().CertificateLoginEnabled, false);
  // A new self-signed HTTPS certificate, for the controller's host name.
  const https = svc.running.services.https;
  assert.notEqual(https.cert, cert);
  assert.equal(https.selfSigned, true);
  assert.match(svc.running.services.httpsCertificate.current().subject, /CN=mc-(host|custom)/);
}
