// The lifecycle of the simulated server and of the controller, as hook
// registries. The simulator drives them (power, POST, controller reset);
// areas hook in: BIOS apply and secure boot at POST, UEFI updaters, etc.
import type { Clock, TimerHandle } from './clock.js';

export type PowerState = 'On' | 'Off' | 'PoweringOn' | 'PoweringOff';

/** POST steps, run in this order on every boot (the array controllers' option ROM applies pending volumes after the BIOS settings). */
export const POST_STEPS = ['ApplyBiosSettings', 'ApplyStorageConfiguration', 'SecureBootSetup', 'UefiUpdates', 'BootDevice'] as const;
export type PostStep = (typeof POST_STEPS)[number];

export interface BootInfo {
  /** Counts boots since the server was first powered on; persists. */
  bootCount: number;
  /** Controller time (ms) the boot started. */
  startedAt: number;
}

export type PostHook = (boot: BootInfo) => Promise<void> | void;
export type PowerListener = (from: PowerState, to: PowerState) => void;

export interface TpmState {
  installed: boolean;
  inUse: boolean;
}

/** What the rest of the service may ask of, and hook into, the host. */
export class HostLifecycle {
  private readonly post = new Map<PostStep, PostHook[]>();
  private readonly power: PowerListener[] = [];
  private readonly osUp: (() => void)[] = [];
  private state: { power: PowerState; os: boolean; tpm: TpmState } = {
    power: 'Off',
    os: false,
    tpm: { installed: true, inUse: false },
  };

  powerState(): PowerState {
    return this.state.power;
  }

  /** True while the host operating system runs (powered on, POST finished). */
  osRunning(): boolean {
    return this.state.os;
  }

  /** Replaced whole by setTpm, never changed in place: no copy (asked at every GET of the system). */
  tpm(): Readonly<TpmState> {
    return this.state.tpm;
  }

  onPost(step: PostStep, fn: PostHook): void {
    const list = this.post.get(step) ?? [];
    list.push(fn);
    this.post.set(step, list);
  }

  onPowerChange(fn: PowerListener): void {
    this.power.push(fn);
  }

  onOsRunning(fn: () => void): void {
    this.osUp.push(fn);
  }

  // -- driven by the simulator ------------------------------------------------

  /** Run every POST hook, step by step, in registration order. */
  async runPost(boot: BootInfo): Promise<void> {
    for (const step of POST_STEPS) {
      for (const fn of this.post.get(step) ?? []) await fn(boot);
    }
  }

  /** Bumped by every change of power, OS or TPM state: representations built from it are current while it holds. */
  generation = 0;

  setPowerState(to: PowerState): void {
    const from = this.state.power;
    this.state.power = to;
    this.generation++;
    if (to !== 'On') this.state.os = false;
    if (from !== to) for (const fn of this.power) fn(from, to);
  }

  setOsRunning(running: boolean): void {
    const was = this.state.os;
    this.state.os = running;
    this.generation++;
    if (running && !was) for (const fn of this.osUp) fn();
  }

  setTpm(tpm: TpmState): void {
    this.state.tpm = { ...tpm };
    this.generation++;
  }
}

export type ResetHook = () => Promise<void> | void;

/** How long a reset takes the controller away: first unreachable (connections refused), then booting (unavailable, retry later). */
export interface Outage {
  offlineMs: number;
  bootingMs: number;
}

/** Up; Offline: nothing listens; Booting: the listener says "unavailable, retry later" to every Redfish request. */
export type ControllerPhase = 'Up' | 'Offline' | 'Booting';

/** A reboot of N seconds: two thirds of it unreachable, the rest booting. */
export function rebootOutage(seconds: number): Outage {
  const offline = Math.round((seconds * 2) / 3);
  return { offlineMs: offline * 1000, bootingMs: (seconds - offline) * 1000 };
}

/**
 * The management controller's own lifecycle: a reset ends sessions and applies pending settings,
 * then the controller is away for a while (as a real one reboots) and comes back.
 */
export class ControllerLifecycle {
  private readonly hooks: ResetHook[] = [];
  private readonly phaseListeners: ((phase: ControllerPhase) => void)[] = [];
  private current: ControllerPhase = 'Up';
  private bootedAt = 0;
  private timer?: TimerHandle;
  resets = 0;

  constructor(
    private readonly clock?: Clock,
    /** What a reset costs when its caller does not say (--controller-reboot-seconds). */
    private readonly outage: Outage = { offlineMs: 0, bootingMs: 0 },
  ) {}

  onReset(fn: ResetHook): void {
    this.hooks.push(fn);
  }

  /** Called as the controller goes away, starts booting, and is up again. */
  onPhase(fn: (phase: ControllerPhase) => void): void {
    this.phaseListeners.push(fn);
  }

  phase(): ControllerPhase {
    return this.current;
  }

  /** While booting: whole seconds until the controller is up (how long a client should wait); otherwise undefined. */
  bootingFor(): number | undefined {
    if (this.current !== 'Booting' || !this.clock) return undefined;
    return Math.max(1, Math.ceil((this.bootedAt - this.clock.now()) / 1000));
  }

  /**
   * The controller goes away for the outage, if it has one, and the reset's hooks run (sessions
   * end, pending settings apply): what they announce waits for the controller to be back.
   */
  async reset(outage: Outage = this.outage): Promise<void> {
    this.resets++;
    this.goAway(outage);
    for (const fn of this.hooks) await fn();
  }

  private goAway(o: Outage): void {
    const clock = this.clock;
    if (!clock || o.offlineMs + o.bootingMs <= 0) return;
    this.timer?.cancel();
    this.bootedAt = clock.now() + o.offlineMs + o.bootingMs;
    if (o.offlineMs > 0) this.enter('Offline');
    const boot = () => {
      if (o.bootingMs <= 0) return this.enter('Up');
      this.enter('Booting');
      this.timer = clock.setTimer(o.bootingMs, () => this.enter('Up'));
    };
    if (o.offlineMs > 0) this.timer = clock.setTimer(o.offlineMs, boot);
    else boot();
  }

  private enter(phase: ControllerPhase): void {
    if (phase === this.current) return;
    this.current = phase;
    for (const fn of this.phaseListeners) fn(phase);
  }
}
