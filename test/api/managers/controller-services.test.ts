// Issue 28 item 3 (Managers): the controller's vendor services iLO clients
// read and drive: DateTime, FederationGroups, SnmpService, SecurityService's
// SSO, ESKM and SecurityDashboard. Each reflects the controller's state and
// keeps what a client changes across a restart.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../../src/platform/x509.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const M = '/redfish/v1/Managers/1/';

describe('controller vendor services', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await svc.req(method, path, body === undefined ? {} : { body });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r;
  };

  it('DateTime: the time zone list, a zone chosen by index moves the manager offset, NTP servers shared with NetworkProtocol', async () => {
    const dt = (await svc.get(`${M}DateTime/`)).body;
    assert.equal(dt['@odata.type'], '#VendorMCDateTime.v2_0_0.VendorMCDateTime');
    assert.equal(dt.TimeZoneList.length, 41);
    const { '@Redfish.WriteableProperties': _w, ...zone } = dt.TimeZone;
    assert.deepEqual(zone, { Index: 15, Name: 'Greenwich Mean Time, Casablanca, Monrovia', UtcOffset: '+00:00', Value: 'GMT-0' });
    assert.deepEqual(dt.StaticNTPServers, []);
    await svc.clock.advance(60_000);
    assert.equal((await svc.get(`${M}DateTime/`)).body.DateTime, new Date(svc.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));

    await ok('PATCH', `${M}DateTime/`, { TimeZone: { Index: 24 }, StaticNTPServers: ['ntp.example.com'], PropagateTimeToHost: true });
    const after = (await svc.get(`${M}DateTime/`)).body;
    assert.equal(after.TimeZone.UtcOffset, '+05:30');
    assert.deepEqual(after.StaticNTPServers, ['ntp.example.com']);
    assert.equal(after.PropagateTimeToHost, true);
    assert.equal((await svc.get(M)).body.DateTimeLocalOffset, '+05:30');
    assert.deepEqual((await svc.get(`${M}NetworkProtocol/`)).body.NTP.NTPServers, ['ntp.example.com']);

    const bad = await svc.req('PATCH', `${M}DateTime/`, { body: { TimeZone: { Index: 40, Value: 'CET-1:00' } } });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.PropertyValueNotInList']);
    await ok('PATCH', `${M}DateTime/`, { TimeZone: { Index: 15 } });
  });

  it('FederationGroups: the factory DEFAULT group, add with a key never read back, change, delete', async () => {
    const FG = `${M}FederationGroups/`;
    const list = (await svc.get(`${FG}?$expand=.`)).body;
    assert.deepEqual(
      list.Members.map((m: any) => m.Name),
      ['DEFAULT'],
    );
    assert.equal(list.Members[0].Privileges.LoginPriv, true);
    const created = await svc.req('POST', FG, { body: { Name: 'lab', Key: 'lab-key-1', Privileges: { RemoteConsolePriv: true } } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.location, `${FG}lab/`);
    const lab = (await svc.get(`${FG}lab/`)).body;
    assert.equal(lab.Key, undefined);
    assert.equal(lab.Privileges.RemoteConsolePriv, true);
    assert.equal(lab.Privileges.LoginPriv, false);
    assert.ok(!JSON.stringify((await svc.get(`${FG}lab/`)).text).includes('lab-key-1'));
    assert.equal((await svc.req('POST', FG, { body: { Name: 'LAB', Key: 'another' } })).status, 409);
    assert.equal((await svc.req('POST', FG, { body: { Name: 'short', Key: 'ab' } })).status, 400);
    await ok('PATCH', `${FG}lab/`, { Key: 'new-key', Privileges: { VirtualMediaPriv: true } });
    assert.equal((await svc.get(`${FG}lab/`)).body.Privileges.VirtualMediaPriv, true);
    assert.deepEqual((await svc.get(`${M}FederationPeers/lab/`)).body.Peers, []);
    await ok('DELETE', `${FG}lab/`);
    assert.equal((await svc.get(`${FG}lab/`)).status, 404);
  });

  it('SnmpService: settings, alert destinations in their slots, a test alert recorded per destination', async () => {
    const S = `${M}SnmpService/`;
    const s = (await svc.get(S)).body;
    assert.equal(s['@odata.type'], '#VendorMCSnmpService.v2_3_0.VendorMCSnmpService');
    assert.match(s.SNMPv3EngineID, /^0x800000E804[0-9A-F]+$/);
    assert.deepEqual(s.AlertDestinations, [null, null, null, null, null, null, null, null]);
    await ok('PATCH', S, { Contact: 'ops', SNMPv1Enabled: false, ReadCommunities: ['public'] });
    const dst = await svc.req('POST', `${S}SNMPAlertDestinations/`, { body: { AlertDestination: '192.0.2.10', TrapCommunity: 'traps' } });
    assert.equal(dst.status, 201, dst.text);
    const after = (await svc.get(S)).body;
    assert.equal(after.Contact, 'ops');
    assert.deepEqual(after.ReadCommunities, ['public', '', '']);
    assert.equal(after.AlertDestinations[0], '192.0.2.10');
    assert.equal(after.TrapCommunities[0], 'traps');
    const bad = await svc.req('POST', `${S}SNMPAlertDestinations/`, { body: { AlertDestination: 'not a host!' } });
    assert.equal(bad.status, 400);

    const test = await ok('POST', `${S}Actions/VendorMCSnmpService.SendSNMPTestAlert/`, {});
    assert.match(JSON.stringify(test.body), /1 alert destinations/);
    const iel = (await svc.get('/redfish/v1/Managers/1/LogServices/IEL/Entries/')).body.Members;
    assert.ok(iel.some((e: any) => /test SNMP alert was sent to 192\.0\.2\.10/.test(e.Message)));
    await ok('DELETE', `${S}SNMPAlertDestinations/1/`);
    // The dashboard follows SNMPv1.
    const snmpRow = (await svc.get(`${M}SecurityService/SecurityDashboard/SecurityParams/8/`)).body;
    assert.deepEqual([snmpRow.Name, snmpRow.State, snmpRow.SecurityStatus], ['SNMPv1', 'Disabled', 'Ok']);
  });

  it('SSO: trusted records by DNS name and certificate, numbered; delete one and all', async () => {
    const SSO = `${M}SecurityService/SSO/`;
    await ok('POST', `${SSO}Actions/VendorMCSSO.ImportDNSName/`, { DNSName: 'oneview.example.com' });
    const { certPem: cert } = await issueCertificate({ subject: 'CN=sso.example.com', notBefore: new Date(svc.clock.now() - 60_000) });
    await ok('POST', `${SSO}Actions/VendorMCSSO.ImportCertificate/`, { CertType: 'DirectImportCert', CertInput: cert });
    const records = (await svc.get(SSO)).body.ManagerTrustedCertificates;
    assert.deepEqual(
      records.map((r: any) => [r.SerialNumber, r.RecordType, r.ServerName]),
      [
        [1, 'DNSName', 'oneview.example.com'],
        [2, 'Certificate', 'sso.example.com'],
      ],
    );
    const missing = await svc.req('POST', `${SSO}Actions/VendorMCSSO.DeleteSSORecordbyNumber/`, { body: { RecordNumber: 3 } });
    assert.equal(missing.status, 400);
    await ok('POST', `${SSO}Actions/VendorMCSSO.DeleteSSORecordbyNumber/`, { RecordNumber: 1 });
    assert.equal((await svc.get(SSO)).body.ManagerTrustedCertificates[0].ServerName, 'sso.example.com');
    await ok('POST', `${SSO}Actions/VendorMCSSO.DeleteAllSSORecords/`, {});
    assert.deepEqual((await svc.get(SSO)).body.ManagerTrustedCertificates, []);
  });

  it('ESKM: key servers stored, a connection test logged, the log cleared', async () => {
    const K = `${M}SecurityService/ESKM/`;
    const first = await ok('POST', `${K}Actions/VendorESKM.TestESKMConnections/`, {});
    assert.match(JSON.stringify(first.body), /no key server is configured/);
    await ok('PATCH', K, { PrimaryKeyServerAddress: 'kms.example.com', PrimaryKeyServerPort: 9000 });
    await ok('POST', `${K}Actions/VendorESKM.TestESKMConnections/`, {});
    const k = (await svc.get(K)).body;
    assert.equal(k.PrimaryKeyServerAddress, 'kms.example.com');
    assert.match(k.KeyManagerConfig.AccountName, /^ilo-[0-9a-f]{12}$/);
    assert.equal(k.ESKMEvents.length, 2);
    assert.match(k.ESKMEvents[1].Event, /kms\.example\.com is not reachable/);
    await ok('POST', `${K}Actions/VendorESKM.ClearESKMLog/`, {});
    assert.deepEqual((await svc.get(K)).body.ESKMEvents, []);
  });

  it('SecurityDashboard: rows rated from the controller state, a risk ignored by a user', async () => {
    const D = `${M}SecurityService/SecurityDashboard/`;
    const rows = (await svc.get(`${D}SecurityParams/?$expand=.`)).body.Members;
    assert.equal(rows.length, 11);
    const cert = rows.find((r: any) => r.Name === 'Default SSL Certificate In Use');
    assert.deepEqual([cert.State, cert.SecurityStatus], ['True', 'Risk']);
    assert.equal((await svc.get(D)).body.OverallSecurityStatus, 'Risk');
    await ok('PATCH', '/redfish/v1/AccountService/', { MinPasswordLength: 4 });
    const pw = (await svc.get(`${D}SecurityParams/2/`)).body;
    assert.equal(pw.SecurityStatus, 'Risk');
    await ok('PATCH', '/redfish/v1/AccountService/', { MinPasswordLength: 8 });
    for (const r of rows.filter((x: any) => x.SecurityStatus === 'Risk'))
      await ok('PATCH', `${D}SecurityParams/${r.Id}/`, { Ignore: true });
    assert.equal((await svc.get(D)).body.OverallSecurityStatus, 'Ok');
    const ignored = (await svc.get(`${D}SecurityParams/9/`)).body;
    assert.equal(ignored.IgnoredBy, 'Administrator');
    const links = (await svc.get(`${M}SecurityService/`)).body.Links;
    for (const l of ['SSO', 'ESKM', 'SecurityDashboard', 'CertAuth', 'HttpsCert']) assert.ok(links[l]?.['@odata.id'], l);
  });

  it('ActiveHealthSystem: the download holds the logs and milestones of the asked days; ClearLog starts it again', async () => {
    const A = `${M}ActiveHealthSystem/`;
    const ahs = (await svc.get(A)).body;
    assert.equal(ahs.AHSEnabled, true);
    const extref = ahs.Links.RecentWeek.extref as string;
    assert.match(extref, /^\/ahsdata\/[A-Z0-9]+_\d{8}\.ahs\?days=7$/);
    // The GET without the slash is redirected (308) to this one.
    const week = extref.replace('?', '/?');
    await ok('POST', `${A}Actions/VendorMCActiveHealthSystem.LogMilestone/`, { MilestoneOperation: 'Deploy', MilestoneTag: 'r28' });
    const lines = (await svc.get(week)).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(
      lines.some((l) => l.log === 'IEL'),
      JSON.stringify(lines),
    );
    assert.deepEqual(lines.at(-1), { log: 'Milestone', Created: lines.at(-1).Created, Operation: 'Deploy', Tag: 'r28' });
    const today = new Date(svc.clock.now()).toISOString().slice(0, 10);
    assert.equal((await svc.get(week.replace('days=7', `from=${today}&to=${today}`))).text.split('\n').length, lines.length + 1);
    assert.equal((await svc.get(week.replace('days=7', 'days=x'))).status, 400);
    assert.equal((await svc.get('/ahsdata/OTHER_20200101.ahs/')).status, 404);
    await ok('POST', `${A}Actions/VendorMCActiveHealthSystem.ClearLog/`, {});
    await svc.clock.advance(1000);
    assert.equal((await svc.get(week)).text, '');
    const media = (await svc.get(`${M}EmbeddedMedia/`)).body;
    assert.deepEqual(media.Controller.Status, { Health: 'OK', State: 'Enabled' });
  });

  it('RemoteSupportService: a registration fails (no route to remote support) and says why; the maintenance mode is kept across a restart', async () => {
    const RS = `${M}RemoteSupportService/`;
    assert.equal((await svc.get(M)).body.Oem.Vendor.Links.RemoteSupport['@odata.id'], RS);
    const rs = (await svc.get(RS)).body;
    assert.equal(rs['@odata.type'], '#VendorRemoteSupport.v1_0_0.VendorRemoteSupport');
    assert.equal(rs.RemoteSupportEnabled, false);
    assert.equal(rs.MaintenanceModeEnabled, false);
    assert.equal(rs.LastTransmissionType, 'NoTransmission');
    assert.equal(rs.LastTransmissionDate, undefined);
    const events = (await svc.get(rs.ServiceEventLogs['@odata.id'])).body;
    assert.equal(events['@odata.type'], '#LogEntryCollection.LogEntryCollection');
    assert.deepEqual(events.Members, []);
    const register = rs.Actions['#VendorRemoteSupport.RegisterDeviceToRemoteSupport'].target;
    assert.deepEqual(rs.Actions['#VendorRemoteSupport.RegisterDeviceToRemoteSupport']['ConnectionType@Redfish.AllowableValues'], [
      'DirectConnect',
      'CentralConnect',
    ]);

    const noServer = await svc.req('POST', register, { body: { ConnectionType: 'CentralConnect' } });
    assert.equal(noServer.status, 400);
    assert.ok(messageIds(noServer.body).includes('Base.1.12.ActionParameterMissing'), noServer.text);
    await ok('POST', register, { ConnectionType: 'CentralConnect', DestinationUrl: 'irs.example.com', DestinationPort: 7906 });
    const failed = (await svc.get(RS)).body;
    assert.equal(failed.RemoteSupportEnabled, false);
    assert.equal(failed.LastTransmissionType, 'Registration');
    assert.match(failed.LastTransmissionError, /irs\.example\.com cannot be reached/);
    assert.equal(failed.LastTransmissionDate, new Date(svc.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));

    await ok('POST', rs.Actions['#VendorRemoteSupport.ServerMaintenance'].target, { MaintenanceMode: 'Set' });
    svc = await svc.restart();
    const kept = (await svc.get(RS)).body;
    assert.equal(kept.MaintenanceModeEnabled, true);
    assert.equal(kept.LastTransmissionType, 'Registration');
    await ok('POST', rs.Actions['#VendorRemoteSupport.ServerMaintenance'].target, { MaintenanceMode: 'Clear' });
    assert.equal((await svc.get(RS)).body.MaintenanceModeEnabled, false);
  });

  it('keeps the settings across a restart', async () => {
    await ok('POST', `${M}FederationGroups/`, { Name: 'kept', Key: 'kept-key' });
    await ok('PATCH', `${M}DateTime/`, { TimeZone: { Index: 17 } });
    svc = await svc.restart();
    assert.equal((await svc.get(`${M}FederationGroups/kept/`)).status, 200);
    assert.equal((await svc.get(`${M}DateTime/`)).body.TimeZone.Index, 17);
    assert.equal((await svc.get(`${M}SnmpService/`)).body.Contact, 'ops');
  });
});

describe('NetworkProtocol vendor settings', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('alert e-mail and remote syslog settings; the test syslog message arrives at the server; secrets never read back', async () => {
    const NP = '/redfish/v1/Managers/1/NetworkProtocol/';
    const np = (await svc.get(NP)).body;
    assert.equal(np.Oem.Vendor.AlertMailEnabled, false);
    assert.deepEqual(np.IPMI, { Port: 623, ProtocolEnabled: false });
    const mail = await svc.req('POST', `${NP}Actions/Oem/Vendor/VendorMCManagerNetworkService.SendTestAlertMail/`, { body: {} });
    assert.equal(mail.status, 200);
    assert.match(JSON.stringify(mail.body), /alert e-mail is disabled/);

    const receiver = createSocket('udp4');
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    const got = new Promise<string>((resolve) => receiver.once('message', (m) => resolve(m.toString())));
    const patch = await svc.req('PATCH', NP, {
      body: {
        Oem: {
          Vendor: {
            RemoteSyslogEnabled: true,
            RemoteSyslogServer: '127.0.0.1',
            RemoteSyslogPort: receiver.address().port,
            AlertMailSMTPAuthPw: 'smtp-secret',
            WebProxyConfiguration: { ProxyServer: 'proxy.example.com', ProxyPort: 8080, ProxyPassword: 'proxy-secret' },
          },
        },
      },
    });
    assert.ok(patch.status < 300, patch.text);
    const sent = await svc.req('POST', `${NP}Actions/Oem/Vendor/VendorMCManagerNetworkService.SendTestSyslog/`, { body: {} });
    assert.equal(sent.status, 200, sent.text);
    assert.match(await got, /^<133>1 \S+ \S+ mc - - - Test syslog message from the management controller, requested by Administrator$/);
    receiver.close();
    const text = (await svc.get(NP)).text;
    assert.ok(!text.includes('smtp-secret') && !text.includes('proxy-secret'));
    assert.equal(JSON.parse(text).Oem.Vendor.WebProxyConfiguration.ProxyServer, 'proxy.example.com');
    const bad = await svc.req('PATCH', NP, { body: { Oem: { Vendor: { RemoteSyslogServer: 'bad host!' } } } });
    assert.equal(bad.status, 400);
  });
});
