// Issue 7 points 1 and 2: task creation rules, and each row of the
// task state table on the controller clock.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import {
  FW,
  QUEUE,
  REPO,
  addComponent,
  advance,
  get,
  isoIn,
  post,
  queueStatus,
  taskState,
  until,
  version,
} from '../../support/update-queue.js';

describe('update task queue: creation rules and the task state table', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg' });
    await addComponent(svc, { targets: ['NIC'], version: '20.15.0', file: 'nic.fwpkg', type: 'B' });
  });
  after(() => svc.close());

  const del = (id: string) => svc.req('DELETE', `${QUEUE}${id}/`, { auth: 'basic' });
  const clear = async () => {
    for (const m of (await get(svc, QUEUE)).body.Members)
      assert.equal((await svc.req('DELETE', m['@odata.id'], { auth: 'basic' })).status, 200);
  };

  it('point 1: every violation is a 400 naming the property', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 }, 'Base.1.12.PropertyMissing', '#/Name'],
      [{ Name: 'x', Command: 'Wait', WaitTimeSeconds: 1 }, 'Base.1.12.PropertyMissing', '#/UpdatableBy'],
      [{ Name: 'x', UpdatableBy: ['Bmc'], WaitTimeSeconds: 1 }, 'Base.1.12.PropertyMissing', '#/Command'],
      [{ Name: 'x', UpdatableBy: ['Bios'], Command: 'Wait', WaitTimeSeconds: 1 }, 'Base.1.12.PropertyValueNotInList', '#/UpdatableBy/0'],
      [{ Name: 'x', UpdatableBy: ['Bmc'], Command: 'Flash' }, 'Base.1.12.PropertyValueNotInList', '#/Command'],
      [
        { Name: 'x', UpdatableBy: ['Bmc', 'Uefi'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' },
        'Base.1.12.PropertyValueIncorrect',
        '#/UpdatableBy',
      ],
      [
        { Name: 'x', UpdatableBy: ['Uefi', 'Uefi'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' },
        'Base.1.12.PropertyValueIncorrect',
        '#/UpdatableBy',
      ],
      [{ Name: 'x', UpdatableBy: [], Command: 'ApplyUpdate', Component: 'ie.fwpkg' }, 'Base.1.12.PropertyValueOutOfRange', '#/UpdatableBy'],
      [
        { Name: 'x', UpdatableBy: ['Uefi', 'RuntimeAgent'], Command: 'Wait', WaitTimeSeconds: 5 },
        'Base.1.12.PropertyValueConflict',
        '#/UpdatableBy',
      ],
      [{ Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait' }, 'Base.1.12.PropertyMissing', '#/WaitTimeSeconds'],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 3601 },
        'Base.1.12.PropertyValueOutOfRange',
        '#/WaitTimeSeconds',
      ],
      [{ Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: -1 }, 'Base.1.12.PropertyValueOutOfRange', '#/WaitTimeSeconds'],
      [{ Name: 'x', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate' }, 'Base.1.12.PropertyMissing', '#/Component'],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'nope.fwpkg' },
        'Base.1.12.PropertyValueNotInList',
        '#/Component',
      ],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1, Component: 'ie.fwpkg' },
        'Base.1.12.PropertyValueConflict',
        '#/Component',
      ],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg', StartAfter: 'tomorrow' },
        'Base.1.12.PropertyValueFormatError',
        '#/StartAfter',
      ],
      [
        {
          Name: 'x',
          UpdatableBy: ['Bmc'],
          Command: 'ApplyUpdate',
          Component: 'ie.fwpkg',
          StartAfter: isoIn(svc, 7200_000),
          Expire: isoIn(svc, 3600_000),
        },
        'Base.1.12.PropertyValueConflict',
        '#/Expire',
      ],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg', MaintenanceWindow: 'NoSuchWindow' },
        'Base.1.12.PropertyValueNotInList',
        '#/MaintenanceWindow',
      ],
      [
        {
          Name: 'x',
          UpdatableBy: ['Bmc'],
          Command: 'ApplyUpdate',
          Component: 'ie.fwpkg',
          Targets: Array.from({ length: 11 }, () => `${FW}5/`),
        },
        'Base.1.12.PropertyValueOutOfRange',
        '#/Targets',
      ],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg', Targets: [`${FW}99/`] },
        'Base.1.12.PropertyValueNotInList',
        '#/Targets/0',
      ],
      [{ Name: '', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 }, 'Base.1.12.PropertyValueFormatError', '#/Name'],
      [
        { Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1, State: 'Complete' },
        'Base.1.12.PropertyNotWritable',
        '#/State',
      ],
    ];
    for (const [body, id, prop] of cases) {
      const r = await post(svc, QUEUE, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.text}`);
      const info = r.body.error['@Message.ExtendedInfo'][0];
      assert.equal(info.MessageId, id, JSON.stringify(body));
      assert.deepEqual(info.RelatedProperties, [prop], JSON.stringify(body));
    }
    assert.equal((await get(svc, QUEUE)).body['Members@odata.count'], 0);
  });

  it('point 1: Name is unique; Id and URI derive from it; the component is Locked while referenced', async () => {
    const body = { Name: 'IE firmware 0.2.3', UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' };
    const r = await post(svc, QUEUE, body);
    assert.equal(r.status, 201, r.text);
    // Not URI-safe: the documented mapping (unsafe characters -> "_", plus 8 hex digits of SHA-256(Name)).
    const id = `IE_firmware_0.2.3-${createHash('sha256').update('IE firmware 0.2.3').digest('hex').slice(0, 8)}`;
    assert.equal(r.body.Id, id);
    assert.equal(r.headers.location, `${QUEUE}${id}/`);
    assert.equal(r.body.State, 'Pending');
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Locked, true);
    assert.equal((await svc.req('DELETE', `${REPO}ie.fwpkg/`, { auth: 'basic' })).status, 409);
    const dup = await post(svc, QUEUE, body);
    assert.equal(dup.status, 400);
    assert.deepEqual(messageIds(dup.body), ['Base.1.12.PropertyValueIncorrect', 'Base.1.12.ResourceAlreadyExists']);
    const safe = await post(svc, QUEUE, { Name: 'wait-1', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 5 });
    assert.equal(safe.headers.location, `${QUEUE}wait-1/`);
    // A second task on the component: the lock stays until the last reference goes.
    await post(svc, QUEUE, { Name: 'IE again', UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' });
    assert.equal((await del(r.body.Id)).status, 200);
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Locked, true);
    await clear();
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Locked, false);
  });

  it('names the component of a task by its Filename, or by its Name when no other component has it', async () => {
    await clear();
    const byName = await post(svc, QUEUE, {
      Name: 'by-name',
      UpdatableBy: ['Uefi'],
      Command: 'ApplyUpdate',
      Component: 'NIC firmware 20.15.0',
      TPMOverride: true,
    });
    assert.equal(byName.status, 201, byName.text);
    assert.equal((await get(svc, byName.headers.location as string)).body.Component, 'nic.fwpkg', 'stored by its Filename');
    // A second file with the same Name makes the Name ambiguous: the answer lists both files.
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie-copy.fwpkg' });
    const twice = await post(svc, QUEUE, {
      Name: 'ambiguous',
      UpdatableBy: ['Uefi'],
      Command: 'ApplyUpdate',
      Component: 'IE firmware 0.2.3.0',
      TPMOverride: true,
    });
    assert.equal(twice.status, 400);
    assert.ok(messageIds(twice.body).includes('Vendor.1.0.ComponentNameAmbiguous'));
    assert.match(twice.text, /ie-copy\.fwpkg, ie\.fwpkg/);
    await clear();
    assert.equal((await svc.req('DELETE', `${REPO}ie-copy.fwpkg/`, { auth: 'basic' })).status, 200);
  });

  it('point 1: TPMOverride must be true while a TPM is installed and in use', async () => {
    svc.running.services.host.setTpm({ installed: true, inUse: true });
    try {
      const body = { Name: 'tpm', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg', StartAfter: isoIn(svc, 3600_000) };
      let r = await post(svc, QUEUE, body);
      assert.equal(r.status, 400);
      assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/TPMOverride']);
      r = await post(svc, QUEUE, { ...body, TPMOverride: false });
      assert.equal(r.status, 400);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueIncorrect']);
      // A Wait changes no firmware: no override needed.
      assert.equal(
        (await post(svc, QUEUE, { Name: 'w', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 0, StartAfter: isoIn(svc, 3600_000) }))
          .status,
        201,
      );
      r = await post(svc, QUEUE, { ...body, TPMOverride: true });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.TPMOverride, true);
    } finally {
      svc.running.services.host.setTpm({ installed: true, inUse: false });
      await clear();
    }
  });

  it('row 1: a Bmc task at the head starts at once; a new task goes to the end', async () => {
    const a = await post(svc, QUEUE, { Name: 'a', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 30 });
    assert.equal(a.body.State, 'InProgress');
    assert.equal(a.body.RunBy, 'Bmc');
    const b = await post(svc, QUEUE, { Name: 'b', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 10 });
    assert.equal(b.body.State, 'Pending');
    assert.deepEqual(
      (await get(svc, QUEUE)).body.Members.map((m: { '@odata.id': string }) => m['@odata.id']),
      [`${QUEUE}a/`, `${QUEUE}b/`],
    );
    // A Wait task waits WaitTimeSeconds on the controller clock.
    await svc.clock.advance(29_000);
    assert.equal(await taskState(svc, 'a'), 'InProgress');
    await svc.clock.advance(1_000);
    assert.equal(await taskState(svc, 'a'), 'Complete');
    assert.equal(await taskState(svc, 'b'), 'InProgress');
    await svc.clock.advance(10_000);
    assert.equal(await taskState(svc, 'b'), 'Complete');
    assert.equal((await queueStatus(svc)).State, 'Idle');
  });

  it('row "Complete": removed 24 hours after completion, and passed over meanwhile', async () => {
    // done-a completes, done-b 10 s later (each starts at once: completed tasks are passed over).
    assert.equal(
      (await post(svc, QUEUE, { Name: 'done-a', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 30 })).body.State,
      'InProgress',
    );
    await svc.clock.advance(30_000);
    assert.equal(
      (await post(svc, QUEUE, { Name: 'done-b', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 10 })).body.State,
      'InProgress',
    );
    await svc.clock.advance(10_000);
    assert.equal(await taskState(svc, 'done-a'), 'Complete');
    await svc.clock.advance(24 * 3600_000 - 60_000);
    assert.equal(await taskState(svc, 'done-a'), 'Complete');
    assert.equal(await taskState(svc, 'done-b'), 'Complete');
    await svc.clock.advance(60_000);
    assert.equal(await taskState(svc, 'done-a'), 404);
    assert.equal(await taskState(svc, 'done-b'), 404);
  });

  it('row "Pending -> InProgress": only once the clock is past StartAfter (stall WindowNotOpen)', async () => {
    const r = await post(svc, QUEUE, {
      Name: 'later',
      UpdatableBy: ['Bmc'],
      Command: 'Wait',
      WaitTimeSeconds: 1,
      StartAfter: isoIn(svc, 3600_000),
    });
    assert.equal(r.body.State, 'Pending');
    const st = await queueStatus(svc);
    assert.equal(st.State, 'Stalled');
    assert.equal(st.Reason, 'WindowNotOpen');
    assert.equal(st.HeadTask?.['@odata.id'], `${QUEUE}later/`);
    await svc.clock.advance(3600_000 - 1);
    assert.equal(await taskState(svc, 'later'), 'Pending');
    await svc.clock.advance(1);
    assert.equal(await taskState(svc, 'later'), 'InProgress');
    await svc.clock.advance(1_000);
    assert.equal(await taskState(svc, 'later'), 'Complete');
    await clear();
  });

  it('row "Pending -> Expired" on the clock; Expired stops the updaters until DELETEd (stall ExpiredAtHead)', async () => {
    await post(svc, QUEUE, {
      Name: 'uefi-window',
      UpdatableBy: ['Uefi'],
      Command: 'ApplyUpdate',
      Component: 'nic.fwpkg',
      Expire: isoIn(svc, 600_000),
    });
    await post(svc, QUEUE, { Name: 'after', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 });
    // No reboot in the window: the Uefi task waits at the head, the Bmc task behind it waits too.
    let st = await queueStatus(svc);
    assert.equal(st.Reason, 'WaitingForReboot');
    assert.equal(await taskState(svc, 'after'), 'Pending');
    await svc.clock.advance(600_000);
    const t = (await get(svc, `${QUEUE}uefi-window/`)).body;
    assert.equal(t.State, 'Expired');
    assert.deepEqual(messageIds({ error: { '@Message.ExtendedInfo': t.Messages } }), ['Vendor.1.0.UpdateTaskExpired']);
    st = await queueStatus(svc);
    assert.equal(st.State, 'Stalled');
    assert.equal(st.Reason, 'ExpiredAtHead');
    await svc.clock.advance(3600_000);
    assert.equal(await taskState(svc, 'after'), 'Pending');
    assert.equal(await taskState(svc, 'uefi-window'), 'Expired', 'never removed automatically');
    assert.ok((await get(svc, '/redfish/v1/Systems/1/LogServices/IML/Entries/?$expand=.')).text.includes('UpdateTaskExpired'));
    assert.equal((await del('uefi-window')).status, 200);
    assert.equal(await taskState(svc, 'after'), 'InProgress');
    await svc.clock.advance(1_000);
    await clear();
  });

  it('row "InProgress -> Complete": the Bmc updater flashes through the update service (inventory changes)', async () => {
    assert.equal(await version(svc, `${FW}5/`), '0.2.2.0');
    const r = await post(svc, QUEUE, { Name: 'ie', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' });
    assert.equal(r.body.State, 'InProgress');
    // Firmware being written makes the update service Busy.
    assert.equal((await get(svc, '/redfish/v1/UpdateService/')).body.Oem.Vendor.State, 'Updating');
    await until(svc, 'ie', 'Complete');
    assert.equal(await version(svc, `${FW}5/`), '0.2.3.0');
    const t = (await get(svc, `${QUEUE}ie/`)).body;
    assert.equal(t.Messages[0].MessageId, 'Vendor.1.0.UpdateTaskCompleted');
    assert.ok(t.EndTime);
    await clear();
  });

  it('row "InProgress -> Exception": incompatible component or injected fault; Exception stops the queue until DELETEd', async () => {
    // A Type B (UEFI) component cannot be written by the controller itself.
    await post(svc, QUEUE, { Name: 'nic-by-bmc', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'nic.fwpkg' });
    await post(svc, QUEUE, { Name: 'behind', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 });
    await until(svc, 'nic-by-bmc', 'Exception');
    let t = (await get(svc, `${QUEUE}nic-by-bmc/`)).body;
    assert.deepEqual(messageIds({ error: { '@Message.ExtendedInfo': t.Messages } }), [
      'Vendor.1.0.UpdateTaskFailed',
      'Vendor.1.0.ComponentNotFlashable',
    ]);
    const st = await queueStatus(svc);
    assert.equal(st.Reason, 'ExceptionAtHead');
    assert.match(st.Message, /stalled at task nic-by-bmc/);
    await advance(svc, 3600_000, 600_000);
    assert.equal(await taskState(svc, 'behind'), 'Pending');
    assert.equal(await taskState(svc, 'nic-by-bmc'), 'Exception', 'never removed automatically');
    await del('nic-by-bmc');
    await svc.clock.advance(1_000);
    assert.equal(await taskState(svc, 'behind'), 'Complete');

    // The documented fault hook: SIMULATE_FAILURE in the component's ExecutionParameters.
    assert.equal(
      (await svc.req('PATCH', `${REPO}ie.fwpkg/`, { auth: 'basic', body: { ExecutionParameters: '--silent SIMULATE_FAILURE' } })).status,
      200,
    );
    await post(svc, QUEUE, { Name: 'faulty', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'ie.fwpkg' });
    await until(svc, 'faulty', 'Exception');
    t = (await get(svc, `${QUEUE}faulty/`)).body;
    assert.match(t.Messages[0].Message, /SIMULATE_FAILURE/);
    await svc.req('PATCH', `${REPO}ie.fwpkg/`, { auth: 'basic', body: { ExecutionParameters: '' } });
    await clear();
  });

  it('rows "Canceled" and "Complete": passed over; only a Pending task can be canceled (PATCH State)', async () => {
    await post(svc, QUEUE, { Name: 'gate', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 5 });
    await post(svc, QUEUE, { Name: 'skip-me', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 5 });
    await post(svc, QUEUE, { Name: 'then', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 5 });
    let r = await svc.req('PATCH', `${QUEUE}gate/`, { auth: 'basic', body: { State: 'Canceled' } });
    assert.equal(r.status, 409);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.UpdateTaskNotCancelable']);
    r = await svc.req('PATCH', `${QUEUE}skip-me/`, { auth: 'basic', body: { State: 'Complete' } });
    assert.equal(r.status, 400);
    r = await svc.req('PATCH', `${QUEUE}skip-me/`, { auth: 'basic', body: { State: 'Canceled' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(await taskState(svc, 'skip-me'), 'Canceled');
    await svc.clock.advance(5_000);
    // gate Complete and skip-me Canceled are passed over: "then" runs without a reboot.
    assert.equal(await taskState(svc, 'then'), 'InProgress');
    await svc.clock.advance(5_000);
    assert.equal(await taskState(svc, 'then'), 'Complete');
    await svc.clock.advance(48 * 3600_000);
    assert.equal(await taskState(svc, 'skip-me'), 'Canceled', 'a Canceled task stays');
    assert.equal(await taskState(svc, 'gate'), 404);
    await clear();
  });

  it('DELETE removes an InProgress task: its write never happens and the next task starts', async () => {
    await post(svc, QUEUE, { Name: 'doomed', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: 'nic.fwpkg' });
    await post(svc, QUEUE, { Name: 'next', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 });
    assert.equal(await taskState(svc, 'doomed'), 'InProgress');
    assert.equal((await del('doomed')).status, 200);
    assert.equal(await taskState(svc, 'doomed'), 404);
    await advance(svc, 2_000);
    assert.equal(await taskState(svc, 'next'), 'Complete');
    assert.equal((await get(svc, '/redfish/v1/UpdateService/')).body.Oem.Vendor.State === 'Updating', false);
    assert.equal((await del('nope')).status, 404);
    await clear();
  });

  it('needs ManagerConfigPriv to write, Login to read', async () => {
    const made = await post(svc, '/redfish/v1/AccountService/Accounts/', {
      UserName: 'operator',
      Password: 'Operator-Pass-1',
      RoleId: 'Operator',
    });
    assert.equal(made.status, 201, made.text);
    const op = { auth: { user: 'operator', password: 'Operator-Pass-1' } };
    assert.equal((await svc.req('GET', QUEUE, op)).status, 200);
    const r = await svc.req('POST', QUEUE, { ...op, body: { Name: 'x', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 } });
    assert.equal(r.status, 403);
  });
});
