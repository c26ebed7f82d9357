// DMTF's 2024 additions to the computer system, in the dmtf dialect: the PowerCycle and
// FullPowerCycle reset types and LastResetCause. The spec dialect (iLO's) has neither.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1';
const RESET = `${SYS}/Actions/ComputerSystem.Reset`;
const BUTTON = `${SYS}/Actions/Oem/VendorComputerSystemExt.PowerButton`;
const BOOT_TIME = 2000 + 5000; // power on + POST (fast timings)
const SHUTDOWN = 5000;

describe('power cycles and LastResetCause (dmtf dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf', enableControl: true } });
  });
  after(() => svc.close());

  const reset = (ResetType: string) => svc.req('POST', RESET, { auth: 'basic', body: { ResetType } });
  const system = async () => (await svc.get(SYS, { auth: 'basic' })).body;
  const iml = () => svc.running.services.logs.list('IML').map((l) => l.MessageId);

  it('offers PowerCycle and FullPowerCycle among the reset types', async () => {
    const s = await system();
    const types: string[] = s.Actions['#ComputerSystem.Reset']['ResetType@Redfish.AllowableValues'];
    // After the ones both dialects offer (systems.test.ts lists them).
    assert.deepEqual(types.slice(-2), ['PowerCycle', 'FullPowerCycle']);
    assert.equal(types.length, 9);
    assert.equal(s.LastResetCause, undefined, 'never powered on: no cause yet');
  });

  it('FullPowerCycle of an Off server: auxiliary power cycles (the controller resets), then the server powers on', async () => {
    const token = await svc.adminToken();
    const r = await reset('FullPowerCycle');
    assert.equal(r.status, 200, r.text);
    assert.ok(iml().includes('Vendor.1.0.AuxPowerCycled'));
    // The controller restarted with its auxiliary power: sessions ended.
    assert.equal((await svc.get(SYS, { auth: { token } })).status, 401);
    let s = await system();
    assert.equal(s.PowerState, 'PoweringOn');
    assert.equal(s.LastResetCause, 'ManagementCommand');
    await svc.clock.advance(BOOT_TIME);
    s = await system();
    assert.equal(s.PowerState, 'On');
    assert.equal(s.Oem.Vendor.BootCount, 1);
  });

  it('PowerCycle of a running server: off and on again, the controller untouched', async () => {
    const token = await svc.login('Administrator', 'Test-Admin-Pass1');
    const cycles = iml().filter((id) => id === 'Vendor.1.0.AuxPowerCycled').length;
    const r = await svc.req('POST', RESET, { auth: { token }, body: { ResetType: 'PowerCycle' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    const log = iml();
    assert.equal(log.at(-1), 'ResourceEvent.1.4.ResourcePoweredOff');
    assert.equal(log.filter((id) => id === 'Vendor.1.0.AuxPowerCycled').length, cycles, 'no auxiliary power cycle');
    assert.equal((await svc.get(SYS, { auth: { token } })).status, 200, 'the session lives on');
    assert.equal((await system()).PowerState, 'PoweringOn');
    await svc.clock.advance(BOOT_TIME);
    const s = await system();
    assert.equal(s.PowerState, 'On');
    assert.equal(s.Oem.Vendor.BootCount, 2);
    assert.equal(s.LastResetCause, 'ManagementCommand');
  });

  it('records why the server last started: the power button, a crash dump restart, the power restore policy', async () => {
    assert.equal((await reset('ForceOff')).status, 200);
    assert.equal((await svc.req('POST', BUTTON, { auth: 'basic', body: { PushType: 'Press' } })).status, 200);
    assert.equal((await system()).LastResetCause, 'PowerButtonPress');
    await svc.clock.advance(BOOT_TIME);

    // An NMI: the OS writes its crash dump, then the server restarts (ASR).
    assert.equal((await reset('Nmi')).status, 200);
    assert.equal((await system()).LastResetCause, 'PowerButtonPress', 'not restarted yet');
    await svc.clock.advance(SHUTDOWN);
    assert.equal((await system()).LastResetCause, 'SystemCrash');
    await svc.clock.advance(BOOT_TIME);

    assert.equal((await reset('GracefulRestart')).status, 200);
    await svc.clock.advance(SHUTDOWN);
    assert.equal((await system()).LastResetCause, 'ManagementCommand');
    await svc.clock.advance(BOOT_TIME);

    const control = (Event: string) => svc.req('POST', '/control/power', { auth: 'basic', body: { Event } });
    assert.equal((await control('PullPower')).status, 200);
    assert.equal((await control('RestorePower')).status, 200);
    const s = await system();
    assert.equal(s.PowerState, 'PoweringOn');
    assert.equal(s.LastResetCause, 'PowerRestorePolicy');
  });

  it('keeps LastResetCause across a restart of the controller', async () => {
    const before = await system();
    svc = await svc.restart();
    const after = await system();
    assert.equal(after.LastResetCause, 'PowerRestorePolicy');
    assert.equal(after.LastResetTime, before.LastResetTime);
  });
});

describe('power cycles and LastResetCause (spec dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('offers neither power cycle (iLO has none) and refuses them; no LastResetCause', async () => {
    const s = (await svc.get(`${SYS}/`)).body;
    assert.ok(!s.Actions['#ComputerSystem.Reset']['ResetType@Redfish.AllowableValues'].includes('FullPowerCycle'));
    for (const ResetType of ['PowerCycle', 'FullPowerCycle']) {
      const r = await svc.req('POST', `${RESET}/`, { body: { ResetType } });
      assert.equal(r.status, 400);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    }
    assert.equal((await svc.req('POST', `${RESET}/`, { body: { ResetType: 'On' } })).status, 200);
    const on = (await svc.get(`${SYS}/`)).body;
    assert.equal(on.PowerState, 'PoweringOn');
    assert.equal(on.LastResetCause, undefined);
    const schema = (await svc.get('/redfish/v1/SchemaStore/en/ComputerSystem.v1_27_0.json', { auth: 'none' })).body;
    assert.equal(schema.definitions.ComputerSystem.properties.LastResetCause, undefined);
    assert.ok(!schema.definitions.Reset.parameters.ResetType.enum.includes('PowerCycle'));
  });
});
