import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { HostLifecycle } from '../../src/platform/lifecycle.js';
import { FANS, SimulatedSensors, TEMPERATURE_SENSORS } from '../../src/platform/thermal.js';

const URI = '/redfish/v1/Chassis/1/Thermal/';

function setup(start = '2026-11-22T08:00:00Z') {
  const clock = new ManualClock(start);
  const host = new HostLifecycle();
  const sensors = new SimulatedSensors(clock, host, URI);
  const temp = (id: string) => sensors.snapshot().temperatures.find((t) => t.spec.id === id)!.celsius;
  const fanPercent = () => Math.max(...sensors.snapshot().fans.map((f) => f.percent));
  return { clock, host, sensors, temp, fanPercent };
}

describe('simulated thermal sensors', () => {
  it('has realistic sensors: inlet, CPUs, DIMMs, chipset, PSUs, exhaust and six fans', () => {
    const names = TEMPERATURE_SENSORS.map((s) => s.name);
    for (const n of ['01-Inlet Ambient', '02-CPU 1', '03-CPU 2', '08-Chipset', '09-P/S 1 Inlet', '14-Sys Exhaust'])
      assert.ok(names.includes(n), n);
    assert.ok(names.some((n) => n.includes('DIMM')));
    assert.equal(FANS.length, 6);
    assert.deepEqual(
      TEMPERATURE_SENSORS.map((s) => s.number),
      TEMPERATURE_SENSORS.map((_, i) => i + 1),
    );
    for (const s of TEMPERATURE_SENSORS)
      assert.ok(s.upperCritical > s.onDelta + 30, `${s.name} critical threshold above its running range`);
  });

  it('with the host off everything is cool and the fans slow', () => {
    const { temp, fanPercent } = setup();
    const inlet = temp('InletAmbient');
    assert.ok(inlet >= 18 && inlet <= 25, `inlet ${inlet}`);
    assert.ok(temp('CPU1') - inlet <= 5, `cpu ${temp('CPU1')}`);
    assert.ok(fanPercent() <= 12, `fans ${fanPercent()}`);
  });

  it('warms up after power on with the time constant, and cools down after power off', async () => {
    const { clock, host, temp, fanPercent, sensors } = setup();
    const cold = temp('CPU1');
    const coldRpm = sensors.snapshot().fans[0]!.rpm;
    host.setPowerState('On');
    assert.ok(Math.abs(temp('CPU1') - cold) <= 1, 'no jump at the instant of power on');
    await clock.advance(20_000);
    const warming = temp('CPU1');
    await clock.advance(300_000);
    const warm = temp('CPU1');
    assert.ok(warming > cold + 3 && warming < warm, `warming ${cold} -> ${warming} -> ${warm}`);
    assert.ok(warm >= cold + 14, `warm ${warm} vs cold ${cold}`);
    assert.ok(warm < 70, 'below the critical threshold');
    assert.ok(fanPercent() >= 22, `fans ${fanPercent()}`);
    assert.ok(sensors.snapshot().fans[0]!.rpm > coldRpm);
    // Inlet barely moves: it measures the room.
    assert.ok(temp('InletAmbient') - cold < 5);

    host.setPowerState('Off');
    await clock.advance(600_000);
    assert.ok(temp('CPU1') <= cold + 2, `cooled to ${temp('CPU1')} (cold ${cold})`);
    assert.ok(fanPercent() <= 12);
  });

  it('readings move a little while the host runs but are reproducible', async () => {
    const a = setup();
    const b = setup();
    a.host.setPowerState('On');
    b.host.setPowerState('On');
    await a.clock.advance(600_000);
    await b.clock.advance(600_000);
    assert.deepEqual(a.sensors.snapshot(), b.sensors.snapshot());
    const seen = new Set<number>();
    for (let i = 0; i < 60; i++) {
      await a.clock.advance(30_000);
      seen.add(a.temp('CPU1'));
    }
    assert.ok(seen.size >= 4, `CPU1 took ${seen.size} distinct values over 30 minutes`);
    assert.ok(Math.max(...seen) - Math.min(...seen) <= 16, 'workload swing stays plausible');
  });

  it('serves SensorSource readings with units and property URIs', () => {
    const { sensors } = setup();
    const r = sensors.readings();
    assert.equal(r.length, TEMPERATURE_SENSORS.length + FANS.length);
    const cpu = r.find((x) => x.id === 'CPU1')!;
    assert.equal(cpu.kind, 'Temperature');
    assert.equal(cpu.units, 'Cel');
    assert.equal(cpu.uri, `${URI}#/Temperatures/1/ReadingCelsius`);
    const fan = r.find((x) => x.id === 'Fan1')!;
    assert.equal(fan.units, 'RPM');
    assert.equal(fan.uri, `${URI}#/Fans/0/Reading`);
  });

  it('takes its sensors and fans from a profile; without CPU sensors the fans follow the hottest one', async () => {
    const clock = new ManualClock('2026-11-22T08:00:00Z');
    const host = new HostLifecycle();
    const temperatures = [
      {
        number: 1,
        id: 'Inlet',
        name: '01-Inlet',
        context: 'Intake',
        offDelta: 0,
        onDelta: 1,
        swing: 0,
        tauSeconds: 300,
        upperCritical: 42,
      },
      { number: 2, id: 'GPU', name: '02-GPU', context: 'GPU', offDelta: 2, onDelta: 40, swing: 0, tauSeconds: 30, upperCritical: 95 },
    ];
    const fans = [{ number: 1, id: 'FanA', name: 'Fan A', maxRpm: 10000, lowerCritical: 500 }];
    const sensors = new SimulatedSensors(clock, host, URI, { temperatures, fans });
    assert.deepEqual(
      sensors.readings().map((r) => [r.kind, r.id, r.uri]),
      [
        ['Temperature', 'Inlet', `${URI}#/Temperatures/0/ReadingCelsius`],
        ['Temperature', 'GPU', `${URI}#/Temperatures/1/ReadingCelsius`],
        ['Fan', 'FanA', `${URI}#/Fans/0/Reading`],
      ],
    );
    const idle = sensors.snapshot().fans[0]!.percent;
    assert.ok(idle <= 12, `standby airflow ${idle} %`);
    host.setPowerState('On');
    await clock.advance(300_000);
    const snap = sensors.snapshot();
    assert.ok(snap.temperatures[1]!.celsius >= 55, `GPU ${snap.temperatures[1]!.celsius}`);
    assert.ok(snap.fans[0]!.percent > 40, `the fan follows the hot GPU: ${snap.fans[0]!.percent} %`);
    assert.ok(snap.fans[0]!.rpm <= 10000);
  });
});
