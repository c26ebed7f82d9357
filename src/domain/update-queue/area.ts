// The update queue area assembled: the queue, its three updaters, maintenance
// windows and install sets, on top of the firmware domain (repository,
// inventory, flasher, update status) of the update service.
import type { Flasher } from '../firmware/flasher.js';
import type { IntegrityScanner } from '../firmware/integrity.js';
import type { Inventory } from '../firmware/inventory.js';
import type { ComponentRepository } from '../firmware/repository.js';
import type { TaskInput } from './checks.js';
import { InstallSets } from './install-sets.js';
import { UpdateQueue, type QueueDeps } from './queue.js';
import type { TaskRecord } from './records.js';
import { buildTasks, type TaskFactoryDeps } from './tasks.js';
import { FirmwareApplier, RuntimeAgent, attachUefiUpdater } from './updaters.js';
import { MaintenanceWindows } from './windows.js';

/** What the queue needs, less the locks the area provides from the repository. */
export interface UpdateQueueAreaDeps extends Omit<QueueDeps, 'lock' | 'unlock'> {
  repository: ComponentRepository;
  inventory: Inventory;
  flasher: Flasher;
  /** Given, its recovery source becomes the recovery install set. */
  integrity?: IntegrityScanner;
  /** --runtime-agent: sets the agent's state at start; otherwise the stored state stays. */
  runtimeAgent?: 'installed' | 'absent';
}

export class UpdateQueueArea {
  readonly queue: UpdateQueue;
  readonly windows: MaintenanceWindows;
  readonly installSets: InstallSets;
  readonly runtimeAgent: RuntimeAgent;
  private readonly factory: TaskFactoryDeps;

  constructor(d: UpdateQueueAreaDeps) {
    this.queue = new UpdateQueue({
      ...d,
      lock: (f, holder) => d.repository.lock(f, holder),
      unlock: (f, holder) => d.repository.unlock(f, holder),
    });
    this.queue.applier = new FirmwareApplier(d.repository, d.flasher, d.inventory);
    this.windows = new MaintenanceWindows(d.store, d.clock, this.queue);
    this.factory = {
      clock: d.clock,
      queue: this.queue,
      repository: d.repository,
      inventory: d.inventory,
      tpm: () => d.host.tpm(),
      window: (id) => this.windows.get(id),
    };
    this.installSets = new InstallSets(d.store, d.clock, this.factory, this.queue, d.uris);
    attachUefiUpdater(d.host, this.queue);
    this.runtimeAgent = new RuntimeAgent(d.store, d.clock, d.host, this.queue, d.runtimeAgent);
    if (d.integrity) d.integrity.recoveryImageFor = (deviceClass) => this.installSets.recoveryImageFor(deviceClass);
    // The Bmc updater picks up whatever is due after a restart.
    this.queue.kick();
  }

  /** POST on the queue: validate, then append one Pending task at the end. */
  createTask(input: TaskInput): TaskRecord {
    const [task] = buildTasks(this.factory, [input]);
    this.queue.append([task as TaskRecord]);
    return this.queue.get((task as TaskRecord).Id) as TaskRecord;
  }

  stop(): void {
    this.runtimeAgent.stop();
    this.queue.stop();
  }
}
