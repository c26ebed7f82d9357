// Chassis power (issue 15 item 4): Power, PowerSubsystem, Sensors and
// EnvironmentMetrics over HTTPS; consumption following the host, the power
// limit, power supply redundancy and faults, and a profile with other sensors.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { SHIPPED_PROFILES_DIR } from '../../../src/platform/hardware/profile.js';
import { bootHost, powerOff } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const CHASSIS = '/redfish/v1/Chassis/1/';
const POWER = `${CHASSIS}Power/`;
const SUBSYSTEM = `${CHASSIS}PowerSubsystem/`;
const SUPPLIES = `${SUBSYSTEM}PowerSupplies/`;
const SENSORS = `${CHASSIS}Sensors/`;
const THERMAL = `${CHASSIS}Thermal/`;
// The default profile: two 800 W supplies; 22 W standby, 185 W idle, 720 W at full load.
const STANDBY = 22;
const IDLE = 185;

const limitBody = (watts: number | null, more: Record<string, unknown> = {}) => ({
  PowerControl: [{ PowerLimit: { LimitInWatts: watts, ...more } }],
});

describe('chassis power', () => {
  let svc: TestService;
  const consumed = async () => (await svc.get(POWER)).body.PowerControl[0].PowerConsumedWatts as number;

  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('links Power, PowerSubsystem, Sensors and EnvironmentMetrics from the chassis', async () => {
    const c = (await svc.get(CHASSIS)).body;
    assert.deepEqual(c.Power, { '@odata.id': POWER });
    assert.deepEqual(c.PowerSubsystem, { '@odata.id': SUBSYSTEM });
    assert.deepEqual(c.Sensors, { '@odata.id': SENSORS });
    assert.deepEqual(c.EnvironmentMetrics, { '@odata.id': `${CHASSIS}EnvironmentMetrics/` });
  });

  it('answers what Ansible GetPsuInventory and GetChassisPower read', async () => {
    const r = await svc.get(POWER);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#Power.v1_7_3.Power');
    // GetPsuInventory: every supply's identity, rating and status.
    const psus = r.body.PowerSupplies;
    assert.equal(psus.length, 2);
    psus.forEach((p: any, i: number) => {
      assert.equal(p.MemberId, String(i));
      assert.equal(p.Name, `Power Supply ${i + 1}`);
      assert.equal(p.Model, '800W Flex Slot Platinum');
      assert.equal(p.Manufacturer, 'Delta');
      assert.equal(p.PartNumber, '865414-B21');
      assert.match(p.SerialNumber, /^5WBXK0[A-Z0-9]{8}$/);
      assert.equal(p.PowerCapacityWatts, 800);
      assert.equal(p.PowerSupplyType, 'AC');
      assert.equal(p.LineInputVoltage, 230);
      assert.deepEqual(p.Status, { State: 'Enabled', Health: 'OK' });
      assert.deepEqual(p.Redundancy, [{ '@odata.id': `${POWER}#/Redundancy/0` }]);
    });
    assert.notEqual(psus[0].SerialNumber, psus[1].SerialNumber);
    // GetChassisPower: PowerControl's figures.
    const pc = r.body.PowerControl[0];
    for (const k of [
      'Name',
      'PowerAllocatedWatts',
      'PowerAvailableWatts',
      'PowerCapacityWatts',
      'PowerConsumedWatts',
      'PowerRequestedWatts',
    ])
      assert.ok(pc[k] !== undefined, k);
    assert.equal(pc.PowerCapacityWatts, 800, 'N+1: one supply may fail');
    assert.equal(pc.PowerRequestedWatts, 720);
    assert.deepEqual(Object.keys(pc.PowerMetrics).sort(), [
      'AverageConsumedWatts',
      'IntervalInMin',
      'MaxConsumedWatts',
      'MinConsumedWatts',
    ]);
    assert.equal(pc.PowerMetrics.IntervalInMin, 20);
    assert.deepEqual(pc.PowerLimit, {
      LimitInWatts: null,
      LimitException: 'NoAction',
      CorrectionInMs: 1000,
      '@Redfish.WriteableProperties': ['LimitInWatts', 'LimitException'],
    });
    assert.deepEqual(pc.Oem.Vendor, {
      '@odata.type': '#VendorPowerControl.v1_0_0.VendorPowerControl',
      PowerCapActive: false,
      PowerLimitMinWatts: IDLE,
      PowerLimitMaxWatts: 800,
    });
    const red = r.body.Redundancy[0];
    assert.equal(red.Mode, 'N+m');
    assert.equal(red.MinNumNeeded, 1);
    assert.equal(red.MaxNumSupported, 2);
    assert.deepEqual(red.Status, { State: 'Enabled', Health: 'OK' });
    assert.deepEqual(red.RedundancySet, [{ '@odata.id': `${POWER}#/PowerSupplies/0` }, { '@odata.id': `${POWER}#/PowerSupplies/1` }]);
  });

  it('serves PowerSubsystem and its PowerSupplies with the same supplies', async () => {
    const s = (await svc.get(SUBSYSTEM)).body;
    assert.equal(s['@odata.type'], '#PowerSubsystem.v1_1_3.PowerSubsystem');
    assert.equal(s.CapacityWatts, 800);
    assert.deepEqual(s.PowerSupplies, { '@odata.id': SUPPLIES });
    assert.equal(s.PowerSupplyRedundancy[0].RedundancyType, 'NPlusM');
    assert.equal(s.PowerSupplyRedundancy[0].MinNeededInGroup, 1);
    const list = (await svc.get(SUPPLIES)).body;
    assert.deepEqual(
      list.Members.map((m: any) => m['@odata.id']),
      [`${SUPPLIES}1/`, `${SUPPLIES}2/`],
    );
    const one = (await svc.get(`${SUPPLIES}1/`)).body;
    const legacy = (await svc.get(POWER)).body.PowerSupplies[0];
    assert.equal(one['@odata.type'], '#PowerSupply.v1_6_0.PowerSupply');
    assert.equal(one.SerialNumber, legacy.SerialNumber);
    assert.equal(one.PowerCapacityWatts, 800);
    assert.deepEqual(one.Location.PartLocation, { ServiceLabel: 'Power Supply 1', LocationType: 'Bay', LocationOrdinalValue: 1 });
    const m = (await svc.get(one.Metrics['@odata.id'])).body;
    assert.equal(m.OutputPowerWatts.Reading, legacy.LastPowerOutputWatts);
    assert.equal((await svc.get(`${SUPPLIES}3/`)).status, 404);
    assert.equal((await svc.get(`${SUPPLIES}3/Metrics/`)).status, 404);
  });

  it('consumption follows the host: standby when off, POST above idle, then idle plus load; back to standby at power off', async () => {
    assert.ok(Math.abs((await consumed()) - STANDBY) <= 1, `off: ${await consumed()} W`);
    const server = svc.running.services.server;
    server.reset('On');
    await svc.clock.advance(2_000);
    await server.postSettled();
    assert.equal(server.snapshot().phase, 'Post');
    const post = await consumed();
    assert.ok(post > IDLE + 150, `POST draws more than idle: ${post} W`);
    await svc.clock.advance(5_000 + 120_000);
    assert.equal(server.snapshot().phase, 'OsRunning');
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      await svc.clock.advance(30_000);
      seen.push(await consumed());
    }
    assert.ok(Math.min(...seen) >= IDLE && Math.max(...seen) <= 720, `running ${Math.min(...seen)}..${Math.max(...seen)} W`);
    assert.ok(Math.max(...seen) - Math.min(...seen) > 100, 'the workload moves it');
    const metrics = (await svc.get(POWER)).body.PowerControl[0].PowerMetrics;
    assert.ok(metrics.MinConsumedWatts <= Math.min(...seen.slice(-40)));
    assert.ok(metrics.MaxConsumedWatts >= Math.max(...seen.slice(-20)));
    assert.ok(metrics.AverageConsumedWatts > metrics.MinConsumedWatts && metrics.AverageConsumedWatts < metrics.MaxConsumedWatts);
    await powerOff(svc, 1_000);
    assert.ok(Math.abs((await consumed()) - STANDBY) <= 1);
  });

  it('honours a power limit: PATCH shows it at once, readings never exceed it, the vendor extension tells when it caps', async () => {
    await bootHost(svc, 120_000);
    const before = await svc.get(POWER);
    const r = await svc.req('PATCH', POWER, { body: limitBody(260, { LimitException: 'LogEventOnly' }) });
    assert.ok(r.status === 200 || r.status === 204, `${r.status} ${r.text}`);
    const after = await svc.get(POWER);
    assert.deepEqual(after.body.PowerControl[0].PowerLimit, {
      LimitInWatts: 260,
      LimitException: 'LogEventOnly',
      CorrectionInMs: 1000,
      '@Redfish.WriteableProperties': ['LimitInWatts', 'LimitException'],
    });
    assert.equal(after.body.PowerControl[0].PowerAllocatedWatts, 260);
    assert.notEqual(after.headers.etag, before.headers.etag, 'a new limit is a new representation');
    let capped = 0;
    for (let i = 0; i < 60; i++) {
      await svc.clock.advance(20_000);
      const pc = (await svc.get(POWER)).body.PowerControl[0];
      assert.ok(pc.PowerConsumedWatts <= 260, `${pc.PowerConsumedWatts} W over the 260 W limit`);
      if (pc.Oem.Vendor.PowerCapActive) {
        capped++;
        assert.ok(pc.PowerConsumedWatts >= 250, `capped near the limit: ${pc.PowerConsumedWatts}`);
      }
    }
    assert.ok(capped > 5, `the limit held the draw down in ${capped} of 60 readings`);
    // Twenty minutes under the limit: the interval's maximum obeys it too.
    assert.ok((await svc.get(POWER)).body.PowerControl[0].PowerMetrics.MaxConsumedWatts <= 260);
  });

  it('keeps the limit across a restart, and null removes it', async () => {
    svc = await svc.restart();
    assert.equal((await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitInWatts, 260);
    assert.equal((await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitException, 'LogEventOnly');
    // [{}] leaves the element as it is (DSP0266).
    assert.ok([200, 204].includes((await svc.req('PATCH', POWER, { body: { PowerControl: [{}] } })).status));
    assert.equal((await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitInWatts, 260);
    assert.ok([200, 204].includes((await svc.req('PATCH', POWER, { body: limitBody(null) })).status));
    const pc = (await svc.get(POWER)).body.PowerControl[0];
    assert.equal(pc.PowerLimit.LimitInWatts, null);
    assert.equal(pc.PowerLimit.LimitException, 'LogEventOnly', 'the exception setting stays');
    assert.equal(pc.PowerAllocatedWatts, 720);
  });

  it('validates the limit with registry messages', async () => {
    const cases: [unknown, string][] = [
      [limitBody(IDLE - 1), 'Base.1.12.PropertyValueOutOfRange'],
      [limitBody(801), 'Base.1.12.PropertyValueOutOfRange'],
      [limitBody('300' as never), 'Base.1.12.PropertyValueTypeError'],
      [limitBody(300.5), 'Base.1.12.PropertyValueTypeError'],
      [{ PowerControl: [{ PowerLimit: { LimitException: 'Explode' } }] }, 'Base.1.12.PropertyValueNotInList'],
      [{ PowerControl: [{ PowerConsumedWatts: 5 }] }, 'Base.1.12.PropertyNotWritable'],
      [{ PowerControl: [{ PowerLimit: { CorrectionInMs: 5 } }] }, 'Base.1.12.PropertyNotWritable'],
      [{ PowerControl: [{}, {}] }, 'Base.1.12.PropertyValueOutOfRange'],
      [{ PowerSupplies: [{}] }, 'Base.1.12.PropertyNotWritable'],
    ];
    for (const [body, id] of cases) {
      const r = await svc.req('PATCH', POWER, { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.status}`);
      assert.ok(messageIds(r.body).includes(id), `${JSON.stringify(body)} -> ${messageIds(r.body)}`);
    }
    assert.equal((await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitInWatts, null, 'nothing changed');
    // The bounds themselves are accepted.
    for (const w of [IDLE, 800, null])
      assert.ok([200, 204].includes((await svc.req('PATCH', POWER, { body: limitBody(w) })).status), String(w));
  });

  it('lets only the power or manager-configuration privilege change the limit', async () => {
    const reader = { user: 'power-reader', password: 'Reader-Pass-123' };
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' },
    });
    assert.equal((await svc.get(POWER, { auth: reader })).status, 200);
    assert.equal((await svc.get(`${SENSORS}PowerConsumption/`, { auth: reader })).status, 200);
    const r = await svc.req('PATCH', POWER, { auth: reader, body: limitBody(400) });
    assert.equal(r.status, 403);
    assert.equal((await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitInWatts, null);
    assert.equal((await svc.req('PATCH', SUBSYSTEM, { body: { CapacityWatts: 5 } })).status, 405);
  });

  it('a failed supply carries no load and redundancy shows degraded; cleared, both share again', async () => {
    // Still running since the limit test (a restart does not power-cycle the host).
    assert.equal(svc.running.services.server.snapshot().phase, 'OsRunning');
    const health = svc.running.services.health;
    let p = (await svc.get(POWER)).body;
    const [a, b] = p.PowerSupplies.map((x: any) => x.LastPowerOutputWatts);
    assert.equal(a + b, p.PowerControl[0].PowerConsumedWatts);
    assert.ok(Math.abs(a - b) <= 1, 'shared equally');

    health.set(componentKey.psu(2), { Health: 'Critical' });
    p = (await svc.get(POWER)).body;
    assert.deepEqual(p.PowerSupplies[1].Status, { State: 'Enabled', Health: 'Critical' });
    assert.equal(p.PowerSupplies[1].LastPowerOutputWatts, 0);
    assert.equal(p.PowerSupplies[0].LastPowerOutputWatts, p.PowerControl[0].PowerConsumedWatts);
    assert.deepEqual(p.Redundancy[0].Status, { State: 'Enabled', Health: 'Warning' });
    const sub = (await svc.get(SUBSYSTEM)).body;
    assert.equal(sub.PowerSupplyRedundancy[0].Status.Health, 'Warning');
    assert.equal(sub.Status.Health, 'Warning');
    assert.deepEqual((await svc.get(`${SUPPLIES}2/`)).body.Status, { State: 'Enabled', Health: 'Critical' });
    assert.equal((await svc.get(`${SENSORS}PS2Output/`)).body.Reading, 0);
    assert.equal((await svc.get(CHASSIS)).body.Status.HealthRollup, 'Warning', 'the chassis rolls up its supplies');
    // The vendor view: the failed supply's state; the other's average and peak of the last 10 s carry it all.
    assert.equal(p.Oem.Vendor.MinimumSafelyAchievableCap, p.PowerControl[0].Oem.Vendor.PowerLimitMinWatts);
    const [ok1, failed] = p.PowerSupplies.map((x: any) => x.Oem.Vendor);
    assert.deepEqual(failed.PowerSupplyStatus, { State: 'Failed' });
    assert.equal(failed.AveragePowerOutputWatts, 0);
    assert.deepEqual(ok1.PowerSupplyStatus, { State: 'Ok' });
    assert.equal(ok1.Mismatched, false);
    assert.ok(ok1.MaxPowerOutputWatts >= ok1.AveragePowerOutputWatts && ok1.AveragePowerOutputWatts > 0, JSON.stringify(ok1));
    await svc.clock.advance(11_000);
    const settled = (await svc.get(POWER)).body;
    assert.equal(settled.PowerSupplies[1].Oem.Vendor.MaxPowerOutputWatts, 0);
    assert.ok(settled.PowerSupplies[0].Oem.Vendor.AveragePowerOutputWatts >= settled.PowerControl[0].PowerConsumedWatts - 30);

    health.set(componentKey.psu(1), { Health: 'Critical' });
    assert.equal((await svc.get(POWER)).body.Redundancy[0].Status.Health, 'Critical', 'fewer than needed');
    assert.equal((await svc.get(CHASSIS)).body.Status.Health, 'Critical');

    health.clear(componentKey.psu(1));
    health.clear(componentKey.psu(2));
    p = (await svc.get(POWER)).body;
    assert.deepEqual(p.Redundancy[0].Status, { State: 'Enabled', Health: 'OK' });
    assert.ok(p.PowerSupplies[1].LastPowerOutputWatts > 0);
    assert.equal((await svc.get(CHASSIS)).body.Status.HealthRollup, 'OK');
  });

  it('Sensors, Thermal, Power and EnvironmentMetrics show the same readings at the same instant', async () => {
    await svc.clock.advance(45_000);
    const power = (await svc.get(POWER)).body;
    const thermal = (await svc.get(THERMAL)).body;
    const env = (await svc.get(`${CHASSIS}EnvironmentMetrics/`)).body;
    const list = (await svc.get(SENSORS)).body;
    const ids = list.Members.map((m: any) => m['@odata.id'].slice(SENSORS.length, -1));
    assert.equal(list['Members@odata.count'], 14 + 6 + 3);
    assert.ok(ids.includes('CPU1Temp') && ids.includes('Fan1') && ids.includes('PowerConsumption') && ids.includes('PS2Output'));
    const sensor = async (id: string) => (await svc.get(`${SENSORS}${id}/`)).body;

    const cpu = await sensor('CPU1Temp');
    assert.equal(cpu['@odata.type'], '#Sensor.v1_12_0.Sensor');
    assert.equal(cpu.ReadingType, 'Temperature');
    assert.equal(cpu.ReadingUnits, 'Cel');
    assert.equal(cpu.PhysicalContext, 'CPU');
    assert.equal(cpu.Reading, thermal.Temperatures[1].ReadingCelsius);
    const up = (Reading: number) => ({ Reading, Activation: 'Increasing', DwellTime: 'PT0S' });
    assert.deepEqual(cpu.Thresholds, { UpperCritical: up(70) });
    const inlet = await sensor('InletAmbientTemp');
    assert.deepEqual(inlet.Thresholds, { UpperCaution: up(38), UpperCritical: up(42), UpperFatal: up(46) });
    assert.equal(env.TemperatureCelsius.Reading, inlet.Reading);
    // ThermalMetrics' ambient and intake are the inlet sensor's, and name it.
    const metrics = (await svc.get(`${CHASSIS}ThermalSubsystem/ThermalMetrics/`)).body;
    assert.deepEqual(metrics.TemperatureSummaryCelsius.Ambient, { DataSourceUri: `${SENSORS}InletAmbientTemp/`, Reading: inlet.Reading });
    assert.deepEqual(metrics.TemperatureSummaryCelsius.Intake, metrics.TemperatureSummaryCelsius.Ambient);

    const fan = await sensor('Fan3');
    assert.equal(fan.ReadingType, 'Rotational');
    assert.equal(fan.ReadingUnits, 'RPM');
    assert.equal(fan.Reading, thermal.Fans[2].Reading);
    assert.deepEqual(fan.Thresholds, { LowerCritical: { Reading: 600, Activation: 'Decreasing', DwellTime: 'PT0S' } });
    const subsystemFan = (await svc.get(`${CHASSIS}ThermalSubsystem/Fans/3/`)).body;
    assert.equal(subsystemFan.SpeedPercent.DataSourceUri, `${SENSORS}Fan3/`);
    assert.equal(subsystemFan.SpeedPercent.SpeedRPM, fan.Reading);
    assert.equal(env.FanSpeedsPercent[2].SpeedRPM, fan.Reading);
    assert.equal(env.FanSpeedsPercent[2].Reading, thermal.Fans[2].Oem.Vendor.SpeedPercent);

    const total = await sensor('PowerConsumption');
    assert.equal(total.ReadingType, 'Power');
    assert.equal(total.ReadingUnits, 'W');
    assert.ok(total.Reading > IDLE);
    assert.equal(total.Reading, power.PowerControl[0].PowerConsumedWatts);
    assert.equal(env.PowerWatts.Reading, total.Reading);
    assert.equal(env.PowerWatts.DataSourceUri, `${SENSORS}PowerConsumption/`);
    assert.equal((await sensor('PS1Output')).Reading, power.PowerSupplies[0].LastPowerOutputWatts);
    assert.equal((await sensor('PS2Output')).PhysicalContext, 'PowerSupply');
    assert.equal((await svc.get(`${SENSORS}Nope/`)).status, 404);
  });

  it('metric reports include the power readings with their property URIs', async () => {
    const report = svc.running.services.metricReports.generate();
    const values = report.MetricValues as { MetricId: string; MetricValue: string; MetricProperty: string }[];
    const total = values.find((v) => v.MetricId === 'PowerConsumption');
    assert.ok(total, 'total consumption reported');
    assert.equal(total.MetricProperty, `${POWER}#/PowerControl/0/PowerConsumedWatts`);
    assert.equal(Number(total.MetricValue), await consumed());
    const ps2 = values.find((v) => v.MetricId === 'PS2Output');
    assert.equal(ps2?.MetricProperty, `${POWER}#/PowerSupplies/1/LastPowerOutputWatts`);
    const def = (await svc.get('/redfish/v1/TelemetryService/MetricReportDefinitions/SensorReadings/')).body;
    assert.ok(def.Metrics.some((m: any) => m.MetricId === 'PowerConsumption'));
  });
});

describe('chassis power and thermal from another hardware profile', () => {
  let svc: TestService;
  before(async () => {
    // The default profile with one 1600 W supply, two fans and three temperature sensors.
    const profile = parseYaml(readFileSync(join(SHIPPED_PROFILES_DIR, 'default.yaml'), 'utf8'));
    profile.powerSupplies = [{ ...profile.powerSupplies[0], capacityWatts: 1600 }];
    profile.power = { standbyWatts: 30, idleWatts: 250, maxWatts: 1100 };
    profile.fans = [
      { id: 'FanA', name: 'Fan A', maxRpm: 12000, lowerCritical: 500 },
      { id: 'FanB', name: 'Fan B', maxRpm: 12000, lowerCritical: 500 },
    ];
    profile.temperatures = [
      { id: 'Inlet', name: '01-Inlet', context: 'Intake', offDelta: 0, onDelta: 1, swing: 0.5, tauSeconds: 300, upperCritical: 42 },
      { id: 'CPU', name: '02-CPU', context: 'CPU', offDelta: 3, onDelta: 25, swing: 10, tauSeconds: 40, upperCritical: 95 },
      {
        id: 'GPU',
        name: '03-GPU',
        context: 'GPU',
        offDelta: 2,
        onDelta: 30,
        swing: 15,
        tauSeconds: 60,
        upperCaution: 80,
        upperCritical: 90,
      },
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'bmc-profile-')), 'one-psu.json');
    writeFileSync(file, JSON.stringify(profile));
    svc = await startTestService({ config: { hardware: file } });
  });
  after(() => svc.close());

  it('Thermal and Sensors show the profile’s sensors and fans', async () => {
    const thermal = (await svc.get(THERMAL)).body;
    assert.deepEqual(
      thermal.Temperatures.map((t: any) => [t.Name, t.SensorNumber, t.PhysicalContext, t.UpperThresholdCritical]),
      [
        ['01-Inlet', 1, 'Intake', 42],
        ['02-CPU', 2, 'CPU', 95],
        ['03-GPU', 3, 'GPU', 90],
      ],
    );
    assert.deepEqual(
      thermal.Fans.map((f: any) => [f.Name, f.MaxReadingRange]),
      [
        ['Fan A', 12000],
        ['Fan B', 12000],
      ],
    );
    const ids = (await svc.get(SENSORS)).body.Members.map((m: any) => m['@odata.id'].slice(SENSORS.length, -1));
    assert.deepEqual(ids, ['InletTemp', 'CPUTemp', 'GPUTemp', 'FanA', 'FanB', 'PowerConsumption', 'PS1Output']);
    // The user threshold action knows the profile's sensor numbers.
    const set = `${THERMAL}Actions/Oem/Vendor/VendorThermalExt.SetUserTempThreshold/`;
    assert.equal((await svc.req('POST', set, { body: { SensorNumber: 3, AlertType: 'Warning', ThresholdCelsius: 85 } })).status, 200);
    assert.equal((await svc.req('POST', set, { body: { SensorNumber: 4, AlertType: 'Warning', ThresholdCelsius: 50 } })).status, 400);
    await bootHost(svc, 300_000);
    const cpu = (await svc.get(`${SENSORS}CPUTemp/`)).body.Reading;
    assert.ok(cpu >= 40, `the profile's CPU runs warm: ${cpu}`);
  });

  it('power follows the profile’s numbers; one supply is not redundant', async () => {
    const p = (await svc.get(POWER)).body;
    assert.equal(p.PowerSupplies.length, 1);
    assert.equal(p.PowerSupplies[0].Redundancy, undefined);
    assert.deepEqual(p.Redundancy, []);
    assert.equal(p.PowerControl[0].PowerCapacityWatts, 1600);
    assert.equal(p.PowerControl[0].Oem.Vendor.PowerLimitMinWatts, 250);
    assert.ok(p.PowerControl[0].PowerConsumedWatts >= 250 && p.PowerControl[0].PowerConsumedWatts <= 1100);
    assert.equal(p.PowerSupplies[0].LastPowerOutputWatts, p.PowerControl[0].PowerConsumedWatts);
    assert.deepEqual((await svc.get(SUBSYSTEM)).body.PowerSupplyRedundancy, []);
    await powerOff(svc);
    assert.ok(Math.abs((await svc.get(POWER)).body.PowerControl[0].PowerConsumedWatts - 30) <= 1);
  });
});

describe('the power limit as a Control (Chassis/1/Controls/PowerLimit)', () => {
  const CONTROLS = `${CHASSIS}Controls/`;
  const CONTROL = `${CONTROLS}PowerLimit/`;
  // The default profile's two 800 W supplies: N+1 gives 800 W of capacity.
  const CAPACITY = 800;
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await svc.running.services.accounts.create({ UserName: 'reader', Password: 'Reader-Pass-1', RoleId: 'ReadOnly' });
  });
  after(() => svc.close());
  const limitInPower = async () => (await svc.get(POWER)).body.PowerControl[0].PowerLimit.LimitInWatts;

  it('is linked from the chassis and listed in its Controls', async () => {
    assert.deepEqual((await svc.get(CHASSIS)).body.Controls, { '@odata.id': CONTROLS });
    const c = await svc.get(CONTROLS);
    assert.equal(c.body['@odata.type'], '#ControlCollection.ControlCollection');
    assert.deepEqual(c.body.Members, [{ '@odata.id': CONTROL }]);
    const r = await svc.get(CONTROL);
    assert.equal(r.status, 200);
    assert.match(r.body['@odata.type'], /^#Control\.v1_\d+_\d+\.Control$/);
    assert.equal(r.body.ControlType, 'Power');
    assert.deepEqual([r.body.ControlMode, r.body.SetPoint, r.body.SetPointUnits], ['Disabled', null, 'W']);
    assert.deepEqual([r.body.AllowableMin, r.body.AllowableMax], [IDLE, CAPACITY]);
    assert.equal(r.body.Sensor.DataSourceUri, `${SENSORS}PowerConsumption/`);
    assert.equal(r.body.Sensor.Reading, (await svc.get(`${SENSORS}PowerConsumption/`)).body.Reading);
    assert.match(r.headers.allow ?? '', /PATCH/);
  });

  it('one limit, two views: a SetPoint shows as LimitInWatts and a LimitInWatts as SetPoint', async () => {
    let r = await svc.req('PATCH', CONTROL, { body: { SetPoint: 400 } });
    assert.equal(r.status, 200);
    assert.equal(await limitInPower(), 400);
    assert.deepEqual([(await svc.get(CONTROL)).body.ControlMode, (await svc.get(CONTROL)).body.SetPoint], ['Automatic', 400]);
    r = await svc.req('PATCH', POWER, { body: limitBody(500) });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(CONTROL)).body.SetPoint, 500);
    // The limit holds the draw under it, whichever view set it.
    await bootHost(svc);
    assert.ok((await svc.get(CONTROL)).body.Sensor.Reading <= 500);
    r = await svc.req('PATCH', CONTROL, { body: { ControlMode: 'Disabled' } });
    assert.equal(r.status, 200);
    assert.equal(await limitInPower(), null);
    assert.deepEqual([(await svc.get(CONTROL)).body.ControlMode, (await svc.get(CONTROL)).body.SetPoint], ['Disabled', null]);
    await powerOff(svc);
  });

  it("takes the limit's rules: the range, whole watts, a SetPoint to enable with, and its privilege", async () => {
    for (const SetPoint of [IDLE - 1, CAPACITY + 1]) {
      const r = await svc.req('PATCH', CONTROL, { body: { SetPoint } });
      assert.equal(r.status, 400, String(SetPoint));
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueOutOfRange']);
    }
    let r = await svc.req('PATCH', CONTROL, { body: { SetPoint: 400.5 } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    r = await svc.req('PATCH', CONTROL, { body: { ControlMode: 'Automatic' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyMissing']);
    r = await svc.req('PATCH', CONTROL, { body: { ControlMode: 'Disabled', SetPoint: 400 } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
    assert.equal(await limitInPower(), null, 'nothing refused was applied');
    r = await svc.req('PATCH', CONTROL, { body: { SetPoint: 400 }, auth: { user: 'reader', password: 'Reader-Pass-1' } });
    assert.equal(r.status, 403);
    r = await svc.req('PATCH', CONTROL, { body: { AllowableMax: 900 } });
    assert.equal(r.status, 400);
    assert.equal((await svc.get(`${CONTROLS}Fan/`)).status, 404);
  });
});
