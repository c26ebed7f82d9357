// Power drawn by the simulated server. Like the thermal sensors, every reading
// is a pure function of controller time and the host's phase history: standby
// power with the host off, a ramp while it powers on, a higher draw during POST
// (fans at full speed, memory training), then idle plus the shared workload
// cycle (./workload.ts) while the operating system runs, and a ramp down when it
// powers off. A power limit caps the draw (the controller throttles the
// processors), so no reading ever exceeds it. No timers: the history of phases
// and limits is kept as it happens, and a reading or an interval's statistics
// are computed from it when asked.
import type { DocumentStore } from '../store/documents.js';
import type { Clock } from './clock.js';
import type { ComponentStatus } from './hardware/health.js';
import type { PowerModelSpec } from './hardware/profile.js';
import type { SensorReading, SensorSource } from './sensors.js';
import type { Phase, Timings } from './simulator.js';
import { jitter, workload } from './workload.js';

/** Where in its range the server draws during POST: fans at full speed and memory training, no OS power management yet. */
const POST_SHARE = 0.45;
/** Share of the dynamic range the workload cycle spans: from LOAD_MIN to LOAD_MIN + LOAD_SPAN. */
const LOAD_MIN = 0.1;
const LOAD_SPAN = 0.6;
/** How fast the draw settles from the POST level to the OS's when it starts, ms (time constant). */
const OS_SETTLE_MS = 20_000;
/** Samples of an interval's statistics are this far apart (ms). */
const SAMPLE_MS = 10_000;
/** The interval PowerMetrics covers, minutes (as iLO-class controllers report it). */
export const METRICS_INTERVAL_MIN = 20;
/** The controller corrects the draw to a new limit within this time (ms); the model applies it at once. */
export const LIMIT_CORRECTION_MS = 1_000;

export const LIMIT_EXCEPTIONS = ['NoAction', 'HardPowerOff', 'LogEventOnly', 'Oem'] as const;
export type LimitException = (typeof LIMIT_EXCEPTIONS)[number];

/** The power limit as the controller keeps it across restarts. */
export interface PowerLimitSetting {
  /** Watts, or null for no limit. */
  limitInWatts: number | null;
  /** What to do when the limit cannot be held; the throttling always holds it, so it is only kept and shown. */
  limitException: LimitException;
}

const NO_LIMIT: PowerLimitSetting = { limitInWatts: null, limitException: 'NoAction' };

/** The phase of the host the power model follows: the simulator (ServerSimulator satisfies it). */
export interface PhaseSource {
  readonly timings: Timings;
  snapshot(): { phase: Phase; phaseSince: number };
  onPhaseChange(fn: () => void): void;
}

/** The id of a supply's output reading (a Sensor and a MetricId). */
export function psuSensorId(bay: number): string {
  return `PS${bay}Output`;
}

/** A supply carries load unless it has failed (Critical) or is not enabled (absent, offline). */
export function psuCarriesLoad(status: ComponentStatus): boolean {
  return status.State === 'Enabled' && status.Health !== 'Critical';
}

export interface PowerSupplyInput {
  /** Bay number, naming the supply's reading (PS<bay>Output); the position (1-based) without one. */
  bay?: number;
  capacityWatts: number;
}

export interface PowerReading {
  /** Controller time of the reading (ms). */
  at: number;
  /** Input power of the whole server, watts, after the limit. */
  consumedWatts: number;
  /** What the server would draw without a limit. */
  demandWatts: number;
  /** True while the limit holds the draw down. */
  capping: boolean;
  /** Share of the CPUs' capacity the host's OS keeps busy, 0 to 1 (0 unless the OS runs). */
  cpuLoad: number;
  /** Output of each power supply, watts, in the order of the profile; a failed one carries nothing. */
  psuWatts: number[];
}

/** How far back readings can be worked out: the slowest power meter's span (a week). */
const HISTORY_MS = 7 * 24 * 3600_000;

/** One sample of a power meter: the draw over the `stepMs` ending at `at`. */
export interface MeterSample {
  at: number;
  averageWatts: number;
  peakWatts: number;
  minimumWatts: number;
  /** The limit in force at the end of the sample, or null. */
  limitWatts: number | null;
  /** The limit held the draw down at some point of the sample. */
  capped: boolean;
  /** Average CPU utilization over the sample, percent. */
  cpuUtilPercent: number;
  /** The least share of the demand the limit let through during the sample, percent (100: never held down). */
  capPerformancePercent: number;
}

export interface PowerMetrics {
  intervalInMin: number;
  minConsumedWatts: number;
  maxConsumedWatts: number;
  averageConsumedWatts: number;
}

interface Segment {
  /** Controller time the segment starts (ms). */
  from: number;
  phase: Phase;
  phaseSince: number;
  limit: number | null;
}

export interface PowerModelDeps {
  clock: Clock;
  store: Pick<DocumentStore, 'setting'>;
  host: PhaseSource;
  spec: PowerModelSpec;
  psus: readonly PowerSupplyInput[];
  /** Whether the power supply at this index works; a failed one carries no load. */
  psuHealthy(index: number): boolean;
  /** Where the Power resource is served, for the readings' property URIs. */
  powerUri: string;
}

export class PowerModel implements SensorSource {
  private readonly setting: { get(): PowerLimitSetting; set(v: PowerLimitSetting): void };
  private readonly history: Segment[];
  private heldWatts?: number;

  constructor(private readonly d: PowerModelDeps) {
    this.setting = d.store.setting<PowerLimitSetting>('power.limit', NO_LIMIT);
    const s = d.host.snapshot();
    // What happened before the phase the host is in (e.g. before a service restart) is not known.
    this.history = [{ from: Math.min(s.phaseSince, d.clock.now()), phase: s.phase, phaseSince: s.phaseSince, limit: this.limitWatts() }];
    d.host.onPhaseChange(() => this.record());
  }

  limit(): PowerLimitSetting {
    return { ...this.setting.get() };
  }

  limitWatts(): number | null {
    return this.setting.get().limitInWatts;
  }

  /** Store a new limit (already validated against limitRange()); effective at once. */
  setLimit(patch: Partial<PowerLimitSetting>): void {
    this.setting.set({ ...this.setting.get(), ...patch });
    this.record();
  }

  /** The limits the controller accepts: it cannot throttle below idle, and above the capacity a limit means nothing. */
  limitRange(): { min: number; max: number } {
    return { min: Math.ceil(this.d.spec.idleWatts), max: this.capacityWatts() };
  }

  /** What the power supplies deliver with one of them lost (N+1 when there are two or more). */
  capacityWatts(): number {
    const caps = this.d.psus.map((p) => p.capacityWatts);
    const total = caps.reduce((a, b) => a + b, 0);
    return caps.length > 1 ? total - Math.max(...caps) : total;
  }

  /** The reading now. */
  reading(): PowerReading {
    return this.readingAt(this.d.clock.now());
  }

  /** Minimum, maximum and average draw over the last `minutes` the controller has seen (sampled every 10 s). */
  metrics(minutes = METRICS_INTERVAL_MIN): PowerMetrics {
    const now = this.d.clock.now();
    const start = Math.max(now - minutes * 60_000, this.history[0]!.from);
    const samples: number[] = [];
    for (let t = now; t >= start; t -= SAMPLE_MS) samples.push(this.readingAt(t).consumedWatts);
    return {
      intervalInMin: minutes,
      minConsumedWatts: Math.min(...samples),
      maxConsumedWatts: Math.max(...samples),
      averageConsumedWatts: Math.round(samples.reduce((a, b) => a + b, 0) / samples.length),
    };
  }

  /** Total consumption and each power supply's output, for the metric reports and the Sensors. */
  readings(): SensorReading[] {
    const r = this.reading();
    const uri = this.d.powerUri;
    return [
      {
        id: 'PowerConsumption',
        name: 'Power consumption',
        kind: 'Power',
        reading: r.consumedWatts,
        units: 'W',
        uri: `${uri}#/PowerControl/0/PowerConsumedWatts`,
      },
      ...r.psuWatts.map((w, i) => ({
        id: psuSensorId(this.d.psus[i]?.bay ?? i + 1),
        name: `Power supply ${this.d.psus[i]?.bay ?? i + 1} output`,
        kind: 'Power' as const,
        reading: w,
        units: 'W' as const,
        uri: `${uri}#/PowerSupplies/${i}/LastPowerOutputWatts`,
      })),
    ];
  }

  /** Each power supply's average and highest output over the last `windowMs` (read every second), in the order of the profile. */
  supplyOutputs(windowMs = SAMPLE_MS): { averageWatts: number; maxWatts: number }[] {
    const now = this.d.clock.now();
    const readings: PowerReading[] = [];
    for (let t = now - windowMs; t <= now; t += 1_000) readings.push(this.readingAt(t));
    return this.d.psus.map((_, i) => {
      const watts = readings.map((r) => r.psuWatts[i] ?? 0);
      return { averageWatts: Math.round(watts.reduce((a, b) => a + b, 0) / watts.length), maxWatts: Math.max(...watts) };
    });
  }

  /**
   * A power meter: samples of `stepMs` each, oldest first, ending at the last whole step, as far
   * back as `spanMs` and the controller's own history reach; each from readings `subMs` apart.
   */
  meter(spanMs: number, stepMs: number, subMs: number): MeterSample[] {
    const now = this.d.clock.now();
    const last = Math.floor(now / stepMs) * stepMs;
    const first = Math.max(last - spanMs + stepMs, Math.ceil((this.history[0]!.from + stepMs) / stepMs) * stepMs);
    const out: MeterSample[] = [];
    for (let end = first; end <= last; end += stepMs) {
      let sum = 0;
      let n = 0;
      let peak = -Infinity;
      let min = Infinity;
      let capped = false;
      let load = 0;
      let allowed = 1;
      for (let t = end - stepMs + subMs; t <= end; t += subMs) {
        const r = this.readingAt(t);
        sum += r.consumedWatts;
        n++;
        peak = Math.max(peak, r.consumedWatts);
        min = Math.min(min, r.consumedWatts);
        capped ||= r.capping;
        load += r.cpuLoad;
        if (r.capping) allowed = Math.min(allowed, r.consumedWatts / r.demandWatts);
      }
      out.push({
        at: end,
        averageWatts: Math.round(sum / n),
        peakWatts: peak,
        minimumWatts: min,
        limitWatts: this.segmentAt(end).limit,
        capped,
        cpuUtilPercent: Math.round((100 * load) / n),
        capPerformancePercent: Math.round(100 * allowed),
      });
    }
    return out;
  }

  /** Hold the consumption at exactly this many watts (control API), or let it follow the host again (undefined). */
  holdWatts(watts: number | undefined): void {
    this.heldWatts = watts;
  }

  /** The reading at controller time `at`, from the history of phases and limits. */
  readingAt(at: number): PowerReading {
    if (this.heldWatts !== undefined) {
      const w = this.heldWatts;
      return { at, consumedWatts: w, demandWatts: w, capping: false, cpuLoad: 0, psuWatts: this.split(w) };
    }
    const seg = this.segmentAt(at);
    const demand = this.demand(seg.phase, seg.phaseSince, at);
    const cpuLoad = seg.phase === 'OsRunning' ? cpuLoadAt(at) : 0;
    let consumed = Math.round(demand);
    let capping = false;
    if (seg.limit !== null && demand > seg.limit) {
      // Throttled to just under the limit, never over it.
      const band = Math.min(10, seg.limit * 0.02);
      consumed = Math.floor(seg.limit - (0.5 + jitter('cap', at)) * band);
      capping = true;
    }
    return { at, consumedWatts: consumed, demandWatts: Math.round(demand), capping, cpuLoad, psuWatts: this.split(consumed) };
  }

  /** The draw without a limit. */
  private demand(phase: Phase, since: number, at: number): number {
    const { standbyWatts: standby, idleWatts: idle, maxWatts: max } = this.d.spec;
    const range = max - idle;
    const post = idle + POST_SHARE * range;
    const inPhase = Math.max(0, at - since);
    const t = this.d.host.timings;
    const noise = (amplitude: number) => jitter('power', at) * amplitude;
    switch (phase) {
      case 'Off':
        return standby + noise(2);
      case 'PoweringOn':
        return standby + (post - standby) * ramp(inPhase, t.powerOnMs) + noise(2);
      case 'Resetting':
      case 'Post':
        return post + noise(0.02 * range + 2);
      case 'OsRunning': {
        const running = idle + cpuLoadAt(at) * range;
        return running + (post - running) * Math.exp(-inPhase / OS_SETTLE_MS) + noise(0.03 * range + 2);
      }
      case 'OsStopping':
      case 'OsHalted':
        return idle + noise(0.02 * range + 2);
      case 'PoweringOff':
        return idle + (standby - idle) * ramp(inPhase, t.shutdownMs) + noise(2);
    }
  }

  /** Working supplies share the load equally (whole watts, adding up to the total); failed ones carry none. */
  private split(total: number): number[] {
    const working = this.d.psus.map((_, i) => this.d.psuHealthy(i));
    const n = working.filter(Boolean).length;
    if (n === 0) return working.map(() => 0);
    const share = Math.floor(total / n);
    let rest = total - share * n;
    return working.map((ok) => {
      if (!ok) return 0;
      const extra = rest > 0 ? 1 : 0;
      rest -= extra;
      return share + extra;
    });
  }

  private segmentAt(at: number): Segment {
    for (let i = this.history.length - 1; i > 0; i--) if (this.history[i]!.from <= at) return this.history[i]!;
    return this.history[0]!;
  }

  /** Note the host's phase and the limit as they are now; drop what no interval reaches any more. */
  private record(): void {
    const now = this.d.clock.now();
    const s = this.d.host.snapshot();
    this.history.push({ from: now, phase: s.phase, phaseSince: s.phaseSince, limit: this.limitWatts() });
    const horizon = now - HISTORY_MS;
    while (this.history.length > 1 && this.history[1]!.from <= horizon) this.history.shift();
  }
}

/** The share of the dynamic range the OS's workload uses at `at`: the CPUs' load. */
function cpuLoadAt(at: number): number {
  return LOAD_MIN + LOAD_SPAN * workload(at);
}

/** 0 → 1 linearly over `duration` ms. */
function ramp(elapsed: number, duration: number): number {
  return duration <= 0 ? 1 : Math.min(1, elapsed / duration);
}
