import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, messageIds, type TestService } from '../../support/service.js';
import { Tasks } from '../../../src/domain/tasks.js';
import { serviceUris } from '../../../src/lib/resource-uris.js';
import { UpdateStatus } from '../../../src/domain/firmware/update-state.js';
import { CONTROLLER_RESET_DELAY_MS } from '../../../src/domain/firmware/flasher.js';
import { makePackage, startImageServer, upload, type ImageServer } from '../../support/firmware.js';
import { waitUntil } from '../../support/wait.js';

const US = '/redfish/v1/UpdateService/';
const FW = `${US}FirmwareInventory/`;
const ACTIONS = `${US}Actions/`;

describe('update service: resource, inventories, SimpleUpdate, AddFromUri, tasks', () => {
  let svc: TestService;
  let images: ImageServer;
  const files = new Map<string, Buffer>();

  before(async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    images = await startImageServer(mkdtempSync(`${tmpdir()}/img-`), files);
    svc = await startTestService({ config: { downloadCa: images.caFile } });
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  const runTask = async (r: { status: number; headers: Record<string, string>; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const monitor = r.headers.location as string;
    assert.match(monitor, /^\/redfish\/v1\/TaskService\/TaskMonitors\/[0-9a-f]+\/$/);
    assert.equal(r.body['@odata.type'], '#Task.v1_7_4.Task');
    await svc.running.services.tasks.whenDone(r.body.Id);
    return monitor;
  };

  it('point 1: UpdateService shows HttpPushUri, inventories, actions and Oem/Vendor links and settings', async () => {
    const r = await svc.get(US);
    assert.equal(r.status, 200);
    assert.equal(r.body.HttpPushUri, '/redfish/v1/UpdateService/upload/');
    assert.deepEqual(r.body.FirmwareInventory, { '@odata.id': FW });
    assert.deepEqual(r.body.SoftwareInventory, { '@odata.id': `${US}SoftwareInventory/` });
    assert.equal(r.body.Actions['#UpdateService.SimpleUpdate'].target, `${ACTIONS}UpdateService.SimpleUpdate/`);
    const v = r.body.Oem.Vendor;
    assert.equal(v.Actions['#VendorMCUpdateServiceExt.AddFromUri'].target, `${ACTIONS}Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/`);
    assert.ok(v.Actions['#VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck']);
    assert.equal(v.State, 'Idle');
    for (const l of ['ComponentRepository', 'UpdateTaskQueue', 'MaintenanceWindows', 'InstallSets'])
      assert.equal(v[l]['@odata.id'], `${US}${l}/`);
    assert.equal(v.EnableBackgroundScan, false);
    assert.equal(v.OnIntegrityFailure, 'LogOnly');
    assert.equal(v.ScanEveryDays, 7);
    const root = await svc.get('/redfish/v1/');
    assert.equal(root.body.Tasks['@odata.id'], '/redfish/v1/TaskService/'); // ServiceRoot names the TaskService link Tasks
  });

  it('point 1: the verification settings are PATCHed under Oem/Vendor of the update service, validated', async () => {
    let r = await svc.req('PATCH', US, {
      body: { Oem: { Vendor: { EnableBackgroundScan: true, OnIntegrityFailure: 'LogAndRepairAutomatically', ScanEveryDays: 30 } } },
    });
    assert.equal(r.status, 200, r.text);
    r = await svc.get(US);
    assert.equal(r.body.Oem.Vendor.ScanEveryDays, 30);
    assert.equal(r.body.Oem.Vendor.OnIntegrityFailure, 'LogAndRepairAutomatically');
    r = await svc.req('PATCH', US, { body: { Oem: { Vendor: { ScanEveryDays: 366 } } } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueOutOfRange']);
    r = await svc.req('PATCH', US, { body: { Oem: { Vendor: { OnIntegrityFailure: 'Ignore' } } } });
    assert.equal(r.status, 400);
    r = await svc.req('PATCH', US, { body: { Oem: { Vendor: { State: 'Idle' } } } });
    assert.equal(r.status, 400);
    r = await svc.req('PATCH', US, {
      body: { Oem: { Vendor: { EnableBackgroundScan: false, ScanEveryDays: 7, OnIntegrityFailure: 'LogOnly' } } },
    });
    assert.equal(r.status, 200);
  });

  it('point 1: ?$expand=. returns the inventories inline', async () => {
    const r = await svc.get(`${US}?$expand=.`);
    assert.equal(r.status, 200);
    assert.equal(r.body.FirmwareInventory['@odata.type'], '#SoftwareInventoryCollection.SoftwareInventoryCollection');
    assert.ok(r.body.FirmwareInventory['Members@odata.count'] >= 8);
    assert.ok(r.body.SoftwareInventory.Members.length >= 3);
    assert.equal(r.body.Oem.Vendor.ComponentRepository['Members@odata.count'], 0);
  });

  it('point 2: firmware and software inventory items', async () => {
    const col = await svc.get(FW);
    const names: string[] = [];
    for (const m of col.body.Members) {
      const item = (await svc.get(m['@odata.id'])).body;
      assert.equal(item['@odata.type'], '#SoftwareInventory.v1_13_0.SoftwareInventory');
      assert.equal(typeof item.Version, 'string');
      assert.equal(typeof item.Updateable, 'boolean');
      assert.ok(Array.isArray(item.Oem.Vendor.Targets));
      // Platform firmware sits on the system board; adapter firmware on its adapter.
      const adapter = ['NIC', 'StorageController'].includes(item.Oem.Vendor.DeviceClass);
      assert.equal(item.Oem.Vendor.DeviceContext, adapter ? undefined : 'System Board', item.Name);
      names.push(item.Name);
    }
    for (const n of [
      'Vendor Management Controller',
      'System ROM',
      'System Programmable Logic Device',
      'Server Platform Services (SPS) Firmware',
      'Innovation Engine (IE) Firmware',
    ]) {
      assert.ok(names.includes(n), n);
    }
    assert.ok(names.some((n) => /Ethernet/.test(n)) && names.some((n) => /Smart Array/.test(n)));
    const bmc = (await svc.get(`${FW}1/`)).body;
    assert.equal(bmc.Version, '1.40');
    assert.equal(bmc.Oem.Vendor.DeviceClass, 'BMC');
    const sw = (await svc.get(`${US}SoftwareInventory/1/`)).body;
    assert.equal(sw.Name, 'Vendor Agentless Management Service');
    assert.equal((await svc.get(`${FW}99/`)).status, 404);
    assert.equal(svc.running.services.firmware.controllerVersion(), '1.40');
  });

  it('point 7: SimpleUpdate downloads a UEFI binary over HTTPS, answers 202 with a task monitor, stages it for the next POST', async () => {
    const pkg = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v2.70', file: 'rom.bin' });
    files.set('/rom.bin', pkg.data);
    svc.running.services.host.setPowerState('On');
    const r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: `${images.url}/rom.bin` } });
    const monitor = await runTask(r);
    const done = await svc.get(monitor);
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(messageIds(done.body), ['Base.1.12.Success', 'Vendor.1.0.FirmwareStaged']);
    const task = (await svc.get(`/redfish/v1/TaskService/Tasks/${r.body.Id}/`)).body;
    assert.equal(task.TaskState, 'Completed');
    assert.equal(task.PercentComplete, 100);
    assert.equal(task.TaskMonitor, monitor);
    // Versions change when the flash really happens: UEFI writes the ROM at POST.
    let rom = (await svc.get(`${FW}2/`)).body;
    assert.equal(rom.Version, 'U30 v2.60');
    assert.equal(rom.Oem.Vendor.PendingVersion, 'U30 v2.70');
    await svc.running.services.host.runPost({ bootCount: 1, startedAt: svc.clock.now() });
    rom = (await svc.get(`${FW}2/`)).body;
    assert.equal(rom.Version, 'U30 v2.70');
    assert.equal(rom.Oem.Vendor.PendingVersion, null);
    svc.running.services.host.setPowerState('Off');
  });

  it('point 7: SimpleUpdate refuses component packages, bad URIs, unreachable and oversize images', async () => {
    const pkg = await makePackage(svc, { targets: ['BMC'], version: '1.50' });
    files.set('/pkg.fwpkg', pkg.data);
    let r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: `${images.url}/pkg.fwpkg` } });
    let done = await svc.get(await runTask(r));
    assert.equal(done.status, 400);
    // Packages are not supported there, whatever a compsig would say: the answer points to the upload.
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.SimpleUpdatePackageNotSupported']);
    const refusal = done.body.error['@Message.ExtendedInfo'][0];
    assert.deepEqual(refusal.MessageArgs, ['pkg.fwpkg']);
    assert.match(refusal.Message, /Component packages are not supported by SimpleUpdate/);
    assert.match(refusal.Resolution, /HttpPushUri/);
    assert.match(refusal.Resolution, /component repository/);
    assert.equal((await svc.get(`/redfish/v1/TaskService/Tasks/${r.body.Id}/`)).body.TaskState, 'Exception');
    const cpld = await makePackage(svc, { targets: ['CPLD'], version: '0x2B', file: 'cpld.bin' });
    files.set('/cpld.bin', cpld.data);
    r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: `${images.url}/cpld.bin` } });
    done = await svc.get(await runTask(r));
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.SimpleUpdateImageNotSupported']);
    assert.equal((await svc.get(`/redfish/v1/TaskService/Tasks/${r.body.Id}/`)).body.TaskState, 'Exception');

    r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: 'ftp://example.com/x.bin' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError']);
    r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: {} });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterMissing']);
    r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: `${images.url}/missing.bin` } });
    done = await svc.get(await runTask(r));
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.ImageDownloadFailed']);
    assert.match(done.body.error['@Message.ExtendedInfo'][0].Message, /404/);
    const state = (await svc.get(US)).body.Oem.Vendor;
    assert.equal(state.State, 'Error');
    assert.equal(state.Result.MessageId, 'Vendor.1.0.ImageDownloadFailed');
  });

  it('SimpleUpdate Targets: the controller firmware or the system ROM, each what the image is for', async () => {
    const us = (await svc.get(US)).body;
    const allowed = us.Actions['#UpdateService.SimpleUpdate']['Targets@Redfish.AllowableValues'];
    assert.deepEqual(allowed, [`${FW}1/`, `${FW}2/`]);
    const info = (await svc.get(us.Actions['#UpdateService.SimpleUpdate']['@Redfish.ActionInfo'])).body;
    assert.deepEqual(
      info.Parameters.find((p: any) => p.Name === 'Targets'),
      { Name: 'Targets', Required: false, DataType: 'StringArray', AllowableValues: allowed, ArraySizeMaximum: 10 },
    );
    const pkg = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v2.80', file: 'rom280.bin' });
    files.set('/rom280.bin', pkg.data);
    const simple = (body: unknown) => svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body });
    // A target that is no firmware inventory member: refused before anything is downloaded.
    let r = await simple({ ImageURI: `${images.url}/rom280.bin`, Targets: [`${FW}99/`] });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueError']);
    // A ROM image aimed at the controller firmware: the image is not for it.
    r = await simple({ ImageURI: `${images.url}/rom280.bin`, Targets: [`${FW}1/`] });
    let done = await svc.get(await runTask(r));
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.ImageNotApplicable']);
    assert.equal((await svc.get(`${FW}1/`)).body.Version, svc.running.services.firmware.controllerVersion());
    // Aimed at the ROM: staged for the next POST like an untargeted one.
    r = await simple({ ImageURI: `${images.url}/rom280.bin`, Targets: [`${FW}2/`] });
    done = await svc.get(await runTask(r));
    assert.deepEqual(messageIds(done.body), ['Base.1.12.Success', 'Vendor.1.0.FirmwareStaged']);
    assert.equal((await svc.get(`${FW}2/`)).body.Oem.Vendor.PendingVersion, 'U30 v2.80');
  });

  it('point 7: a download that never finishes is ended by the time limit on the controller clock', async () => {
    const r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI: `${images.url}/slow` } });
    assert.equal(r.status, 202);
    await waitUntil(() => images.requests.includes('/slow'), 'the image server to be asked for /slow');
    await svc.clock.advance(600_000);
    await svc.running.services.tasks.whenDone(r.body.Id);
    const done = await svc.get(r.headers.location as string);
    assert.deepEqual(messageIds(done.body), ['Vendor.1.0.ImageDownloadFailed']);
    assert.match(done.body.error['@Message.ExtendedInfo'][0].Message, /timed out/);
  });

  it('points 7, 8: AddFromUri stores a package and flashes the listed targets; controller firmware ends with a reset', async () => {
    const pkg = await makePackage(svc, { targets: ['BMC'], version: '1.50', file: 'vmc-150.fwpkg' });
    files.set('/vmc-150.fwpkg', pkg.data);
    files.set('/vmc-150.compsig', Buffer.from(pkg.compsig));
    const token = await svc.login('Administrator', 'Test-Admin-Pass1');
    const resetsBefore = svc.running.services.controller.resets;
    const r = await svc.req('POST', `${ACTIONS}Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/`, {
      auth: { token },
      body: {
        ImageURI: `${images.url}/vmc-150.fwpkg`,
        CompSigURI: `${images.url}/vmc-150.compsig`,
        Targets: [`${FW}1/`],
        UpdateTarget: true,
      },
    });
    const monitor = await runTask(r);
    // The task is Complete while the controller still runs the old session (iLO resets after the flash is reported).
    assert.equal((await svc.get(monitor, { auth: { token } })).status, 200);
    assert.equal(svc.running.services.controller.resets, resetsBefore);
    await svc.clock.advance(CONTROLLER_RESET_DELAY_MS);
    assert.equal(svc.running.services.controller.resets, resetsBefore + 1);
    // The reset ended every session, ours included.
    assert.equal((await svc.get(US, { auth: { token } })).status, 401);
    const done = await svc.get(monitor, { auth: 'basic' });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(messageIds(done.body), ['Base.1.12.Success', 'Vendor.1.0.FirmwareUpdated']);
    assert.equal((await svc.get(`${FW}1/`, { auth: 'basic' })).body.Version, '1.50');
    assert.equal(svc.running.services.firmware.controllerVersion(), '1.50');
    assert.equal((await svc.get('/redfish/v1/Managers/1/', { auth: 'basic' })).body.FirmwareVersion, '1.50');
    const repo = await svc.get(`${US}ComponentRepository/?$expand=.`, { auth: 'basic' });
    assert.equal(repo.body.Members[0].Filename, 'vmc-150.fwpkg');
    assert.equal(repo.body.Members[0].Version, '1.50');
  });

  it('point 7: AddFromUri checks Targets (at most 10, firmware inventory URIs) and stores without flashing by default', async () => {
    let r = await svc.req('POST', `${ACTIONS}Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/`, {
      auth: 'basic',
      body: { ImageURI: `${images.url}/x.fwpkg`, Targets: Array.from({ length: 11 }, () => `${FW}1/`) },
    });
    assert.equal(r.status, 400);
    r = await svc.req('POST', `${ACTIONS}Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/`, {
      auth: 'basic',
      body: { ImageURI: `${images.url}/x.fwpkg`, Targets: [`${US}SoftwareInventory/1/`] },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueError']);
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.2.0.1', file: 'sps.fwpkg' });
    files.set('/sps.fwpkg', pkg.data);
    files.set('/sps.compsig', Buffer.from(pkg.compsig));
    r = await svc.req('POST', `${ACTIONS}Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/`, {
      auth: 'basic',
      body: { ImageURI: `${images.url}/sps.fwpkg`, CompSigURI: `${images.url}/sps.compsig` },
    });
    const done = await svc.get(await runTask(r), { auth: 'basic' });
    assert.equal(done.status, 200);
    assert.equal((await svc.get(`${FW}4/`, { auth: 'basic' })).body.Version, '4.1.4.505');
    assert.equal((await svc.get(`${US}ComponentRepository/sps.fwpkg/`, { auth: 'basic' })).body.Version, '4.2.0.1');
  });

  it('point 8: the upgrade-path rule refuses 2.10 over a controller older than 1.40', async () => {
    const inv = svc.running.services.update.inventory;
    const bmc = inv.get('firmware', '1');
    assert.ok(bmc);
    inv.save({ ...bmc, Version: '1.30' });
    const pkg = await makePackage(svc, { targets: ['BMC'], version: '2.10' });
    let r = await upload(svc, pkg, { auth: 'basic', params: { UpdateRepository: false } });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.FirmwareUpgradePathBlocked']);
    assert.equal((await svc.get(`${FW}1/`, { auth: 'basic' })).body.Version, '1.30');
    inv.save({ ...bmc, Version: '1.40' });
    r = await upload(svc, pkg, { auth: 'basic', params: { UpdateRepository: false } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await svc.get(`${FW}1/`, { auth: 'basic' })).body.Version, '2.10');
  });

  it('point 2: inventory versions persist across a restart; a task cut short by it ends in Exception', async () => {
    // A version this test flashes, and whatever earlier tests flashed.
    const ie = await makePackage(svc, { targets: ['IE'], version: '0.2.9.9', activation: 'Immediate', file: 'ie-persist.fwpkg' });
    assert.equal((await upload(svc, ie, { auth: 'basic' })).status, 200);
    const versions = async () =>
      Promise.all(['1', '2', '5'].map(async (id) => (await svc.get(`${FW}${id}/`, { auth: 'basic' })).body.Version));
    const before = await versions();
    assert.equal(before[2], '0.2.9.9');
    const r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { auth: 'basic', body: { ImageURI: `${images.url}/slow` } });
    assert.equal(r.status, 202);
    assert.equal((await svc.get(US, { auth: 'basic' })).body.Oem.Vendor.State, 'Uploading');
    svc = await svc.restart({ downloadCa: images.caFile });
    // A clean stop aborts the download; the task records why.
    const task = (await svc.get(`/redfish/v1/TaskService/Tasks/${r.body.Id}/`, { auth: 'basic' })).body;
    assert.equal(task.TaskState, 'Exception');
    assert.match(task.Messages.at(-1).Message, /shutting down/);
    assert.equal((await svc.get(US, { auth: 'basic' })).body.Oem.Vendor.State, 'Error');
    // After kill -9 the task is still Running in the store: the next start ends it.
    const s = svc.running.services;
    s.store
      .collection('task')
      .put('dead', { ...task, Id: 'dead', TaskState: 'Running', Messages: [], Result: undefined, StartTime: 0, Payload: task.Payload });
    s.store.setting('update.state', {}).set({ state: 'Writing' });
    const tasks = new Tasks(s.store, s.clock, s.events, serviceUris);
    assert.equal(tasks.get('dead')?.TaskState, 'Exception');
    assert.equal(tasks.get('dead')?.Messages.at(-1)?.MessageId, 'Vendor.1.0.TaskInterrupted');
    const status = new UpdateStatus(s.store);
    assert.equal(status.get().state, 'Error');
    assert.equal(status.get().result?.MessageId, 'Vendor.1.0.UpdateInterrupted');
    tasks.delete('dead');
    assert.deepEqual(await versions(), before);
  });

  it('tasks: finished tasks can be deleted', async () => {
    // A finished task: a download of an image the server does not have.
    const failed = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, {
      auth: 'basic',
      body: { ImageURI: `${images.url}/missing.bin` },
    });
    await runTask(failed);
    const id = `/redfish/v1/TaskService/Tasks/${failed.body.Id}/`;
    const tasks = (await svc.get('/redfish/v1/TaskService/Tasks/', { auth: 'basic' })).body.Members;
    assert.ok(tasks.some((t: { '@odata.id': string }) => t['@odata.id'] === id));
    assert.equal((await svc.req('DELETE', id, { auth: 'basic' })).status, 200);
    assert.equal((await svc.get(id, { auth: 'basic' })).status, 404);
  });
});
