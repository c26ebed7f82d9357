// Issue 28 item 6: with --oem-name Hpe the controller's vendor services carry the
// type and action names iLO gives them, which ilorest selects by (HpeiLODateTime,
// HpeiLOSnmpService, HpeiLOSSO, HpeESKM, HpeiLOFederationGroup, ...), and their
// actions answer at the Hpe targets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const M = '/redfish/v1/Managers/1/';

describe('controller services under --oem-name Hpe', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe', enableControl: true } });
  });
  after(() => svc.close());
  const type = async (uri: string) => (await svc.get(uri)).body['@odata.type'] as string;

  it('serves the types ilorest selects', async () => {
    const expected: [string, string][] = [
      [`${M}DateTime/`, '#HpeiLODateTime.v2_0_0.HpeiLODateTime'],
      [`${M}SnmpService/`, '#HpeiLOSnmpService.v2_3_0.HpeiLOSnmpService'],
      [`${M}SecurityService/SSO/`, '#HpeiLOSSO.v2_0_0.HpeiLOSSO'],
      [`${M}SecurityService/ESKM/`, '#HpeESKM.v2_0_0.HpeESKM'],
      [`${M}SecurityService/HttpsCert/`, '#HpeHttpsCert.v1_0_0.HpeHttpsCert'],
      [`${M}SecurityService/SecurityDashboard/`, '#HpeiLOSecurityDashboard.v1_0_0.HpeiLOSecurityDashboard'],
      [`${M}FederationGroups/DEFAULT/`, '#HpeiLOFederationGroup.v2_0_0.HpeiLOFederationGroup'],
      [`${M}BackupRestoreService/`, '#HpeiLOBackupRestoreService.v2_2_0.HpeiLOBackupRestoreService'],
      [`${M}ActiveHealthSystem/`, '#HpeiLOActiveHealthSystem.v2_5_0.HpeiLOActiveHealthSystem'],
      [`${M}EmbeddedMedia/`, '#HpeiLOEmbeddedMedia.v2_0_0.HpeiLOEmbeddedMedia'],
      ['/redfish/v1/AccountService/DirectoryTest/', '#HpeDirectoryTest.v1_0_0.HpeDirectoryTest'],
    ];
    for (const [uri, t] of expected) assert.equal(await type(uri), t, uri);
  });

  it('lists the vendor actions under iLO names and runs them at their Hpe targets', async () => {
    const manager = (await svc.get(M)).body.Oem.Hpe;
    for (const a of ['ResetToFactoryDefaults', 'DisableiLOFunctionality', 'EnableCloudConnect', 'DisableCloudConnect', 'ClearRestApiState'])
      assert.ok(manager.Actions[`#HpeiLO.${a}`], a);
    assert.equal(manager.CloudConnect.CloudConnectStatus, 'NotEnabled');
    assert.equal(manager.Links.DateTimeService['@odata.id'], `${M}DateTime/`);
    const np = (await svc.get(`${M}NetworkProtocol/`)).body.Oem.Hpe;
    assert.equal(np['@odata.type'], '#HpeiLOManagerNetworkService.v2_2_0.HpeiLOManagerNetworkService');
    assert.ok(np.Actions['#HpeiLOManagerNetworkService.SendTestSyslog']);
    const snmp = (await svc.get(`${M}SnmpService/`)).body;
    const test = await svc.req('POST', snmp.Actions['#HpeiLOSnmpService.SendSNMPTestAlert'].target, {
      body: { Action: 'HpeiLOSnmpService.SendSNMPTestAlert' },
    });
    assert.equal(test.status, 200, test.text);
    const sso = (await svc.get(`${M}SecurityService/SSO/`)).body;
    const imported = await svc.req('POST', sso.Actions['#HpeiLOSSO.ImportDNSName'].target, {
      body: { Action: 'HpeiLOSSO.ImportDNSName', DNSName: 'oneview.example.com' },
    });
    assert.equal(imported.status, 200, imported.text);
    const eskm = (await svc.get(`${M}SecurityService/ESKM/`)).body;
    assert.equal((await svc.req('POST', eskm.Actions['#HpeESKM.TestESKMConnections'].target, { body: {} })).status, 200);
    const system = (await svc.get('/redfish/v1/Systems/1/')).body.Oem.Hpe;
    assert.equal(system.SystemROMAndiLOEraseStatus, 'Idle');
    assert.ok(system.Actions['#HpeComputerSystemExt.SecureSystemErase']);
    const cd = (await svc.get(`${M}VirtualMedia/2/`)).body.Oem.Hpe;
    assert.ok(cd.Actions['#HpeiLOVirtualMedia.InsertVirtualMedia']);
    const as = (await svc.get('/redfish/v1/AccountService/')).body.Oem.Hpe;
    assert.equal(as.DirectorySettings.LdapServerPort, 636);
    assert.equal(as.MinPasswordLength, 8);
    // ilorest serverlogs finds the logs by name.
    assert.equal((await svc.get(`${M}LogServices/IEL/`)).body.Name, 'iLO Event Log');
    assert.equal((await svc.get('/redfish/v1/Systems/1/LogServices/IML/')).body.Name, 'Integrated Management Log');
  });
});
