// Issue 17 item 1: the scenario control API (--enable-control), each control's
// effect observed through the Redfish API, and the IEL record of every action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCAN_DURATION_MS } from '../../../src/domain/firmware/integrity.js';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { makePackage, upload } from '../../support/firmware.js';
import { installLicense } from '../../support/licenses.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import { QUEUE, SETS, WINDOWS, addComponent, settle } from '../../support/update-queue.js';

const SYS = '/redfish/v1/Systems/1/';
const CH = '/redfish/v1/Chassis/1/';
const US = '/redfish/v1/UpdateService/';

describe('control API: off by default', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('everything under /control/ is 404 with a Redfish error, with or without credentials', async () => {
    for (const [method, path] of [
      ['GET', '/control/'],
      ['POST', '/control/clock'],
      ['DELETE', '/control/faults/1'],
    ] as const) {
      for (const auth of ['none', 'basic'] as const) {
        const r = await svc.req(method, path, { auth, body: method === 'POST' ? { AdvanceSeconds: 1 } : undefined });
        assert.equal(r.status, 404, `${method} ${path} ${auth}`);
        assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI']);
      }
    }
  });
});

describe('control API: enabled', () => {
  let svc: TestService;
  let listener: EventListener;
  const control = (path: string, body?: unknown, method = 'POST') => svc.req(method, `/control/${path}`, { auth: 'basic', body });
  const iel = () => svc.running.services.logs.list('IEL').filter((l) => l.MessageId === 'Vendor.1.0.SimulatedEvent');
  const iml = () => svc.running.services.logs.list('IML').map((l) => l.MessageId);
  const phase = async () => (await control('', undefined, 'GET')).body.State.Phase as string;

  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
    listener = await EventListener.start();
    const r = await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      auth: 'basic',
      body: { Destination: listener.url, Protocol: 'Redfish', Context: 'control' },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await svc.close();
    await listener.close();
  });

  it('needs an administrator: 401 with WWW-Authenticate without credentials, 403 for an operator', async () => {
    const anon = await svc.req('GET', '/control/', { auth: 'none' });
    assert.equal(anon.status, 401);
    assert.match(anon.headers['www-authenticate'] ?? '', /^Basic/);
    const acct = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      auth: 'basic',
      body: { UserName: 'op', Password: 'Operator-Pass-1', RoleId: 'Operator' },
    });
    assert.equal(acct.status, 201, acct.text);
    const op = await svc.req('POST', '/control/clock', { auth: { user: 'op', password: 'Operator-Pass-1' }, body: { AdvanceSeconds: 1 } });
    assert.equal(op.status, 403);
    assert.deepEqual(messageIds(op.body), ['Base.1.12.InsufficientPrivilege']);
  });

  it('GET /control/ lists the controls and the simulated state', async () => {
    const r = await control('', undefined, 'GET');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.Controls, [
      '/control/clock/',
      '/control/power/',
      '/control/faults/',
      '/control/faults/rules/',
      '/control/sensors/',
      '/control/host/',
      '/control/controller/',
    ]);
    assert.equal(r.body.State.Clock, new Date(svc.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.equal(r.body.State.PowerState, 'Off');
    assert.deepEqual(r.body.State.Faults, []);
    assert.deepEqual(r.body.State.Host, { RuntimeAgent: false, ManagerFunctionality: true, Tpm: 'installed' });
  });

  it('bad input is a 400 with a registry message, never a 500', async () => {
    for (const [path, body, id] of [
      ['clock', {}, 'Base.1.12.PropertyMissing'],
      ['clock', { AdvanceSeconds: -1 }, 'Base.1.12.PropertyValueOutOfRange'],
      ['power', { Event: 'Explode' }, 'Base.1.12.PropertyValueNotInList'],
      ['faults', { Fault: 'FanFailure', Fan: 'NoSuchFan' }, 'Base.1.12.PropertyValueNotInList'],
      ['faults', { Fault: 'PsuFailure', Bay: 'x' }, 'Base.1.12.PropertyValueTypeError'],
      ['sensors', { Sensor: 'NoSuchSensor', ReadingCelsius: 1 }, 'Base.1.12.PropertyValueNotInList'],
      ['host', { Tpm: 'maybe' }, 'Base.1.12.PropertyValueNotInList'],
    ] as const) {
      const r = await control(path, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(messageIds(r.body)[0], id, `${path} ${JSON.stringify(body)}`);
    }
  });

  it('the clock moves forward (and only forward); a jump expires a maintenance window task', async () => {
    const w = await svc.req('POST', WINDOWS, {
      auth: 'basic',
      body: { Name: 'Tonight', StartAfter: '2026-11-22T20:00:00Z', Expire: '2026-11-22T22:00:00Z' },
    });
    assert.equal(w.status, 201, w.text);
    const t = await svc.req('POST', QUEUE, {
      auth: 'basic',
      body: { Name: 'late', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 1, MaintenanceWindow: 'Tonight' },
    });
    assert.equal(t.status, 201, t.text);
    const before = svc.clock.now();
    let r = await control('clock', { AdvanceSeconds: 3600 });
    assert.equal(r.status, 200, r.text);
    assert.equal(svc.clock.now(), before + 3_600_000);
    assert.equal((await svc.get(`${QUEUE}${t.body.Id}/`, { auth: 'basic' })).body.State, 'Pending');
    r = await control('clock', { Set: '2026-11-23T00:00:00Z' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.State.Clock, '2026-11-23T00:00:00Z');
    assert.equal((await svc.get(`${QUEUE}${t.body.Id}/`, { auth: 'basic' })).body.State, 'Expired');
    r = await control('clock', { Set: '2026-01-01T00:00:00Z' });
    assert.equal(r.status, 409);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ControlActionRejected']);
    assert.match(r.body.error['@Message.ExtendedInfo'][0].Message, /only moves forward/);
    assert.ok(iel().some((l) => /clock set to 2026-11-23/.test(l.Message) && /Administrator/.test(l.Message)));
  });

  it('StallPost holds PostState until ResumePost; OsCrash halts the OS; PullPower/RestorePower', async () => {
    let r = await control('power', { Event: 'StallPost' });
    assert.equal(r.status, 200, r.text);
    await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { auth: 'basic', body: { ResetType: 'On' } });
    await svc.clock.advance(60_000);
    await settle();
    const held = (await svc.get(SYS, { auth: 'basic' })).body;
    assert.equal(held.Oem.Vendor.PostState, 'InPost');
    assert.equal(held.BootProgress.LastState, 'MemoryInitializationStarted');
    assert.equal(await phase(), 'Post');
    r = await control('power', { Event: 'ResumePost' });
    assert.equal(r.status, 200);
    await svc.clock.advance(30_000);
    await settle();
    assert.equal((await svc.get(SYS, { auth: 'basic' })).body.Oem.Vendor.PostState, 'FinishedPost');
    assert.equal(await phase(), 'OsRunning');

    r = await control('power', { Event: 'OsCrash' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.State.Phase, 'OsHalted');
    assert.equal(r.body.State.OsRunning, false);
    assert.equal((await svc.get(SYS, { auth: 'basic' })).body.PowerState, 'On');
    assert.ok(iml().includes('Vendor.1.0.OsCrashed'));
    assert.equal((await control('power', { Event: 'OsCrash' })).status, 409);

    r = await control('power', { Event: 'PullPower' });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(SYS, { auth: 'basic' })).body.PowerState, 'Off');
    assert.ok(iml().includes('Vendor.1.0.AcPowerLost'));
    const on = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { auth: 'basic', body: { ResetType: 'On' } });
    assert.equal(on.status, 400, 'no power-on without AC');
    r = await control('power', { Event: 'RestorePower' });
    assert.equal(r.status, 200);
    // Power restore policy LastState: the host was on, so it powers on again.
    assert.equal(r.body.State.Phase, 'PoweringOn');
    for (let i = 0; i < 30 && (await phase()) !== 'OsRunning'; i++) {
      await svc.clock.advance(1000);
      await settle();
    }
    assert.equal(await phase(), 'OsRunning');
  });

  it('FanFailure: the fan reads 0 RPM and is Critical, the chassis degrades, an event goes out; clearing recovers', async () => {
    const r = await control('faults', { Fault: 'FanFailure', Fan: 'Fan1' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.location, `/control/faults/${r.body.Id}`);
    assert.equal(r.body.Fault, 'FanFailure');
    const thermal = (await svc.get(`${CH}Thermal/`, { auth: 'basic' })).body;
    const fan = thermal.Fans.find((f: any) => f.MemberId === '0' || f.Name === 'Fan 1' || /1$/.test(f.Name));
    assert.equal(fan.Reading, 0);
    assert.equal(fan.Status.Health, 'Critical');
    // One of N+1 fans: the chassis is degraded (Warning); a second failed fan makes it Critical.
    assert.equal((await svc.get(CH, { auth: 'basic' })).body.Status.Health, 'Warning');
    const second = await control('faults', { Fault: 'FanFailure', Fan: 'Fan2' });
    assert.equal(second.status, 201, second.text);
    assert.equal((await svc.get(CH, { auth: 'basic' })).body.Status.Health, 'Critical');
    assert.equal((await control(`faults/${second.body.Id}`, undefined, 'DELETE')).status, 200);
    await waitFor(
      () => listener.received.some((d) => JSON.stringify(d.body).includes('ResourceStatusChangedCritical')),
      'fan failure event delivered',
    );
    assert.equal((await control('faults/', undefined, 'GET')).body.Faults.length, 1);
    const del = await control(`faults/${r.body.Id}`, undefined, 'DELETE');
    assert.equal(del.status, 200, del.text);
    const after = (await svc.get(`${CH}Thermal/`, { auth: 'basic' })).body.Fans.find((f: any) => f.Name === fan.Name);
    assert.ok(after.Reading > 0);
    assert.equal(after.Status.Health, 'OK');
    assert.equal((await control(`faults/${r.body.Id}`, undefined, 'DELETE')).status, 404);
  });

  it('PsuFailure degrades the power supply and the redundancy; DriveFailure fails the drive', async () => {
    let r = await control('faults', { Fault: 'PsuFailure', Bay: 1 });
    assert.equal(r.status, 201, r.text);
    const power = (await svc.get(`${CH}Power/`, { auth: 'basic' })).body;
    assert.equal(power.PowerSupplies[0].Status.Health, 'Critical');
    assert.notEqual(power.Redundancy[0].Status.Health, 'OK');
    assert.equal((await control(`faults/${r.body.Id}`, undefined, 'DELETE')).status, 200);
    assert.equal((await svc.get(`${CH}Power/`, { auth: 'basic' })).body.PowerSupplies[0].Status.Health, 'OK');

    r = await control('faults', { Fault: 'DriveFailure' });
    assert.equal(r.status, 201, r.text);
    const drive = (await svc.get(`${SYS}Storage/${r.body.Storage}/Drives/${r.body.Drive}/`, { auth: 'basic' })).body;
    assert.equal(drive.Status.Health, 'Critical');
    assert.ok(iml().includes('StorageDevice.1.2.DrvArrPhyDrvStatusChange') || iml().some((id) => id.endsWith('DrvArrPhyDrvStatusChange')));
    assert.equal((await control(`faults/${r.body.Id}`, undefined, 'DELETE')).status, 200);
  });

  it('FlashFailure fails the next flash with a registry message; DownloadFailure the next download (a failed task)', async () => {
    let r = await control('faults', { Fault: 'FlashFailure' });
    assert.equal(r.status, 201, r.text);
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.1.4.700', file: 'sps.fwpkg' });
    const up = await upload(svc, pkg, { auth: 'basic', params: { UpdateTarget: true, UpdateRepository: true } });
    assert.notEqual(up.status, 200, up.text);
    assert.ok(JSON.stringify(up.body).includes('Vendor.1.0.FirmwareFlashFailed'), up.text);
    assert.ok(iml().includes('Vendor.1.0.FirmwareFlashFailed'));
    assert.equal((await control(`faults/${r.body.Id}/`, undefined, 'GET')).body.State, 'Triggered');

    r = await control('faults', { Fault: 'DownloadFailure' });
    const add = await svc.req('POST', `${US}Actions/UpdateService.SimpleUpdate/`, {
      auth: 'basic',
      body: { ImageURI: 'https://127.0.0.1:9/rom.bin' },
    });
    assert.equal(add.status, 202, add.text);
    const taskUri = add.headers.location as string;
    await svc.running.services.tasks.whenDone(taskUri.split('/').filter(Boolean).pop() as string);
    const monitor = await svc.get(taskUri, { auth: 'basic' });
    assert.ok(monitor.text.includes('simulated download failure'), monitor.text);
    assert.equal((await control(`faults/${r.body.Id}/`, undefined, 'GET')).body.State, 'Triggered');
  });

  it('ImageCorruption: the integrity scan reports the active firmware; clearing makes the next scan pass', async () => {
    await installLicense(svc, 'PremiumSecurity');
    const r = await control('faults', { Fault: 'ImageCorruption', Firmware: '4' });
    assert.equal(r.status, 201, r.text);
    const check = `${US}Actions/Oem/Vendor/VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck/`;
    assert.equal((await svc.req('POST', check, { auth: 'basic', body: {} })).status, 200);
    await svc.clock.advance(SCAN_DURATION_MS);
    await svc.running.services.update.integrity.current();
    await settle();
    assert.ok(iml().includes('Vendor.1.0.FirmwareIntegrityFailure'));
    assert.equal((await svc.get(`${US}FirmwareInventory/4/`, { auth: 'basic' })).body.Status.Health, 'Critical');
    assert.equal((await control(`faults/${r.body.Id}`, undefined, 'DELETE')).status, 200);
    assert.equal((await svc.get(`${US}FirmwareInventory/4/`, { auth: 'basic' })).body.Status.Health, 'OK');
  });

  it('ImageCorruption: with LogAndRepairAutomatically the scan repairs the image from the recovery set', async () => {
    await addComponent(svc, { targets: ['SPS'], version: '4.1.4.505', file: 'sps-recovery.fwpkg', criticality: 'Critical' });
    const set = await svc.req('POST', SETS, {
      auth: 'basic',
      body: {
        Name: 'System Recovery Set',
        IsRecovery: true,
        Sequence: [{ Name: 'SPS recovery', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'sps-recovery.fwpkg' }],
      },
    });
    assert.equal(set.status, 201, set.text);
    const p = await svc.req('PATCH', US, { auth: 'basic', body: { Oem: { Vendor: { OnIntegrityFailure: 'LogAndRepairAutomatically' } } } });
    assert.equal(p.status, 200, p.text);
    const r = await control('faults', { Fault: 'ImageCorruption', Firmware: '4' });
    assert.equal(r.status, 201, r.text);
    const check = `${US}Actions/Oem/Vendor/VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck/`;
    assert.equal((await svc.req('POST', check, { auth: 'basic', body: {} })).status, 200);
    const scan = svc.running.services.update.integrity.current();
    await svc.clock.advance(SCAN_DURATION_MS);
    await scan;
    assert.ok(iml().includes('Vendor.1.0.FirmwareIntegrityRepaired'));
    const item = (await svc.get(`${US}FirmwareInventory/4/`, { auth: 'basic' })).body;
    assert.equal(item.Status.Health, 'OK');
    assert.equal(item.Version, '4.1.4.505');
    assert.equal((await svc.get(US, { auth: 'basic' })).body.Oem.Vendor.LastIntegrityScanResult, 'Repaired');
  });

  it('ListenerUnreachable makes deliveries fail and retry; clearing lets them through', async () => {
    const r = await control('faults', { Fault: 'ListenerUnreachable', Destination: listener.url });
    assert.equal(r.status, 201, r.text);
    const before = listener.received.length;
    const ev = await svc.req('POST', '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/', {
      auth: 'basic',
      body: { MessageId: 'ResourceEvent.1.3.TestMessage' },
    });
    assert.ok(ev.status < 300, ev.text);
    await settle();
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(listener.received.length, before, 'nothing reaches an unreachable listener');
    assert.equal((await control(`faults/${r.body.Id}`, undefined, 'DELETE')).status, 200);
    for (let i = 0; i < 20 && listener.received.length === before; i++) {
      await svc.clock.advance(30_000);
      await settle();
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.ok(listener.received.length > before, 'the retry delivers once the fault is cleared');
  });

  it('a held temperature reads exactly, crosses its threshold (health and event), and clears', async () => {
    let r = await control('sensors', { Sensor: 'CPU1', ReadingCelsius: 95 });
    assert.equal(r.status, 200, r.text);
    const temp = () => svc.get(`${CH}Thermal/`, { auth: 'basic' }).then((x) => x.body.Temperatures.find((t: any) => /CPU 1/.test(t.Name)));
    for (let i = 0; i < 3; i++) {
      assert.equal((await temp()).ReadingCelsius, 95);
      await svc.clock.advance(7_000);
    }
    assert.equal((await temp()).Status.Health, 'Critical');
    assert.equal((await control('', undefined, 'GET')).body.State.Sensors[0].ReadingCelsius, 95);
    await waitFor(
      () =>
        listener.received.some(
          (d) => JSON.stringify(d.body).includes('ResourceStatusChangedCritical') && JSON.stringify(d.body).includes('CPU1'),
        ),
      'threshold event',
    );
    r = await control('sensors/CPU1', undefined, 'DELETE');
    assert.equal(r.status, 200, r.text);
    assert.notEqual((await temp()).ReadingCelsius, 95);
    // The same through POST with Clear.
    assert.equal((await control('sensors', { Sensor: 'CPU1', ReadingCelsius: 33 })).status, 200);
    assert.equal((await temp()).ReadingCelsius, 33);
    r = await control('sensors', { Sensor: 'CPU1', Clear: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await control('', undefined, 'GET')).body.State.Sensors, []);
    assert.equal((await control('sensors', { Sensor: 'CPU1', Clear: true })).status, 400);
  });

  it('host: RuntimeAgent and TPM', async () => {
    const r = await control('host', { RuntimeAgent: true, Tpm: 'absent' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { RuntimeAgent: true, ManagerFunctionality: true, Tpm: 'absent' });
    const sys = (await svc.get(SYS, { auth: 'basic' })).body;
    assert.equal(sys.TrustedModules?.[0]?.Status?.State ?? 'Absent', 'Absent');
    assert.equal(svc.running.services.updateQueue.runtimeAgent.state().installed, true);
  });

  it('faults and held readings survive a restart of the service', async () => {
    const f = await control('faults', { Fault: 'FanFailure', Fan: 'Fan3' });
    assert.equal(f.status, 201, f.text);
    assert.equal((await control('sensors', { Sensor: 'InletAmbient', ReadingCelsius: 30 })).status, 200);
    svc = await svc.restart({ enableControl: true });
    const state = (await control('', undefined, 'GET')).body.State;
    assert.ok(state.Faults.some((x: any) => x.Id === f.body.Id));
    const thermal = (await svc.get(`${CH}Thermal/`, { auth: 'basic' })).body;
    assert.equal(thermal.Fans.find((x: any) => x.Name === 'Fan 3' || /3$/.test(x.Name)).Reading, 0);
    assert.equal(thermal.Temperatures.find((x: any) => /Inlet/.test(x.Name)).ReadingCelsius, 30);
    assert.equal((await control(`faults/${f.body.Id}`, undefined, 'DELETE')).status, 200);
    assert.equal((await control('sensors/InletAmbient', undefined, 'DELETE')).status, 200);
  });

  it('every action is in the IEL as a simulated event naming the user', () => {
    const records = iel();
    assert.ok(records.length >= 15, String(records.length));
    for (const what of ['power event PullPower', 'fault FanFailure injected', 'fault FanFailure cleared', 'sensor CPU1 held', 'host:']) {
      assert.ok(
        records.some((l) => l.Message.includes(what) && l.Message.includes('Administrator')),
        what,
      );
    }
  });
});
