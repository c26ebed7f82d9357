// Issue 28: Thermal's ThermalConfiguration and FanPercentMinimum (iLO's HpeThermalExt) are the BIOS
// Fan and Thermal Options in force, and the fans follow them while the host runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost, resetServer } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const THERMAL = '/redfish/v1/Chassis/1/Thermal/';

describe('fan policy', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  const thermal = async () => (await svc.get(THERMAL)).body;
  const fanPercents = (t: any) => t.Fans.map((f: any) => f.Oem.Hpe.SpeedPercent as number);

  it('shows the BIOS settings in force; the fans follow them once the host has rebooted', async () => {
    let t = await thermal();
    assert.equal(t.Oem.Hpe['@odata.type'], '#HpeThermalExt.v1_0_0.HpeThermalExt');
    assert.equal(t.Oem.Hpe.ThermalConfiguration, 'OptimalCooling');
    assert.equal(t.Oem.Hpe.FanPercentMinimum, 0);
    await bootHost(svc, 600_000);
    const optimal = fanPercents(await thermal());
    assert.ok(Math.max(...optimal) < 60, String(optimal));

    // A minimum above what the fans need: pending until the host reboots.
    let r = await svc.req('PATCH', '/redfish/v1/Systems/1/Bios/Settings/', { body: { Attributes: { FanMinimumPercent: 70 } } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await thermal()).Oem.Hpe.FanPercentMinimum, 0);
    await resetServer(svc, 600_000);
    t = await thermal();
    assert.equal(t.Oem.Hpe.FanPercentMinimum, 70);
    assert.ok(Math.min(...fanPercents(t)) >= 69, String(fanPercents(t)));

    r = await svc.req('PATCH', '/redfish/v1/Systems/1/Bios/Settings/', { body: { Attributes: { ThermalConfig: 'MaxCooling' } } });
    assert.equal(r.status, 200, r.text);
    await resetServer(svc, 600_000);
    t = await thermal();
    assert.equal(t.Oem.Hpe.ThermalConfiguration, 'MaximumCooling');
    assert.ok(Math.min(...fanPercents(t)) >= 99, String(fanPercents(t)));
    // ThermalSubsystem shows the same settings.
    const sub = (await svc.get('/redfish/v1/Chassis/1/ThermalSubsystem/')).body;
    assert.equal(sub.Oem.Hpe.ThermalConfiguration, 'MaximumCooling');
  });
});
