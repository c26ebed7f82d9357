// Issue 28 item 4: the task queue, install sets and maintenance windows as ilorest drives them:
// the ResetServer and ResetBmc commands, iLO's Filename of a task, times without an offset
// (read on the controller's clock), and Invoke's ClearTaskQueue and UpdateRecoverySet.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import {
  QUEUE,
  REPO,
  SETS,
  WINDOWS,
  addComponent,
  advance,
  get,
  post,
  resetHost,
  settle,
  taskState,
  until,
  NO_RECOVERY,
  addNoRecoveryAccount,
} from '../../support/update-queue.js';

const AGENT_ACTION = `${QUEUE}Actions/Oem/Vendor/VendorUpdateTaskQueue.SetRuntimeAgent/`;
describe('update queue as ilorest drives it (taskqueue, installset, maintenancewindow)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg', criticality: 'Critical' });
    await addComponent(svc, { targets: ['IE'], version: '0.2.5.0', file: 'ie-new.fwpkg', criticality: 'Critical' });
    await addNoRecoveryAccount(svc);
  });
  after(() => svc.close());

  const clear = async () => {
    for (const m of (await get(svc, QUEUE)).body.Members) await svc.req('DELETE', m['@odata.id'], { auth: 'basic' });
  };
  const members = async (path: string) => (await get(svc, `${path}?$expand=.`)).body.Members as Record<string, any>[];
  /** A time `ms` from now as ilorest writes it: no offset. */
  const localIn = (ms: number) => new Date(svc.clock.now() + ms).toISOString().replace(/\.\d{3}Z$/, '');

  it("takes ilorest's tasks: Wait, ResetServer for the runtime agent, ApplyUpdate naming its Filename", async () => {
    const comp = (await members(REPO)).find((c) => c.Filename === 'ie.fwpkg');
    assert.ok(comp);
    let r = await post(svc, QUEUE, { Name: 'Wait-4711 30 seconds', Command: 'Wait', WaitTimeSeconds: 30, UpdatableBy: ['Bmc'] });
    assert.equal(r.status, 201, r.text);
    r = await post(svc, QUEUE, { Name: 'Reboot-4712', Command: 'ResetServer', UpdatableBy: ['RuntimeAgent'] });
    assert.equal(r.status, 201, r.text);
    r = await post(svc, QUEUE, {
      Name: `Update-4713 b'${comp.Name}'`,
      Command: 'ApplyUpdate',
      Filename: comp.Filename,
      UpdatableBy: comp.UpdatableBy,
      TPMOverride: true,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.Filename, 'ie.fwpkg');
    assert.equal(r.body.Component, 'ie.fwpkg');
    const queue = await members(QUEUE);
    assert.deepEqual(
      queue.map((t) => [t.Command, t.Filename ?? null]),
      [
        ['Wait', null],
        ['ResetServer', null],
        ['ApplyUpdate', 'ie.fwpkg'],
      ],
    );
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Locked, true);
    await clear();
  });

  it('refuses a reset the updater cannot make, and a Filename that disagrees with Component', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ Name: 'r1', Command: 'ResetBmc', UpdatableBy: ['RuntimeAgent'] }, '#/UpdatableBy'],
      [{ Name: 'r2', Command: 'ResetServer', UpdatableBy: ['Uefi'] }, '#/UpdatableBy'],
      [{ Name: 'r3', Command: 'ResetServer', UpdatableBy: ['Bmc'], Filename: 'ie.fwpkg' }, '#/Filename'],
      [{ Name: 'r4', Command: 'ApplyUpdate', UpdatableBy: ['Bmc'], Filename: 'ie.fwpkg', Component: 'ie-new.fwpkg' }, '#/Filename'],
    ];
    for (const [body, pointer] of cases) {
      const r = await post(svc, QUEUE, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.ok(
        r.body.error['@Message.ExtendedInfo'].some((m: any) => m.RelatedProperties?.includes(pointer)),
        `${JSON.stringify(body)}: ${r.text}`,
      );
    }
    assert.equal((await members(QUEUE)).length, 0);
  });

  it('ResetServer: the runtime agent restarts the server and the task is Complete; ResetBmc resets the controller', async () => {
    const server = svc.running.services.server;
    if (server.powerState() === 'Off') await resetHost(svc, 'On');
    for (let i = 0; i < 60 && server.snapshot().phase !== 'OsRunning'; i++) await advance(svc, 5_000);
    assert.equal(server.snapshot().phase, 'OsRunning');
    assert.equal((await post(svc, AGENT_ACTION, { Installed: true })).status, 200);
    const boots = server.snapshot().bootCount;
    const r = await post(svc, QUEUE, { Name: 'Reboot-1', Command: 'ResetServer', UpdatableBy: ['RuntimeAgent'] });
    assert.equal(r.status, 201, r.text);
    await until(svc, r.body.Id, 'Complete', 120_000);
    for (let i = 0; i < 60 && server.snapshot().bootCount === boots; i++) await advance(svc, 5_000);
    assert.equal(server.snapshot().bootCount, boots + 1);
    const resets = svc.running.services.controller.resets;
    const b = await post(svc, QUEUE, { Name: 'ResetBmc-1', Command: 'ResetBmc', UpdatableBy: ['Bmc'] });
    assert.equal(b.status, 201, b.text);
    await settle();
    assert.equal(await taskState(svc, b.body.Id), 'Complete');
    assert.equal(svc.running.services.controller.resets, resets + 1);
    assert.equal((await post(svc, AGENT_ACTION, { Installed: false })).status, 200);
    await clear();
  });

  it("reads times without an offset on the controller's clock: windows, tasks, Invoke", async () => {
    let r = await post(svc, WINDOWS, { Name: 'r28mw', StartAfter: '2030-01-01T00:00:00', Expire: '2030-01-02T00:00:00', Description: 'x' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.StartAfter, '2030-01-01T00:00:00Z');
    assert.equal(r.body.Expire, '2030-01-02T00:00:00Z');
    for (const bad of ['2030-01-01T00:00', '2030-01-01 00:00:00', '2030-13-01T00:00:00']) {
      r = await post(svc, WINDOWS, { Name: `bad-${bad.length}`, StartAfter: bad });
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError'], bad);
    }
    r = await svc.req('DELETE', `${WINDOWS}r28mw/`, { auth: 'basic' });
    assert.equal(r.status, 200);
    // A Wait task that may start in a minute, as ilorest writes the time: Pending until then.
    r = await post(svc, QUEUE, { Name: 'later', Command: 'Wait', WaitTimeSeconds: 1, UpdatableBy: ['Bmc'], StartAfter: localIn(60_000) });
    assert.equal(r.status, 201, r.text);
    await advance(svc, 50_000, 10_000);
    assert.equal(await taskState(svc, 'later'), 'Pending');
    await until(svc, 'later', 'Complete', 30_000, 5_000);
    await clear();
  });

  it('Invoke with ClearTaskQueue empties the queue first; its StartAfter may come without an offset', async () => {
    let r = await post(svc, SETS, {
      Name: 'r28set',
      Sequence: [
        { Name: 'r28-wait', Command: 'Wait', WaitTimeSeconds: 5, UpdatableBy: ['Bmc'] },
        { Name: 'r28-ie', Command: 'ApplyUpdate', Filename: 'ie.fwpkg', UpdatableBy: ['Uefi'] },
      ],
    });
    assert.equal(r.status, 201, r.text);
    const invoke = `${SETS}r28set/Actions/VendorComponentInstallSet.Invoke/`;
    // A task holding the name the set will use, and another: both go with ClearTaskQueue.
    assert.equal((await post(svc, QUEUE, { Name: 'r28-wait', Command: 'Wait', WaitTimeSeconds: 9, UpdatableBy: ['Uefi'] })).status, 201);
    assert.equal((await post(svc, QUEUE, { Name: 'other', Command: 'Wait', WaitTimeSeconds: 9, UpdatableBy: ['Uefi'] })).status, 201);
    r = await post(svc, invoke, { StartAfter: '2030-01-01T00:00:00' });
    assert.equal(r.status, 400, 'without ClearTaskQueue the names collide');
    r = await post(svc, invoke, { ClearTaskQueue: true, StartAfter: '2030-01-01T00:00:00' });
    assert.equal(r.status, 200, r.text);
    const queue = await members(QUEUE);
    assert.deepEqual(
      queue.map((t) => [t.Name, t.StartAfter]),
      [
        ['r28-wait', '2030-01-01T00:00:00Z'],
        ['r28-ie', '2030-01-01T00:00:00Z'],
      ],
    );
    assert.equal(queue[0]?.WaitTimeSeconds, 5);
    await clear();
    assert.equal((await svc.req('DELETE', `${SETS}r28set/`, { auth: 'basic' })).status, 200);
  });

  it('UpdateRecoverySet needs SystemRecoveryConfigPriv; what the task applies replaces its image in the recovery set', async () => {
    let r = await post(svc, SETS, {
      Name: 'System Recovery Set',
      IsRecovery: true,
      Sequence: [{ Name: 'IE recovery', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }],
    });
    assert.equal(r.status, 201, r.text);
    const recovery = r.body['@odata.id'] as string;
    r = await post(svc, SETS, {
      Name: 'ie-update',
      Sequence: [{ Name: 'ie-new', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie-new.fwpkg' }],
    });
    assert.equal(r.status, 201, r.text);
    const invoke = `${SETS}ie-update/Actions/VendorComponentInstallSet.Invoke/`;
    r = await svc.req('POST', invoke, { auth: NO_RECOVERY, body: { UpdateRecoverySet: true } });
    assert.equal(r.status, 403, r.text);
    r = await post(svc, invoke, { UpdateRecoverySet: true });
    assert.equal(r.status, 200, r.text);
    assert.equal((await get(svc, `${QUEUE}ie-new/`)).body.UpdateRecoverySet, true);
    await until(svc, 'ie-new', 'Complete', 120_000);
    assert.equal((await get(svc, recovery)).body.Sequence[0].Filename, 'ie-new.fwpkg');
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Locked, false);
    await clear();
  });
});
