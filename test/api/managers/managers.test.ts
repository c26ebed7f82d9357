import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { timeSourceConfigured } from '../../../src/domain/manager/network-protocol.js';
import { bootHost } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const MANAGER = '/redfish/v1/Managers/1/';
const NP = '/redfish/v1/Managers/1/NetworkProtocol/';
const RESET = '/redfish/v1/Managers/1/Actions/Manager.Reset/';
const CLEAR = '/redfish/v1/Managers/1/Actions/Oem/Vendor/VendorMC.ClearRestApiState/';
const IEL = '/redfish/v1/Managers/1/LogServices/IEL/Entries/';

async function ielMessageIds(svc: TestService): Promise<string[]> {
  const list = await svc.get(`${IEL}?$expand=.`, { auth: 'basic' });
  return list.body.Members.map((m: any) => m.MessageId);
}

describe('managers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('lists the controller and 404s other ids', async () => {
    const c = await svc.get('/redfish/v1/Managers/');
    assert.deepEqual(c.body.Members, [{ '@odata.id': MANAGER }]);
    const miss = await svc.get('/redfish/v1/Managers/2/');
    assert.equal(miss.status, 404);
    assert.equal((await svc.get('/redfish/v1/Managers/2/NetworkProtocol/')).status, 404);
  });

  it('describes the BMC: firmware, UUID, clock, links and actions', async () => {
    const r = await svc.get(MANAGER);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#Manager.v1_24_0.Manager');
    assert.equal(r.body.ManagerType, 'BMC');
    assert.equal(r.body.FirmwareVersion, svc.running.services.firmware.controllerVersion());
    assert.equal(r.body.UUID, (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID);
    assert.equal(r.body.DateTime, '2026-11-22T08:00:00Z');
    assert.deepEqual(r.body.Links.ManagerForServers, [{ '@odata.id': '/redfish/v1/Systems/1/' }]);
    assert.deepEqual(r.body.Links.ManagerForChassis, [{ '@odata.id': '/redfish/v1/Chassis/1/' }]);
    assert.deepEqual(r.body.NetworkProtocol, { '@odata.id': NP });
    assert.deepEqual(r.body.LogServices, { '@odata.id': '/redfish/v1/Managers/1/LogServices/' });
    assert.deepEqual(r.body.Oem.Vendor.Links.LicenseService, { '@odata.id': '/redfish/v1/Managers/1/LicenseService/' });
    assert.deepEqual(r.body.Oem.Vendor.Links.SecurityService, { '@odata.id': '/redfish/v1/Managers/1/SecurityService/' });
    assert.deepEqual(r.body.Actions['#Manager.Reset'], {
      target: RESET,
      '@Redfish.ActionInfo': '/redfish/v1/Managers/1/ResetActionInfo/',
      'ResetType@Redfish.AllowableValues': ['GracefulRestart', 'ForceRestart'],
    });
    // DateTime follows the controller clock without changing the ETag.
    await svc.clock.advance(65_000);
    const later = await svc.get(MANAGER);
    assert.equal(later.body.DateTime, '2026-11-22T08:01:05Z');
    assert.equal(later.headers.etag, r.headers.etag);
  });

  it('?$select=Oem/Vendor/Actions returns only the vendor actions', async () => {
    const r = await svc.get(`${MANAGER}?$select=Oem/Vendor/Actions`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body.Oem), ['Vendor']);
    assert.deepEqual(Object.keys(r.body.Oem.Vendor), ['Actions']);
    assert.deepEqual(r.body.Oem.Vendor.Actions['#VendorMC.ClearRestApiState'], { target: CLEAR });
    assert.equal(r.body.FirmwareVersion, undefined);
    assert.equal(r.body.Actions, undefined);
  });

  it('Manager.Reset ends every session and writes the event log', async () => {
    const token = await svc.adminToken();
    const bad = await svc.req('POST', RESET, { body: { ResetType: 'PowerCycle' }, auth: 'basic' });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.ActionParameterValueNotInList']);
    const r = await svc.req('POST', RESET, { body: { ResetType: 'GracefulRestart' }, auth: { token } });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    assert.equal((await svc.get(MANAGER, { auth: { token } })).status, 401);
    assert.ok((await ielMessageIds(svc)).includes('Vendor.1.0.ControllerReset'));
    // ResetType may be left out (GracefulRestart).
    assert.equal((await svc.req('POST', RESET, { body: {}, auth: 'basic' })).status, 200);
  });

  it('Manager.Reset and ClearRestApiState need ManagerConfigPriv', async () => {
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'operator', Password: 'Operator-Pass-1', RoleId: 'Operator' },
      auth: 'basic',
    });
    const op = { user: 'operator', password: 'Operator-Pass-1' };
    assert.equal((await svc.req('POST', RESET, { body: {}, auth: op })).status, 403);
    assert.equal((await svc.req('POST', CLEAR, { body: {}, auth: op })).status, 403);
    assert.equal((await svc.req('PATCH', NP, { body: { HostName: 'x' }, auth: op })).status, 403);
  });

  it('ClearRestApiState ({} or no body) is armed, then at controller reset discards the host-reported data', async () => {
    // The host reports its platform firmware at POST.
    await bootHost(svc, 60_000);
    const fw = async () => (await svc.get('/redfish/v1/Chassis/1/', { auth: 'basic' })).body.Oem.Vendor.Firmware;
    assert.ok((await fw()).PlatformDefinitionTable);

    const noBody = await svc.req('POST', CLEAR, { auth: 'basic' });
    assert.equal(noBody.status, 200, noBody.text);
    assert.deepEqual(messageIds(noBody.body), ['Base.1.12.Success', 'Vendor.1.0.ControllerResetRequired']);
    const empty = await svc.req('POST', CLEAR, { body: {}, auth: 'basic' });
    assert.equal(empty.status, 200);
    const extra = await svc.req('POST', CLEAR, { body: { Force: true }, auth: 'basic' });
    assert.equal(extra.status, 400);
    assert.deepEqual(messageIds(extra.body), ['Base.1.12.ActionParameterUnknown']);

    // Armed, not done: survives a service restart.
    assert.ok((await fw()).PlatformDefinitionTable);
    svc = await svc.restart();
    assert.equal((await svc.get(MANAGER, { auth: 'basic' })).body.Oem.Vendor.ClearRestApiStatePending, true);

    assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'ForceRestart' }, auth: 'basic' })).status, 200);
    assert.deepEqual(await fw(), {});
    assert.equal((await svc.get(MANAGER, { auth: 'basic' })).body.Oem.Vendor.ClearRestApiStatePending, false);
    const iel = await ielMessageIds(svc);
    assert.ok(iel.includes('Vendor.1.0.RestApiStateClearArmed'));
    assert.ok(iel.includes('Vendor.1.0.RestApiStateCleared'));

    // The host reports again at its next POST.
    await bootHost(svc, 60_000, 'ForceRestart');
    assert.ok((await fw()).PlatformDefinitionTable);
    // A reset without an armed clear keeps the data.
    await svc.req('POST', RESET, { body: {}, auth: 'basic' });
    assert.ok((await fw()).PlatformDefinitionTable);
  });

  it('NetworkProtocol shows HTTPS on the service port, HTTP off, and NTP', async () => {
    const r = await svc.get(NP, { auth: 'basic' });
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#ManagerNetworkProtocol.v1_12_0.ManagerNetworkProtocol');
    assert.deepEqual(r.body.HTTPS, { Port: svc.port, ProtocolEnabled: true, Certificates: { '@odata.id': `${NP}HTTPS/Certificates/` } });
    assert.equal(r.body.HTTP.ProtocolEnabled, false);
    assert.deepEqual(r.body.NTP, {
      Port: 123,
      ProtocolEnabled: false,
      NTPServers: [],
      '@Redfish.WriteableProperties': ['ProtocolEnabled', 'NTPServers'],
    });
    assert.ok(r.body.HostName);
    assert.equal(r.body.FQDN, r.body.HostName);
    assert.match(r.headers.allow ?? '', /PATCH/);
  });

  it('PATCH of NTP takes effect at once, is logged, and survives a restart', async () => {
    const store = () => svc.running.services.store;
    assert.equal(timeSourceConfigured(store()), false);
    const on = await svc.req('PATCH', NP, { body: { NTP: { ProtocolEnabled: true } }, auth: 'basic' });
    assert.equal(on.status, 200);
    // Enabled without a server is no time source yet.
    assert.equal(timeSourceConfigured(store()), false);
    const r = await svc.req('PATCH', NP, { body: { NTP: { NTPServers: ['ntp1.example.com', '192.0.2.10', ''] } }, auth: 'basic' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    assert.equal(timeSourceConfigured(store()), true);
    assert.deepEqual(store().setting('manager.networkProtocol', null).get(), {
      HostName: (await svc.get(NP, { auth: 'basic' })).body.HostName,
      NTP: { ProtocolEnabled: true, NTPServers: ['ntp1.example.com', '192.0.2.10'] },
      SSDP: { ProtocolEnabled: true, NotifyMulticastIntervalSeconds: 600, NotifyTTL: 5 },
    });
    assert.ok((await ielMessageIds(svc)).includes('ResourceEvent.1.4.PropertyValueModifiedByClient'));

    svc = await svc.restart();
    const got = await svc.get(NP, { auth: 'basic' });
    assert.deepEqual(got.body.NTP.NTPServers, ['ntp1.example.com', '192.0.2.10']);
    assert.equal(got.body.NTP.ProtocolEnabled, true);
    assert.equal(timeSourceConfigured(svc.running.services.store), true);

    await svc.req('PATCH', NP, { body: { NTP: { ProtocolEnabled: false } }, auth: 'basic' });
    assert.equal(timeSourceConfigured(svc.running.services.store), false);
  });

  it('PATCH of NetworkProtocol rejects bad values', async () => {
    const badServer = await svc.req('PATCH', NP, { body: { NTP: { NTPServers: ['not a host!'] } }, auth: 'basic' });
    assert.equal(badServer.status, 400);
    assert.deepEqual(messageIds(badServer.body), ['Base.1.12.PropertyValueFormatError']);
    const tooMany = await svc.req('PATCH', NP, { body: { NTP: { NTPServers: ['a.example', 'b.example', 'c.example'] } }, auth: 'basic' });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(messageIds(tooMany.body), ['Base.1.12.PropertyValueOutOfRange']);
    const wrongType = await svc.req('PATCH', NP, { body: { NTP: { ProtocolEnabled: 'yes' } }, auth: 'basic' });
    assert.equal(wrongType.status, 400);
    assert.deepEqual(messageIds(wrongType.body), ['Base.1.12.PropertyValueTypeError']);
    const https = await svc.req('PATCH', NP, { body: { HTTPS: { Port: 8443 } }, auth: 'basic' });
    assert.equal(https.status, 400);
    assert.deepEqual(messageIds(https.body), ['Base.1.12.PropertyNotWritable']);
    const badHost = await svc.req('PATCH', NP, { body: { HostName: '-bad-' }, auth: 'basic' });
    assert.equal(badHost.status, 400);
    // A good host name with a bad NTP server: partial success.
    const mixed = await svc.req('PATCH', NP, { body: { HostName: 'mc-rack12', NTP: { NTPServers: ['bad host'] } }, auth: 'basic' });
    assert.equal(mixed.status, 200);
    assert.deepEqual(messageIds(mixed.body), ['Base.1.12.PropertyValueFormatError']);
    assert.equal(mixed.body.HostName, 'mc-rack12');
    const got = await svc.get(NP, { auth: 'basic' });
    assert.equal(got.body.HostName, 'mc-rack12');
    assert.equal(got.body.FQDN, 'mc-rack12');
  });
});
