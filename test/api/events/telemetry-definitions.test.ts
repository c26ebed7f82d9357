// Issue 28: the TelemetryService's metric definitions (one per sensor the report reads) and
// triggers (the user temperature thresholds in force, as iLO's Triggers collection shows them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const TS = '/redfish/v1/TelemetryService/';
const DEFS = `${TS}MetricDefinitions/`;
const TRIGGERS = `${TS}Triggers/`;
const THERMAL = '/redfish/v1/Chassis/1/Thermal/';

describe('TelemetryService metric definitions and triggers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('defines each metric of the sensor report, and the report links its values to them', async () => {
    const ts = (await svc.get(TS)).body;
    assert.deepEqual(ts.MetricDefinitions, { '@odata.id': DEFS });
    assert.deepEqual(ts.Triggers, { '@odata.id': TRIGGERS });
    assert.equal(ts.MaxReports, 1);
    const defs = (await svc.get(`${DEFS}?$expand=.`)).body.Members;
    const metrics = (await svc.get(`${TS}MetricReportDefinitions/SensorReadings/`)).body.Metrics;
    assert.deepEqual(
      defs.map((m: any) => m.Id),
      metrics.map((m: any) => m.MetricId),
    );
    const cpu = defs.find((m: any) => m.Name === '02-CPU 1');
    assert.equal(cpu.Units, 'Cel');
    assert.equal(cpu.Calculable, 'NonSummable');
    assert.deepEqual(cpu.MetricProperties, [`${THERMAL}#/Temperatures/1/ReadingCelsius`]);
    const power = defs.find((m: any) => m.Id === 'PowerConsumption');
    assert.equal(power.Units, 'W');
    assert.equal(power.Calculable, 'Summable');
    assert.equal((await svc.get(`${DEFS}NoSuchSensor/`)).status, 404);

    await svc.clock.advance(61_000);
    const report = (await svc.get(`${TS}MetricReports/SensorReadings/`)).body;
    for (const v of report.MetricValues) assert.equal(v.MetricDefinition['@odata.id'], `${DEFS}${v.MetricId}/`);
  });

  it('a user temperature threshold in force is a trigger whose health follows the sensor', async () => {
    assert.deepEqual((await svc.get(TRIGGERS)).body.Members, []);
    const set = `${THERMAL}Actions/Oem/Vendor/VendorThermalExt.SetUserTempThreshold/`;
    assert.equal((await svc.req('POST', set, { body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 35 } })).status, 200);
    // Pending until the controller resets: no trigger yet.
    assert.deepEqual((await svc.get(TRIGGERS)).body.Members, []);
    assert.equal((await svc.req('POST', '/redfish/v1/Managers/1/Actions/Manager.Reset/', { body: {}, auth: 'basic' })).status, 200);
    const members = (await svc.get(TRIGGERS, { auth: 'basic' })).body.Members;
    assert.deepEqual(members, [{ '@odata.id': `${TRIGGERS}UserTempWarning/` }]);
    let trigger = (await svc.get(`${TRIGGERS}UserTempWarning/`, { auth: 'basic' })).body;
    assert.deepEqual(trigger.NumericThresholds, { UpperWarning: { Reading: 35, Activation: 'Increasing', DwellTime: 'PT0S' } });
    assert.deepEqual(trigger.MetricProperties, [`${THERMAL}#/Temperatures/1/ReadingCelsius`]);
    assert.deepEqual(trigger.TriggerActions, ['LogToLogService', 'RedfishEvent']);
    assert.deepEqual(trigger.Status, { State: 'Enabled', Health: 'OK' });
    assert.equal((await svc.get(`${TRIGGERS}UserTempCritical/`, { auth: 'basic' })).status, 404);
    // The sensor shows the same threshold as its user caution threshold.
    const sensor = (await svc.get('/redfish/v1/Chassis/1/Sensors/CPU1Temp/', { auth: 'basic' })).body;
    assert.deepEqual(sensor.Thresholds.UpperCautionUser, {
      Reading: 35,
      Activation: 'Increasing',
      DwellTime: 'PT0S',
      HysteresisReading: 2,
    });
    assert.equal(sensor.Thresholds.UpperCriticalUser, undefined);

    await bootHost(svc, 600_000);
    trigger = (await svc.get(`${TRIGGERS}UserTempWarning/`, { auth: 'basic' })).body;
    assert.deepEqual(trigger.Status, { State: 'Enabled', Health: 'Warning' });
  });
});
