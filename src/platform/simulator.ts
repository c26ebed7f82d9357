// The simulated server behind the controller: its power state machine, POST
// and operating system, driven by the controller clock and kept in the store
// so that a restart of the service (even kill -9) does not power-cycle the host.
//
//   Off --On--> PoweringOn --powerOn s--> Post --post s--> OsRunning
//   OsRunning --GracefulShutdown--> PoweringOff --shutdown s--> Off
//   OsRunning --GracefulRestart/Nmi--> OsStopping --shutdown s--> Resetting
//   (Post|OsRunning|OsStopping) --ForceRestart--> Resetting --powerOn s--> Post
//   any powered phase --ForceOff--> Off
//   OsRunning --OsCrash (control API)--> OsHalted (host on, no OS) --ForceRestart--> Resetting
//   any phase --PowerCycle--> Off --> PoweringOn; FullPowerCycle also cycles auxiliary power
//   (the controller resets) between the two
//
// Every entry into PoweringOn or Resetting records its cause (LastResetCause).
//
// The control API (--enable-control) also pulls and restores AC power (the host
// is off and cannot be powered on meanwhile), and stalls POST where it is.
//
// POST hooks (BIOS apply, secure boot, UEFI updaters, boot override) run when
// Post is entered, with PowerState already On; the OS starts when POST ends.
import type { Logger } from 'pino';
import { vendorMessage, type ExtendedInfo } from '../messages/errors.js';
import { vendorRefusal } from '../messages/refusal.js';
import { resourceEvent } from '../messages/event-messages.js';
import type { DocumentStore } from '../store/documents.js';
import type { Clock, TimerHandle } from './clock.js';
import type { ControllerLifecycle, HostLifecycle, PowerState } from './lifecycle.js';

export const RESET_TYPES = [
  'On',
  'ForceOff',
  'GracefulShutdown',
  'ForceRestart',
  'GracefulRestart',
  'Nmi',
  'PushPowerButton',
  'PowerCycle',
  'FullPowerCycle',
] as const;
export type ResetType = (typeof RESET_TYPES)[number];

/** DMTF's LastResetCauses: why the host last started or restarted. */
export const LAST_RESET_CAUSES = [
  'PowerButtonPress',
  'ManagementCommand',
  'PowerRestorePolicy',
  'RTCWakeup',
  'WatchdogExpiration',
  'OSSoftRestart',
  'SystemCrash',
  'ThermalEvent',
  'PowerEvent',
  'Unknown',
] as const;
export type LastResetCause = (typeof LAST_RESET_CAUSES)[number];
export const PUSH_TYPES = ['Press', 'PressAndHold'] as const;
export type PushType = (typeof PUSH_TYPES)[number];

export type Phase = 'Off' | 'PoweringOn' | 'Resetting' | 'Post' | 'OsRunning' | 'OsHalted' | 'OsStopping' | 'PoweringOff';

/** Power restore policy after AC power comes back: the DMTF PowerRestorePolicyTypes. */
export type PowerRestorePolicy = 'AlwaysOn' | 'AlwaysOff' | 'LastState';

/** What the store keeps about the server. */
export interface ServerState {
  phase: Phase;
  /** Controller time (ms) the current timed phase ends; null while POST hooks run or when untimed. */
  endsAt: number | null;
  bootCount: number;
  /** When the server last powered on or was reset (ms), for LastResetTime. */
  lastResetAt: number | null;
  /** Why it last powered on or was reset; absent in older stores. */
  lastResetCause?: LastResetCause;
  /** Why the restart that follows the current OsStopping happens (a GracefulRestart, or a crash dump after an NMI). */
  restartCause?: LastResetCause;
  /** When the current phase began (ms), for BootProgress/LastStateTime. */
  phaseSince: number;
  /** A VendorComputerSystemExt.SystemReset waiting for the next power off. */
  auxCycleArmed: boolean;
  auxCycles: number;
  /** AC power is pulled (control API); with the phase the host was in when it went. Absent in older stores. */
  acLost?: { phase: Phase } | null;
  /** POST stalls where it is until resumed (control API); stalledAt: when the current POST stopped. */
  postStalled?: boolean;
  stalledAt?: number | null;
}

export interface Timings {
  powerOnMs: number;
  postMs: number;
  shutdownMs: number;
}

const PROFILES: Record<string, { powerOn: number; post: number; shutdown: number }> = {
  fast: { powerOn: 2, post: 5, shutdown: 5 },
  // A real two-socket server: fans spin up, memory training, option ROMs.
  realistic: { powerOn: 10, post: 120, shutdown: 30 },
};

/** How long the server's timed phases take: a profile, and overrides in seconds. */
export interface TimingOptions {
  /** fast (a few seconds) or realistic (minute-long POST); anything else reads as fast. */
  timing: string;
  powerOnSeconds?: number;
  postSeconds?: number;
  shutdownSeconds?: number;
}

/** The simulated server as configured. */
export interface SimulatorOptions extends TimingOptions {
  /** URI of the computer system, which its records and events are about. */
  systemUri: string;
  /** absent, installed or in-use. */
  tpm: string;
  /**
   * Reset types that do not fit the power state: refused (false, as iLO does), or done as an
   * OpenBMC-style controller does them (true): ForceRestart/GracefulRestart of an Off server
   * powers it on; ForceOff or GracefulShutdown of an Off one, On of a powered one, do nothing.
   */
  lenientResets?: boolean;
}

export function timingsOf(options: TimingOptions): Timings {
  const p = PROFILES[options.timing] ?? PROFILES.fast!;
  return {
    powerOnMs: (options.powerOnSeconds ?? p.powerOn) * 1000,
    postMs: (options.postSeconds ?? p.post) * 1000,
    shutdownMs: (options.shutdownSeconds ?? p.shutdown) * 1000,
  };
}

/** Where the simulator reports what happens; structurally Logs and EventBus. */
export interface SimulatorSinks {
  logs: { write(log: 'IML', message: ExtendedInfo, origin?: string): unknown };
  events: { publish(message: ExtendedInfo, origin?: string, eventType?: 'StatusChange' | 'Alert'): unknown };
}

export interface SimulatorDeps extends SimulatorSinks {
  options: SimulatorOptions;
  clock: Clock;
  store: DocumentStore;
  host: HostLifecycle;
  controller: ControllerLifecycle;
  log: Logger;
}

const POWER_OF: Record<Phase, PowerState> = {
  Off: 'Off',
  PoweringOn: 'PoweringOn',
  Resetting: 'On',
  Post: 'On',
  OsRunning: 'On',
  OsHalted: 'On',
  OsStopping: 'On',
  PoweringOff: 'PoweringOff',
};

/** How each phase reads in an error message. */
const DESCRIBED: Record<Phase, string> = {
  Off: 'powered off',
  PoweringOn: 'powering on',
  Resetting: 'being reset',
  Post: 'in POST (no operating system running)',
  OsRunning: 'running its operating system',
  OsHalted: 'halted after an operating system crash',
  OsStopping: 'shutting down its operating system for a restart',
  PoweringOff: 'powering off',
};

const INITIAL: ServerState = {
  phase: 'Off',
  endsAt: null,
  bootCount: 0,
  lastResetAt: null,
  phaseSince: 0,
  auxCycleArmed: false,
  auxCycles: 0,
};

export class ServerSimulator {
  readonly timings: Timings;
  private readonly saved;
  private state: ServerState;
  private timer?: TimerHandle;
  /** Bumped on every transition, so a stale async continuation can tell it lost. */
  private generation = 0;
  private stopped = false;
  /** Settles when the POST hooks started last have finished (tests and shutdown wait on it). */
  private postRun: Promise<void> = Promise.resolve();
  private readonly phaseListeners: (() => void)[] = [];

  constructor(private readonly d: SimulatorDeps) {
    this.timings = timingsOf(d.options);
    this.saved = d.store.setting<ServerState>('platform.server', { ...INITIAL, phaseSince: d.clock.now() });
    this.state = this.saved.get();
    const tpm = d.options.tpm;
    d.host.setTpm({ installed: tpm !== 'absent', inUse: tpm === 'in-use' });
    // Restore the host as it was: the service restarting does not touch the server.
    d.host.setPowerState(POWER_OF[this.state.phase]);
    if (this.state.phase === 'OsRunning') d.host.setOsRunning(true);
    this.resume();
  }

  /** The URI the simulator's records and events are about. */
  get systemUri(): string {
    return this.d.options.systemUri;
  }

  /** The state now: replaced whole at every change (save), never changed in place, so no copy is needed (asked at every GET of the system). */
  snapshot(): Readonly<ServerState> {
    return this.state;
  }

  powerState(): PowerState {
    return POWER_OF[this.state.phase];
  }

  /** Called after every phase change (the power model keeps its history with it). */
  onPhaseChange(fn: () => void): void {
    this.phaseListeners.push(fn);
  }

  /** Resolves when the POST hooks of the current boot have run. */
  postSettled(): Promise<void> {
    return this.postRun;
  }

  /**
   * ComputerSystem.Reset (a management command, unless `cause` says what else asked).
   * Refuses the reset when it does not apply in the current state.
   */
  reset(type: ResetType, cause: LastResetCause = 'ManagementCommand'): void {
    const p = this.state.phase;
    const powersOn = type === 'On' || type === 'PushPowerButton' || type === 'PowerCycle' || type === 'FullPowerCycle';
    if (this.state.acLost && powersOn) throw this.conflict('ResetType', type);
    if (this.d.options.lenientResets && this.lenientReset(type, p, cause)) return;
    const powered = p !== 'Off';
    switch (type) {
      case 'On':
        if (p === 'Off') return this.enter('PoweringOn', cause);
        break;
      case 'ForceOff':
        if (powered) return this.enter('Off');
        break;
      case 'GracefulShutdown':
        // ACPI shutdown needs an OS to honour it.
        if (p === 'OsRunning') return this.enter('PoweringOff');
        break;
      case 'GracefulRestart':
        if (p === 'OsRunning') return this.enter('OsStopping', cause);
        break;
      case 'ForceRestart':
        if (p === 'PoweringOn') return this.enter('PoweringOn', cause);
        if (p === 'Post' || p === 'OsRunning' || p === 'OsHalted' || p === 'OsStopping' || p === 'Resetting')
          return this.enter('Resetting', cause);
        break;
      case 'Nmi':
        if (p === 'OsRunning') return this.nmi();
        break;
      case 'PushPowerButton':
        return this.pressButton('ResetType', type, cause);
      case 'PowerCycle':
      case 'FullPowerCycle':
        return this.powerCycle(type === 'FullPowerCycle', cause);
    }
    throw this.conflict('ResetType', type);
  }

  /** A reset an OpenBMC-style controller takes in a state iLO refuses it in; true when taken. */
  private lenientReset(type: ResetType, p: Phase, cause: LastResetCause): boolean {
    if (p === 'Off' && (type === 'ForceRestart' || type === 'GracefulRestart')) {
      // Without AC power nothing powers on: refused as an On would be.
      if (this.state.acLost) throw this.conflict('ResetType', type);
      this.enter('PoweringOn', cause);
      return true;
    }
    if (p === 'Off') return type === 'ForceOff' || type === 'GracefulShutdown';
    return type === 'On' && p !== 'PoweringOff';
  }

  /** VendorComputerSystemExt.PowerButton. */
  powerButton(push: PushType): void {
    if (this.state.acLost) throw this.conflict('PushType', push);
    if (push === 'Press') return this.pressButton('PushType', push, 'PowerButtonPress');
    // Holding the button four seconds cuts power whatever runs.
    if (this.state.phase === 'Off') throw this.conflict('PushType', push);
    this.enter('Off');
  }

  /**
   * VendorComputerSystemExt.SystemReset: an auxiliary power cycle, immediate
   * when the server is off, otherwise at its next power off. Returns whether it ran now.
   */
  systemReset(): boolean {
    if (this.state.phase === 'Off') {
      this.auxCycle();
      return true;
    }
    this.save({ ...this.state, auxCycleArmed: true });
    return false;
  }

  // -- simulated events (control API) ---------------------------------------------

  /** True while AC power is pulled. */
  acLost(): boolean {
    return Boolean(this.state.acLost);
  }

  /** AC power lost: the host goes off at once, whatever it was doing; the controller logs it. */
  pullPower(): void {
    if (this.state.acLost) return;
    const was = this.state.phase;
    if (was !== 'Off') this.enter('Off');
    this.save({ ...this.state, acLost: { phase: was } });
    this.d.logs.write('IML', vendorMessage('AcPowerLost'), this.systemUri);
    this.d.events.publish(vendorMessage('AcPowerLost'), this.systemUri, 'Alert');
  }

  /** AC power back: the host follows the power restore policy (LastState: on when it was on). */
  restorePower(policy: PowerRestorePolicy = 'LastState'): void {
    const lost = this.state.acLost;
    if (!lost) return;
    this.save({ ...this.state, acLost: null });
    this.d.logs.write('IML', vendorMessage('AcPowerRestored', policy), this.systemUri);
    this.d.events.publish(vendorMessage('AcPowerRestored', policy), this.systemUri, 'Alert');
    if (policy === 'AlwaysOn' || (policy === 'LastState' && lost.phase !== 'Off' && lost.phase !== 'PoweringOff'))
      this.enter('PoweringOn', 'PowerRestorePolicy');
  }

  /** POST stops where it is (now, or at the next POST) until resumePost(). */
  stallPost(): void {
    if (this.state.postStalled) return;
    const inPost = this.state.phase === 'Post';
    this.save({ ...this.state, postStalled: true, stalledAt: inPost ? this.d.clock.now() : null });
    if (inPost) {
      this.timer?.cancel();
      this.timer = undefined;
    }
  }

  /** POST goes on from where it stopped. */
  resumePost(): void {
    if (!this.state.postStalled) return;
    const { stalledAt, phase } = this.state;
    const next: ServerState = { ...this.state, postStalled: false, stalledAt: null };
    if (phase === 'Post' && stalledAt !== null && stalledAt !== undefined) {
      // The stall does not count as POST time: the phase start and end move by its length.
      const shift = this.d.clock.now() - stalledAt;
      next.phaseSince += shift;
      if (next.endsAt !== null) next.endsAt += shift;
    }
    this.save(next);
    if (phase === 'Post') this.arm();
  }

  /** The instant POST progress is read at: where it stopped while stalled. */
  postClock(now: number): number {
    return this.state.phase === 'Post' && this.state.stalledAt != null ? this.state.stalledAt : now;
  }

  /** The operating system crashes: the host stays on with no OS running, as after a stop error with ASR off. */
  osCrash(): void {
    if (this.state.phase !== 'OsRunning') throw this.conflict('Event', 'OsCrash');
    this.d.logs.write('IML', vendorMessage('OsCrashed'), this.systemUri);
    this.d.events.publish(vendorMessage('OsCrashed'), this.systemUri, 'Alert');
    this.enter('OsHalted');
  }

  /** Cancel timers; the state stays stored for the next start. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  // -- transitions --------------------------------------------------------------

  private pressButton(param: string, value: string, cause: LastResetCause): void {
    switch (this.state.phase) {
      case 'Off':
        return this.enter('PoweringOn', cause);
      case 'OsRunning':
        return this.enter('PoweringOff'); // the OS handles the button as a shutdown request
      case 'Post':
      case 'Resetting':
        return this.enter('Off'); // firmware powers off at once
      default:
        throw this.conflict(param, value);
    }
  }

  private nmi(): void {
    this.d.logs.write('IML', vendorMessage('NmiGenerated'), this.systemUri);
    this.d.events.publish(vendorMessage('NmiGenerated'), this.systemUri, 'Alert');
    // The OS stops to write its crash dump, then the server restarts (ASR): a crash restart.
    this.enter('OsStopping', 'SystemCrash');
  }

  /**
   * PowerCycle: main power off (at once, whatever runs) and on again; an Off server just
   * powers on. FullPowerCycle removes auxiliary power too in between, as pulling the power
   * cords would: the controller resets with it (after this request has been answered).
   */
  private powerCycle(full: boolean, cause: LastResetCause): void {
    // Going Off runs an aux cycle that is armed (SystemReset), so a full cycle arms its own.
    if (full) this.save({ ...this.state, auxCycleArmed: true });
    if (this.state.phase !== 'Off') this.enter('Off');
    if (this.state.auxCycleArmed) this.auxCycle();
    this.enter('PoweringOn', cause);
  }

  /** A reset type refused in the current power state: the vendor message iLO clients look for. */
  private conflict(param: string, value: string) {
    return vendorRefusal('InvalidOperationForSystemState', value, DESCRIBED[this.state.phase]).about(param);
  }

  private duration(phase: Phase): number | null {
    const t = this.timings;
    switch (phase) {
      case 'PoweringOn':
      case 'Resetting':
        return t.powerOnMs;
      case 'OsStopping':
      case 'PoweringOff':
        return t.shutdownMs;
      default:
        return null;
    }
  }

  /** Enter a phase; `cause` says why the host starts (PoweringOn, Resetting) or will restart (OsStopping). */
  private enter(phase: Phase, cause: LastResetCause = 'Unknown'): void {
    this.generation++;
    this.timer?.cancel();
    const from = this.state.phase;
    const now = this.d.clock.now();
    const dur = this.duration(phase);
    const next: ServerState = { ...this.state, phase, phaseSince: now, endsAt: dur === null ? null : now + dur };
    if (phase === 'PoweringOn' || phase === 'Resetting') {
      next.lastResetAt = now;
      next.lastResetCause = cause;
    }
    next.restartCause = phase === 'OsStopping' ? cause : undefined;
    if (phase === 'Post') next.bootCount++;
    next.stalledAt = phase === 'Post' && this.state.postStalled ? now : null;
    this.save(next);
    for (const fn of this.phaseListeners) fn();
    this.applyToHost(from, phase);
    if (phase === 'Post') this.startPost();
    else this.arm();
    if (phase === 'Off' && this.state.auxCycleArmed) this.auxCycle();
  }

  private applyToHost(from: Phase, to: Phase): void {
    const host = this.d.host;
    const uri = this.systemUri;
    host.setPowerState(POWER_OF[to]);
    if (to === 'OsRunning') host.setOsRunning(true);
    if (to === 'Resetting' || to === 'OsStopping' || to === 'Post' || to === 'OsHalted') host.setOsRunning(false);
    if (POWER_OF[from] === POWER_OF[to]) return;
    const event =
      to === 'Off'
        ? resourceEvent('ResourcePoweredOff', uri)
        : to === 'PoweringOn'
          ? resourceEvent('ResourcePoweringOn', uri)
          : to === 'PoweringOff'
            ? resourceEvent('ResourcePoweringOff', uri)
            : resourceEvent('ResourcePoweredOn', uri);
    this.d.events.publish(event, uri, 'StatusChange');
    if (to === 'Off' || POWER_OF[to] === 'On') this.d.logs.write('IML', event, uri);
  }

  /** Run the POST hooks, then let POST take its time before the OS starts. */
  private startPost(): void {
    const gen = this.generation;
    const boot = { bootCount: this.state.bootCount, startedAt: this.d.clock.now() };
    this.postRun = this.d.host
      .runPost(boot)
      .catch((err: unknown) => this.d.log.error({ err }, 'POST hook failed'))
      .then(() => {
        if (gen !== this.generation || this.stopped) return;
        this.save({ ...this.state, endsAt: (this.state.stalledAt ?? this.d.clock.now()) + this.timings.postMs });
        this.arm();
      });
  }

  private arm(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const { endsAt, phase } = this.state;
    if (endsAt === null || this.stopped) return;
    if (phase === 'Post' && this.state.postStalled) return;
    const gen = this.generation;
    this.timer = this.d.clock.setTimer(endsAt - this.d.clock.now(), () => {
      if (gen === this.generation && !this.stopped) this.enter(FOLLOWS[phase] ?? 'Off', this.state.restartCause);
    });
  }

  /** After a service start: continue whatever the server was doing. */
  private resume(): void {
    if (this.state.phase !== 'Post' || this.state.endsAt !== null) return this.arm();
    // POST hooks were cut short: run them again once the areas have registered them.
    const gen = this.generation;
    this.timer = this.d.clock.setTimer(0, () => {
      if (gen === this.generation && !this.stopped) this.startPost();
    });
  }

  private auxCycle(): void {
    this.save({ ...this.state, auxCycleArmed: false, auxCycles: this.state.auxCycles + 1 });
    this.d.logs.write('IML', vendorMessage('AuxPowerCycled'), this.systemUri);
    this.d.events.publish(vendorMessage('AuxPowerCycled'), this.systemUri, 'Alert');
    // Pulling auxiliary power restarts the management controller with the server.
    this.d.controller.reset().catch((err: unknown) => this.d.log.error({ err }, 'controller reset failed'));
  }

  private save(s: ServerState): void {
    this.state = s;
    this.saved.set(s);
  }
}

/** The phase a timed phase moves to when its time is up. */
const FOLLOWS: Partial<Record<Phase, Phase>> = {
  PoweringOn: 'Post',
  Resetting: 'Post',
  Post: 'OsRunning',
  OsStopping: 'Resetting',
  PoweringOff: 'Off',
};
