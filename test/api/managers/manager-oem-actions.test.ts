// Issue 28 items 3 and 5 (Managers): the controller's vendor actions iLO clients
// use: ResetToFactoryDefaults (factorydefaults), DisableiLOFunctionality
// (disableilofunctionality) and the cloud connection (computeopsmanagement).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FACTORY_DEFAULTS_DELAY_MS } from '../../../src/api/managers/managers.js';
import { startTestService, type TestService } from '../../support/service.js';

const M = '/redfish/v1/Managers/1/';
const OEM_ACTIONS = `${M}Actions/Oem/Vendor/`;

describe('manager vendor actions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
  });
  after(() => svc.close());
  // Basic: the resets end every session.
  const req = (method: string, path: string, o: { body?: unknown } = {}) => svc.req(method, path, { ...o, auth: 'basic' });
  const get = (path: string) => req('GET', path);

  it('lists the actions and the links to the vendor services under Oem', async () => {
    const oem = (await get(M)).body.Oem.Vendor;
    for (const a of ['ResetToFactoryDefaults', 'DisableiLOFunctionality', 'EnableCloudConnect', 'DisableCloudConnect'])
      assert.equal(oem.Actions[`#VendorMC.${a}`].target, `${OEM_ACTIONS}VendorMC.${a}/`);
    assert.deepEqual(oem.Actions['#VendorMC.ResetToFactoryDefaults']['ResetType@Redfish.AllowableValues'], ['Default']);
    assert.deepEqual(oem.CloudConnect, { CloudConnectStatus: 'NotEnabled' });
    assert.equal(oem.iLOFunctionalityEnabled, true);
    assert.equal(oem.iLOFunctionalityRequired, false);
    for (const [name, link] of Object.entries(oem.Links as Record<string, { '@odata.id': string }>)) {
      const r = await get(link['@odata.id']);
      // ActiveHealthSystem, BackupRestoreService and EmbeddedMedia come with their own commits.
      if (!['ActiveHealthSystem', 'BackupRestoreService', 'EmbeddedMediaService'].includes(name)) assert.equal(r.status, 200, name);
    }
  });

  it('shows its firmware, session timeout, license and virtual NIC from the controller state', async () => {
    const m = (await get(M)).body;
    assert.equal(m.Oem.Vendor.Firmware.Current.VersionString, m.FirmwareVersion);
    assert.equal(m.CommandShell.ServiceEnabled, false);
    await req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 600 } });
    const hi = (await get(`${M}HostInterfaces/`)).body.Members[0]['@odata.id'];
    await req('PATCH', hi, { body: { InterfaceEnabled: false } });
    const oem = (await get(M)).body.Oem.Vendor;
    assert.equal(oem.IdleConnectionTimeoutMinutes, 10);
    assert.equal(oem.VirtualNICEnabled, false);
    assert.equal(oem.License.LicenseString, 'None');
    await req('PATCH', hi, { body: { InterfaceEnabled: true } });
  });

  it('EnableCloudConnect without a route to the cloud service fails as a firewalled controller does; Disable returns to NotEnabled', async () => {
    const noKey = await req('POST', `${OEM_ACTIONS}VendorMC.EnableCloudConnect/`, { body: {} });
    assert.equal(noKey.status, 200);
    assert.deepEqual((await get(M)).body.Oem.Vendor.CloudConnect, {
      CloudConnectStatus: 'ConnectionFailed',
      FailReason: 'ActivationKeyRequired',
    });
    await req('POST', `${OEM_ACTIONS}VendorMC.EnableCloudConnect/`, { body: { ActivationKey: 'abc123' } });
    assert.equal((await get(M)).body.Oem.Vendor.CloudConnect.FailReason, 'ProxyOrFirewallError_COM');
    await req('POST', `${OEM_ACTIONS}VendorMC.DisableCloudConnect/`, { body: {} });
    assert.deepEqual((await get(M)).body.Oem.Vendor.CloudConnect, { CloudConnectStatus: 'NotEnabled' });
  });

  it('ResetToFactoryDefaults: controller settings, network and users back to the factory, the event log cleared', async () => {
    const ok = async (method: string, path: string, body: unknown) => assert.ok((await req(method, path, { body })).status < 300, path);
    await ok('POST', '/redfish/v1/AccountService/Accounts/', { UserName: 'temp', Password: 'Temp-Pass-1', RoleId: 'Operator' });
    await ok('PATCH', `${M}DateTime/`, { TimeZone: { Index: 5 } });
    await ok('PATCH', `${M}NetworkProtocol/`, { HostName: 'changed-host' });
    await ok('POST', `${M}FederationGroups/`, { Name: 'gone', Key: 'gone-key' });
    await ok('PATCH', `${M}SnmpService/`, { Contact: 'someone' });
    const r = await req('POST', `${OEM_ACTIONS}VendorMC.ResetToFactoryDefaults/`, { body: { ResetType: 'Default' } });
    assert.equal(r.status, 200, r.text);
    // Answered first (the client reads and logs out after it), done a moment later.
    assert.equal((await get(`${M}NetworkProtocol/`)).body.HostName, 'changed-host');
    await svc.clock.advance(FACTORY_DEFAULTS_DELAY_MS);
    for (let i = 0; i < 50 && (await get(`${M}NetworkProtocol/`)).body.HostName !== 'mc-host'; i++) await svc.dropConnections();
    await svc.dropConnections();
    assert.equal((await get(`${M}DateTime/`)).body.TimeZone.Index, 15);
    assert.equal((await get(`${M}NetworkProtocol/`)).body.HostName, 'mc-host');
    assert.equal((await get(`${M}FederationGroups/gone/`)).status, 404);
    assert.equal((await get(`${M}FederationGroups/DEFAULT/`)).status, 200);
    assert.equal((await get(`${M}SnmpService/`)).body.Contact, '');
    const accounts = (await get('/redfish/v1/AccountService/Accounts/?$expand=.')).body.Members;
    assert.deepEqual(
      accounts.map((a: any) => a.UserName),
      ['Administrator'],
    );
    const iel = (await get(`${M}LogServices/IEL/Entries/`)).body.Members;
    // Cleared, then the reset and its controller restart recorded.
    assert.ok(iel.length <= 3, JSON.stringify(iel.map((e: any) => e.Message)));
    const bad = await req('POST', `${OEM_ACTIONS}VendorMC.ResetToFactoryDefaults/`, { body: { ResetType: 'ResetAll' } });
    assert.equal(bad.status, 400);
  });

  it('DisableiLOFunctionality: the controller stops answering until the host enables it again, across a restart too', async () => {
    const r = await req('POST', `${OEM_ACTIONS}VendorMC.DisableiLOFunctionality/`, { body: {} });
    assert.equal(r.status, 200, r.text);
    await svc.dropConnections();
    await assert.rejects(get('/redfish/v1/'));
    svc = await svc.restart();
    await assert.rejects(get('/redfish/v1/SessionService/'));
    // The control API stands for the host's UEFI utilities.
    const host = await req('POST', '/control/host/', { body: { ManagerFunctionality: true } });
    assert.equal(host.status, 200, host.text);
    assert.equal(host.body.ManagerFunctionality, true);
    assert.equal((await get('/redfish/v1/')).status, 200);
    assert.equal((await get(M)).body.Oem.Vendor.iLOFunctionalityEnabled, true);
    const iel = (await get(`${M}LogServices/IEL/Entries/`)).body.Members.map((e: any) => e.Message);
    assert.ok(iel.some((m: string) => /functionality was disabled by Administrator/.test(m)));
  });
});
