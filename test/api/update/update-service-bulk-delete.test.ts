// Issue 28: iLO's bulk deletes on the update service (HpeiLOUpdateServiceExt.Delete*), with
// --oem-name Hpe: every install set (the recovery set only when asked, with its privilege), every
// maintenance window, every task queue item, every component nothing holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';
import { NO_RECOVERY, QUEUE, REPO, SETS, US, WINDOWS, addComponent, get, post } from '../../support/update-queue.js';

const action = (name: string) => `${US}Actions/Oem/Hpe/HpeiLOUpdateServiceExt.${name}/`;
const ids = async (svc: TestService, uri: string) =>
  ((await get(svc, uri)).body.Members as { '@odata.id': string }[]).map((m) => m['@odata.id']);

describe('update service bulk deletes (Hpe naming)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg', criticality: 'Critical' });
    await addComponent(svc, { targets: ['CPLD'], version: '0x2B', file: 'cpld.fwpkg' });
    await addComponent(svc, { targets: ['NIC'], version: '20.15.0', file: 'nic.fwpkg', type: 'B' });
  });
  after(() => svc.close());

  it('advertises the actions, what uploads take and the downgrade policy', async () => {
    const oem = (await get(svc, US)).body.Oem.Hpe;
    for (const name of ['DeleteInstallSets', 'DeleteMaintenanceWindows', 'DeleteUnlockedComponents', 'DeleteUpdateTaskQueueItems'])
      assert.equal(oem.Actions[`#HpeiLOUpdateServiceExt.${name}`].target, action(name));
    assert.deepEqual(oem.Capabilities, { UpdateFWPKG: true, PLDMFirmwareUpdate: false });
    assert.equal(oem.Accept3rdPartyFirmware, false);
    assert.equal(oem.DowngradePolicy, 'AllowDowngrade');
    const repo = (await get(svc, REPO)).body;
    assert.equal(repo.Oem.Hpe.ComponentCount, 3);
    assert.equal(typeof repo.Description, 'string');
  });

  it('DeleteInstallSets keeps the recovery set unless asked, and asking needs the recovery privilege', async () => {
    let r = await post(svc, SETS, {
      Name: 'System Recovery Set',
      IsRecovery: true,
      Sequence: [{ Name: 'IE recovery', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }],
    });
    assert.equal(r.status, 201, r.text);
    r = await post(svc, SETS, {
      Name: 'NIC set',
      Sequence: [{ Name: 'NIC', UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Filename: 'nic.fwpkg' }],
    });
    assert.equal(r.status, 201, r.text);
    assert.equal((await ids(svc, SETS)).length, 2);

    r = await post(svc, action('DeleteInstallSets'), {});
    assert.equal(r.status, 200, r.text);
    const left = (await get(svc, `${SETS}?$expand=.`)).body.Members;
    assert.deepEqual(
      left.map((s: any) => s.IsRecovery),
      [true],
    );
    // The NIC component is free again; the IE one stays held by the recovery set.
    assert.equal((await get(svc, `${REPO}?$expand=.`)).body.Members.find((c: any) => c.Filename === 'nic.fwpkg').Locked, false);

    const account = await post(svc, '/redfish/v1/AccountService/Accounts/', {
      UserName: NO_RECOVERY.user,
      Password: NO_RECOVERY.password,
      RoleId: 'Administrator',
      Oem: { Hpe: { Privileges: { SystemRecoveryConfigPriv: false } } },
    });
    assert.equal(account.status, 201, account.text);
    r = await svc.req('POST', action('DeleteInstallSets'), { auth: NO_RECOVERY, body: { IncludeRecoverySet: true } });
    assert.equal(r.status, 403, r.text);
    assert.equal((await ids(svc, SETS)).length, 1);
    r = await post(svc, action('DeleteInstallSets'), { IncludeRecoverySet: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await ids(svc, SETS), []);
  });

  it('DeleteMaintenanceWindows and DeleteUpdateTaskQueueItems empty their collections', async () => {
    assert.equal((await post(svc, WINDOWS, { Name: 'Saturday', StartAfter: '2030-01-05T22:00:00Z' })).status, 201);
    assert.equal((await post(svc, WINDOWS, { Name: 'Sunday', StartAfter: '2030-01-06T22:00:00Z' })).status, 201);
    for (const Name of ['first wait', 'second wait']) {
      const r = await post(svc, QUEUE, {
        Name,
        UpdatableBy: ['Uefi'],
        Command: 'Wait',
        WaitTimeSeconds: 60,
        MaintenanceWindow: 'Saturday',
      });
      assert.equal(r.status, 201, r.text);
    }
    let r = await post(svc, action('DeleteMaintenanceWindows'), {});
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await ids(svc, WINDOWS), []);
    assert.equal((await ids(svc, QUEUE)).length, 2);
    r = await post(svc, action('DeleteUpdateTaskQueueItems'), {});
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await ids(svc, QUEUE), []);
  });

  it('DeleteUnlockedComponents keeps what a task or install set holds', async () => {
    let r = await post(svc, SETS, {
      Name: 'CPLD set',
      Sequence: [{ Name: 'CPLD', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'cpld.fwpkg' }],
    });
    assert.equal(r.status, 201, r.text);
    r = await post(svc, action('DeleteUnlockedComponents'), {});
    assert.equal(r.status, 200, r.text);
    const left = (await get(svc, `${REPO}?$expand=.`)).body;
    assert.deepEqual(
      left.Members.map((c: any) => c.Filename),
      ['cpld.fwpkg'],
    );
    assert.equal(left.Oem.Hpe.ComponentCount, 1);
  });
});
