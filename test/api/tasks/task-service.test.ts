// A finished task's monitor answers what the operation would have answered
// itself: the domain keeps how the task ended (its messages, failed or not),
// and the monitor gives a failure the status the protocol's table gives its
// first message (src/protocol/errors.ts).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makePackage, startImageServer, type ImageServer } from '../../support/firmware.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SIMPLE_UPDATE = '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/';

describe('task monitors: the final answer of a finished task', () => {
  let svc: TestService;
  let images: ImageServer;
  const files = new Map<string, Buffer>();

  before(async () => {
    images = await startImageServer(mkdtempSync(join(tmpdir(), 'img-')), files);
    svc = await startTestService({ config: { downloadCa: images.caFile } });
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  /** Start a SimpleUpdate of `file` from the image server; the monitor's answer once its task is done. */
  async function simpleUpdate(file: string) {
    const r = await svc.req('POST', SIMPLE_UPDATE, { auth: 'basic', body: { ImageURI: `${images.url}/${file}` } });
    assert.equal(r.status, 202, r.text);
    await svc.running.services.tasks.whenDone(r.body.Id);
    return svc.get(r.headers.location as string, { auth: 'basic' });
  }

  it('a download the domain refuses is answered 502 ImageDownloadFailed, as the table says', async () => {
    const done = await simpleUpdate('missing.bin');
    assert.equal(done.status, 502, done.text);
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.ImageDownloadFailed']);
    assert.equal(done.body.error.code, 'Vendor.1.0.ImageDownloadFailed');
  });

  it('a refusal of the api inside the task keeps its status: 400 SimpleUpdatePackageNotSupported', async () => {
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.9', file: 'sps.fwpkg' });
    files.set('/sps.fwpkg', pkg.data);
    const done = await simpleUpdate('sps.fwpkg');
    assert.equal(done.status, 400, done.text);
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.SimpleUpdatePackageNotSupported']);
  });

  it('a task cut short by a restart is answered 500 TaskInterrupted; one kept from before keeps its answer', async () => {
    const tasks = svc.running.services.store.collection('task');
    const record = {
      Name: 'SimpleUpdate',
      TaskStatus: 'OK',
      PercentComplete: 10,
      StartTime: 0,
      Messages: [],
      Payload: { HttpOperation: 'POST', TargetUri: SIMPLE_UPDATE, JsonBody: '{}' },
    };
    tasks.put('cut', { ...record, Id: 'cut', TaskState: 'Running' });
    // A task that finished before the outcome was kept: the answer itself was.
    const kept = { error: { code: 'Base.1.12.ResourceInUse', message: 'kept', '@Message.ExtendedInfo': [] } };
    tasks.put('kept', { ...record, Id: 'kept', TaskState: 'Exception', EndTime: 1, Result: { status: 409, body: kept } });
    svc = await svc.restart({ downloadCa: images.caFile });

    const cut = await svc.get('/redfish/v1/TaskService/TaskMonitors/cut/', { auth: 'basic' });
    assert.equal(cut.status, 500, cut.text);
    assert.deepEqual(messageIds(cut.body), ['Vendor.1.0.TaskInterrupted']);
    const old = await svc.get('/redfish/v1/TaskService/TaskMonitors/kept/', { auth: 'basic' });
    assert.equal(old.status, 409, old.text);
    assert.deepEqual(old.body, kept);
  });
});
