// RAID over HTTPS: volumes created and deleted OnReset (pending, with a task,
// applied at the next POST), capacity per RAID level, impossible layouts,
// persistence across a controller restart, privileges; and Drive.SecureErase
// as a task that advances with the controller clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type RequestOptions, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const ST = `${SYS}Storage/DE00A000/`;
const VOLUMES = `${ST}Volumes/`;
const RESET = `${SYS}Actions/ComputerSystem.Reset/`;
const BOOT_TIME = 2000 + 5000; // power on + POST (fast timings)
const HDD = 1200243695616;
const SSD = 480103981056;
const drive = (n: number) => `${ST}Drives/${n}/`;
const links = (...n: number[]) => ({ Drives: n.map((x) => ({ '@odata.id': drive(x) })) });
const ids = (body: unknown) => messageIds(body).map((m) => m.replace(/^(Base|Vendor)\.\d+\.\d+\./, '$1.'));

describe('RAID volumes', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  // Basic authentication: the clock moves past the session timeout.
  const req = (method: string, path: string, o: RequestOptions = {}) => svc.req(method, path, { auth: 'basic', ...o });
  const get = (path: string, o: RequestOptions = {}) => req('GET', path, o);

  const create = (body: unknown, auth?: { user: string; password: string }) => req('POST', VOLUMES, { body, ...(auth ? { auth } : {}) });
  const members = async () => ((await get(VOLUMES)).body.Members as { '@odata.id': string }[]).map((m) => m['@odata.id']);
  /** A server reset (or power on), waited through POST. */
  const resetServer = async () => {
    const on = (await get(SYS)).body.PowerState === 'On';
    const r = await req('POST', RESET, { body: { ResetType: on ? 'ForceRestart' : 'On' } });
    assert.equal(r.status, 200);
    await svc.clock.advance(BOOT_TIME);
  };
  const taskOf = async (r: { headers: Record<string, string> }) => {
    const monitor = r.headers.location as string;
    assert.match(monitor, /^\/redfish\/v1\/TaskService\/TaskMonitors\/[0-9a-f]+\/$/);
    return (await get(monitor.replace('TaskMonitors', 'Tasks'))).body;
  };

  it('each level the controller builds, with its capacity; a pending volume is withdrawn by DELETE at once', async () => {
    const cases: [string, number[], number][] = [
      ['RAID0', [2, 3, 4, 5], 4 * HDD],
      ['RAID0', [2], HDD],
      ['RAID1', [2, 3], HDD],
      ['RAID5', [2, 3, 4], 2 * HDD],
      ['RAID5', [2, 3, 4, 5], 3 * HDD],
      ['RAID6', [2, 3, 4, 5], 2 * HDD],
      ['RAID10', [2, 3, 4, 5], 2 * HDD],
      ['RAID1E', [2, 3, 4, 5], 2 * HDD],
    ];
    for (const [RAIDType, drives, capacity] of cases) {
      const r = await create({ RAIDType, Links: links(...drives) });
      assert.equal(r.status, 202, `${RAIDType} over ${drives.length}: ${r.text}`);
      const task = await taskOf(r);
      assert.equal(task.TaskState, 'Running');
      const v = (await get(`${VOLUMES}2/`)).body;
      assert.equal(v.RAIDType, RAIDType);
      assert.equal(v.CapacityBytes, capacity, `${RAIDType} over ${drives.length}`);
      assert.equal(v.Oem.Vendor.ConfigurationState, 'PendingCreate');
      assert.equal(v.Status.State, 'Disabled');
      assert.equal(v.Operations[0].Operation, 'Initialize');
      assert.equal(v.Operations[0].AssociatedTask['@odata.id'], task['@odata.id']);
      assert.deepEqual(v.Links.Drives, links(...drives).Drives);
      const del = await req('DELETE', `${VOLUMES}2/`);
      assert.equal(del.status, 200);
      assert.equal((await get(`${VOLUMES}2/`)).status, 404);
      const after = (await get(task['@odata.id'])).body;
      assert.equal(after.TaskState, 'Cancelled');
    }
    assert.deepEqual(await members(), [`${VOLUMES}1/`]);
  });

  it('VolumeType alone (older clients), Name, DisplayName and a smaller CapacityBytes are taken', async () => {
    const r = await create({
      VolumeType: 'Mirrored',
      Name: 'scratch',
      DisplayName: 'Scratch mirror',
      CapacityBytes: 100 * 1024 ** 3,
      Links: links(4, 5),
    });
    assert.equal(r.status, 202, r.text);
    const v = (await get(`${VOLUMES}2/`)).body;
    assert.equal(v.RAIDType, 'RAID1');
    assert.equal(v.Name, 'scratch');
    assert.equal(v.DisplayName, 'Scratch mirror');
    assert.equal(v.CapacityBytes, 100 * 1024 ** 3);
    const p = await req('PATCH', `${VOLUMES}2/`, { body: { DisplayName: 'Renamed' } });
    assert.equal(p.status, 200);
    assert.equal((await get(`${VOLUMES}2/`)).body.DisplayName, 'Renamed');
    assert.equal((await req('PATCH', `${VOLUMES}2/`, { body: { RAIDType: 'RAID0' } })).status, 400);
    assert.equal((await req('DELETE', `${VOLUMES}2/`)).status, 200);
  });

  it('the apply time a client may ask is OnReset, for a create and a delete; Immediate is refused, not ignored', async () => {
    const volume = (await get(`${VOLUMES}1/`)).body;
    assert.deepEqual(volume['@Redfish.OperationApplyTimeSupport'].SupportedValues, ['OnReset']);
    let r = await create({ '@Redfish.OperationApplyTime': 'Immediate', RAIDType: 'RAID0', Links: links(2) });
    assert.equal(r.status, 400);
    assert.deepEqual(ids(r.body), ['Base.PropertyValueNotInList']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/@Redfish.OperationApplyTime']);
    assert.deepEqual(await members(), [`${VOLUMES}1/`]);
    r = await create({ '@Redfish.OperationApplyTime': 'OnReset', RAIDType: 'RAID0', Links: links(2) });
    assert.equal(r.status, 202);
    r = await req('DELETE', `${VOLUMES}2/`, { body: { '@Redfish.OperationApplyTime': 'Immediate' } });
    assert.equal(r.status, 400);
    assert.deepEqual(ids(r.body), ['Base.PropertyValueNotInList']);
    r = await req('DELETE', `${VOLUMES}2/`, { body: { '@Redfish.OperationApplyTime': 'OnReset' } });
    assert.equal(r.status, 200);
    assert.deepEqual(await members(), [`${VOLUMES}1/`]);
  });

  it('impossible layouts are refused with registry messages naming the property', async () => {
    const cases: [unknown, number, string[], string?][] = [
      [{ RAIDType: 'RAID5', Links: links(2, 3) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      [{ RAIDType: 'RAID6', Links: links(2, 3, 4) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      [{ RAIDType: 'RAID10', Links: links(2, 3, 4) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      [{ RAIDType: 'RAID1', Links: links(2, 3, 4) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      [{ RAIDType: 'RAID50', Links: links(2, 3, 4, 5) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      [{ RAIDType: 'RAID60', Links: links(2, 3, 4, 5) }, 400, ['Base.PropertyValueConflict'], '#/Links/Drives'],
      // The profile's controller does not build triple-parity arrays.
      [{ RAIDType: 'RAID6TP', Links: links(2, 3, 4, 5) }, 400, ['Base.PropertyValueNotInList'], '#/RAIDType'],
      [{ RAIDType: 'RAID7', Links: links(2, 3, 4, 5) }, 400, ['Base.PropertyValueNotInList'], '#/RAIDType'],
      [{ Links: links(2, 3) }, 400, ['Base.PropertyMissing'], '#/RAIDType'],
      [{ RAIDType: 'RAID1', VolumeType: 'StripedWithParity', Links: links(2, 3) }, 400, ['Base.PropertyValueConflict'], '#/VolumeType'],
      [{ RAIDType: 'RAID1' }, 400, ['Base.PropertyMissing'], '#/Links/Drives'],
      [{ RAIDType: 'RAID1', Links: links(2, 2) }, 400, ['Base.PropertyValueIncorrect'], '#/Links/Drives/1'],
      [{ RAIDType: 'RAID1', Links: links(2, 9) }, 400, ['Base.PropertyValueIncorrect'], '#/Links/Drives/1'],
      [
        { RAIDType: 'RAID1', Links: { Drives: [{ '@odata.id': drive(2) }, { '@odata.id': '/redfish/v1/Chassis/1/' }] } },
        400,
        ['Base.PropertyValueIncorrect'],
        '#/Links/Drives/1',
      ],
      [{ RAIDType: 'RAID1', Links: links(2, 3), CapacityBytes: HDD + 512 }, 400, ['Base.PropertyValueOutOfRange'], '#/CapacityBytes'],
      [{ RAIDType: 'RAID1', Links: links(2, 3), Encrypted: true }, 400, ['Base.PropertyValueIncorrect'], '#/Encrypted'],
      // The SSDs of logical drive 1 are taken.
      [{ RAIDType: 'RAID1', Links: links(1, 2) }, 409, ['Base.ResourceInUse', 'Vendor.DriveInUse'], '#/Links/Drives/0'],
    ];
    for (const [body, status, expected, related] of cases) {
      const r = await create(body);
      const what = JSON.stringify(body);
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.deepEqual(ids(r.body), expected, what);
      if (related) assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, [related], what);
    }
    const inUse = await create({ RAIDType: 'RAID1', Links: links(1, 2) });
    assert.match(inUse.body.error['@Message.ExtendedInfo'][1].Message, /member of volume 1 \(Logical Drive 1, RAID1, active\)/);
    assert.deepEqual(await members(), [`${VOLUMES}1/`], 'nothing was created');
  });

  it('mixed media: an SSD with HDDs, once the SSDs are free', async () => {
    // Free the SSDs: delete logical drive 1 and apply it.
    const del = await req('DELETE', `${VOLUMES}1/`);
    assert.equal(del.status, 202);
    await resetServer();
    assert.deepEqual(await members(), []);
    const r = await create({ RAIDType: 'RAID5', Links: links(2, 3, 0) });
    assert.equal(r.status, 400);
    assert.deepEqual(ids(r.body), ['Base.PropertyValueConflict']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/Links/Drives/2']);
    // Drives of one kind at last: the mirror of the two SSDs again.
    const ok = await create({ RAIDType: 'RAID1', Links: links(0, 1) });
    assert.equal(ok.status, 202);
    assert.equal((await get(`${VOLUMES}1/`)).body.CapacityBytes, SSD);
    await resetServer();
    assert.equal((await get(`${VOLUMES}1/`)).body.Oem.Vendor.ConfigurationState, 'Active');
  });

  it('a create waits for the next POST: a reset applies it, the task completes and the drives link the volume', async () => {
    const r = await create({ RAIDType: 'RAID5', Links: links(2, 3, 4) });
    assert.equal(r.status, 202);
    const task = await taskOf(r);
    assert.deepEqual(ids({ '@Message.ExtendedInfo': task.Messages }), ['Vendor.SystemResetRequired']);
    // The drives are reserved while pending.
    const again = await create({ RAIDType: 'RAID1', Links: links(4, 5) });
    assert.equal(again.status, 409);
    assert.match(again.body.error['@Message.ExtendedInfo'][1].Message, /pending creation/);
    const monitor = await get(r.headers.location as string);
    assert.equal(monitor.status, 202);
    // Time alone does not apply it.
    await svc.clock.advance(60 * 60_000);
    assert.equal((await get(`${VOLUMES}2/`)).body.Oem.Vendor.ConfigurationState, 'PendingCreate');
    assert.deepEqual((await get(`${ST}Drives/3/`)).body.Links.Volumes, [{ '@odata.id': `${VOLUMES}2/` }]);

    await resetServer();
    const v = (await get(`${VOLUMES}2/`)).body;
    assert.equal(v.Oem.Vendor.ConfigurationState, 'Active');
    assert.deepEqual(v.Status, { State: 'Enabled', Health: 'OK' });
    assert.deepEqual(v.Operations, []);
    assert.equal(v.CapacityBytes, 2 * HDD);
    const iml = (await get(`${SYS}LogServices/IML/Entries/`)).body.Members as any[];
    const built = iml.filter(
      (e) => e.MessageId.endsWith('.DrvArrLogDrvStatusChange') && e.Links.OriginOfCondition['@odata.id'] === `${VOLUMES}2/`,
    );
    assert.deepEqual(built.at(-1)?.MessageArgs, ['2', 'Embedded', 'OK']);
    const done = (await get(task['@odata.id'])).body;
    assert.equal(done.TaskState, 'Completed');
    assert.equal(done.PercentComplete, 100);
    assert.equal((await get(r.headers.location as string)).status, 200);
  });

  it('a delete waits for the next POST too; until then the volume shows PendingDelete', async () => {
    const r = await req('DELETE', `${VOLUMES}2/`);
    assert.equal(r.status, 202);
    const task = await taskOf(r);
    assert.equal(task.Payload.HttpOperation, 'DELETE');
    const v = (await get(`${VOLUMES}2/`)).body;
    assert.equal(v.Oem.Vendor.ConfigurationState, 'PendingDelete');
    assert.equal(v.Operations[0].Operation, 'Delete');
    assert.equal(v.Status.State, 'Enabled');
    const twice = await req('DELETE', `${VOLUMES}2/`);
    assert.equal(twice.status, 409);
    assert.deepEqual(ids(twice.body), ['Base.ResourceInUse']);
    await resetServer();
    assert.equal((await get(`${VOLUMES}2/`)).status, 404);
    assert.equal((await get(task['@odata.id'])).body.TaskState, 'Completed');
    assert.deepEqual((await get(`${ST}Drives/3/`)).body.Links.Volumes, []);
  });

  it('pending and active volumes survive a controller restart; the pending one is still applied at the next POST', async () => {
    const r = await create({ RAIDType: 'RAID10', Links: links(2, 3, 4, 5) });
    assert.equal(r.status, 202);
    svc = await svc.restart();
    assert.deepEqual(await members(), [`${VOLUMES}1/`, `${VOLUMES}2/`]);
    const pending = (await get(`${VOLUMES}2/`)).body;
    assert.equal(pending.Oem.Vendor.ConfigurationState, 'PendingCreate');
    assert.equal(pending.CapacityBytes, 2 * HDD);
    // The controller's memory of the task went with the restart (it ends interrupted); the change itself did not.
    const task = await taskOf(r);
    assert.equal(task.TaskState, 'Exception');
    await resetServer();
    assert.equal((await get(`${VOLUMES}2/`)).body.Oem.Vendor.ConfigurationState, 'Active');
    svc = await svc.restart();
    assert.equal((await get(`${VOLUMES}2/`)).body.Oem.Vendor.ConfigurationState, 'Active');
    assert.equal((await get(`${VOLUMES}1/`)).body.RAIDType, 'RAID1');
  });

  it('a ReadOnly user reads volumes but cannot create, delete or erase', async () => {
    await svc.running.services.accounts.create({ UserName: 'raidview', Password: 'Viewer-Pass-1', RoleId: 'ReadOnly' });
    const auth = { user: 'raidview', password: 'Viewer-Pass-1' };
    assert.equal((await get(VOLUMES, { auth })).status, 200);
    let r = await create({ RAIDType: 'RAID0', Links: links(2) }, auth);
    assert.equal(r.status, 403);
    assert.deepEqual(ids(r.body), ['Base.InsufficientPrivilege']);
    r = await req('DELETE', `${VOLUMES}2/`, { auth });
    assert.equal(r.status, 403);
    r = await req('POST', `${drive(2)}Actions/Drive.SecureErase/`, { body: {}, auth });
    assert.equal(r.status, 403);
    assert.equal((await get(`${VOLUMES}2/`)).status, 200, 'still there');
    await svc.running.services.accounts.create({ UserName: 'raidop', Password: 'Operator-Pass-1', RoleId: 'Operator' });
    r = await req('PATCH', `${VOLUMES}2/`, { body: { DisplayName: 'op' }, auth: { user: 'raidop', password: 'Operator-Pass-1' } });
    assert.equal(r.status, 200, 'an Operator holds the storage configuration privilege');
  });
});

describe('Drive secure erase', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  // Basic authentication: the clock moves past the session timeout.
  const req = (method: string, path: string, o: RequestOptions = {}) => svc.req(method, path, { auth: 'basic', ...o });
  const get = (path: string, o: RequestOptions = {}) => req('GET', path, o);

  const erase = (n: number, body: unknown = {}) => req('POST', `${drive(n)}Actions/Drive.SecureErase/`, { body });

  it('a drive of a volume is refused with what holds it', async () => {
    const r = await erase(0);
    assert.equal(r.status, 409);
    assert.deepEqual(ids(r.body), ['Base.ResourceInUse', 'Vendor.DriveInUse']);
    assert.match(r.body.error['@Message.ExtendedInfo'][1].Message, new RegExp(`${drive(0)}.*member of volume 1`));
  });

  it('sanitization types the drive lacks, and passes for anything but Overwrite, are refused', async () => {
    let r = await erase(2, { SanitizationType: 'BlockErase' });
    assert.equal(r.status, 400);
    assert.deepEqual(ids(r.body), ['Base.ActionParameterValueNotInList']);
    r = await erase(2, { SanitizationType: 'Bogus' });
    assert.equal(r.status, 400);
    r = await erase(2, { OverwritePasses: 0 });
    assert.equal(r.status, 400);
    r = await req('POST', `${ST}Drives/0/Actions/Drive.SecureErase/`, { body: { SanitizationType: 'BlockErase', OverwritePasses: 2 } });
    assert.equal(r.status, 400);
    assert.deepEqual(ids(r.body), ['Base.ActionParameterValueConflict']);
  });

  it('an HDD overwrite is a task whose progress follows the controller clock', async () => {
    // 1.2 TB at 200 MB/s: about 6001 s.
    const r = await erase(2);
    assert.equal(r.status, 202, r.text);
    const monitor = r.headers.location as string;
    const taskUri = monitor.replace('TaskMonitors', 'Tasks');
    let task = (await get(taskUri)).body;
    assert.equal(task.Name, 'SecureErase');
    assert.equal(task.TaskState, 'Running');
    assert.equal(task.PercentComplete, 0);
    let d = (await get(drive(2))).body;
    assert.equal(d.Operations[0].Operation, 'Sanitize');
    assert.equal(d.Operations[0].AssociatedTask['@odata.id'], taskUri);
    // The drive is busy: no second erase, no volume.
    assert.equal((await erase(2)).status, 409);
    const vol = await req('POST', `${ST}Volumes/`, { body: { RAIDType: 'RAID1', Links: links(2, 3) } });
    assert.equal(vol.status, 409);
    assert.match(vol.body.error['@Message.ExtendedInfo'][1].Message, /being erased/);

    await svc.clock.advance(3001_000);
    task = (await get(taskUri)).body;
    assert.equal(task.TaskState, 'Running');
    assert.equal(task.PercentComplete, 50);
    assert.equal((await get(drive(2))).body.Operations[0].PercentageComplete, 50);
    assert.equal((await get(monitor)).status, 202);

    await svc.clock.advance(3001_000);
    task = (await get(taskUri)).body;
    assert.equal(task.TaskState, 'Completed');
    assert.equal(task.PercentComplete, 100);
    assert.equal((await get(monitor)).status, 200);
    d = (await get(drive(2))).body;
    assert.deepEqual(d.Operations, []);
    // Free again.
    const again = await req('POST', `${ST}Volumes/`, { body: { RAIDType: 'RAID1', Links: links(2, 3) } });
    assert.equal(again.status, 202);
  });

  it('overwrite passes multiply the time', async () => {
    const r = await erase(4, { SanitizationType: 'Overwrite', OverwritePasses: 2 });
    assert.equal(r.status, 202);
    const taskUri = (r.headers.location as string).replace('TaskMonitors', 'Tasks');
    await svc.clock.advance(6002_000);
    assert.equal((await get(taskUri)).body.PercentComplete, 50);
    await svc.clock.advance(6002_000);
    assert.equal((await get(taskUri)).body.TaskState, 'Completed');
  });
});

describe("Ironic's redfish RAID interface, as sushy drives it", () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  const req = (method: string, path: string, o: RequestOptions = {}) => svc.req(method, path, { auth: 'basic', ...o });
  const get = (path: string) => req('GET', path);

  it('delete_configuration and create_configuration OnReset, a reboot, then every task monitor reports done', async () => {
    const storage = (await get((await get(SYS)).body.Storage['@odata.id'])).body;
    const st = (await get(storage.Members[0]['@odata.id'])).body;
    assert.ok(st.StorageControllers[0].SupportedRAIDTypes.includes('RAID1'));
    const volumes = (await get(st.Volumes['@odata.id'])).body;
    assert.ok(volumes['@Redfish.OperationApplyTimeSupport'].SupportedValues.includes('OnReset'));
    const monitors: string[] = [];
    for (const m of volumes.Members) {
      const r = await req('DELETE', m['@odata.id'], { body: { '@Redfish.OperationApplyTime': 'OnReset' } });
      assert.equal(r.status, 202);
      monitors.push(r.headers.location as string);
    }
    // Physical disks picked by protocol and media, as the RAID interface does.
    const hdds: string[] = [];
    for (const d of st.Drives) {
      const x = (await get(d['@odata.id'])).body;
      if (x.MediaType === 'HDD' && x.Protocol === 'SAS') hdds.push(d['@odata.id']);
    }
    assert.equal(hdds.length, 4);
    const r = await req('POST', st.Volumes['@odata.id'], {
      body: {
        Encrypted: false,
        VolumeType: 'Mirrored',
        RAIDType: 'RAID1',
        CapacityBytes: 100 * 1024 ** 3,
        Links: { Drives: hdds.slice(0, 2).map((u) => ({ '@odata.id': u })) },
        '@Redfish.OperationApplyTime': 'OnReset',
      },
    });
    assert.equal(r.status, 202, r.text);
    monitors.push(r.headers.location as string);
    for (const m of monitors) assert.equal((await get(m)).status, 202, 'still pending before the reboot');

    assert.equal((await req('POST', RESET, { body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    for (const m of monitors) assert.equal((await get(m)).status, 200, `${m} done`);
    const after = (await get(st.Volumes['@odata.id'])).body;
    assert.equal(after.Members.length, 1);
    const v = (await get(after.Members[0]['@odata.id'])).body;
    assert.equal(v.RAIDType, 'RAID1');
    assert.equal(v.CapacityBytes, 100 * 1024 ** 3);
    assert.deepEqual(
      v.Links.Drives.map((x: any) => x['@odata.id']),
      hdds.slice(0, 2),
    );
  });
});
