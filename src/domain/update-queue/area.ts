// The update queue area as the update service's routes see it: its parts, and
// the one operation that spans them (a new task, checked against the windows).
import type { TaskInput } from './checks.js';
import type { InstallSets } from './install-sets.js';
import type { UpdateQueue } from './queue.js';
import type { TaskRecord } from './records.js';
import { buildTasks, type TaskFactoryDeps } from './tasks.js';
import type { RuntimeAgent } from './updaters.js';
import type { MaintenanceWindows } from './windows.js';

/**
 * The update queue area: the queue, its updaters, maintenance windows and install sets, on top of
 * the firmware domain. The composition root (src/compose/firmware.ts) builds the parts and wires them.
 */
export class UpdateQueueArea {
  constructor(
    readonly queue: UpdateQueue,
    readonly windows: MaintenanceWindows,
    readonly installSets: InstallSets,
    readonly runtimeAgent: RuntimeAgent,
    /** What a new task is checked against and built from. */
    private readonly factory: TaskFactoryDeps,
  ) {}

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
