// Issue 28 item 4 under --oem-name Hpe: the flows of ilorest's repository commands, uploadcomp,
// listcomp, downloadcomp, taskqueue, installset, maintenancewindow, fwintegritycheck and
// firmwareupdate, driven as ilorest drives them (what it reads where, the iLO names it selects).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { CONTROLLER_RESET_DELAY_MS } from '../../../src/domain/firmware/flasher.js';
import { makePackage, startImageServer, upload, type ImageServer } from '../../support/firmware.js';
import { installLicense } from '../../support/licenses.js';
import { startTestService, type TestService } from '../../support/service.js';
import { QUEUE, REPO, SETS, US, WINDOWS, get, post } from '../../support/update-queue.js';

describe('iLO firmware protocol with --oem-name Hpe', () => {
  let svc: TestService;
  let images: ImageServer;
  const files = new Map<string, Buffer>();
  before(async () => {
    images = await startImageServer(mkdtempSync(`${tmpdir()}/img-`), files);
    svc = await startTestService({ config: { oemName: 'Hpe', downloadCa: images.caFile } });
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  const hpe = async () => (await get(svc, US)).body.Oem.Hpe;
  const expanded = async (path: string) => (await get(svc, `${path}?$expand=.`)).body.Members as Record<string, any>[];

  it('uploadcomp, listcomp, downloadcomp: Oem/Hpe/State, HpeComponent members, /fwrepo', async () => {
    assert.equal((await hpe()).State, 'Idle');
    const rom = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v9.90', file: 'rom.bin' });
    const params = { UpdateRepository: true, UpdateTarget: false, ETag: 'sumrombin', Section: 0, UpdateRecoverySet: false };
    const r = await upload(svc, rom, { params, auth: 'basic' });
    assert.equal(r.status, 200, r.text);
    const state = await hpe();
    assert.deepEqual([state.State, state.UploadCurrentEtag], ['Complete', 'sumrombin']);
    const [c] = await expanded(REPO);
    assert.ok(c);
    assert.match(c['@odata.type'], /^#HpeComponent\./);
    for (const k of ['Id', 'Name', 'Version', 'Locked', 'ComponentUri', 'Filepath', 'SizeBytes']) assert.ok(k in c, k);
    assert.equal((await svc.req('GET', c.ComponentUri, { auth: 'basic' })).headers['content-length'], String(rom.data.length));
  });

  it('taskqueue, installset, maintenancewindow: iLO names, ResetServer, times without an offset, ClearTaskQueue', async () => {
    let r = await post(svc, QUEUE, { Name: 'Reboot-1', Command: 'ResetServer', UpdatableBy: ['RuntimeAgent'] });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body['@odata.type'], /^#HpeComponentUpdateTask\./);
    r = await post(svc, WINDOWS, { Name: 'r28mw', StartAfter: '2030-01-01T00:00:00', Expire: '2030-01-02T00:00:00' });
    assert.equal(r.status, 201, r.text);
    assert.match(r.body['@odata.type'], /^#HpeMaintenanceWindow\./);
    r = await post(svc, SETS, {
      Name: 'r28set',
      Sequence: [
        { Name: 'r28-wait', Command: 'Wait', WaitTimeSeconds: 5, UpdatableBy: ['Bmc'] },
        { Name: 'r28-rom', Command: 'ApplyUpdate', Filename: 'rom.bin', UpdatableBy: ['Uefi'] },
      ],
    });
    assert.equal(r.status, 201, r.text);
    const [set] = await expanded(SETS);
    const target = set?.Actions['#HpeComponentInstallSet.Invoke'].target as string;
    r = await post(svc, target, { ClearTaskQueue: true, StartAfter: '2030-01-01T00:00:00' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (await expanded(QUEUE)).map((t) => [t.Name, t.StartAfter]),
      [
        ['r28-wait', '2030-01-01T00:00:00Z'],
        ['r28-rom', '2030-01-01T00:00:00Z'],
      ],
    );
  });

  it("fwintegritycheck: HpeiLOLicense's FWScan, the Oem/Hpe action, LastScanTime after the CurrentTime read before", async () => {
    await installLicense(svc, 'PremiumSecurity');
    const [license] = await expanded('/redfish/v1/Managers/1/LicenseService/');
    assert.match(license?.['@odata.type'], /^#HpeiLOLicense\./);
    assert.equal(license?.LicenseFeatures.FWScan, true);
    const before = await hpe();
    const r = await post(svc, before.Actions['#HpeiLOUpdateServiceExt.StartFirmwareIntegrityCheck'].target, {});
    assert.equal(r.status, 200, r.text);
    await svc.clock.advance(50_000);
    const after = (await hpe()).FirmwareIntegrity;
    assert.ok(after.LastScanTime > before.CurrentTime, `${after.LastScanTime} after ${before.CurrentTime}`);
    assert.equal(after.LastScanResult, 'OK');
  });

  it('firmwareupdate: SimpleUpdate with the Action member ilorest adds, then Oem/Hpe/State until Complete', async () => {
    const rom = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v9.91', file: 'rom2.bin' });
    files.set('/rom2.bin', rom.data);
    const r = await post(svc, `${US}Actions/UpdateService.SimpleUpdate/`, {
      Action: 'UpdateService.SimpleUpdate',
      ImageURI: `${images.url}/rom2.bin`,
    });
    assert.equal(r.status, 202, r.text);
    assert.equal((await hpe()).State, 'Uploading');
    await svc.running.services.tasks.whenDone(r.body.Id);
    assert.equal((await hpe()).State, 'Complete');
    assert.equal((await get(svc, `${US}FirmwareInventory/2/`)).body.Oem.Hpe.PendingVersion, 'U30 v9.91');
  });

  // Last: the controller's reset after its flash ends every session.
  it("names the controller's firmware iLO 5 and the vendor HPE; the inventory, the manager and the root show one version", async () => {
    const system = (await get(svc, '/redfish/v1/Systems/1/')).body;
    assert.equal(system.Manufacturer, 'HPE');
    assert.equal((await get(svc, '/redfish/v1/Chassis/1/')).body.Manufacturer, 'HPE');
    const names = (await expanded(`${US}FirmwareInventory/`)).map((m) => m.Name);
    assert.equal(names[0], 'iLO 5');
    assert.ok(names.includes('HPE Smart Array P408i-a SR'), names.join(', '));
    assert.ok(!names.some((n) => /Vendor/.test(n)), names.join(', '));

    const bin = await makePackage(svc, { targets: ['BMC'], version: '2.72', file: 'ilo.bin' });
    files.set('/ilo.bin', bin.data);
    const r = await post(svc, `${US}Actions/UpdateService.SimpleUpdate/`, { ImageURI: `${images.url}/ilo.bin` });
    assert.equal(r.status, 202, r.text);
    await svc.running.services.tasks.whenDone(r.body.Id);
    await svc.clock.advance(CONTROLLER_RESET_DELAY_MS);
    const task = await svc.get(`/redfish/v1/TaskService/Tasks/${r.body.Id}/`, { auth: 'basic' });
    const updated = task.body.Messages.find((m: any) => m.MessageId === 'Hpe.1.0.FirmwareUpdated');
    assert.deepEqual(updated.MessageArgs, ['iLO 5', '1.40', '2.72']);
    assert.match(updated.Message, /^iLO 5 was updated from version 1\.40 to version 2\.72\.$/);
    const iml = (await svc.get('/redfish/v1/Systems/1/LogServices/IML/Entries/?$expand=.', { auth: 'basic' })).body.Members;
    assert.ok(iml.some((e: any) => e.MessageId === 'Hpe.1.0.FirmwareUpdated' && e.MessageArgs[0] === 'iLO 5'));

    const root = (await svc.get('/redfish/v1/', { auth: 'none' })).body.Oem.Hpe.Manager[0];
    const manager = (await svc.get('/redfish/v1/Managers/1/', { auth: 'basic' })).body;
    const inventory = (await svc.get(`${US}FirmwareInventory/1/`, { auth: 'basic' })).body;
    assert.deepEqual([root.ManagerFirmwareVersion, manager.FirmwareVersion, inventory.Version], ['2.72', '2.72', '2.72']);
  });
});
