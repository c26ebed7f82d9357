import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock.js';
import { PowerModel, type PhaseSource } from '../../src/platform/power.js';
import type { Phase } from '../../src/platform/simulator.js';

const URI = '/redfish/v1/Chassis/1/Power/';
const SPEC = { standbyWatts: 18, idleWatts: 140, maxWatts: 520 };
const TIMINGS = { powerOnMs: 2_000, postMs: 5_000, shutdownMs: 5_000 };

/** A host whose phase the test sets, and a store of one document per key. */
function setup(opts: { psus?: number[]; bays?: number[]; healthy?: (i: number) => boolean; saved?: Map<string, unknown> } = {}) {
  const clock = new ManualClock('2026-11-22T08:00:00Z');
  const listeners: (() => void)[] = [];
  let state = { phase: 'Off' as Phase, phaseSince: clock.now() };
  const host: PhaseSource = {
    timings: TIMINGS,
    snapshot: () => ({ ...state }),
    onPhaseChange: (fn) => listeners.push(fn),
  };
  const saved = opts.saved ?? new Map<string, unknown>();
  const store = {
    setting<T>(key: string, def: T) {
      return { get: () => (saved.has(key) ? (saved.get(key) as T) : def), set: (v: T) => void saved.set(key, v) };
    },
  };
  const healthy = opts.healthy ?? (() => true);
  const model = new PowerModel({
    clock,
    store: store as never,
    host,
    spec: SPEC,
    psus: (opts.psus ?? [800, 800]).map((capacityWatts, i) => ({ capacityWatts, ...(opts.bays ? { bay: opts.bays[i] } : {}) })),
    psuHealthy: (i) => healthy(i),
    powerUri: URI,
  });
  const enter = (phase: Phase) => {
    state = { phase, phaseSince: clock.now() };
    for (const fn of listeners) fn();
  };
  const watts = () => model.reading().consumedWatts;
  return { clock, model, enter, watts, saved };
}

/** Walk the fake host through a boot as the simulator does. */
async function boot(s: ReturnType<typeof setup>, runMs = 60_000) {
  s.enter('PoweringOn');
  await s.clock.advance(TIMINGS.powerOnMs);
  s.enter('Post');
  await s.clock.advance(TIMINGS.postMs);
  s.enter('OsRunning');
  await s.clock.advance(runMs);
}

describe('simulated power draw', () => {
  it('draws standby power with the host off', async () => {
    const s = setup();
    for (let i = 0; i < 20; i++) {
      assert.ok(Math.abs(s.watts() - SPEC.standbyWatts) <= 1, `off: ${s.watts()} W`);
      await s.clock.advance(7_000);
    }
  });

  it('ramps at power on, draws more in POST than idle, then follows the workload between idle and max', async () => {
    const s = setup();
    s.enter('PoweringOn');
    assert.ok(s.watts() <= SPEC.standbyWatts + 1, 'no jump at the instant of power on');
    await s.clock.advance(TIMINGS.powerOnMs / 2);
    const half = s.watts();
    assert.ok(half > SPEC.standbyWatts + 50 && half < 300, `half way through the ramp: ${half} W`);
    await s.clock.advance(TIMINGS.powerOnMs / 2);
    s.enter('Post');
    const post = s.watts();
    // idle + 45 % of the range = 311 W, with a few watts of noise.
    assert.ok(post > 290 && post < 330, `POST: ${post} W`);
    await s.clock.advance(TIMINGS.postMs);
    s.enter('OsRunning');
    await s.clock.advance(120_000);
    const seen: number[] = [];
    for (let i = 0; i < 120; i++) {
      await s.clock.advance(15_000);
      seen.push(s.watts());
    }
    assert.ok(Math.min(...seen) >= SPEC.idleWatts, `running minimum ${Math.min(...seen)} W`);
    assert.ok(Math.max(...seen) <= SPEC.maxWatts, `running maximum ${Math.max(...seen)} W`);
    assert.ok(Math.max(...seen) - Math.min(...seen) >= 150, 'the workload cycle moves the draw');
    assert.ok(new Set(seen).size >= 30, 'readings are alive');
  });

  it('ramps down to standby at power off', async () => {
    const s = setup();
    await boot(s);
    s.enter('PoweringOff');
    await s.clock.advance(TIMINGS.shutdownMs);
    s.enter('Off');
    assert.ok(Math.abs(s.watts() - SPEC.standbyWatts) <= 1, `${s.watts()} W`);
  });

  it('is reproducible: the same history gives the same readings', async () => {
    const a = setup();
    const b = setup();
    await boot(a, 600_000);
    await boot(b, 600_000);
    assert.deepEqual(a.model.reading(), b.model.reading());
    assert.deepEqual(a.model.metrics(), b.model.metrics());
  });

  it('never exceeds a power limit, and says when it caps', async () => {
    const s = setup();
    await boot(s, 300_000);
    s.model.setLimit({ limitInWatts: 250 });
    let capped = 0;
    for (let i = 0; i < 200; i++) {
      await s.clock.advance(9_000);
      const r = s.model.reading();
      assert.ok(r.consumedWatts <= 250, `${r.consumedWatts} W over the limit`);
      assert.equal(r.capping, r.demandWatts > 250);
      if (r.capping) {
        capped++;
        assert.ok(r.consumedWatts >= 240, `held near the limit: ${r.consumedWatts} W`);
      }
    }
    assert.ok(capped > 20 && capped < 200, `capped in ${capped} of 200 readings: only while the workload is high`);
    s.model.setLimit({ limitInWatts: null });
    await s.clock.advance(1);
    const seen: number[] = [];
    for (let i = 0; i < 120; i++) {
      await s.clock.advance(9_000);
      seen.push(s.watts());
    }
    assert.ok(Math.max(...seen) > 300, 'without the limit the draw rises again');
  });

  it('keeps the limit in the store', async () => {
    const saved = new Map<string, unknown>();
    const s = setup({ saved });
    s.model.setLimit({ limitInWatts: 300, limitException: 'LogEventOnly' });
    const again = setup({ saved });
    assert.deepEqual(again.model.limit(), { limitInWatts: 300, limitException: 'LogEventOnly' });
  });

  it('computes min, max and average over the interval from the same readings', async () => {
    const s = setup();
    await s.clock.advance(30 * 60_000);
    const off = s.model.metrics();
    assert.equal(off.intervalInMin, 20);
    assert.ok(off.maxConsumedWatts - off.minConsumedWatts <= 2, 'off: flat');
    await boot(s, 10 * 60_000);
    const m = s.model.metrics();
    // The last 20 minutes: ten off, the boot, nearly ten running.
    assert.ok(Math.abs(m.minConsumedWatts - SPEC.standbyWatts) <= 1, `min ${m.minConsumedWatts}`);
    assert.ok(m.maxConsumedWatts > 280, `max ${m.maxConsumedWatts}`);
    assert.ok(m.averageConsumedWatts > m.minConsumedWatts && m.averageConsumedWatts < m.maxConsumedWatts);
    const now = s.watts();
    assert.ok(now >= m.minConsumedWatts && now <= m.maxConsumedWatts, 'the current reading is one of the samples');
    await s.clock.advance(25 * 60_000);
    assert.ok(s.model.metrics().minConsumedWatts >= SPEC.idleWatts, 'after 25 running minutes the off time has left the interval');
  });

  it('shares the output among the working power supplies; a failed one carries none', async () => {
    let failed = -1;
    const s = setup({ healthy: (i) => i !== failed });
    await boot(s);
    const r = s.model.reading();
    assert.equal(r.psuWatts.length, 2);
    assert.equal(r.psuWatts[0]! + r.psuWatts[1]!, r.consumedWatts);
    assert.ok(Math.abs(r.psuWatts[0]! - r.psuWatts[1]!) <= 1);
    failed = 1;
    const one = s.model.reading();
    assert.deepEqual(one.psuWatts, [one.consumedWatts, 0]);
    assert.equal(s.model.capacityWatts(), 800, 'N+1: the capacity of one supply');
    assert.deepEqual(s.model.limitRange(), { min: SPEC.idleWatts, max: 800 });
  });

  it('serves SensorSource readings: total and per supply, with property URIs', async () => {
    const s = setup({ psus: [1600] });
    const r = s.model.readings();
    assert.deepEqual(
      r.map((x) => [x.id, x.kind, x.units, x.uri]),
      [
        ['PowerConsumption', 'Power', 'W', `${URI}#/PowerControl/0/PowerConsumedWatts`],
        ['PS1Output', 'Power', 'W', `${URI}#/PowerSupplies/0/LastPowerOutputWatts`],
      ],
    );
    assert.equal(r[0]!.reading, r[1]!.reading);
    assert.equal(s.model.capacityWatts(), 1600, 'one supply: its own capacity');
  });

  it('names each supply reading by its bay', () => {
    const s = setup({ psus: [800, 800], bays: [1, 3] });
    assert.deepEqual(
      s.model.readings().map((r) => [r.id, r.name, r.uri]),
      [
        ['PowerConsumption', 'Power consumption', `${URI}#/PowerControl/0/PowerConsumedWatts`],
        ['PS1Output', 'Power supply 1 output', `${URI}#/PowerSupplies/0/LastPowerOutputWatts`],
        ['PS3Output', 'Power supply 3 output', `${URI}#/PowerSupplies/1/LastPowerOutputWatts`],
      ],
    );
  });
});
