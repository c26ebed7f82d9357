// Install sets: named, ordered sequences of update operations kept on the
// controller (at most 8). Invoking one appends a task per item to the queue.
// Referenced components stay Locked while the set exists. The recovery set
// (IsRecovery) holds only Critical firmware the controller flashes itself;
// the integrity scanner re-flashes from it (recoveryImageFor).
import { baseRefusal, refusals, vendorRefusal } from '../../messages/refusal.js';
import type { Clock } from '../../platform/clock.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { mergePatch } from '../../lib/json-merge.js';
import type { FlashSource } from '../firmware/flasher.js';
import { CONTROLLER_FLASHABLE } from '../firmware/package.js';
import { checkAgents, checkCommand, checkTargets, duplicateName, Violations, type CheckDeps, type TaskInput } from './checks.js';
import { idFromName } from './names.js';
import type { UpdateQueue } from './queue.js';
import { LIMITS, type InstallSetItem, type InstallSetRecord, type TaskRecord, type UpdateQueueUris } from './records.js';
import { buildTasks, type TaskFactoryDeps } from './tasks.js';
import { componentSource } from './updaters.js';
import { oemType } from '../../lib/oem-token.js';

export const INSTALL_SET_TYPE = oemType('ComponentInstallSet');
export const INVOKE_ACTION = `${INSTALL_SET_TYPE}.Invoke`;

export interface InstallSetInput {
  Name: string;
  Description?: string;
  IsRecovery?: boolean;
  Sequence: Partial<InstallSetItem>[];
  Targets?: string[];
}

export interface InvokeInput {
  StartAfter?: string | null;
  Expire?: string | null;
  MaintenanceWindow?: string | null;
  TPMOverride?: boolean;
  /** Empty the queue first (tasks in progress stay). */
  ClearTaskQueue?: boolean;
  /** The components the controller applies also replace their images in the recovery set. */
  UpdateRecoverySet?: boolean;
}

export class InstallSets {
  private readonly docs: DocumentCollection<InstallSetRecord>;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly d: TaskFactoryDeps & CheckDeps,
    private readonly queue: UpdateQueue,
    private readonly uris: UpdateQueueUris,
  ) {
    this.docs = store.collection('updatequeue.installset');
  }

  list(): InstallSetRecord[] {
    return this.docs.list();
  }

  get(id: string): InstallSetRecord | undefined {
    return this.docs.get(id);
  }

  recoverySet(): InstallSetRecord | undefined {
    return this.docs.list().find((s) => s.IsRecovery);
  }

  create(input: InstallSetInput): InstallSetRecord {
    if (this.docs.count() >= LIMITS.maxInstallSets) throw baseRefusal('CreateLimitReachedForResource');
    const now = this.clock.now();
    const rec = this.validate(
      {
        Id: '',
        Name: input.Name,
        Description: input.Description ?? '',
        IsRecovery: input.IsRecovery ?? false,
        Sequence: [],
        Targets: [],
        Created: now,
        Modified: now,
      },
      input,
    );
    this.store.transaction(() => {
      this.docs.put(rec.Id, rec);
      this.lockAll(rec);
    });
    return rec;
  }

  /** PATCH: Name, Description, IsRecovery, Targets, Sequence (DSP0266 array rules); a rename moves Id and URI. */
  update(id: string, patch: Record<string, unknown>): InstallSetRecord {
    const cur = this.docs.get(id);
    if (!cur) throw new Error(`no install set ${id}`);
    const merged = mergePatch(cur, patch);
    const next = this.validate({ ...cur, Modified: this.clock.now() }, merged, id);
    this.store.transaction(() => {
      this.unlockAll(cur);
      if (next.Id !== id) this.docs.rename(id, next.Id, next);
      else this.docs.put(id, next);
      this.lockAll(next);
    });
    return next;
  }

  delete(id: string): boolean {
    const cur = this.docs.get(id);
    if (!cur) return false;
    this.store.transaction(() => {
      this.docs.delete(id);
      this.unlockAll(cur);
    });
    return true;
  }

  /** Append one task per Sequence item (task Name = item Name); the queue is emptied first only when ClearTaskQueue asks. */
  invoke(id: string, params: InvokeInput): TaskRecord[] {
    const set = this.docs.get(id);
    if (!set) throw new Error(`no install set ${id}`);
    const cleared = params.ClearTaskQueue ? this.queue.list().filter((t) => t.State !== 'InProgress') : [];
    const inputs: TaskInput[] = set.Sequence.map((item) => ({
      Name: item.Name,
      UpdatableBy: item.UpdatableBy,
      Command: item.Command,
      Component: item.Filename,
      WaitTimeSeconds: item.WaitTimeSeconds,
      Targets: item.Command === 'ApplyUpdate' ? set.Targets : [],
      StartAfter: params.StartAfter,
      Expire: params.Expire,
      MaintenanceWindow: params.MaintenanceWindow,
      TPMOverride: params.TPMOverride,
      UpdateRecoverySet: params.UpdateRecoverySet,
    }));
    const tasks = buildTasks(this.d, inputs, {
      prefix: (i) => `Sequence/${i}/`,
      tpmAction: INVOKE_ACTION,
      replacing: new Set(cleared.map((t) => t.Id)),
    });
    this.store.transaction(() => {
      for (const t of cleared) this.queue.remove(t.Id);
      this.queue.append(tasks);
    });
    return tasks;
  }

  /**
   * UpdateRecoverySet: a component the controller applied replaces, in the recovery set, the items whose
   * component is for the same device; only a component the set may hold (Critical, controller-flashable) does.
   */
  adoptIntoRecoverySet(filename: string): boolean {
    const set = this.recoverySet();
    const c = this.d.repository.get(filename);
    if (!set || !c) return false;
    const v = new Violations();
    let changed = false;
    const Sequence = set.Sequence.map((item, i) => {
      const old = item.Filename ? this.d.repository.get(item.Filename) : undefined;
      if (!old || old.Filename === filename || !old.DeviceClasses.some((dc) => c.DeviceClasses.includes(dc))) return item;
      const next = { ...item, Filename: filename };
      this.checkRecoveryItem(v, next, `Sequence/${i}/`);
      changed = true;
      return next;
    });
    if (!changed || v.list.length) return false;
    const next = { ...set, Sequence, Modified: this.clock.now() };
    this.store.transaction(() => {
      this.unlockAll(set);
      this.docs.put(set.Id, next);
      this.lockAll(next);
    });
    return true;
  }

  /** The integrity scanner's recovery source: the recovery set's image for a device class. */
  async recoveryImageFor(deviceClass: string): Promise<FlashSource | undefined> {
    for (const item of this.recoverySet()?.Sequence ?? []) {
      const c = item.Filename ? this.d.repository.get(item.Filename) : undefined;
      if (c?.DeviceClasses.includes(deviceClass)) return componentSource(this.d.repository, c);
    }
    return undefined;
  }

  private validate(base: InstallSetRecord, input: InstallSetInput, except?: string): InstallSetRecord {
    const v = new Violations();
    const id = idFromName(input.Name);
    if (this.docs.list().some((s) => s.Id !== except && (s.Name === input.Name || s.Id === id))) {
      duplicateName(v, INSTALL_SET_TYPE, 'Name', input.Name);
    }
    const isRecovery = input.IsRecovery ?? false;
    const otherRecovery = this.recoverySet();
    if (isRecovery && otherRecovery && otherRecovery.Id !== except) {
      v.add(
        refusals([
          baseRefusal('PropertyValueIncorrect', 'IsRecovery', 'true'),
          baseRefusal('ResourceAlreadyExists', INSTALL_SET_TYPE, 'IsRecovery', 'true'),
        ]),
        'IsRecovery',
      );
    }
    const names = new Set<string>();
    const sequence: InstallSetItem[] = (input.Sequence ?? []).map((raw, i) => {
      const p = `Sequence/${i}/`;
      const item: InstallSetItem = {
        Name: raw.Name ?? '',
        UpdatableBy: raw.UpdatableBy ?? [],
        Command: raw.Command ?? 'ApplyUpdate',
        Filename: raw.Filename ?? null,
        WaitTimeSeconds: raw.WaitTimeSeconds ?? 0,
      };
      if (!raw.Name) v.add(baseRefusal('PropertyMissing', `${p}Name`), `${p}Name`);
      else if (names.has(item.Name)) duplicateName(v, 'InstallSetItem', `${p}Name`, item.Name);
      names.add(item.Name);
      if (!raw.UpdatableBy) v.add(baseRefusal('PropertyMissing', `${p}UpdatableBy`), `${p}UpdatableBy`);
      else checkAgents(v, item.UpdatableBy, item.Command, p);
      if (!raw.Command) v.add(baseRefusal('PropertyMissing', `${p}Command`), `${p}Command`);
      checkCommand(v, this.d, { Command: item.Command, component: item.Filename, WaitTimeSeconds: raw.WaitTimeSeconds }, 'Filename', p);
      if (isRecovery) this.checkRecoveryItem(v, item, p);
      return item;
    });
    if (sequence.length === 0) v.add(baseRefusal('PropertyMissing', 'Sequence'), 'Sequence');
    const targets = checkTargets(v, this.d, input.Targets);
    v.done();
    return {
      ...base,
      Id: id,
      Name: input.Name,
      Description: input.Description ?? base.Description,
      IsRecovery: isRecovery,
      Sequence: sequence,
      Targets: targets,
    };
  }

  /** The recovery set holds only Critical firmware the controller can flash directly. */
  private checkRecoveryItem(v: Violations, item: InstallSetItem, p: string): void {
    const refuse = (why: string) => v.add(vendorRefusal('InstallSetRecoveryItemNotAllowed', item.Name, why), p.slice(0, -1));
    if (item.Command !== 'ApplyUpdate') return refuse('only ApplyUpdate items are allowed');
    if (item.UpdatableBy.length !== 1 || item.UpdatableBy[0] !== 'Bmc') return refuse('the controller (UpdatableBy Bmc) must apply it');
    const c = item.Filename ? this.d.repository.get(item.Filename) : undefined;
    if (!c) return; // reported by checkCommand
    if (c.Criticality !== 'Critical') return refuse(`the component ${c.Filename} has Criticality ${c.Criticality}, not Critical`);
    const flashable = CONTROLLER_FLASHABLE as readonly string[];
    if (c.ComponentType !== 'A' || !c.DeviceClasses.every((dc) => flashable.includes(dc))) {
      return refuse(
        `the component ${c.Filename} (Type ${c.ComponentType}, ${c.DeviceClasses.join(', ')}) is not firmware the controller flashes directly`,
      );
    }
  }

  private lockAll(s: InstallSetRecord): void {
    for (const item of s.Sequence) if (item.Filename) this.d.repository.lock(item.Filename, this.uris.installSet(s.Id));
  }

  private unlockAll(s: InstallSetRecord): void {
    for (const item of s.Sequence) if (item.Filename) this.d.repository.unlock(item.Filename, this.uris.installSet(s.Id));
  }
}
