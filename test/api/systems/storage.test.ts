// Storage over HTTPS: the inventory of the hardware profile (Storage,
// Controllers, Drives, Volumes, SimpleStorage), as sushy and Ansible walk it;
// the drives' locate LED; health from the hardware health registry.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const ST = `${SYS}Storage/DE00A000/`;
const drive = (n: number | string) => `${ST}Drives/${n}/`;

describe('Storage inventory (default profile)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('the system links Storage and SimpleStorage; the collection holds the profile controller', async () => {
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.Storage['@odata.id'], `${SYS}Storage/`);
    assert.equal(sys.SimpleStorage['@odata.id'], `${SYS}SimpleStorage/`);
    const c = await svc.get(`${SYS}Storage/`);
    assert.equal(c.status, 200);
    assert.equal(c.body['@odata.type'], '#StorageCollection.StorageCollection');
    assert.deepEqual(c.body.Members, [{ '@odata.id': ST }]);
    assert.equal((await svc.get(`${SYS}Storage/NOPE/`)).status, 404);
    assert.equal((await svc.get(`${ST}Drives/6/`)).status, 404);
    assert.equal((await svc.get(`${SYS}Storage/NOPE/Drives/0/`)).status, 404);
  });

  it('Storage shows the controller both ways, every drive and the volumes; counts and sizes match the profile', async () => {
    const hw = svc.running.services.hardware.storage[0];
    assert.ok(hw);
    const b = (await svc.get(ST)).body;
    assert.equal(b['@odata.type'], '#Storage.v1_21_0.Storage');
    assert.equal(b.Id, 'DE00A000');
    assert.deepEqual(b.Status, { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' });
    assert.equal(b.Drives.length, 6);
    assert.equal(b['Drives@odata.count'], 6);
    assert.equal(b.Volumes['@odata.id'], `${ST}Volumes/`);
    assert.equal(b.Controllers['@odata.id'], `${ST}Controllers/`);
    const legacy = b.StorageControllers[0];
    assert.equal(legacy.Model, 'Smart Storage RAID P408i-a');
    assert.equal(legacy.SerialNumber, hw.serialNumber);
    assert.deepEqual(legacy.SupportedRAIDTypes, ['RAID0', 'RAID1', 'RAID5', 'RAID6', 'RAID10', 'RAID50', 'RAID60', 'RAID1E']);
    assert.deepEqual(legacy.SupportedDeviceProtocols, ['SATA', 'SAS']);
    const ctrls = (await svc.get(`${ST}Controllers/`)).body;
    assert.deepEqual(ctrls.Members, [{ '@odata.id': `${ST}Controllers/0/` }]);
    const ctrl = (await svc.get(`${ST}Controllers/0/`)).body;
    assert.equal(ctrl['@odata.type'], '#StorageController.v1_11_0.StorageController');
    assert.equal(ctrl.FirmwareVersion, '3.53');
    assert.equal(ctrl.SerialNumber, hw.serialNumber);
    assert.equal(ctrl.SpeedGbps, 12);
    // The link of the PCIe device the profile ties to the controller.
    const link = { PCIeType: 'Gen3', MaxPCIeType: 'Gen3', LanesInUse: 8, MaxLanes: 8 };
    assert.deepEqual([ctrl.PCIeInterface, legacy.PCIeInterface], [link, link]);
    assert.equal(ctrl.Links.PCIeFunctions.length, 1);
    const fn = await svc.get(ctrl.Links.PCIeFunctions[0]['@odata.id']);
    assert.equal(fn.status, 200);
    assert.equal(fn.body.DeviceClass, 'MassStorageController');
    assert.equal((await svc.get(`${ST}Controllers/1/`)).status, 404);

    const links: { '@odata.id': string }[] = b.Drives;
    for (const [i, link] of links.entries()) {
      const spec: (typeof hw.drives)[number] | undefined = hw.drives[i];
      assert.ok(spec);
      const d = (await svc.get(link['@odata.id'])).body;
      assert.equal(d['@odata.type'], '#Drive.v1_22_0.Drive');
      assert.equal(d.CapacityBytes, spec.capacityBytes);
      assert.equal(d.MediaType, spec.media);
      assert.equal(d.Protocol, spec.protocol);
      assert.equal(d.Model, spec.model);
      assert.equal(d.Manufacturer, spec.manufacturer);
      assert.equal(d.SerialNumber, spec.serialNumber);
      assert.equal(d.Revision, spec.firmwareVersion);
      assert.equal(d.RotationSpeedRPM, spec.rpm ?? null);
      assert.equal(d.BlockSizeBytes, 512);
      assert.equal(d.PhysicalLocation.PartLocation.ServiceLabel, spec.bay);
      assert.equal(d.PhysicalLocation.PartLocation.LocationType, 'Bay');
      assert.deepEqual(d.Status, { State: 'Enabled', Health: 'OK' });
      assert.equal(d.Links.Storage['@odata.id'], ST);
    }
    const first = (await svc.get(drive(0))).body;
    assert.equal(first.MediaType, 'SSD');
    assert.equal(first.RotationSpeedRPM, null);
    assert.match(first.SerialNumber, /^WFK[A-Z0-9]{10}$/);
    assert.deepEqual(first.Links.Volumes, [{ '@odata.id': `${ST}Volumes/1/` }]);
    const hdd = (await svc.get(drive(2))).body;
    assert.equal(hdd.RotationSpeedRPM, 10000);
    assert.equal(hdd.CapacityBytes, 1200243695616);
    assert.deepEqual(hdd.Links.Volumes, []);
    assert.deepEqual(hdd.Actions['#Drive.SecureErase']['SanitizationType@Redfish.AllowableValues'], ['Overwrite']);
    assert.deepEqual(first.Actions['#Drive.SecureErase']['SanitizationType@Redfish.AllowableValues'], ['BlockErase', 'Overwrite']);
  });

  it("the profile's logical drive is there at first start, RAID1 of the two SSDs", async () => {
    const col = (await svc.get(`${ST}Volumes/`)).body;
    assert.equal(col['@odata.type'], '#VolumeCollection.VolumeCollection');
    assert.deepEqual(col.Members, [{ '@odata.id': `${ST}Volumes/1/` }]);
    assert.deepEqual(col['@Redfish.OperationApplyTimeSupport'].SupportedValues, ['OnReset']);
    const v = (await svc.get(`${ST}Volumes/1/`)).body;
    assert.equal(v['@odata.type'], '#Volume.v1_10_2.Volume');
    assert.equal(v.RAIDType, 'RAID1');
    assert.deepEqual([v.StripSizeBytes, v.VolumeUsage], [262144, 'Data']);
    assert.equal(v.VolumeType, 'Mirrored');
    assert.equal(v.CapacityBytes, 480103981056);
    assert.equal(v.Name, 'Logical Drive 1');
    assert.deepEqual(v.Status, { State: 'Enabled', Health: 'OK' });
    assert.deepEqual(v.Links.Drives, [{ '@odata.id': drive(0) }, { '@odata.id': drive(1) }]);
    assert.equal(v.Oem.Vendor.ConfigurationState, 'Active');
    assert.deepEqual(v.Operations, []);
    assert.equal(v.Identifiers[0].DurableNameFormat, 'UUID');
  });

  it('SimpleStorage lists every drive with its capacity and status', async () => {
    const col = (await svc.get(`${SYS}SimpleStorage/`)).body;
    assert.deepEqual(col.Members, [{ '@odata.id': `${SYS}SimpleStorage/DE00A000/` }]);
    const s = (await svc.get(`${SYS}SimpleStorage/DE00A000/`)).body;
    assert.equal(s['@odata.type'], '#SimpleStorage.v1_3_2.SimpleStorage');
    assert.deepEqual(
      s.Devices.map((x: any) => x.CapacityBytes),
      svc.running.services.hardware.storage[0]?.drives.map((x) => x.capacityBytes),
    );
    assert.deepEqual(s.Devices[2].Status, { State: 'Enabled', Health: 'OK' });
    assert.equal(s.Links.Storage['@odata.id'], ST);
  });

  it("Ansible's GetStorageControllerInventory and GetDiskInventory walk: Storage, Controllers (and StorageControllers), Drives", async () => {
    const disks: Record<string, unknown>[] = [];
    const controllers: string[] = [];
    const system = (await svc.get(SYS)).body;
    const storage = (await svc.get(system.Storage['@odata.id'])).body;
    for (const m of storage.Members) {
      const data = (await svc.get(m['@odata.id'])).body;
      if (data.Controllers) {
        const cs = (await svc.get(data.Controllers['@odata.id'])).body;
        for (const c of cs.Members) controllers.push((await svc.get(c['@odata.id'])).body.Name);
      }
      assert.equal(data.StorageControllers[0].Name, controllers[0]);
      for (const d of data.Drives) {
        const x = (await svc.get(d['@odata.id'])).body;
        const props = [
          'BlockSizeBytes',
          'CapableSpeedGbs',
          'CapacityBytes',
          'EncryptionAbility',
          'EncryptionStatus',
          'FailurePredicted',
          'HotspareType',
          'Id',
          'Identifiers',
          'Manufacturer',
          'MediaType',
          'Model',
          'Name',
          'NegotiatedSpeedGbs',
          'PhysicalLocation',
          'Protocol',
          'Revision',
          'RotationSpeedRPM',
          'SerialNumber',
          'Status',
        ];
        for (const p of props) assert.ok(p in x, `${d['@odata.id']} has ${p}`);
        disks.push(x);
      }
    }
    assert.deepEqual(controllers, ['Smart Storage RAID P408i-a']);
    assert.equal(disks.length, 6);
    assert.equal(disks.filter((x) => x.MediaType === 'HDD').length, 4);
    assert.equal(
      disks.reduce((sum, x) => sum + (x.CapacityBytes as number), 0),
      2 * 480103981056 + 4 * 1200243695616,
    );
  });

  it('LocationIndicatorActive (and the deprecated IndicatorLED) light the bay LED, and it stays lit across a restart', async () => {
    let r = await svc.req('PATCH', drive(3), { body: { LocationIndicatorActive: true } });
    assert.equal(r.status, 200);
    let d = (await svc.get(drive(3))).body;
    assert.equal(d.LocationIndicatorActive, true);
    assert.equal(d.IndicatorLED, 'Blinking');
    assert.equal((await svc.get(drive(2))).body.LocationIndicatorActive, false);
    r = await svc.req('PATCH', drive(3), { body: { IndicatorLED: 'Off' } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(drive(3))).body.LocationIndicatorActive, false);
    r = await svc.req('PATCH', drive(3), { body: { IndicatorLED: 'Blinking' } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(drive(3))).body.LocationIndicatorActive, true);
    r = await svc.req('PATCH', drive(3), { body: { IndicatorLED: 'Lit' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    r = await svc.req('PATCH', drive(3), { body: { IndicatorLED: 'Off', LocationIndicatorActive: true } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
    r = await svc.req('PATCH', drive(3), { body: { CapacityBytes: 1 } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyNotWritable']);
    svc = await svc.restart();
    d = (await svc.get(drive(3))).body;
    assert.equal(d.LocationIndicatorActive, true);
  });

  it('serial numbers are the same after a restart (derived from the seed)', async () => {
    const before = (await svc.get(drive(4))).body.SerialNumber;
    svc = await svc.restart();
    assert.equal((await svc.get(drive(4))).body.SerialNumber, before);
  });

  it("lights each drive's status indicator from its own health, then its array's; no drive write cache", async () => {
    const health = svc.running.services.health;
    const indicators = async () => Promise.all([0, 1, 5].map(async (i) => (await svc.get(drive(i))).body.StatusIndicator));
    assert.deepEqual(await indicators(), ['OK', 'OK', 'OK']);
    // The mirror (volume 1) is drives 0 and 1.
    health.set(componentKey.drive('DE00A000', '1I:1:1'), { Health: 'Critical' });
    health.set(componentKey.drive('DE00A000', '2I:1:6'), { Health: 'Warning' });
    try {
      assert.deepEqual(await indicators(), ['Fail', 'InACriticalArray', 'PredictiveFailureAnalysis']);
      health.set(componentKey.volume('DE00A000', '1'), { Health: 'Critical' });
      assert.deepEqual(await indicators(), ['Fail', 'InAFailedArray', 'PredictiveFailureAnalysis']);
    } finally {
      health.clear(componentKey.drive('DE00A000', '1I:1:1'));
      health.clear(componentKey.drive('DE00A000', '2I:1:6'));
      health.clear(componentKey.volume('DE00A000', '1'));
    }
    assert.deepEqual(await indicators(), ['OK', 'OK', 'OK']);
    // The drives' write caches are as the controller's view says: off.
    const controller = (await svc.get(`${SYS}SmartStorage/ArrayControllers/0/`)).body;
    assert.equal(controller.DriveWriteCache, 'Disabled');
    assert.equal((await svc.get(drive(0))).body.WriteCacheEnabled, false);
  });

  it("health follows the registry: a failed drive degrades its mirror, two fail it; the storage's rollup shows it", async () => {
    const health = svc.running.services.health;
    health.set(componentKey.drive('DE00A000', '1I:1:1'), { Health: 'Critical' });
    try {
      assert.deepEqual((await svc.get(drive(0))).body.Status, { State: 'Enabled', Health: 'Critical' });
      assert.deepEqual((await svc.get(`${ST}Volumes/1/`)).body.Status, { State: 'Enabled', Health: 'Warning' });
      assert.deepEqual((await svc.get(ST)).body.Status, { State: 'Enabled', Health: 'OK', HealthRollup: 'Critical' });
      const simple = (await svc.get(`${SYS}SimpleStorage/DE00A000/`)).body;
      assert.equal(simple.Devices[0].Status.Health, 'Critical');
      // The IML records the drive's failure and what it did to the mirror (StorageDevice registry).
      const iml = (await svc.get(`${SYS}LogServices/IML/Entries/`)).body.Members as any[];
      const recent = iml
        .filter((e) => e.MessageId.startsWith('StorageDevice.'))
        .map((e) => [e.MessageId.replace(/\.\d+\.\d+\./, '.'), e.MessageArgs, e.Links.OriginOfCondition['@odata.id']]);
      assert.deepEqual(recent.slice(-2).sort(), [
        ['StorageDevice.DrvArrLogDrvStatusChange', ['1', 'Embedded', 'Degraded'], `${ST}Volumes/1/`],
        ['StorageDevice.DrvArrPhyDrvStatusChange', ['1I:1:1', 'Embedded', 'Failed'], drive(0)],
      ]);
      health.set(componentKey.drive('DE00A000', '1I:1:2'), { Health: 'Critical' });
      assert.deepEqual((await svc.get(`${ST}Volumes/1/`)).body.Status, { State: 'UnavailableOffline', Health: 'Critical' });
      health.set(componentKey.drive('DE00A000', '2I:1:6'), { Health: 'Warning' });
      assert.equal((await svc.get(drive(5))).body.FailurePredicted, true);
    } finally {
      health.clear(componentKey.drive('DE00A000', '1I:1:1'));
      health.clear(componentKey.drive('DE00A000', '1I:1:2'));
      health.clear(componentKey.drive('DE00A000', '2I:1:6'));
    }
    assert.deepEqual((await svc.get(`${ST}Volumes/1/`)).body.Status, { State: 'Enabled', Health: 'OK' });
    assert.deepEqual((await svc.get(ST)).body.Status, { State: 'Enabled', Health: 'OK', HealthRollup: 'OK' });
    health.set(componentKey.controller('DE00A000'), { Health: 'Warning' });
    try {
      assert.deepEqual((await svc.get(ST)).body.Status, { State: 'Enabled', Health: 'Warning', HealthRollup: 'Warning' });
      assert.equal((await svc.get(`${ST}Controllers/0/`)).body.Status.Health, 'Warning');
    } finally {
      health.clear(componentKey.controller('DE00A000'));
    }
  });

  it('reads need only Login; a ReadOnly user cannot light an LED', async () => {
    await svc.running.services.accounts.create({ UserName: 'storview', Password: 'Viewer-Pass-1', RoleId: 'ReadOnly' });
    const auth = { user: 'storview', password: 'Viewer-Pass-1' };
    assert.equal((await svc.get(drive(0), { auth })).status, 200);
    assert.equal((await svc.get(`${ST}Volumes/1/`, { auth })).status, 200);
    const r = await svc.req('PATCH', drive(0), { body: { LocationIndicatorActive: true }, auth });
    assert.equal(r.status, 403);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
  });
});

describe('Storage inventory (NVMe profile: two controllers)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { hardware: 'vs380-gen10-nvme' } });
  });
  after(() => svc.close());

  it('lists both controllers; the direct-attached NVMe one builds no volumes', async () => {
    const c = (await svc.get(`${SYS}Storage/`)).body;
    assert.deepEqual(
      c.Members.map((m: any) => m['@odata.id']),
      [`${SYS}Storage/DE040000/`, `${SYS}Storage/DE07B000/`],
    );
    const direct = (await svc.get(`${SYS}Storage/DE040000/`)).body;
    assert.equal(direct.Drives.length, 8);
    assert.deepEqual(direct.StorageControllers[0].SupportedRAIDTypes, []);
    const vols = await svc.get(`${SYS}Storage/DE040000/Volumes/`);
    assert.deepEqual(vols.body.Members, []);
    assert.equal(vols.headers.allow, 'GET, HEAD');
    const r = await svc.req('POST', `${SYS}Storage/DE040000/Volumes/`, {
      body: { RAIDType: 'RAID0', Links: { Drives: [{ '@odata.id': `${SYS}Storage/DE040000/Drives/0/` }] } },
    });
    assert.equal(r.status, 405);
    const nvme = (await svc.get(`${SYS}Storage/DE040000/Drives/0/`)).body;
    assert.equal(nvme.Protocol, 'NVMe');
    assert.equal(nvme.Identifiers[0].DurableNameFormat, 'NGUID');
    assert.match(nvme.SerialNumber, /^S4/);
    assert.deepEqual(nvme.Actions['#Drive.SecureErase']['SanitizationType@Redfish.AllowableValues'], [
      'BlockErase',
      'CryptographicErase',
      'Overwrite',
    ]);
    const boot = (await svc.get(`${SYS}Storage/DE07B000/Volumes/1/`)).body;
    assert.equal(boot.Name, 'Boot Mirror');
    assert.equal(boot.CapacityBytes, 480103981056);
  });

  it('a drive of another controller cannot join a volume', async () => {
    const r = await svc.req('POST', `${SYS}Storage/DE07B000/Volumes/`, {
      body: {
        RAIDType: 'RAID1',
        Links: { Drives: [{ '@odata.id': `${SYS}Storage/DE040000/Drives/0/` }, { '@odata.id': `${SYS}Storage/DE040000/Drives/1/` }] },
      },
    });
    assert.equal(r.status, 409);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueResourceConflict', 'Base.1.12.PropertyValueResourceConflict']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][1].RelatedProperties, ['#/Links/Drives/1']);
  });
});

describe('Storage and the profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-storage-profile-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const profile = (edit: (text: string) => string): string => {
    const file = join(dir, `p${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, edit(readFileSync(new URL('../../../profiles/default.yaml', import.meta.url), 'utf8')));
    return file;
  };

  it('a profile volume the controller could not build stops the start, naming it', async () => {
    const file = profile((t) =>
      t.replace(
        '{ name: Logical Drive 1, raidType: RAID1, drives: ["1I:1:1", "1I:1:2"] }',
        '{ name: Bad, raidType: RAID5, drives: ["1I:1:1", "1I:1:2"] }',
      ),
    );
    await assert.rejects(startTestService({ config: { hardware: file } }), /storage DE00A000, volume Bad \(RAID5 over 2 drives\)/);
  });

  it('volumes on drives a later profile lacks are not shown', async () => {
    const data = mkdtempSync(join(dir, 'data-'));
    let svc = await startTestService({ dataDir: data });
    try {
      const r = await svc.req('POST', `${ST}Volumes/`, { body: { RAIDType: 'RAID0', Links: { Drives: [{ '@odata.id': drive(5) }] } } });
      assert.equal(r.status, 202);
      // The same controller with only its first four drives.
      const fewer = profile((t) => t.replace(/\n {6}- \{ bay: "2I:1:5"[^\n]*/, '').replace(/\n {6}- \{ bay: "2I:1:6"[^\n]*/, ''));
      svc = await svc.restart({ hardware: fewer });
      assert.equal((await svc.get(ST)).body.Drives.length, 4);
      assert.deepEqual((await svc.get(`${ST}Volumes/`)).body.Members, [{ '@odata.id': `${ST}Volumes/1/` }]);
      assert.equal((await svc.get(`${ST}Volumes/2/`)).status, 404);
    } finally {
      await svc.close();
    }
  });
});
