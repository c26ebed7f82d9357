// The clocks: OffsetClock (real time plus an offset, the control API's) fires
// due timers in order when advanced, re-arms its real timer, and refuses nothing
// forward; both clocks cap the catch-up runs of a periodic timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock, OffsetClock, SystemClock } from '../../src/platform/clock.js';

describe('OffsetClock', () => {
  it('advance moves now() and fires due timers in time order, each seeing its own instant', async () => {
    const c = new OffsetClock();
    const start = c.now();
    const fired: [string, number][] = [];
    c.setTimer(3_600_000, () => fired.push(['1h', c.now() - start]));
    c.setTimer(60_000, () => fired.push(['1m', c.now() - start]));
    const late = c.setTimer(7_200_000, () => fired.push(['2h', c.now() - start]));
    await c.advance(3_600_000);
    assert.deepEqual(
      fired.map(([n]) => n),
      ['1m', '1h'],
    );
    assert.ok(Math.abs((fired[0]?.[1] ?? 0) - 60_000) < 50, 'the timer saw its own instant');
    assert.ok(c.now() - start >= 3_600_000 && c.now() - start < 3_600_000 + 1000);
    late.cancel();
    await c.advance(7_200_000);
    assert.equal(fired.length, 2, 'a cancelled timer never fires');
  });

  it('real time still fires timers (one real timer for the earliest)', async () => {
    const c = new OffsetClock();
    await c.advance(86_400_000);
    // The clock's real timer is unref'd, as SystemClock's: the test keeps the process alive.
    const keep = setTimeout(() => undefined, 5000);
    const done = new Promise<number>((resolve) => c.setTimer(20, () => resolve(c.now())));
    const at = await done;
    clearTimeout(keep);
    assert.ok(at >= Date.now() + 86_400_000 - 1000);
  });

  it('a periodic timer runs at most 1,000 times in one advance, then at the last period', async () => {
    const c = new OffsetClock();
    let runs = 0;
    const h = c.setInterval(250, () => runs++);
    await c.advance(86_400_000);
    h.cancel();
    assert.equal(runs, 1001);
  });

  it('concurrent advances run one after the other', async () => {
    const c = new OffsetClock();
    const start = c.now();
    await Promise.all([c.advance(1000), c.advance(2000)]);
    assert.ok(c.now() - start >= 3000 && c.now() - start < 4000);
  });
});

describe('ManualClock catch-up', () => {
  it('caps a periodic timer the same way, and a few periods still all run', async () => {
    const c = new ManualClock('2026-01-01T00:00:00Z');
    let runs = 0;
    c.setInterval(1000, () => runs++);
    await c.advance(20_000);
    assert.equal(runs, 20);
    await c.advance(86_400_000);
    assert.equal(runs, 20 + 1001);
  });
});

describe('SystemClock', () => {
  it('waits out a delay longer than node takes (2^31 ms, about 25 days) instead of firing at once', async () => {
    let fired = false;
    const timer = new SystemClock().setTimer(3 * 365 * 24 * 3_600_000, () => (fired = true));
    await new Promise((r) => setTimeout(r, 50));
    timer.cancel();
    assert.equal(fired, false);
  });
});
