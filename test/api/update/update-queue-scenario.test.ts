// Issue 7 point 7: a full iLO-style staged update. Upload components, build
// an install set, invoke it into a maintenance window, reboot, and watch the
// Bmc, Uefi and RuntimeAgent tasks complete in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceEvent } from '../../../src/domain/events/bus.js';
import { startTestService, type TestService } from '../../support/service.js';
import {
  FW,
  QUEUE,
  SETS,
  SW,
  WINDOWS,
  addComponent,
  advance,
  get,
  isoIn,
  post,
  queueStatus,
  resetHost,
  until,
  version,
} from '../../support/update-queue.js';

describe('staged update scenario', () => {
  let svc: TestService;
  const events: ServiceEvent[] = [];
  before(async () => {
    svc = await startTestService({ config: { runtimeAgent: 'installed' } });
    svc.running.services.events.subscribe((e) => events.push(e));
  });
  after(() => svc.close());

  it('Bmc, then Uefi at the reboot, then RuntimeAgent in the OS, in queue order', async () => {
    // 1. Components into the repository through the HttpPushUri.
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie-0.2.3.fwpkg' });
    await addComponent(svc, { targets: ['NIC'], version: '20.15.0', file: 'nic-20.15.fwpkg', type: 'B' });
    await addComponent(svc, { targets: ['AMS'], version: '2.11.0', file: 'ams-2.11.fwpkg', type: 'C' });

    // 2. An install set for the three updaters.
    let r = await post(svc, SETS, {
      Name: 'Quarterly',
      Sequence: [
        { Name: 'IE firmware', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie-0.2.3.fwpkg' },
        { Name: 'NIC firmware', UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Filename: 'nic-20.15.fwpkg' },
        { Name: 'AMS', UpdatableBy: ['RuntimeAgent'], Command: 'ApplyUpdate', Filename: 'ams-2.11.fwpkg' },
      ],
    });
    assert.equal(r.status, 201, r.text);

    // 3. A window opening in an hour, for four hours; 4. invoke into it.
    r = await post(svc, WINDOWS, { Name: 'Tonight', StartAfter: isoIn(svc, 3600_000), Expire: isoIn(svc, 5 * 3600_000) });
    assert.equal(r.status, 201, r.text);
    r = await post(svc, `${SETS}Quarterly/Actions/VendorComponentInstallSet.Invoke/`, { MaintenanceWindow: 'Tonight' });
    assert.equal(r.status, 200, r.text);
    const ids = (await get(svc, QUEUE)).body.Members.map((m: { '@odata.id': string }) => m['@odata.id'].split('/').at(-2));
    assert.deepEqual(ids, ['IE_firmware-' + ids[0].split('-').at(-1), 'NIC_firmware-' + ids[1].split('-').at(-1), 'AMS']);
    const [ie, nic, ams] = ids as [string, string, string];

    // Nothing runs before the window opens.
    await advance(svc, 3600_000 - 60_000, 600_000);
    assert.equal((await queueStatus(svc)).Reason, 'WindowNotOpen');
    assert.equal(await version(svc, `${FW}5/`), '0.2.2.0');

    // The window opens: the controller runs its task at once; the Uefi task then waits for a reboot.
    await advance(svc, 60_000, 10_000);
    await until(svc, ie, 'Complete', 120_000, 5_000);
    assert.equal(await version(svc, `${FW}5/`), '0.2.3.0');
    assert.equal((await queueStatus(svc)).Reason, 'WaitingForReboot');

    // 5. Reboot: UEFI writes the NIC during POST, the OS starts, the agent installs AMS.
    await resetHost(svc, 'On');
    await until(svc, nic, 'Complete', 120_000, 1_000);
    assert.equal(await version(svc, `${FW}7/`), '20.15.0');
    await until(svc, ams, 'Complete', 300_000, 5_000);
    assert.equal(await version(svc, `${SW}1/`), '2.11.0');

    const tasks = await Promise.all([ie, nic, ams].map(async (id) => (await get(svc, `${QUEUE}${id}/`)).body));
    assert.deepEqual(
      tasks.map((t) => t.RunBy),
      ['Bmc', 'Uefi', 'RuntimeAgent'],
    );
    const ends = tasks.map((t) => Date.parse(t.EndTime));
    assert.ok(ends[0]! < ends[1]! && ends[1]! < ends[2]!, `completed in order: ${tasks.map((t) => t.EndTime)}`);
    assert.equal((await queueStatus(svc)).State, 'Idle');

    // Task events, in order.
    const taskEvents = events
      .filter((e) => e.message.MessageId.startsWith('TaskEvent.'))
      .map((e) => `${e.message.MessageId.split('.').at(-1)} ${e.message.MessageArgs[0]}`);
    assert.deepEqual(taskEvents, [
      `TaskStarted ${ie}`,
      `TaskCompletedOK ${ie}`,
      `TaskStarted ${nic}`,
      `TaskCompletedOK ${nic}`,
      `TaskStarted ${ams}`,
      `TaskCompletedOK ${ams}`,
    ]);

    // Complete tasks go 24 h after they finished.
    await advance(svc, 24 * 3600_000, 3600_000);
    assert.equal((await get(svc, QUEUE)).body['Members@odata.count'], 0);
  });
});
