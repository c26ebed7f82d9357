// Turns client input into queued tasks, enforcing the task creation
// rules. Used by POST on the queue and by VendorComponentInstallSet.Invoke.
import type { Clock } from '../../platform/clock.js';
import {
  checkAgents,
  checkCommand,
  checkSchedule,
  checkTargets,
  checkTpm,
  duplicateName,
  Violations,
  type CheckDeps,
  type TaskInput,
} from './checks.js';
import { idFromName } from './names.js';
import type { UpdateQueue } from './queue.js';
import type { TaskRecord, WindowRecord } from './records.js';
import { oemType } from '../../lib/oem-token.js';

export const TASK_TYPE = oemType('UpdateTask');

export interface TaskFactoryDeps extends CheckDeps {
  clock: Clock;
  queue: UpdateQueue;
  window(id: string): WindowRecord | undefined;
}

export interface BuildOptions {
  /** Property path of each input in messages ("" for a POST, "Sequence/<i>/" for an install set). */
  prefix?: (i: number) => string;
  /** Invoke: TPMOverride is an action parameter. */
  tpmAction?: string;
}

/** Validate every input (all violations at once) and build the records; nothing is stored. */
export function buildTasks(d: TaskFactoryDeps, inputs: readonly TaskInput[], opts: BuildOptions = {}): TaskRecord[] {
  const v = new Violations();
  const now = d.clock.now();
  const taken = new Set(d.queue.list().map((t) => t.Name));
  const takenIds = new Set(d.queue.list().map((t) => t.Id));
  const out: TaskRecord[] = [];
  inputs.forEach((input, i) => {
    const prefix = opts.prefix?.(i) ?? '';
    const id = idFromName(input.Name);
    if (taken.has(input.Name) || takenIds.has(id)) duplicateName(v, TASK_TYPE, `${prefix}Name`, input.Name);
    taken.add(input.Name);
    takenIds.add(id);
    checkAgents(v, input.UpdatableBy, input.Command, prefix);
    const filename = checkCommand(
      v,
      d,
      { Command: input.Command, component: input.Component, WaitTimeSeconds: input.WaitTimeSeconds },
      prefix ? 'Filename' : 'Component',
      prefix,
    );
    const targets = checkTargets(v, d, input.Targets, prefix);
    if (!opts.tpmAction) checkTpm(v, d, input.Command, input.TPMOverride);
    const schedule = checkSchedule(v, input, d.window);
    out.push({
      Id: id,
      Name: input.Name,
      UpdatableBy: [...input.UpdatableBy],
      Command: input.Command,
      // Stored by its Filename, the repository's key, whether the client gave that or the Name.
      Component: input.Command === 'ApplyUpdate' ? (filename ?? input.Component ?? null) : null,
      TPMOverride: input.TPMOverride ?? false,
      ...schedule,
      WaitTimeSeconds: input.WaitTimeSeconds ?? 0,
      Targets: targets,
      State: 'Pending',
      Created: now,
      Modified: now,
      StartedAt: null,
      FinishedAt: null,
      RunBy: null,
      Result: [],
    });
  });
  // Invoke takes one TPMOverride for the whole set.
  const apply = inputs.find((x) => x.Command === 'ApplyUpdate');
  if (opts.tpmAction && apply) checkTpm(v, d, 'ApplyUpdate', apply.TPMOverride, 'TPMOverride', opts.tpmAction);
  v.done();
  return out;
}
