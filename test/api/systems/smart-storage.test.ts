// Issue 28, items 3 and 5: iLO 5's Smart Storage views of the profile's RAID controller and its
// SmartStorageConfig document, written as ilorest's Smart Array commands write it; one model with
// the standard Storage view, changes applied at the next POST.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resetServer as resetHost } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const CTRL = `${SYS}SmartStorage/ArrayControllers/0/`;
const CONFIG = `${SYS}SmartStorageConfig/`;
// Spelled as iLO spells it (ilorest finds the pending document by a lower-case "settings").
const SETTINGS = `${CONFIG}settings/`;
const VOLUMES = `${SYS}Storage/DE00A000/Volumes/`;

describe('Smart Storage views and SmartStorageConfig', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const resetServer = () => resetHost(svc);
  const members = async (uri: string) => ((await svc.get(uri)).body.Members as { '@odata.id': string }[]).map((m) => m['@odata.id']);
  const put = async (uri: string, body: object) => {
    const etag = (await svc.get(uri)).headers.etag;
    return svc.req('PUT', uri, { body, headers: { 'If-Match': String(etag) } });
  };

  it('shows the RAID controller, its drives, logical drives and boxes, the same volumes as the Storage view', async () => {
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.Links.SmartStorage['@odata.id'], `${SYS}SmartStorage/`);
    assert.deepEqual(await members(`${SYS}SmartStorage/ArrayControllers/`), [CTRL]);
    const c = (await svc.get(CTRL)).body;
    assert.equal(c.Location, 'Slot 0');
    assert.equal(c.Model, 'Smart Storage RAID P408i-a');
    assert.equal(c.PhysicalDriveCount, 6);
    assert.equal(c.UnassignedPhysicalDriveCount, 4);
    assert.equal((await members(c.Links.PhysicalDrives['@odata.id'])).length, 6);
    assert.equal((await members(c.Links.UnconfiguredDrives['@odata.id'])).length, 4);
    const drive = (await svc.get(`${CTRL}DiskDrives/2/`)).body;
    assert.deepEqual([drive.Location, drive.MediaType, drive.InterfaceType, drive.CapacityMiB], ['1I:1:3', 'HDD', 'SAS', 1144641]);
    const boxes = await Promise.all(
      (await members(c.Links.StorageEnclosures['@odata.id'])).map(async (u) => (await svc.get(u)).body.Location),
    );
    assert.deepEqual(boxes, ['1I:1', '2I:1']);
    const ld = (await svc.get(`${CTRL}LogicalDrives/1/`)).body;
    const volume = (await svc.get(`${VOLUMES}1/`)).body;
    assert.equal(ld.VolumeUniqueIdentifier, volume.Identifiers[0].DurableName.replace(/-/g, '').toUpperCase());
    assert.equal(ld.Raid, '1');
    assert.deepEqual(await members(ld.Links.DataDrives['@odata.id']), [`${CTRL}DiskDrives/0/`, `${CTRL}DiskDrives/1/`]);
    const config = (await svc.get(CONFIG)).body;
    assert.equal(config.Location, c.Location, 'clients match the two by Location');
    assert.equal(config.DataGuard, 'Strict');
    assert.equal(config['@Redfish.Settings'].SettingsObject['@odata.id'], SETTINGS);
  });

  it('creates a logical drive from a quick-setup description at the next POST (createlogicaldrive quickdrive)', async () => {
    const current = (await svc.get(SETTINGS)).body.LogicalDrives;
    const quick = {
      Raid: 'Raid0',
      DataDrives: {
        DataDriveCount: 1,
        DataDriveMinimumSizeGiB: 0,
        DataDriveMediaType: 'HDD',
        DataDriveInterfaceType: 'SAS',
        DataDriveLocation: 'Internal',
      },
    };
    const r = await put(SETTINGS, { DataGuard: 'Disabled', LogicalDrives: [...current, quick] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.SystemResetRequired']);
    // Pending: the standard view shows the volume being built, the controller view not yet.
    assert.equal((await members(VOLUMES)).length, 2);
    assert.equal((await members(`${CTRL}LogicalDrives/`)).length, 1);
    assert.deepEqual(
      (await svc.get(SETTINGS)).body.LogicalDrives.map((x: any) => [x.Raid, x.DataDrives]),
      [
        ['Raid1', ['1I:1:1', '1I:1:2']],
        ['Raid0', ['1I:1:3']],
      ],
    );
    await resetServer();
    assert.equal((await members(`${CTRL}LogicalDrives/`)).length, 2);
    assert.equal((await svc.get(`${VOLUMES}2/`)).body.RAIDType, 'RAID0');
    assert.equal((await svc.get(CTRL)).body.UnassignedPhysicalDriveCount, 3);
    assert.equal((await svc.get(CONFIG)).body.DataGuard, 'Strict', 'DataGuard returns to Strict after the POST');
  });

  it('deletes a logical drive only when DataGuard allows it (deletelogicaldrive)', async () => {
    const drives = (await svc.get(CONFIG)).body.LogicalDrives;
    const marked = drives.map((x: any) => (x.LogicalDriveNumber === 2 ? { ...x, Actions: [{ Action: 'LogicalDriveDelete' }] } : x));
    let r = await put(CONFIG, { DataGuard: 'Strict', LogicalDrives: marked });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
    // ilorest sends the whole controller view back: what it cannot write is reported, the rest applies.
    const view = { ...(await svc.get(CTRL)).body, ...(await svc.get(CONFIG)).body };
    r = await put(CONFIG, { ...view, DataGuard: 'Permissive', LogicalDrives: marked });
    assert.equal(r.status, 200, r.text);
    assert.ok(messageIds(r.body).includes('Vendor.1.0.SystemResetRequired'));
    assert.deepEqual(
      (await svc.get(SETTINGS)).body.LogicalDrives.map((x: any) => x.LogicalDriveNumber),
      [1],
    );
    await resetServer();
    assert.deepEqual(await members(`${CTRL}LogicalDrives/`), [`${CTRL}LogicalDrives/1/`]);
    assert.deepEqual(await members(VOLUMES), [`${VOLUMES}1/`]);
  });

  it('erases free drives at the next POST and refuses drives of a logical drive (drivesanitize)', async () => {
    let r = await svc.req('PATCH', CONFIG, {
      body: {
        Actions: [{ Action: 'PhysicalDriveErase', ErasePattern: 'SanitizeRestrictedOverwrite', PhysicalDriveList: ['1I:1:1'] }],
        DataGuard: 'Disabled',
      },
    });
    assert.equal(r.status, 409, r.text);
    r = await svc.req('PATCH', CONFIG, {
      body: {
        Actions: [{ Action: 'PhysicalDriveErase', ErasePattern: 'SanitizeRestrictedOverwrite', PhysicalDriveList: ['2I:1:6'] }],
        DataGuard: 'Disabled',
      },
    });
    assert.equal(r.status, 200, r.text);
    const pending = (await svc.get(SETTINGS)).body.Actions.map((a: any) => [a.Action, a.ErasePattern, a.PhysicalDriveList]);
    assert.deepEqual(pending, [['PhysicalDriveErase', 'SanitizeRestrictedOverwrite', ['2I:1:6']]]);
    assert.equal((await svc.get(`${CTRL}DiskDrives/5/`)).body.DiskDriveUse, 'Unconfigured', 'nothing before the POST');
    await resetServer();
    const erasing = (await svc.get(`${CTRL}DiskDrives/5/`)).body;
    assert.equal(erasing.DiskDriveUse, 'Erasing');
    assert.equal(typeof erasing.EraseCompletionPercentage, 'number');
    assert.deepEqual((await svc.get(SETTINGS)).body.Actions, []);
  });

  it('clears the configuration at the next POST (clearcontrollerconfig, factoryresetcontroller)', async () => {
    let r = await svc.req('PUT', CONFIG, {
      body: { LogicalDrives: [], Actions: [{ Action: 'ClearConfigurationMetadata' }], DataGuard: 'Disabled' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await svc.get(SETTINGS)).body.LogicalDrives, []);
    r = await svc.req('PATCH', CONFIG, { body: { Actions: [{ Action: 'FactoryReset' }], DataGuard: 'Disabled' } });
    assert.equal(r.status, 200, r.text);
    await resetServer();
    assert.deepEqual(await members(`${CTRL}LogicalDrives/`), []);
    assert.deepEqual(await members(VOLUMES), []);
    assert.equal((await svc.get(CTRL)).body.UnassignedPhysicalDriveCount, 6);
  });
});
