// The OnTargetReset apply time of firmware updates (UpdateService 1.14 / Settings 1.4, DMTF
// 2024), dmtf dialect: SimpleUpdate's @Redfish.OperationApplyTime and the MultipartHttpPushUri's
// UpdateParameters stage the image; it is flashed when its target resets (the controller's own
// firmware at Manager.Reset, the rest at the next POST), and the task is Pending until then.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { makePackage, multipart, startImageServer, type BuiltPackage, type ImageServer } from '../../support/firmware.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const US = '/redfish/v1/UpdateService';
const FW = `${US}/FirmwareInventory`;
const SIMPLE_UPDATE = `${US}/Actions/UpdateService.SimpleUpdate`;
const MANAGER_RESET = '/redfish/v1/Managers/1/Actions/Manager.Reset';
const SYSTEM_RESET = '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset';
const BOOT_TIME = 2000 + 5000;
const TASKS = '/redfish/v1/TaskService/Tasks';

describe('OnTargetReset firmware updates (dmtf dialect)', () => {
  let svc: TestService;
  let images: ImageServer;
  const files = new Map<string, Buffer>();

  before(async () => {
    images = await startImageServer(mkdtempSync(`${tmpdir()}/img-`), files);
    svc = await startTestService({ config: { dialect: 'dmtf', downloadCa: images.caFile } });
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  const version = async (id: string) => (await svc.get(`${FW}/${id}`, { auth: 'basic' })).body;
  const task = async (id: string) => (await svc.get(`${TASKS}/${id}`, { auth: 'basic' })).body;
  const uploadFor = async (pkg: BuiltPackage, params: Record<string, unknown>) => {
    const { body, contentType } = multipart([
      { name: 'UpdateParameters', contentType: 'application/json', data: JSON.stringify(params) },
      { name: 'compsig', filename: `${pkg.name}.compsig`, contentType: 'application/octet-stream', data: pkg.compsig },
      { name: 'UpdateFile', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
    ]);
    const target = (await svc.get(US, { auth: 'basic' })).body.MultipartHttpPushUri as string;
    return svc.req('POST', target, { auth: 'basic', rawBody: body, headers: { 'content-type': contentType } });
  };
  const boot = async () => {
    assert.equal((await svc.req('POST', SYSTEM_RESET, { auth: 'basic', body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    await svc.running.services.server.postSettled();
  };

  it('advertises the apply times of SimpleUpdate and the multipart push', async () => {
    const us = (await svc.get(US, { auth: 'basic' })).body;
    const support = { '@odata.type': '#Settings.v1_4_0.OperationApplyTimeSupport', SupportedValues: ['Immediate', 'OnTargetReset'] };
    assert.deepEqual(us['MultipartHttpPushUri@Redfish.OperationApplyTimeSupport'], support);
    assert.deepEqual(us.Actions['#UpdateService.SimpleUpdate']['@Redfish.OperationApplyTimeSupport'], support);
  });

  it('SimpleUpdate of the controller firmware: Pending until Manager.Reset flashes it', async () => {
    const bin = await makePackage(svc, { targets: ['BMC'], version: '1.45', file: 'vmc.bin' });
    files.set('/vmc.bin', bin.data);
    const token = await svc.adminToken();
    const r = await svc.req('POST', SIMPLE_UPDATE, {
      body: { ImageURI: `${images.url}/vmc.bin`, '@Redfish.OperationApplyTime': 'OnTargetReset' },
    });
    assert.equal(r.status, 202, r.text);
    await svc.running.services.tasks.whenDone(r.body.Id);
    let t = await task(r.body.Id);
    assert.equal(t.TaskState, 'Pending');
    const waiting = t.Messages.find((m: { MessageId: string }) => m.MessageId === 'Base.1.12.ResetRequired');
    assert.deepEqual(waiting.MessageArgs, [MANAGER_RESET, 'GracefulRestart']);
    // The task monitor keeps answering 202 while the update waits.
    assert.equal((await svc.get(t.TaskMonitor, { auth: 'basic' })).status, 202);
    let bmc = await version('1');
    assert.equal(bmc.Version, '1.40');
    assert.equal(bmc.Oem.Vendor.PendingVersion, '1.45');
    assert.equal((await svc.get(US, { auth: { token } })).status, 200, 'no controller reset yet: the session lives');
    // A server boot is not the controller's reset.
    await boot();
    assert.equal((await version('1')).Version, '1.40');

    assert.equal((await svc.req('POST', MANAGER_RESET, { auth: 'basic', body: { ResetType: 'GracefulRestart' } })).status, 200);
    bmc = await version('1');
    assert.equal(bmc.Version, '1.45');
    assert.equal(bmc.Oem.Vendor.PendingVersion, null);
    t = await task(r.body.Id);
    assert.equal(t.TaskState, 'Completed');
    assert.ok(messageIds({ error: { '@Message.ExtendedInfo': t.Messages } }).includes('Vendor.1.0.FirmwareUpdated'));
  });

  it('a multipart push of a host device: Pending (across a controller restart) until the next POST', async () => {
    await svc.req('POST', SYSTEM_RESET, { auth: 'basic', body: { ResetType: 'ForceOff' } });
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.9.0', file: 'ie-otr.fwpkg' });
    const r = await uploadFor(pkg, { Targets: [], '@Redfish.OperationApplyTime': 'OnTargetReset' });
    assert.equal(r.status, 202, r.text);
    assert.match(r.headers.location ?? '', /^\/redfish\/v1\/TaskService\/TaskMonitors\//);
    assert.equal(r.body.TaskState, 'Pending');
    assert.deepEqual(r.body.Messages.at(-1).MessageArgs, [SYSTEM_RESET, 'GracefulRestart']);
    assert.equal((await version('5')).Version, '0.2.2.0', 'an Immediate image, held back for the reset');
    // Neither a controller reset nor a restart of the service is the server's reset; the task keeps waiting.
    await svc.req('POST', MANAGER_RESET, { auth: 'basic', body: {} });
    svc = await svc.restart();
    assert.equal((await task(r.body.Id)).TaskState, 'Pending');
    assert.equal((await version('5')).Oem.Vendor.PendingVersion, '0.2.9.0');
    await boot();
    assert.equal((await version('5')).Version, '0.2.9.0');
    assert.equal((await task(r.body.Id)).TaskState, 'Completed');
  });

  it('an image staged over a pending one cancels the task that waited for it', async () => {
    const first = await uploadFor(await makePackage(svc, { targets: ['PMC'], version: '1.1.0', file: 'pmc1.fwpkg' }), {
      '@Redfish.OperationApplyTime': 'OnTargetReset',
    });
    assert.equal(first.status, 202, first.text);
    const second = await uploadFor(await makePackage(svc, { targets: ['PMC'], version: '1.2.0', file: 'pmc2.fwpkg' }), {
      '@Redfish.OperationApplyTime': 'OnTargetReset',
    });
    assert.equal(second.status, 202, second.text);
    assert.equal((await task(first.body.Id)).TaskState, 'Cancelled');
    assert.equal((await task(second.body.Id)).TaskState, 'Pending');
    await svc.req('POST', SYSTEM_RESET, { auth: 'basic', body: { ResetType: 'ForceRestart' } });
    await svc.clock.advance(BOOT_TIME);
    await svc.running.services.server.postSettled();
    assert.equal((await version('6')).Version, '1.2.0');
    assert.equal((await task(second.body.Id)).TaskState, 'Completed');
  });

  it('refuses apply times it does not offer', async () => {
    const r = await svc.req('POST', SIMPLE_UPDATE, {
      auth: 'basic',
      body: { ImageURI: `${images.url}/vmc.bin`, '@Redfish.OperationApplyTime': 'AtMaintenanceWindowStart' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
  });
});

describe('OnTargetReset firmware updates (spec dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('are not offered (iLO applies updates as they arrive): not advertised, refused rather than ignored', async () => {
    const us = (await svc.get(`${US}/`)).body;
    assert.equal(us['MultipartHttpPushUri@Redfish.OperationApplyTimeSupport'], undefined);
    assert.equal(us.Actions['#UpdateService.SimpleUpdate']['@Redfish.OperationApplyTimeSupport'], undefined);
    const r = await svc.req('POST', `${SIMPLE_UPDATE}/`, {
      body: { ImageURI: 'https://images.example/vmc.bin', '@Redfish.OperationApplyTime': 'OnTargetReset' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.9.0', file: 'ie-otr.fwpkg' });
    const { body, contentType } = multipart([
      {
        name: 'UpdateParameters',
        contentType: 'application/json',
        data: JSON.stringify({ '@Redfish.OperationApplyTime': 'OnTargetReset' }),
      },
      { name: 'compsig', filename: `${pkg.name}.compsig`, data: pkg.compsig },
      { name: 'UpdateFile', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
    ]);
    const up = await svc.req('POST', '/redfish/v1/UpdateService/upload/', { rawBody: body, headers: { 'content-type': contentType } });
    assert.equal(up.status, 400);
    assert.deepEqual(messageIds(up.body), ['Base.1.12.ActionParameterValueNotInList']);
  });
});
