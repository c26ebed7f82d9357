// The three updaters that work the queue (docs/update-queue.md):
//  - Bmc: the controller itself, at any time; UpdateQueue.kick() starts it
//    on every queue change and clock tick;
//  - Uefi: the system firmware, during POST of every boot (POST waits for it);
//  - RuntimeAgent: a simulated host-side update manager, installed or absent,
//    that polls the queue every RUNTIME_POLL_MS while the OS runs.
// Applying a component goes through the firmware flasher, so inventory
// versions really change.
import { vendorRefusal } from '../../messages/refusal.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import type { FlashResult, FlashSource, Flasher } from '../firmware/flasher.js';
import type { Inventory } from '../firmware/inventory.js';
import { inspectPackage } from '../firmware/package.js';
import type { ComponentRecord, ComponentRepository } from '../firmware/repository.js';
import type { UpdateOperation } from '../firmware/update-state.js';
import type { Applied, TaskApplier, UpdateQueue } from './queue.js';
import type { Agent, TaskRecord } from './records.js';

export const RUNTIME_POLL_MS = 60_000;

/**
 * Test hook (docs/update-queue.md): a component whose ExecutionParameters
 * contain this token fails to install, as an installer reporting an error would.
 */
export const FAULT_TOKEN = 'SIMULATE_FAILURE';

export async function componentSource(repository: ComponentRepository, c: ComponentRecord): Promise<FlashSource> {
  const path = repository.pathOf(c);
  return { path, filename: c.Filename, info: await inspectPackage(path, c.Filename) };
}

/** What each updater can write, and how it writes it. */
export class FirmwareApplier implements TaskApplier {
  constructor(
    private readonly repository: ComponentRepository,
    private readonly flasher: Flasher,
    private readonly inventory: Pick<Inventory, 'uri'>,
  ) {}

  async apply(t: TaskRecord, agent: Agent, op?: UpdateOperation): Promise<Applied> {
    const c = t.Component ? this.repository.get(t.Component) : undefined;
    if (!c) throw vendorRefusal('ComponentNotFound', t.Component ?? '');
    if (c.ExecutionParameters.includes(FAULT_TOKEN)) {
      throw vendorRefusal('UpdateFailed', `the installer of ${c.Filename} exited with an error (${FAULT_TOKEN} in ExecutionParameters)`);
    }
    const src = await componentSource(this.repository, c);
    const info = src.info;
    const targets = t.Targets.length ? t.Targets : undefined;
    const results: FlashResult[] = [];
    switch (agent) {
      case 'Bmc':
        // The controller flashes only what it can write itself (Type A).
        if (info.type !== 'A') throw vendorRefusal('ComponentNotFlashable', info.name, info.type);
        results.push(await this.flasher.apply(src, { targets, op }));
        break;
      case 'Uefi': {
        if (info.type === 'C' || info.type === 'D') {
          throw vendorRefusal('ImageNotApplicable', info.name, 'UEFI (software components are installed from the operating system)');
        }
        const items = this.flasher.check(info, targets);
        const bmc = items.find((i) => i.item.DeviceClass === 'BMC');
        if (bmc) throw vendorRefusal('ImageNotApplicable', info.name, `${this.inventory.uri(bmc.item)} from UEFI`);
        // UEFI writes during POST: the new image is active for this boot.
        for (const { item } of items) results.push(await this.flasher.repair(item, src));
        break;
      }
      case 'RuntimeAgent':
        if (info.type === 'A' || info.type === 'B') {
          results.push(await this.flasher.apply(src, { targets, op }));
        } else {
          // Software (Type C/D) is installed by the agent in the running OS.
          for (const { item } of this.flasher.applicableItems(info, targets)) results.push(await this.flasher.repair(item, src));
        }
        break;
    }
    const outcomes = results.flatMap((r) => r.outcomes);
    return {
      summary: outcomes.map((o) => `${o.name} ${o.from} -> ${o.to} (${o.activation})`).join('; ') || 'nothing to write',
      messages: results.flatMap((r) => r.messages),
    };
  }
}

/** The Uefi updater: runs the head tasks it may run, in order, during POST. */
export function attachUefiUpdater(host: HostLifecycle, queue: UpdateQueue): void {
  host.onPost('UefiUpdates', async () => {
    // A reboot ends whatever the runtime agent was doing in the OS.
    queue.interruptRun('RuntimeAgent', 'the server was reset while the runtime agent was applying it');
    for (;;) {
      const run = queue.claim('Uefi');
      if (!run) return;
      await queue.execute(run);
    }
  });
}

interface AgentState {
  installed: boolean;
  lastPoll: number | null;
}

/** The simulated host-side update manager (installed or absent; persisted). */
export class RuntimeAgent {
  private readonly setting;
  private readonly timer: TimerHandle;
  private busy = false;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly host: HostLifecycle,
    private readonly queue: UpdateQueue,
    initial?: 'installed' | 'absent',
  ) {
    this.setting = store.setting<AgentState>('updatequeue.runtimeAgent', { installed: false, lastPoll: null });
    if (initial) this.setting.set({ ...this.setting.get(), installed: initial === 'installed' });
    this.timer = clock.setInterval(RUNTIME_POLL_MS, () => this.poll());
    host.onOsRunning(() => this.poll());
    queue.runtimeAgent = () => ({ installed: this.state().installed, polling: this.state().installed && host.osRunning() });
    // The OS may already run when the service starts.
    this.poll();
  }

  state(): AgentState {
    return this.setting.get();
  }

  /** Whether the agent polls (it also needs the OS running). */
  active(): boolean {
    return this.state().installed && this.host.osRunning();
  }

  setInstalled(installed: boolean): void {
    this.setting.set({ ...this.state(), installed });
    if (!installed) this.queue.interruptRun('RuntimeAgent', 'the runtime agent was removed');
    this.poll();
  }

  /** Look at the queue now; runs the head tasks it may run, one after the other. */
  poll(): void {
    if (this.busy || !this.active()) return;
    this.busy = true;
    this.setting.set({ ...this.state(), lastPoll: this.clock.now() });
    void (async () => {
      try {
        while (this.active()) {
          const run = this.queue.claim('RuntimeAgent');
          if (!run) break;
          await this.queue.execute(run);
        }
      } finally {
        this.busy = false;
      }
    })();
  }

  stop(): void {
    this.timer.cancel();
  }
}
