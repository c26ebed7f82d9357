// The controller's clock. Nothing else in the service reads Date.now() or
// arms timers directly, so tests can drive time with ManualClock.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, controller time. */
  now(): number;
  /** Run fn once, delayMs from now (controller time). */
  setTimer(delayMs: number, fn: () => void): TimerHandle;
  /** Run fn every periodMs; the first run is periodMs from now. */
  setInterval(periodMs: number, fn: () => void): TimerHandle;
  /**
   * While a jump (advance) is moving time, the instant it moves to; otherwise undefined. Work
   * that would repeat many times within the jump (a delivery's retries) can be coalesced.
   */
  advancingTo?(): number | undefined;
}

export function isoNow(clock: Clock): string {
  return toIso(clock.now());
}

let isoSecond = NaN;
let isoText = '';

export function toIso(ms: number): string {
  // Whole seconds: many stamps a second (events, log entries under load) share one string.
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    isoSecond = second;
  }
  return isoText;
}

/** The longest delay node's timers take as given. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    // node fires a delay beyond 2^31-1 ms (about 24.8 days) after 1 ms: a longer one is waited out in steps.
    let t: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      t = setTimeout(left > MAX_TIMER_MS ? () => arm(left - MAX_TIMER_MS) : fn, Math.min(Math.max(0, left), MAX_TIMER_MS));
      t.unref();
    };
    arm(delayMs);
    return { cancel: () => clearTimeout(t) };
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    const t = setInterval(fn, Math.max(1, periodMs));
    t.unref();
    return { cancel: () => clearInterval(t) };
  }
}

/**
 * The clock one running service uses: its timers can all be cancelled when
 * the service closes, so a restarted service on the same (manual) clock does
 * not keep the old instance's timers firing against a closed store.
 */
export class ScopedClock implements Clock {
  private readonly live = new Set<TimerHandle>();

  constructor(private readonly inner: Clock) {}

  now(): number {
    return this.inner.now();
  }

  advancingTo(): number | undefined {
    return this.inner.advancingTo?.();
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const handle: TimerHandle = this.track(
      this.inner.setTimer(delayMs, () => {
        this.live.delete(handle);
        fn();
      }),
    );
    return handle;
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    return this.track(this.inner.setInterval(periodMs, fn));
  }

  cancelAll(): void {
    for (const h of this.live) h.cancel();
    this.live.clear();
  }

  private track(inner: TimerHandle): TimerHandle {
    const handle: TimerHandle = {
      cancel: () => {
        this.live.delete(handle);
        inner.cancel();
      },
    };
    this.live.add(handle);
    return handle;
  }
}

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  period?: number;
  cancelled: boolean;
}

/** A clock that only moves when told to; timers fire in time order during advance(). */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: PendingTimer[] = [];
  private target?: number;

  constructor(start: number | string = '2026-01-01T00:00:00Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  advancingTo(): number | undefined {
    return this.target;
  }

  /** Timers set and not yet fired or cancelled (periodic ones count once). */
  get pending(): number {
    return this.timers.length;
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    return this.add(this.current + Math.max(0, delayMs), fn);
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    return this.add(this.current + Math.max(1, periodMs), fn, Math.max(1, periodMs));
  }

  /** Move time forward, firing every timer that falls due, in order (periodic ones at most MAX_CATCH_UP times, as OffsetClock). */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    const runs = new Map<PendingTimer, number>();
    this.target = target;
    try {
      for (;;) {
        const next = this.nextDue(target);
        if (!next) break;
        this.current = next.at;
        if (next.period !== undefined) catchUp(next, runs, target);
        else this.timers = this.timers.filter((t) => t !== next);
        next.fn();
        // Let promise chains started by the timer settle before the next one fires.
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.target = undefined;
    }
    this.current = target;
  }

  async set(iso: string): Promise<void> {
    const target = Date.parse(iso);
    if (target > this.current) await this.advance(target - this.current);
    else this.current = target;
  }

  private add(at: number, fn: () => void, period?: number): TimerHandle {
    const timer: PendingTimer = { at, seq: this.seq++, fn, period, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
        this.timers = this.timers.filter((t) => t !== timer);
      },
    };
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers) {
      if (t.cancelled || t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** Reschedule a periodic timer that just fired during an advance; past MAX_CATCH_UP runs it skips to its last period before `target`. */
function catchUp(t: PendingTimer, runs: Map<PendingTimer, number>, target: number): void {
  const period = t.period as number;
  const n = (runs.get(t) ?? 0) + 1;
  runs.set(t, n);
  t.at += period;
  if (n >= MAX_CATCH_UP && t.at <= target) t.at += Math.floor((target - t.at) / period) * period;
}

/** A clock whose time the control API can move: ManualClock, and OffsetClock in a running service. */
export interface MovableClock extends Clock {
  /** Move time forward, firing every timer that falls due, in order. */
  advance(ms: number): Promise<void>;
}

/** Catch-up runs of one periodic timer within one advance; past it the timer skips to the last period. */
const MAX_CATCH_UP = 1000;

/**
 * Real time plus an offset the control API moves (--enable-control). Timers are
 * kept here, in controller time, with one real timer armed for the earliest;
 * advance() fires every timer that falls due in order, as ManualClock does, so
 * POST steps, maintenance windows, task expiry and session timeouts all follow
 * the jump. A periodic timer fires at most MAX_CATCH_UP times in one advance
 * (the log flush every 250 ms would otherwise run 345,600 times over a day).
 */
export class OffsetClock implements MovableClock {
  private offset = 0;
  /** While advance() fires a timer, time reads as that timer's instant. */
  private pinned?: number;
  private seq = 0;
  private timers: PendingTimer[] = [];
  private real?: ReturnType<typeof setTimeout>;
  private moving: Promise<void> = Promise.resolve();
  private target?: number;

  now(): number {
    return this.pinned ?? Date.now() + this.offset;
  }

  advancingTo(): number | undefined {
    return this.target;
  }

  setTimer(delayMs: number, fn: () => void): TimerHandle {
    return this.add(this.now() + Math.max(0, delayMs), fn);
  }

  setInterval(periodMs: number, fn: () => void): TimerHandle {
    const period = Math.max(1, periodMs);
    return this.add(this.now() + period, fn, period);
  }

  /** Move time forward by ms; concurrent calls run one after the other. */
  advance(ms: number): Promise<void> {
    const run = this.moving.then(() => this.advanceNow(Math.max(0, ms)));
    this.moving = run.catch(() => undefined);
    return run;
  }

  private async advanceNow(ms: number): Promise<void> {
    const target = this.now() + ms;
    const runs = new Map<PendingTimer, number>();
    this.target = target;
    try {
      for (;;) {
        const next = this.nextDue(target);
        if (!next) break;
        this.pinned = next.at;
        if (next.period !== undefined) {
          catchUp(next, runs, target);
        } else {
          this.timers = this.timers.filter((t) => t !== next);
        }
        next.fn();
        // Let promise chains started by the timer settle before the next one fires.
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      this.pinned = undefined;
      this.target = undefined;
      this.offset = target - Date.now();
      this.arm();
    }
  }

  private add(at: number, fn: () => void, period?: number): TimerHandle {
    const timer: PendingTimer = { at, seq: this.seq++, fn, period, cancelled: false };
    this.timers.push(timer);
    this.arm();
    return {
      cancel: () => {
        timer.cancelled = true;
        this.timers = this.timers.filter((t) => t !== timer);
      },
    };
  }

  /** One real timer, for the earliest pending one; it fires what is due by then. */
  private arm(): void {
    if (this.real) clearTimeout(this.real);
    this.real = undefined;
    if (this.pinned !== undefined) return;
    let first: number | undefined;
    for (const t of this.timers) if (first === undefined || t.at < first) first = t.at;
    if (first === undefined) return;
    const delay = Math.min(2 ** 31 - 1, Math.max(0, first - this.now()));
    this.real = setTimeout(() => this.fireDue(), delay);
    this.real.unref();
  }

  private fireDue(): void {
    this.real = undefined;
    try {
      for (;;) {
        const next = this.nextDue(this.now());
        if (!next) break;
        if (next.period !== undefined) next.at = next.at + next.period > this.now() ? next.at + next.period : this.now() + next.period;
        else this.timers = this.timers.filter((t) => t !== next);
        next.fn();
      }
    } finally {
      this.arm();
    }
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers) {
      if (t.cancelled || t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
