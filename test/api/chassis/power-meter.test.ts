// Issue 28, item 3: iLO's power meters (Power/FastPowerMeter, PowerMeter, SlowPowerMeter),
// sampled from the simulated power model as the host powers on and a power limit holds it down.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const POWER = '/redfish/v1/Chassis/1/Power/';
// The default profile: 22 W standby, 185 W idle, 720 W at full load.
const STANDBY = 22;
const MAX = 720;

describe('power meters', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('links three meters from Power, each sampling the draw since the controller started', async () => {
    const links = (await svc.get(POWER)).body.Oem.Vendor.Links;
    assert.deepEqual(Object.keys(links).sort(), ['FastPowerMeter', 'FederatedGroupCapping', 'PowerMeter', 'SlowPowerMeter']);
    await svc.clock.advance(30 * 60_000);
    const slow = (await svc.get(links.PowerMeter['@odata.id'])).body;
    assert.ok(slow.Samples >= 5 && slow.Samples <= 6, String(slow.Samples));
    assert.equal(slow.PowerDetail.length, slow.Samples);
    // The host is off: standby draw only.
    for (const s of slow.PowerDetail) assert.ok(s.Peak <= STANDBY + 3 && s.Minimum >= STANDBY - 3, JSON.stringify(s));
    assert.equal(slow.PowerDetail[0].PrMode, 'dyn');
    // Host off: no CPU load, nothing held down; the room air about 21 degrees.
    for (const s of slow.PowerDetail) {
      assert.equal(s.CpuUtil, 0);
      assert.equal(s.CpuCapLim, 100);
      assert.equal(s.UnachCap, false);
      assert.ok(s.AmbTemp >= 19 && s.AmbTemp <= 23, String(s.AmbTemp));
    }
    const fast = (await svc.get(links.FastPowerMeter['@odata.id'])).body;
    assert.equal(fast.Samples, 120);
    assert.ok(Date.parse(fast.PowerDetail[1].Time) - Date.parse(fast.PowerDetail[0].Time) === 10_000);
  });

  it('follows the host on and a power limit', async () => {
    await bootHost(svc);
    await svc.clock.advance(10 * 60_000);
    const limit = 300;
    const r = await svc.req('PATCH', POWER, { body: { PowerControl: [{ PowerLimit: { LimitInWatts: limit } }] } });
    assert.equal(r.status, 200);
    await svc.clock.advance(5 * 60_000);
    const fast = (await svc.get(`${POWER}FastPowerMeter/`)).body;
    const last = fast.PowerDetail.at(-1);
    assert.equal(last.Cap, limit);
    assert.ok(last.Peak <= limit && last.Peak > STANDBY + 100, JSON.stringify(last));
    assert.ok(fast.Maximum <= MAX && fast.Maximum > last.Peak - 1);
    const before = fast.PowerDetail.find((s: any) => s.Cap === 0);
    assert.ok(before, 'samples before the limit show no cap');
    // The OS runs: its CPU load shows; held down by the limit, the server got only part of its demand.
    assert.ok(last.CpuUtil >= 10 && last.CpuUtil <= 70, String(last.CpuUtil));
    assert.equal(before.CpuCapLim, 100);
    assert.ok(last.PunCap && last.CpuCapLim < 100 && last.CpuCapLim > 30, JSON.stringify(last));
  });

  it('FederatedGroupCapping: the federation groups, this server alone and uncapped; the throttle follows the draw', async () => {
    const power = (await svc.get(POWER)).body;
    const capacity = power.PowerSupplies.reduce((sum: number, p: any) => sum + p.PowerCapacityWatts, 0);
    const uri = power.Oem.Vendor.Links.FederatedGroupCapping['@odata.id'];
    let fgc = (await svc.get(uri)).body;
    assert.equal(fgc['@odata.type'], '#VendorMCFederatedGroupCapping.v2_0_0.VendorMCFederatedGroupCapping');
    assert.equal(fgc.CapacityWatts, capacity);
    assert.equal(fgc.CapWatts, 0);
    assert.deepEqual(fgc.Groups, { DEFAULT: { AllocatedPowerWatts: 0, CapLimitWatts: 0, CapLimitPctTenths: null } });
    // A new federation group shows up.
    const g = await svc.req('POST', '/redfish/v1/Managers/1/FederationGroups/', {
      body: { Name: 'rack7', Key: 'rack7-key' },
    });
    assert.equal(g.status, 201, g.text);
    fgc = (await svc.get(uri)).body;
    assert.deepEqual(Object.keys(fgc.Groups).sort(), ['DEFAULT', 'rack7']);
    // Held at 90 % of the capacity: High.
    svc.running.services.power.holdWatts(Math.round(capacity * 0.9));
    assert.equal((await svc.get(uri)).body.Throttle, 'High');
    svc.running.services.power.holdWatts(Math.round(capacity * 0.1));
    assert.equal((await svc.get(uri)).body.Throttle, 'Low');
    svc.running.services.power.holdWatts(undefined);
  });
});
