// The simulated server's temperature sensors and fans. Readings are a pure
// function of controller time and the host's power history: each sensor's heat
// level approaches its target (0 with the host off, 1 with it on) with its own
// time constant, a slow workload cycle adds to it while the host runs, and a
// small deterministic jitter (hashed from sensor and time slot) keeps it alive.
// No timers: state is integrated lazily up to "now" whenever it is read.
import type { Clock } from './clock.js';
import type { HostLifecycle, PowerState } from './lifecycle.js';
import type { SensorReading, SensorSource } from './sensors.js';
import { jitter, workload } from './workload.js';

export interface TemperatureSpec {
  /** 1-based sensor number: the SensorNumber clients address (SetUserTempThreshold). */
  number: number;
  id: string;
  name: string;
  context: string;
  /** Degrees above ambient with the host off (standby power) and on (idle). */
  offDelta: number;
  onDelta: number;
  /** Extra degrees at full workload while the host runs. */
  swing: number;
  /** Time constant of the approach to the target, seconds. */
  tauSeconds: number;
  upperCaution?: number;
  upperCritical: number;
  upperFatal?: number;
}

export interface FanSpec {
  number: number;
  id: string;
  name: string;
  maxRpm: number;
  lowerCritical: number;
}

/** Sensor numbers, names and thresholds as an HPE-style server reports them. */
export const TEMPERATURE_SENSORS: readonly TemperatureSpec[] = [
  {
    number: 1,
    id: 'InletAmbient',
    name: '01-Inlet Ambient',
    context: 'Intake',
    offDelta: 0,
    onDelta: 1,
    swing: 0.5,
    tauSeconds: 300,
    upperCaution: 38,
    upperCritical: 42,
    upperFatal: 46,
  },
  { number: 2, id: 'CPU1', name: '02-CPU 1', context: 'CPU', offDelta: 3, onDelta: 19, swing: 12, tauSeconds: 40, upperCritical: 70 },
  { number: 3, id: 'CPU2', name: '03-CPU 2', context: 'CPU', offDelta: 3, onDelta: 17, swing: 12, tauSeconds: 40, upperCritical: 70 },
  {
    number: 4,
    id: 'P1DIMM1-8',
    name: '04-P1 DIMM 1-8',
    context: 'Memory',
    offDelta: 1,
    onDelta: 10,
    swing: 4,
    tauSeconds: 120,
    upperCritical: 90,
  },
  {
    number: 5,
    id: 'P1DIMM9-16',
    name: '05-P1 DIMM 9-16',
    context: 'Memory',
    offDelta: 1,
    onDelta: 11,
    swing: 4,
    tauSeconds: 120,
    upperCritical: 90,
  },
  {
    number: 6,
    id: 'P2DIMM1-8',
    name: '06-P2 DIMM 1-8',
    context: 'Memory',
    offDelta: 1,
    onDelta: 9,
    swing: 4,
    tauSeconds: 120,
    upperCritical: 90,
  },
  {
    number: 7,
    id: 'P2DIMM9-16',
    name: '07-P2 DIMM 9-16',
    context: 'Memory',
    offDelta: 1,
    onDelta: 10,
    swing: 4,
    tauSeconds: 120,
    upperCritical: 90,
  },
  {
    number: 8,
    id: 'Chipset',
    name: '08-Chipset',
    context: 'SystemBoard',
    offDelta: 5,
    onDelta: 18,
    swing: 3,
    tauSeconds: 150,
    upperCritical: 105,
  },
  {
    number: 9,
    id: 'PS1Inlet',
    name: '09-P/S 1 Inlet',
    context: 'PowerSupply',
    offDelta: 3,
    onDelta: 8,
    swing: 3,
    tauSeconds: 200,
    upperCritical: 65,
    upperFatal: 70,
  },
  {
    number: 10,
    id: 'PS2Inlet',
    name: '10-P/S 2 Inlet',
    context: 'PowerSupply',
    offDelta: 3,
    onDelta: 8,
    swing: 3,
    tauSeconds: 200,
    upperCritical: 65,
    upperFatal: 70,
  },
  {
    number: 11,
    id: 'VRP1',
    name: '11-VR P1',
    context: 'VoltageRegulator',
    offDelta: 2,
    onDelta: 17,
    swing: 8,
    tauSeconds: 60,
    upperCritical: 115,
    upperFatal: 120,
  },
  {
    number: 12,
    id: 'VRP2',
    name: '12-VR P2',
    context: 'VoltageRegulator',
    offDelta: 2,
    onDelta: 16,
    swing: 8,
    tauSeconds: 60,
    upperCritical: 115,
    upperFatal: 120,
  },
  // The controller runs on auxiliary power: warm whether the host is on or off.
  {
    number: 13,
    id: 'MC',
    name: '13-MC Zone',
    context: 'SystemBoard',
    offDelta: 16,
    onDelta: 18,
    swing: 1,
    tauSeconds: 300,
    upperCritical: 100,
    upperFatal: 110,
  },
  {
    number: 14,
    id: 'SysExhaust',
    name: '14-Sys Exhaust',
    context: 'Exhaust',
    offDelta: 1,
    onDelta: 12,
    swing: 5,
    tauSeconds: 120,
    upperCritical: 75,
    upperFatal: 80,
  },
];

export const FANS: readonly FanSpec[] = [1, 2, 3, 4, 5, 6].map((n) => ({
  number: n,
  id: `Fan${n}`,
  name: `Fan ${n}`,
  maxRpm: 16800,
  lowerCritical: 600,
}));

/** The readings change once per scan, as a controller's sensor scan reads them (every second of controller time). */
export const SENSOR_SCAN_MS = 1000;
const AMBIENT_BASE = 21;
const AMBIENT_SWING = 1.5;
const DAY_MS = 24 * 3600_000;
/** Fans idle this fast while the host is off (standby airflow) and at least this fast while it runs. */
const FAN_STANDBY_PERCENT = 10;
const FAN_RUN_MIN_PERCENT = 22;

/** Fans run this many points faster than needed with increased or enhanced CPU cooling. */
const COOLING_BOOST_PERCENT = 10;

/** How the fan controller is set while the host runs (the BIOS Fan and Thermal Options). */
export interface FanPolicy {
  /** Optimal: as fast as needed; Increased, EnhancedCpu: faster; Maximum: full speed. */
  cooling: 'Optimal' | 'Increased' | 'Maximum' | 'EnhancedCpu';
  /** The lowest fan speed, in percent. */
  minimumPercent: number;
}

export interface TemperatureState {
  spec: TemperatureSpec;
  celsius: number;
}

export interface FanState {
  spec: FanSpec;
  rpm: number;
  percent: number;
}

export interface ThermalSnapshot {
  temperatures: TemperatureState[];
  fans: FanState[];
}

/** The room air the server draws in at controller time `at`, °C: a slow daily swing. */
export function ambientAt(at: number): number {
  return AMBIENT_BASE + AMBIENT_SWING * Math.sin((2 * Math.PI * at) / DAY_MS);
}

function heatTarget(power: PowerState): number {
  return power === 'Off' ? 0 : 1;
}

export class SimulatedSensors implements SensorSource {
  /** Heat level of each temperature sensor, 0 (cold, host off) to 1 (host on). */
  private readonly levels: number[];
  private target: number;
  private at: number;
  /** Readings held exactly (control API), by sensor id: °C for temperatures, RPM for fans. */
  private readonly held = new Map<string, number>();
  /** Fans that stopped (a fan fault): they read 0 RPM. */
  private readonly stopped = new Set<string>();
  /** The fan controller's settings; the BIOS's once the host settings exist (setFanPolicy). */
  private fanPolicy: () => FanPolicy = () => ({ cooling: 'Optimal', minimumPercent: 0 });

  /** The sensors and fans of the hardware profile (the constants above by default). */
  readonly temperatureSpecs: readonly TemperatureSpec[];
  readonly fanSpecs: readonly FanSpec[];

  constructor(
    private readonly clock: Clock,
    host: HostLifecycle,
    /** Where the Thermal resource is served, for the readings' property URIs. */
    private readonly thermalUri: string,
    sensors: { temperatures: readonly TemperatureSpec[]; fans: readonly FanSpec[] } = { temperatures: TEMPERATURE_SENSORS, fans: FANS },
  ) {
    this.temperatureSpecs = sensors.temperatures;
    this.fanSpecs = sensors.fans;
    this.target = heatTarget(host.powerState());
    this.at = clock.now();
    this.levels = this.temperatureSpecs.map(() => this.target);
    host.onPowerChange((_from, to) => {
      this.integrate(this.clock.now());
      this.target = heatTarget(to);
    });
  }

  snapshot(): ThermalSnapshot {
    // As of the last scan: readings taken within one scan are the same (Thermal is kept per scan).
    const clock = this.clock.now();
    const now = clock - (clock % SENSOR_SCAN_MS);
    this.integrate(now);
    const ambient = ambientAt(now);
    const load = workload(now);
    const temperatures = this.temperatureSpecs.map((spec, i) => {
      const level = this.levels[i] ?? 0;
      const heat = spec.offDelta + level * (spec.onDelta - spec.offDelta + load * spec.swing);
      return { spec, celsius: this.held.get(spec.id) ?? Math.round(ambient + heat + jitter(spec.id, now)) };
    });
    // Fans follow the hottest CPU, as the fan controller does (the hottest sensor in a profile without CPU sensors).
    const hasCpu = this.temperatureSpecs.some((s) => s.context === 'CPU');
    const steering = (context: string) => !hasCpu || context === 'CPU';
    const cpuLevel = Math.max(0, ...this.temperatureSpecs.map((s, i) => (steering(s.context) ? (this.levels[i] ?? 0) : 0)));
    const hottest = Math.max(0, ...temperatures.filter((t) => steering(t.spec.context)).map((t) => t.celsius));
    const floor = FAN_STANDBY_PERCENT + cpuLevel * (FAN_RUN_MIN_PERCENT - FAN_STANDBY_PERCENT);
    const demand = this.applyPolicy(Math.min(100, Math.max(floor, floor + (hottest - 45) * 2.5 * cpuLevel)));
    const fans = this.fanSpecs.map((spec) => {
      if (this.stopped.has(spec.id)) return { spec, rpm: 0, percent: 0 };
      const heldRpm = this.held.get(spec.id);
      if (heldRpm !== undefined) return { spec, rpm: heldRpm, percent: Math.min(100, Math.round((100 * heldRpm) / spec.maxRpm)) };
      const percent = Math.round(Math.min(100, Math.max(0, demand + jitter(spec.id, now) * 2)));
      const rpm = Math.round(((percent / 100) * spec.maxRpm) / 10) * 10;
      return { spec, rpm, percent };
    });
    return { temperatures, fans };
  }

  /** Read the fan controller's settings from here on. */
  setFanPolicy(policy: () => FanPolicy): void {
    this.fanPolicy = policy;
  }

  /** The fan speed the controller sets for this need: the settings apply while the host is powered. */
  private applyPolicy(needed: number): number {
    if (this.target === 0) return needed;
    const { cooling, minimumPercent } = this.fanPolicy();
    const set = cooling === 'Maximum' ? 100 : cooling === 'Optimal' ? needed : needed + COOLING_BOOST_PERCENT;
    return Math.min(100, Math.max(set, minimumPercent));
  }

  readings(): SensorReading[] {
    const snap = this.snapshot();
    return [
      ...snap.temperatures.map((t, i) => ({
        id: t.spec.id,
        name: t.spec.name,
        kind: 'Temperature' as const,
        reading: t.celsius,
        units: 'Cel' as const,
        uri: `${this.thermalUri}#/Temperatures/${i}/ReadingCelsius`,
      })),
      ...snap.fans.map((f, i) => ({
        id: f.spec.id,
        name: f.spec.name,
        kind: 'Fan' as const,
        reading: f.rpm,
        units: 'RPM' as const,
        uri: `${this.thermalUri}#/Fans/${i}/Reading`,
      })),
    ];
  }

  /** Bumped by every hold, release and fan stop: views of the readings are current while it holds (and the time does). */
  generation = 0;

  /** Hold a sensor's reading exactly, without jitter, until released (°C, or RPM for a fan). */
  hold(id: string, value: number): void {
    this.held.set(id, value);
    this.generation++;
  }

  release(id: string): boolean {
    this.generation++;
    return this.held.delete(id);
  }

  /** A fan stops (fault) or runs again. */
  setFanStopped(id: string, stopped: boolean): void {
    if (stopped) this.stopped.add(id);
    else this.stopped.delete(id);
    this.generation++;
  }

  /** Move every heat level from the last integration time to `now` toward the current target. */
  private integrate(now: number): void {
    const dt = (now - this.at) / 1000;
    if (dt <= 0) return;
    this.temperatureSpecs.forEach((spec, i) => {
      const level = this.levels[i] ?? 0;
      this.levels[i] = this.target + (level - this.target) * Math.exp(-dt / spec.tauSeconds);
    });
    this.at = now;
  }
}
