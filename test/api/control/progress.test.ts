// Issue 17 item 4: a long download shows its progress as PercentComplete on
// the task and its task monitor while the bytes arrive.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SCAN_DURATION_MS } from '../../../src/domain/firmware/integrity.js';
import { startTestService, type TestService } from '../../support/service.js';
import { waitUntil } from '../../support/wait.js';

const SIZE = 1024 * 1024;

describe('progress: PercentComplete of a download task', () => {
  let svc: TestService;
  let server: Server;
  let release: () => void = () => undefined;

  before(async () => {
    svc = await startTestService();
    // Sends half the image, then holds the rest until the test releases it.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': SIZE });
      res.write(Buffer.alloc(SIZE / 2, 1));
      release = () => res.end(Buffer.alloc(SIZE / 2, 2));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    release();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await svc.close();
  });

  it('SimpleUpdate: the task monitor answers 202 with PercentComplete following the bytes, then the task ends', async () => {
    const { port } = server.address() as AddressInfo;
    const r = await svc.req('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/', {
      auth: 'basic',
      body: { ImageURI: `http://127.0.0.1:${port}/rom.bin` },
    });
    assert.equal(r.status, 202, r.text);
    const monitor = r.headers.location as string;
    let seen: any;
    await waitUntil(async () => {
      seen = await svc.get(monitor, { auth: 'basic' });
      return seen.status === 202 && seen.body.PercentComplete === 20;
    }, 'half the image downloaded: 20 % (the download is the first 40 %)');
    assert.equal(seen.body.TaskState, 'Running');
    const task = await svc.get(`/redfish/v1/TaskService/Tasks/${monitor.split('/').filter(Boolean).pop()}/`, { auth: 'basic' });
    assert.equal(task.body.PercentComplete, 20);
    release();
    await waitUntil(async () => (await svc.get(monitor, { auth: 'basic' })).status !== 202, 'the task to end');
  });

  it('an update queue task shows PercentComplete moving with the controller clock while InProgress', async () => {
    const r = await svc.req('POST', '/redfish/v1/UpdateService/UpdateTaskQueue/', {
      auth: 'basic',
      body: { Name: 'pause', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 100 },
    });
    assert.equal(r.status, 201, r.text);
    const uri = r.headers.location as string;
    const task = async () => (await svc.get(uri, { auth: 'basic' })).body;
    await waitUntil(async () => (await task()).State === 'InProgress', 'the Bmc updater to start it');
    assert.equal((await task()).PercentComplete, 0);
    await svc.clock.advance(50_000);
    assert.equal((await task()).PercentComplete, 50);
    await svc.clock.advance(50_000);
    await waitUntil(async () => (await task()).State === 'Complete', 'the wait to end');
    assert.equal((await task()).PercentComplete, 100);
  });

  it('a running firmware integrity scan shows its PercentComplete on the update service', async () => {
    const vendor = async () => (await svc.get('/redfish/v1/UpdateService/', { auth: 'basic' })).body.Oem.Vendor;
    assert.equal((await vendor()).FirmwareIntegrityScanPercentComplete, null);
    const scan = svc.running.services.update.integrity.start();
    await svc.clock.advance(SCAN_DURATION_MS / 4);
    assert.equal((await vendor()).FirmwareIntegrityScanPercentComplete, 25);
    await svc.clock.advance(SCAN_DURATION_MS);
    await scan;
    assert.equal((await vendor()).FirmwareIntegrityScanPercentComplete, null);
  });
});
