// Issue 7 point 4: maintenance windows, and tasks scheduled into them.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import { QUEUE, WINDOWS, get, isoIn, post, queueStatus, taskState } from '../../support/update-queue.js';

// Each test has a service of its own and makes the windows and tasks it needs.
describe('maintenance windows', () => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService();
  });
  afterEach(() => svc.close());

  const patch = (path: string, body: unknown) => svc.req('PATCH', path, { auth: 'basic', body });
  const SATURDAY = { Name: 'Saturday', StartAfter: '2026-11-28T22:00:00Z', Expire: '2026-11-29T04:00:00Z' };
  const window = async (body: Record<string, unknown>) => {
    const r = await post(svc, WINDOWS, body);
    assert.equal(r.status, 201, r.text);
  };
  const waitTask = async (Name: string, MaintenanceWindow: string, agent = 'Uefi', WaitTimeSeconds = 1) => {
    const r = await post(svc, QUEUE, { Name, UpdatableBy: [agent], Command: 'Wait', WaitTimeSeconds, MaintenanceWindow });
    assert.equal(r.status, 201, r.text);
  };

  it('POST creates a window; Id and URI derive from the Name; null times are allowed', async () => {
    let r = await post(svc, WINDOWS, { Name: 'Saturday', StartAfter: '2026-11-28T22:00:00Z', Expire: '2026-11-29T04:00:00Z' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.location, `${WINDOWS}Saturday/`);
    assert.equal(r.body.Id, 'Saturday');
    assert.equal(r.body['@odata.type'], '#VendorMaintenanceWindow.v1_0_0.VendorMaintenanceWindow');
    r = await post(svc, WINDOWS, { Name: 'Open ended', StartAfter: '2026-11-23T00:00:00Z', Expire: null });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.Id, /^Open_ended-[0-9a-f]{8}$/);
    assert.equal(r.body.Expire, null);
    r = await post(svc, WINDOWS, { Name: 'Anytime' });
    assert.equal(r.body.StartAfter, null);
    const list = (await get(svc, WINDOWS)).body;
    assert.equal(list['Members@odata.count'], 3);
  });

  it('refuses duplicate names, bad times and Expire before StartAfter with 400s naming the property', async () => {
    await window(SATURDAY);
    const cases: [unknown, string, string][] = [
      [{ Name: 'Saturday' }, 'Base.1.12.PropertyValueIncorrect', '#/Name'],
      [{ StartAfter: null }, 'Base.1.12.PropertyMissing', '#/Name'],
      [{ Name: 'w', StartAfter: 'soon' }, 'Base.1.12.PropertyValueFormatError', '#/StartAfter'],
      [{ Name: 'w', StartAfter: '2026-12-01T00:00:00Z', Expire: '2026-11-30T00:00:00Z' }, 'Base.1.12.PropertyValueConflict', '#/Expire'],
      [{ Name: 'w', Id: 'x' }, 'Base.1.12.PropertyNotWritable', '#/Id'],
    ];
    for (const [body, id, prop] of cases) {
      const r = await post(svc, WINDOWS, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error['@Message.ExtendedInfo'][0].MessageId, id, JSON.stringify(body));
      assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, [prop]);
    }
  });

  it('a task in a window takes its times; a window and own times together are refused', async () => {
    await window(SATURDAY);
    let r = await post(svc, QUEUE, {
      Name: 'in-window',
      UpdatableBy: ['Bmc'],
      Command: 'Wait',
      WaitTimeSeconds: 60,
      MaintenanceWindow: 'Saturday',
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.StartAfter, '2026-11-28T22:00:00Z');
    assert.equal(r.body.Expire, '2026-11-29T04:00:00Z');
    assert.equal(r.body.MaintenanceWindow, 'Saturday');
    assert.equal(r.body.State, 'Pending');
    assert.equal((await queueStatus(svc)).Reason, 'WindowNotOpen');
    r = await post(svc, QUEUE, {
      Name: 'both',
      UpdatableBy: ['Bmc'],
      Command: 'Wait',
      WaitTimeSeconds: 1,
      MaintenanceWindow: 'Saturday',
      StartAfter: isoIn(svc, 60_000),
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
  });

  it('PATCH reschedules every Pending task that refers to the window', async () => {
    await window(SATURDAY);
    await waitTask('in-window', 'Saturday', 'Bmc', 60);
    const start = isoIn(svc, 3600_000);
    const r = await patch(`${WINDOWS}Saturday/`, { StartAfter: start });
    assert.equal(r.status, 200, r.text);
    const t = (await get(svc, `${QUEUE}in-window/`)).body;
    assert.equal(t.StartAfter, start);
    assert.equal(t.Expire, '2026-11-29T04:00:00Z');
    await svc.clock.advance(3600_000 - 1);
    assert.equal(await taskState(svc, 'in-window'), 'Pending');
    await svc.clock.advance(1);
    assert.equal(await taskState(svc, 'in-window'), 'InProgress');
    await svc.clock.advance(60_000);
    assert.equal(await taskState(svc, 'in-window'), 'Complete');
  });

  it('PATCH Name moves the window to a new Id and URI (Location), and the tasks follow it', async () => {
    await window(SATURDAY);
    await window({ Name: 'Anytime' });
    await waitTask('in-window', 'Saturday');
    await waitTask('follower', 'Saturday');
    const r = await patch(`${WINDOWS}Saturday/`, { Name: 'Sunday' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.location, `${WINDOWS}Sunday/`);
    assert.equal((await get(svc, `${WINDOWS}Saturday/`)).status, 404);
    assert.equal((await get(svc, `${WINDOWS}Sunday/`)).body.Name, 'Sunday');
    assert.equal((await get(svc, `${QUEUE}follower/`)).body.MaintenanceWindow, 'Sunday');
    assert.equal((await get(svc, `${QUEUE}in-window/`)).body.MaintenanceWindow, 'Sunday');
    // Renaming onto another window's name is refused.
    const clash = await patch(`${WINDOWS}Sunday/`, { Name: 'Anytime' });
    assert.equal(clash.status, 400);
    // Moving Expire into the past expires the Pending task at once.
    const e = await patch(`${WINDOWS}Sunday/`, { StartAfter: null, Expire: isoIn(svc, -1000) });
    assert.equal(e.status, 200, e.text);
    assert.equal(await taskState(svc, 'follower'), 'Expired');
    assert.equal((await queueStatus(svc)).Reason, 'ExpiredAtHead');
  });

  it('DELETE detaches the referring tasks: they keep the times they had', async () => {
    await window({ Name: 'Sunday', StartAfter: '2026-11-29T22:00:00Z', Expire: '2026-11-30T04:00:00Z' });
    await waitTask('follower', 'Sunday');
    const before = (await get(svc, `${QUEUE}follower/`)).body;
    const r = await svc.req('DELETE', `${WINDOWS}Sunday/`, { auth: 'basic' });
    assert.equal(r.status, 200);
    const t = (await get(svc, `${QUEUE}follower/`)).body;
    assert.equal(t.MaintenanceWindow, null);
    assert.equal(t.StartAfter, before.StartAfter);
    assert.equal(t.Expire, before.Expire);
    assert.equal(t.Expire, '2026-11-30T04:00:00Z');
    assert.equal((await svc.req('DELETE', `${WINDOWS}Sunday/`, { auth: 'basic' })).status, 404);
  });

  it('windows and references survive a restart', async () => {
    await window({ Name: 'Anytime' });
    await window({ Name: 'Open ended', StartAfter: '2026-11-23T00:00:00Z', Expire: null });
    await waitTask('kept-times', 'Anytime');
    svc = await svc.restart();
    assert.equal((await get(svc, `${WINDOWS}Anytime/`)).status, 200);
    assert.equal((await get(svc, `${QUEUE}kept-times/`)).body.MaintenanceWindow, 'Anytime');
    assert.equal((await get(svc, WINDOWS)).body['Members@odata.count'], 2);
  });
});
