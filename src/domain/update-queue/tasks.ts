// Turns client input into queued tasks, enforcing the task creation
// rules. Used by POST on the queue and by VendorComponentInstallSet.Invoke.
import { baseRefusal } from '../../messages/refusal.js';
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
  /** Ids of queued tasks that go as these come (Invoke's ClearTaskQueue): their names are free. */
  replacing?: ReadonlySet<string>;
}

/** Validate every input (all violations at once) and build the records; nothing is stored. */
export function buildTasks(d: TaskFactoryDeps, inputs: readonly TaskInput[], opts: BuildOptions = {}): TaskRecord[] {
  const v = new Violations();
  const now = d.clock.now();
  const staying = d.queue.list().filter((t) => !opts.replacing?.has(t.Id));
  const taken = new Set(staying.map((t) => t.Name));
  const takenIds = new Set(staying.map((t) => t.Id));
  const out: TaskRecord[] = [];
  inputs.forEach((input, i) => {
    const prefix = opts.prefix?.(i) ?? '';
    const id = idFromName(input.Name);
    if (taken.has(input.Name) || takenIds.has(id)) duplicateName(v, TASK_TYPE, `${prefix}Name`, input.Name);
    taken.add(input.Name);
    takenIds.add(id);
    checkAgents(v, input.UpdatableBy, input.Command, prefix);
    const component = componentOf(v, input, prefix);
    const filename = checkCommand(
      v,
      d,
      { Command: input.Command, component, WaitTimeSeconds: input.WaitTimeSeconds },
      prefix || (input.Component == null && input.Filename != null) ? 'Filename' : 'Component',
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
      Component: input.Command === 'ApplyUpdate' ? (filename ?? component ?? null) : null,
      TPMOverride: input.TPMOverride ?? false,
      UpdateRecoverySet: input.UpdateRecoverySet ?? false,
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

/** The component a task names: SPEC's Component or iLO's Filename; both given, they name the same one. */
function componentOf(v: Violations, input: TaskInput, prefix: string): string | null | undefined {
  const { Component, Filename } = input;
  if (Component != null && Filename != null && Component !== Filename) {
    v.add(baseRefusal('PropertyValueConflict', `${prefix}Filename`, `${prefix}Component`), `${prefix}Filename`);
  }
  return Component ?? Filename;
}
