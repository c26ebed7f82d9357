// Issue 12 item 13: an ApplyUpdate task for the Bmc updater that reaches the
// head of the queue while a firmware integrity scan runs starts when the scan
// ends, as it does when an upload ends; nothing else has to change the queue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCAN_DURATION_MS } from '../../../src/domain/firmware/integrity.js';
import { installLicense } from '../../support/licenses.js';
import { startTestService, type TestService } from '../../support/service.js';
import { FW, QUEUE, US, addComponent, post, queueStatus, settle, taskState, until, version } from '../../support/update-queue.js';

const CHECK = `${US}Actions/Oem/Vendor/VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck/`;

describe('update task queue: the end of an integrity scan wakes the Bmc updater', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await installLicense(svc, 'PremiumSecurity');
    // IE (FirmwareInventory/5) activates immediately: no controller reset in the way.
    await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie-51.fwpkg' });
    await addComponent(svc, { targets: ['IE'], version: '5.2', file: 'ie-52.fwpkg' });
  });
  after(() => svc.close());

  /** Starts a scan, queues a Bmc ApplyUpdate while it runs, ends the scan; returns the task's state right after. */
  const queueDuringScan = async (name: string, component: string): Promise<string | number> => {
    const scan = await svc.req('POST', CHECK, { body: {} });
    assert.equal(scan.status, 200, scan.text);
    const r = await post(svc, QUEUE, { Name: name, UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Component: component });
    assert.equal(r.status, 201, r.text);
    assert.equal(await taskState(svc, name), 'Pending');
    const st = await queueStatus(svc);
    assert.deepEqual([st.State, st.Reason], ['Waiting', 'UpdateServiceBusy']);
    // Ends the scan exactly: no queue timer is due (the task has no StartAfter or Expire).
    const running = svc.running.services.update.integrity.current();
    assert.ok(running, 'the scan runs');
    await svc.clock.advance(SCAN_DURATION_MS);
    await running;
    await settle();
    assert.equal(svc.running.services.update.integrity.isRunning(), false);
    return taskState(svc, name);
  };

  it('a clean scan: the task leaves Pending when the scan ends, and completes', async () => {
    assert.equal(await queueDuringScan('ie51', 'ie-51.fwpkg'), 'InProgress');
    await until(svc, 'ie51', 'Complete', 120_000, 5_000);
    assert.equal(await version(svc, `${FW}5/`), '5.1');
  });

  it('a scan that finds a corrupted image: the task leaves Pending when the scan ends, and completes', async () => {
    svc.running.services.update.integrity.corrupt('firmware', '4');
    assert.equal(await queueDuringScan('ie52', 'ie-52.fwpkg'), 'InProgress');
    assert.equal((await svc.get(US)).body.Oem.Vendor.LastIntegrityScanResult, 'Failed');
    await until(svc, 'ie52', 'Complete', 120_000, 5_000);
    assert.equal(await version(svc, `${FW}5/`), '5.2');
  });
});
