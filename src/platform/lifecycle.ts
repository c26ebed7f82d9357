// The lifecycle of the simulated server and of the controller, as hook
// registries. The simulator drives them (power, POST, controller reset);
// areas hook in: BIOS apply and secure boot at POST, UEFI updaters, etc.

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

  tpm(): TpmState {
    return { ...this.state.tpm };
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

/** The management controller's own lifecycle: a reset ends sessions and applies pending settings. */
export class ControllerLifecycle {
  private readonly hooks: ResetHook[] = [];
  resets = 0;

  onReset(fn: ResetHook): void {
    this.hooks.push(fn);
  }

  async reset(): Promise<void> {
    this.resets++;
    for (const fn of this.hooks) await fn();
  }
}
