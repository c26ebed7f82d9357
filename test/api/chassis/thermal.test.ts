import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceEvent } from '../../../src/domain/events/bus.js';
import { bootHost, powerOff } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const THERMAL = '/redfish/v1/Chassis/1/Thermal/';
const SET = `${THERMAL}Actions/Oem/Vendor/VendorThermalExt.SetUserTempThreshold/`;
const IML = '/redfish/v1/Systems/1/LogServices/IML/Entries/?$expand=.';
const RESET_MC = '/redfish/v1/Managers/1/Actions/Manager.Reset/';

const imlIds = async (svc: TestService, prefix: string) =>
  (await svc.get(IML, { auth: 'basic' })).body.Members.map((m: any) => m.MessageId).filter((id: string) => id.startsWith(prefix));

describe('thermal', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('serves temperatures and fans with readings, thresholds and status', async () => {
    const r = await svc.get(THERMAL);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#Thermal.v1_7_3.Thermal');
    const temps = r.body.Temperatures;
    assert.ok(temps.length >= 10);
    const cpu = temps.find((t: any) => t.Name === '02-CPU 1');
    assert.equal(cpu.SensorNumber, 2);
    assert.equal(cpu.PhysicalContext, 'CPU');
    assert.equal(typeof cpu.ReadingCelsius, 'number');
    assert.equal(cpu.UpperThresholdCritical, 70);
    assert.deepEqual(cpu.Status, { State: 'Enabled', Health: 'OK' });
    const inlet = temps[0];
    assert.equal(inlet.PhysicalContext, 'Intake');
    assert.equal(inlet.UpperThresholdFatal, 46);
    assert.equal(r.body.Fans.length, 6);
    assert.equal(r.body.Fans[0].ReadingUnits, 'RPM');
    assert.ok(r.body.Fans[0].Reading > 0);
    assert.equal(typeof r.body.Fans[0].Oem.Vendor.SpeedPercent, 'number');
    assert.deepEqual(r.body.Oem.Vendor.WarningUsertTempThreshold, null);
    assert.equal(r.body.Oem.Vendor['@odata.type'], '#VendorThermalExt.v1_0_0.VendorThermalExt');
    assert.equal(r.body.Oem.Vendor.Actions['#VendorThermalExt.SetUserTempThreshold'].target, SET);
    assert.deepEqual(r.body.Oem.Vendor.Actions['#VendorThermalExt.SetUserTempThreshold']['AlertType@Redfish.AllowableValues'], [
      'Warning',
      'Critical',
    ]);
    assert.equal((await svc.get('/redfish/v1/Chassis/9/Thermal/')).status, 404);
  });

  it('readings follow the host power; their changes do not change the ETag', async () => {
    const before = await svc.get(THERMAL);
    const cpuBefore = before.body.Temperatures[1].ReadingCelsius;
    await bootHost(svc, 300_000);
    const after = await svc.get(THERMAL);
    assert.ok(after.body.Temperatures[1].ReadingCelsius >= cpuBefore + 10, `${cpuBefore} -> ${after.body.Temperatures[1].ReadingCelsius}`);
    assert.ok(after.body.Fans[0].Reading > before.body.Fans[0].Reading);
    assert.equal(after.headers.etag, before.headers.etag);
    await powerOff(svc, 900_000);
  });

  it('validates SetUserTempThreshold parameters', async () => {
    const cases: [unknown, string][] = [
      [{ SensorNumber: 2, AlertType: 'Severe', ThresholdCelsius: 50 }, 'Base.1.12.ActionParameterValueNotInList'],
      [{ SensorNumber: 99, AlertType: 'Warning', ThresholdCelsius: 50 }, 'Base.1.12.ActionParameterValueNotInList'],
      [{ SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 95 }, 'Base.1.12.ActionParameterValueError'],
      [{ SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 0 }, 'Base.1.12.ActionParameterValueError'],
      [{ SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: '50' }, 'Base.1.12.ActionParameterValueTypeError'],
      [{ SensorNumber: 2, AlertType: 'Warning' }, 'Base.1.12.ActionParameterMissing'],
      [{ SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 50, Hysteresis: 2 }, 'Base.1.12.ActionParameterUnknown'],
    ];
    for (const [body, id] of cases) {
      const r = await svc.req('POST', SET, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(messageIds(r.body).includes(id), `${JSON.stringify(body)} -> ${messageIds(r.body)}`);
    }
    const reader = { user: 'thermal-reader', password: 'Reader-Pass-123' };
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' },
    });
    const denied = await svc.req('POST', SET, { body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 40 }, auth: reader });
    assert.equal(denied.status, 403);
  });

  it('a threshold is pending until a controller reset, survives a restart, then alerts once per crossing', async () => {
    const events: ServiceEvent[] = [];
    const r = await svc.req('POST', SET, { body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 35 } });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success', 'Vendor.1.0.ControllerResetRequired']);
    let oem = (await svc.get(THERMAL)).body.Oem.Vendor;
    assert.equal(oem.WarningUsertTempThreshold, null);
    assert.deepEqual(oem.PendingWarningUsertTempThreshold, { SensorNumber: 2, SensorName: '02-CPU 1', ThresholdCelsius: 35 });

    // Pending state survives a service restart; only a controller reset applies it.
    svc = await svc.restart();
    oem = (await svc.get(THERMAL, { auth: 'basic' })).body.Oem.Vendor;
    assert.equal(oem.WarningUsertTempThreshold, null);
    assert.equal((await svc.req('POST', RESET_MC, { body: {}, auth: 'basic' })).status, 200);
    oem = (await svc.get(THERMAL, { auth: 'basic' })).body.Oem.Vendor;
    assert.deepEqual(oem.WarningUsertTempThreshold, { SensorNumber: 2, SensorName: '02-CPU 1', ThresholdCelsius: 35 });
    assert.equal(oem.PendingWarningUsertTempThreshold, null);
    assert.equal(oem.CriticalUsertTempThreshold, null);
    const iel = (await svc.get('/redfish/v1/Managers/1/LogServices/IEL/Entries/?$expand=.', { auth: 'basic' })).body.Members;
    assert.ok(iel.some((m: any) => m.MessageId === 'Vendor.1.0.UserTempThresholdSet'));

    svc.running.services.events.subscribe((e) => events.push(e));
    // Cold server: below 35 degrees, no alert.
    await svc.clock.advance(60_000);
    assert.deepEqual(await imlIds(svc, 'Vendor.1.0.UserTemp'), []);

    // Power on: CPU 1 warms past 35 -> exactly one record and one event, however long it stays there.
    await bootHost(svc, 600_000);
    assert.deepEqual(await imlIds(svc, 'Vendor.1.0.UserTemp'), ['Vendor.1.0.UserTempThresholdExceededWarning']);
    const alerts = events.filter((e) => e.message.MessageId === 'Vendor.1.0.UserTempThresholdExceededWarning');
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]!.origin, THERMAL);
    const entry = (await svc.get(IML, { auth: 'basic' })).body.Members.find(
      (m: any) => m.MessageId === 'Vendor.1.0.UserTempThresholdExceededWarning',
    );
    assert.equal(entry.Severity, 'Warning');
    assert.equal(entry.MessageArgs[0], '02-CPU 1');
    assert.deepEqual(entry.Links.OriginOfCondition, { '@odata.id': THERMAL });
    const cpu = (await svc.get(THERMAL, { auth: 'basic' })).body.Temperatures[1];
    assert.equal(cpu.Status.Health, 'Warning');
    assert.equal((await svc.get('/redfish/v1/Chassis/1/', { auth: 'basic' })).body.Status.HealthRollup, 'Warning');

    // Still above after a restart: no duplicate record.
    svc = await svc.restart();
    await svc.clock.advance(120_000);
    assert.equal((await imlIds(svc, 'Vendor.1.0.UserTempThresholdExceeded')).length, 1);

    // Power off: it cools below and the alert clears (one record).
    await powerOff(svc, 900_000);
    assert.deepEqual(await imlIds(svc, 'Vendor.1.0.UserTemp'), [
      'Vendor.1.0.UserTempThresholdExceededWarning',
      'Vendor.1.0.UserTempThresholdCleared',
    ]);
    assert.equal((await svc.get(THERMAL, { auth: 'basic' })).body.Temperatures[1].Status.Health, 'OK');

    // And crossing again alerts again.
    await bootHost(svc, 600_000);
    assert.equal((await imlIds(svc, 'Vendor.1.0.UserTempThresholdExceededWarning')).length, 2);
    await powerOff(svc, 1000);
  });

  it('a Critical threshold is kept apart from the Warning one and survives restarts', async () => {
    await svc.req('POST', SET, { body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 35 }, auth: 'basic' });
    await svc.req('POST', SET, { body: { SensorNumber: 1, AlertType: 'Critical', ThresholdCelsius: 40 }, auth: 'basic' });
    await svc.req('POST', RESET_MC, { body: {}, auth: 'basic' });
    svc = await svc.restart();
    const oem = (await svc.get(THERMAL, { auth: 'basic' })).body.Oem.Vendor;
    assert.deepEqual(oem.CriticalUsertTempThreshold, { SensorNumber: 1, SensorName: '01-Inlet Ambient', ThresholdCelsius: 40 });
    assert.equal(oem.WarningUsertTempThreshold.ThresholdCelsius, 35);
  });
});
