// Issue 28 item 3 (iLO 6): each fitted memory module's MemoryMetrics (the speed it runs at) and each
// processor's EnvironmentMetrics (its temperature sensor), under --oem-name Hpe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('memory and processor metrics', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  it('gives each fitted memory module its MemoryMetrics, and an empty slot none', async () => {
    const slots = (await svc.get(`${SYS}Memory/?$expand=.`)).body.Members;
    const fitted = slots.filter((m: any) => m.Status.State !== 'Absent');
    const empty = slots.filter((m: any) => m.Status.State === 'Absent');
    assert.ok(fitted.length > 0 && empty.length > 0);
    for (const m of fitted) {
      const uri = `${SYS}Memory/${m.Id}/MemoryMetrics/`;
      assert.equal(m.Metrics['@odata.id'], uri);
      const metrics = await svc.get(uri);
      assert.equal(metrics.status, 200, metrics.text);
      assert.equal(metrics.body['@odata.type'], '#MemoryMetrics.v1_8_0.MemoryMetrics');
      assert.equal(metrics.body.OperatingSpeedMHz, m.OperatingSpeedMhz);
    }
    for (const m of empty) {
      assert.equal(m.Metrics, undefined);
      assert.equal((await svc.get(`${SYS}Memory/${m.Id}/MemoryMetrics/`)).status, 404);
    }
  });

  it("shows each processor's temperature from its own sensor", async () => {
    const cpus = (await svc.get(`${SYS}Processors/?$expand=.`)).body.Members;
    assert.equal(cpus.length, 2);
    const sensorNames = [];
    for (const cpu of cpus) {
      const uri = `${SYS}Processors/${cpu.Id}/EnvironmentMetrics/`;
      assert.equal(cpu.EnvironmentMetrics['@odata.id'], uri);
      const metrics = await svc.get(uri);
      assert.equal(metrics.status, 200, metrics.text);
      const sensor = await svc.get(metrics.body.TemperatureCelsius.DataSourceUri);
      assert.equal(sensor.status, 200);
      assert.equal(sensor.body.ReadingType, 'Temperature');
      assert.equal(metrics.body.TemperatureCelsius.Reading, sensor.body.Reading);
      sensorNames.push(sensor.body.Name);
    }
    assert.deepEqual(sensorNames, ['02-CPU 1', '03-CPU 2']);
    assert.equal((await svc.get(`${SYS}Processors/3/EnvironmentMetrics/`)).status, 404);
  });
});
