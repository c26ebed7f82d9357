// Issue 7 point 3 (the three updaters and the queue stalls) and point 6
// (restart and controller reset), on the controller clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import {
  FW,
  QUEUE,
  SW,
  addComponent,
  advance,
  get,
  post,
  queueStatus,
  resetHost,
  taskState,
  until,
  version,
} from '../../support/update-queue.js';

const AGENT_ACTION = `${QUEUE}Actions/Oem/Vendor/VendorUpdateTaskQueue.SetRuntimeAgent/`;

describe('update task queue: updaters, stalls, restart and controller reset', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await addComponent(svc, { targets: ['NIC'], version: '20.15.0', file: 'nic.fwpkg', type: 'B' });
    await addComponent(svc, { targets: ['AMS'], version: '2.11.0', file: 'ams.fwpkg', type: 'C' });
    await addComponent(svc, { targets: ['StorageController'], version: '3.60', file: 'sa.fwpkg', type: 'B' });
  });
  after(() => svc.close());

  const del = (id: string) => svc.req('DELETE', `${QUEUE}${id}/`, { auth: 'basic' });
  const clear = async () => {
    for (const m of (await get(svc, QUEUE)).body.Members) await svc.req('DELETE', m['@odata.id'], { auth: 'basic' });
  };
  const setAgent = async (Installed: boolean) => {
    const r = await post(svc, AGENT_ACTION, { Installed });
    assert.equal(r.status, 200, r.text);
  };
  /** The server on and its OS running (a test before may have booted it already). */
  const osRunning = async () => {
    const server = svc.running.services.server;
    if (server.powerState() === 'Off') await resetHost(svc, 'On');
    for (let i = 0; i < 60 && server.snapshot().phase !== 'OsRunning'; i++) await advance(svc, 5_000);
    assert.equal(server.snapshot().phase, 'OsRunning');
  };
  /** The OS running with the runtime agent installed in it. */
  const agentRunning = async () => {
    await osRunning();
    if (!(await get(svc, QUEUE)).body.Oem.Vendor.RuntimeAgent.Installed) await setAgent(true);
  };

  it('the queue advertises the runtime agent action and its state', async () => {
    const q = (await get(svc, QUEUE)).body;
    assert.equal(q.Oem.Vendor.Actions['#VendorUpdateTaskQueue.SetRuntimeAgent'].target, AGENT_ACTION);
    assert.equal(q.Oem.Vendor.RuntimeAgent.Installed, false);
    assert.equal(q.Oem.Vendor.QueueStatus.State, 'Idle');
    const r = await post(svc, AGENT_ACTION, { Installed: 'yes' });
    assert.equal(r.status, 400);
  });

  it('Uefi: the head waits for a reboot (stall WaitingForReboot); POST runs it and the flash is real', async () => {
    assert.equal(await version(svc, `${FW}7/`), '20.14.62');
    await post(svc, QUEUE, { Name: 'nic', UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Component: 'nic.fwpkg' });
    await advance(svc, 3600_000, 600_000);
    assert.equal(await taskState(svc, 'nic'), 'Pending');
    const st = await queueStatus(svc);
    assert.deepEqual([st.State, st.Reason], ['Stalled', 'WaitingForReboot']);
    await resetHost(svc, 'On');
    await until(svc, 'nic', 'InProgress', 30_000, 1_000);
    assert.equal((await get(svc, `${QUEUE}nic/`)).body.RunBy, 'Uefi');
    await until(svc, 'nic', 'Complete', 60_000, 1_000);
    assert.equal(await version(svc, `${FW}7/`), '20.15.0');
    await clear();
  });

  it('RuntimeAgent: NoRuntimeAgent while absent, then it polls while the OS runs and installs software', async () => {
    await osRunning();
    assert.equal((await get(svc, '/redfish/v1/Systems/1/')).body.PowerState, 'On');
    await post(svc, QUEUE, { Name: 'ams', UpdatableBy: ['RuntimeAgent'], Command: 'ApplyUpdate', Component: 'ams.fwpkg' });
    await advance(svc, 600_000, 60_000);
    assert.equal(await taskState(svc, 'ams'), 'Pending');
    let st = await queueStatus(svc);
    assert.deepEqual([st.State, st.Reason], ['Stalled', 'NoRuntimeAgent']);
    await setAgent(true);
    // Marked installed while the OS runs: it polls at once.
    assert.equal(await taskState(svc, 'ams'), 'InProgress');
    assert.equal((await get(svc, `${QUEUE}ams/`)).body.RunBy, 'RuntimeAgent');
    await until(svc, 'ams', 'Complete', 120_000, 5_000);
    assert.equal(await version(svc, `${SW}1/`), '2.11.0');
    st = await queueStatus(svc);
    assert.equal(st.State, 'Idle');
    assert.ok((await get(svc, QUEUE)).body.Oem.Vendor.RuntimeAgent.LastPollTime);
    await clear();
  });

  it('RuntimeAgent polls every 60 s; "InProgress of another" stops it until that task is done', async () => {
    await agentRunning();
    await post(svc, QUEUE, { Name: 'bmc-wait', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 90 });
    await post(svc, QUEUE, { Name: 'agent-wait', UpdatableBy: ['RuntimeAgent'], Command: 'Wait', WaitTimeSeconds: 10 });
    assert.equal(await taskState(svc, 'bmc-wait'), 'InProgress');
    // The agent polls at 60 s: the head is another updater's task in progress, so it stops.
    await advance(svc, 60_000, 10_000);
    assert.equal(await taskState(svc, 'agent-wait'), 'Pending');
    await advance(svc, 30_000, 10_000);
    assert.equal(await taskState(svc, 'bmc-wait'), 'Complete');
    const st = await queueStatus(svc);
    assert.deepEqual([st.State, st.Reason], ['Waiting', 'WaitingForRuntimeAgentPoll']);
    await until(svc, 'agent-wait', 'InProgress', 60_000, 5_000);
    await until(svc, 'agent-wait', 'Complete', 20_000, 5_000);
    await clear();
  });

  it("a reboot ends the runtime agent's work (Exception); the OS being down stalls it (WaitingForOperatingSystem)", async () => {
    await agentRunning();
    await post(svc, QUEUE, { Name: 'agent-long', UpdatableBy: ['RuntimeAgent'], Command: 'Wait', WaitTimeSeconds: 600 });
    await until(svc, 'agent-long', 'InProgress', 60_000, 5_000);
    await resetHost(svc, 'ForceOff');
    await post(svc, QUEUE, { Name: 'agent-next', UpdatableBy: ['RuntimeAgent'], Command: 'Wait', WaitTimeSeconds: 1 });
    await resetHost(svc, 'On');
    await until(svc, 'agent-long', 'Exception', 30_000, 1_000);
    const t = (await get(svc, `${QUEUE}agent-long/`)).body;
    assert.match(t.Messages[0].Message, /server was reset/);
    await del('agent-long');
    await resetHost(svc, 'ForceOff');
    await advance(svc, 120_000, 30_000);
    const st = await queueStatus(svc);
    assert.deepEqual([st.State, st.Reason], ['Stalled', 'WaitingForOperatingSystem']);
    assert.equal(await taskState(svc, 'agent-next'), 'Pending');
    await setAgent(false);
    assert.equal((await queueStatus(svc)).Reason, 'NoRuntimeAgent');
    await clear();
  });

  it('a Uefi or RuntimeAgent task is taken by whichever of its updaters comes first, in order', async () => {
    await post(svc, QUEUE, { Name: 'either', UpdatableBy: ['Uefi', 'RuntimeAgent'], Command: 'ApplyUpdate', Component: 'sa.fwpkg' });
    await post(svc, QUEUE, { Name: 'uefi-wait', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 15 });
    await post(svc, QUEUE, { Name: 'bmc-last', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 1 });
    assert.equal((await queueStatus(svc)).Reason, 'WaitingForReboot');
    await resetHost(svc, 'On');
    await until(svc, 'either', 'Complete', 60_000, 1_000);
    assert.equal((await get(svc, `${QUEUE}either/`)).body.RunBy, 'Uefi');
    assert.equal(await version(svc, `${FW}8/`), '3.60');
    // The Wait runs in the same POST on the controller clock; then the Bmc task starts at once.
    await until(svc, 'uefi-wait', 'Complete', 30_000, 1_000);
    await until(svc, 'bmc-last', 'Complete', 5_000, 1_000);
    await clear();
  });

  it('point 6: a controller reset keeps the queue and interrupts what the controller was running', async () => {
    await post(svc, QUEUE, { Name: 'ctl-wait', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 600 });
    await post(svc, QUEUE, { Name: 'queued', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 1 });
    assert.equal(await taskState(svc, 'ctl-wait'), 'InProgress');
    const r = await post(svc, '/redfish/v1/Managers/1/Actions/Manager.Reset/', { ResetType: 'GracefulRestart' });
    assert.equal(r.status, 200, r.text);
    await advance(svc, 5_000);
    const t = (await get(svc, `${QUEUE}ctl-wait/`)).body;
    assert.equal(t.State, 'Exception');
    assert.deepEqual(messageIds({ error: { '@Message.ExtendedInfo': t.Messages } }), ['Vendor.1.0.UpdateTaskInterrupted']);
    assert.equal(await taskState(svc, 'queued'), 'Pending');
    await clear();
  });

  it('point 6: a task InProgress when the service stops is Exception (interrupted) after the restart; the rest persists', async () => {
    await setAgent(true);
    await post(svc, QUEUE, { Name: 'killed', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 600 });
    await post(svc, QUEUE, {
      Name: 'kept',
      UpdatableBy: ['Uefi'],
      Command: 'ApplyUpdate',
      Component: 'nic.fwpkg',
      Expire: '2027-06-01T00:00:00Z',
    });
    await post(svc, QUEUE, { Name: 'canceled', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 1 });
    await svc.req('PATCH', `${QUEUE}canceled/`, { auth: 'basic', body: { State: 'Canceled' } });
    assert.equal(await taskState(svc, 'killed'), 'InProgress');
    svc = await svc.restart();
    const t = (await get(svc, `${QUEUE}killed/`)).body;
    assert.equal(t.State, 'Exception');
    assert.deepEqual(messageIds({ error: { '@Message.ExtendedInfo': t.Messages } }), ['Vendor.1.0.UpdateTaskInterrupted']);
    const kept = (await get(svc, `${QUEUE}kept/`)).body;
    assert.equal(kept.State, 'Pending');
    assert.equal(kept.Expire, '2027-06-01T00:00:00Z');
    assert.equal(await taskState(svc, 'canceled'), 'Canceled');
    assert.deepEqual(
      (await get(svc, QUEUE)).body.Members.map((m: { '@odata.id': string }) => m['@odata.id']),
      [`${QUEUE}killed/`, `${QUEUE}kept/`, `${QUEUE}canceled/`],
    );
    assert.equal((await get(svc, `${'/redfish/v1/UpdateService/ComponentRepository/'}nic.fwpkg/`)).body.Locked, true);
    assert.equal((await get(svc, QUEUE)).body.Oem.Vendor.RuntimeAgent.Installed, true);
    // --runtime-agent given at start wins over the stored state.
    svc = await svc.restart({ runtimeAgent: 'absent' });
    assert.equal((await get(svc, QUEUE)).body.Oem.Vendor.RuntimeAgent.Installed, false);
  });
});
