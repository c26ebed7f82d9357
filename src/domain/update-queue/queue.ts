// The update task queue and its state machine (docs/update-queue.md), on the
// controller clock. The queue is strictly ordered: an updater looks at the
// first task that is neither Complete nor Canceled (the head) and
//   - starts it when it is Pending, lists the updater, and StartAfter has come;
//   - stops otherwise (InProgress, Expired, Exception, another updater's task,
//     a window not open yet).
// Pending tasks whose Expire has come become Expired (a clock timer watches,
// not only the updaters). Complete tasks go 24 h after they finished; other
// states stay until DELETEd. Only the head can run, so at most one task is
// InProgress at a time.
import type { Logger } from 'pino';
import { taskEvent } from '../../messages/event-messages.js';
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { Refusal, vendorRefusal } from '../../messages/refusal.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import { toIso } from '../../platform/clock.js';
import type { ControllerLifecycle, HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import type { EventBus } from '../events/bus.js';
import type { Logs } from '../logs/logs.js';
import type { UpdateOperation, UpdateStatus } from '../firmware/update-state.js';
import { LIMITS, type Agent, type TaskRecord, type TaskState, type UpdateQueueUris } from './records.js';

/** What applying one task produced: the summary and messages of its completion. */
export interface Applied {
  summary: string;
  messages: ExtendedInfo[];
}

/** Writes a task's component with the given updater (updaters.ts FirmwareApplier). */
export interface TaskApplier {
  apply(t: TaskRecord, agent: Agent, op?: UpdateOperation): Promise<Applied>;
}

/** How long applying a component takes, per updater (controller clock). */
export const APPLY_MS: Record<Agent, number> = { Bmc: 30_000, Uefi: 20_000, RuntimeAgent: 60_000 };

/** Why the queue is not moving (visible as Oem/Vendor/QueueStatus). */
export type QueueReason =
  | 'Empty'
  | 'Running'
  | 'Starting'
  | 'ExceptionAtHead'
  | 'ExpiredAtHead'
  | 'WindowNotOpen'
  | 'WaitingForReboot'
  | 'NoRuntimeAgent'
  | 'WaitingForOperatingSystem'
  | 'WaitingForRuntimeAgentPoll'
  | 'UpdateServiceBusy';

export interface QueueStatus {
  State: 'Idle' | 'Running' | 'Waiting' | 'Stalled';
  Reason: QueueReason;
  Head: TaskRecord | undefined;
}

const STALLS: ReadonlySet<QueueReason> = new Set([
  'ExceptionAtHead',
  'ExpiredAtHead',
  'WindowNotOpen',
  'WaitingForReboot',
  'NoRuntimeAgent',
  'WaitingForOperatingSystem',
]);
const PASSED: ReadonlySet<TaskState> = new Set(['Complete', 'Canceled']);

interface Run {
  id: string;
  agent: Agent;
  op?: UpdateOperation;
  aborted: boolean;
  /** The image is being written: no longer abortable. */
  flashing: boolean;
  wake?: () => void;
}

export interface QueueDeps {
  store: DocumentStore;
  clock: Clock;
  host: HostLifecycle;
  controller: ControllerLifecycle;
  events: EventBus;
  logs: Logs;
  status: UpdateStatus;
  log: Logger;
  uris: UpdateQueueUris;
  /** Component locks: a task holds its component while it exists. */
  lock(filename: string, holder: string): void;
  unlock(filename: string, holder: string): void;
  /** A ResetServer task: the controller (Bmc) or the host's update agent (RuntimeAgent, an OS restart) resets the server. */
  resetServer(by: Agent): void;
}

export class UpdateQueue {
  private readonly docs: DocumentCollection<TaskRecord>;
  private timer?: TimerHandle;
  private run?: Run;
  private stepping = false;
  private again = false;
  /** Set by the composition (updaters.ts): how an updater applies a component. */
  applier?: TaskApplier;
  /** Set by the composition (install-sets.ts): a task's UpdateRecoverySet puts what it applied into the recovery set. */
  recoverySet?: { adoptIntoRecoverySet(filename: string): boolean };
  /** Whether the host-side agent could poll now (for QueueStatus). */
  runtimeAgent: () => { installed: boolean; polling: boolean } = () => ({ installed: false, polling: false });

  constructor(private readonly d: QueueDeps) {
    this.docs = d.store.collection('updatequeue.task');
    // Whatever ran when the service stopped did not finish (docs/update-queue.md).
    for (const t of this.docs.list()) if (t.State === 'InProgress') this.interrupt(t, vendorMessage('UpdateTaskInterrupted', t.Name));
    d.controller.onReset(() => this.onControllerReset());
    // A finished upload or scan may unblock an ApplyUpdate at the head.
    d.status.onChange(() => this.kick());
  }

  list(): TaskRecord[] {
    return this.docs.list();
  }

  get(id: string): TaskRecord | undefined {
    return this.docs.get(id);
  }

  /** The task as stored, shared and frozen (the same object until it changes). */
  peek(id: string): Readonly<TaskRecord> | undefined {
    return this.docs.peek(id);
  }

  findByName(name: string): TaskRecord | undefined {
    return this.docs.list().find((t) => t.Name === name);
  }

  /** Append validated tasks at the end of the queue, Pending, all or none. */
  append(tasks: TaskRecord[]): void {
    this.d.store.transaction(() => {
      for (const t of tasks) {
        this.docs.put(t.Id, t);
        if (t.Component) this.d.lock(t.Component, this.d.uris.updateQueueTask(t.Id));
      }
    });
    this.kick();
  }

  /** DELETE: removes a task in any state; an InProgress one is abandoned. */
  remove(id: string): boolean {
    const t = this.docs.get(id);
    if (!t) return false;
    if (this.run?.id === id) this.abandon(this.run);
    this.d.store.transaction(() => {
      this.docs.delete(id);
      if (t.Component) this.d.unlock(t.Component, this.d.uris.updateQueueTask(id));
    });
    this.d.events.publish(taskEvent('TaskRemoved', id), this.d.uris.updateQueueTask(id), 'StatusChange');
    this.kick();
    return true;
  }

  /** PATCH {State: "Canceled"}: only a Pending task; updaters pass over it. */
  cancel(id: string): void {
    const t = this.docs.get(id);
    if (!t) return;
    if (t.State !== 'Pending') throw vendorRefusal('UpdateTaskNotCancelable', t.Name, t.State);
    this.save({ ...t, State: 'Canceled', FinishedAt: this.d.clock.now(), Result: [taskEvent('TaskCancelled', id)] });
    this.d.events.publish(taskEvent('TaskCancelled', id), this.d.uris.updateQueueTask(id), 'StatusChange');
    this.kick();
  }

  /** Tasks that refer to a window follow its new Id and times (Pending ones are rescheduled). */
  rescheduleWindow(oldId: string, win: { Id: string; StartAfter: number | null; Expire: number | null }): void {
    for (const t of this.docs.list()) {
      if (t.MaintenanceWindow !== oldId) continue;
      const times = t.State === 'Pending' ? { StartAfter: win.StartAfter, Expire: win.Expire } : {};
      this.save({ ...t, ...times, MaintenanceWindow: win.Id });
    }
    this.kick();
  }

  /** A deleted window: referring tasks keep the times they had and lose the reference. */
  detachWindow(id: string): void {
    for (const t of this.docs.list()) if (t.MaintenanceWindow === id) this.save({ ...t, MaintenanceWindow: null });
  }

  windowInUse(id: string): boolean {
    return this.docs.list().some((t) => t.MaintenanceWindow === id);
  }

  /** The first task an updater would look at. */
  head(): TaskRecord | undefined {
    return this.docs.list().find((t) => !PASSED.has(t.State));
  }

  status(): QueueStatus {
    const head = this.head();
    const reason = this.reasonAt(head);
    const State = reason === 'Empty' ? 'Idle' : reason === 'Running' ? 'Running' : STALLS.has(reason) ? 'Stalled' : 'Waiting';
    return { State, Reason: reason, Head: head };
  }

  private reasonAt(head: TaskRecord | undefined): QueueReason {
    if (!head) return 'Empty';
    if (head.State === 'InProgress') return 'Running';
    if (head.State === 'Exception') return 'ExceptionAtHead';
    if (head.State === 'Expired') return 'ExpiredAtHead';
    if (head.StartAfter !== null && this.d.clock.now() < head.StartAfter) return 'WindowNotOpen';
    if (head.Command === 'ApplyUpdate' && this.d.status.busyReason()) return 'UpdateServiceBusy';
    const by = head.UpdatableBy;
    if (by.includes('Bmc')) return 'Starting';
    const agent = this.runtimeAgent();
    if (by.includes('RuntimeAgent') && agent.installed && agent.polling) return 'WaitingForRuntimeAgentPoll';
    if (by.includes('Uefi')) return 'WaitingForReboot';
    return agent.installed ? 'WaitingForOperatingSystem' : 'NoRuntimeAgent';
  }

  /**
   * Re-evaluate: expire and purge by time, let the Bmc updater start its task,
   * arm the timer for the next instant something is due. Never re-entered.
   */
  kick(): void {
    if (this.stepping) {
      this.again = true;
      return;
    }
    this.stepping = true;
    try {
      do {
        this.again = false;
        this.step();
      } while (this.again);
    } finally {
      this.stepping = false;
    }
  }

  /**
   * An updater takes the head task when it may (docs/update-queue.md), or
   * gets nothing and stops. The caller runs it with `execute`.
   */
  claim(agent: Agent): Run | undefined {
    if (this.run) return undefined;
    this.expireDue();
    const head = this.head();
    if (!head || head.State !== 'Pending' || !head.UpdatableBy.includes(agent)) return undefined;
    if (head.StartAfter !== null && this.d.clock.now() < head.StartAfter) return undefined;
    if (head.Command === 'ApplyUpdate' && this.d.status.busyReason()) return undefined;
    const run: Run = { id: head.Id, agent, aborted: false, flashing: false };
    this.run = run;
    this.save({ ...head, State: 'InProgress', RunBy: agent, StartedAt: this.d.clock.now() });
    this.d.events.publish(taskEvent('TaskStarted', head.Id), this.d.uris.updateQueueTask(head.Id), 'StatusChange');
    // Firmware being written makes the update service Busy (docs/firmware-packages.md).
    if (head.Command === 'ApplyUpdate') run.op = this.d.status.begin('Updating');
    return run;
  }

  /** Carry a claimed task to Complete or Exception. */
  async execute(run: Run): Promise<void> {
    const t = this.docs.get(run.id);
    let afterwards: (() => unknown) | undefined;
    try {
      if (!t) return;
      let result: ExtendedInfo[];
      if (t.Command === 'Wait') {
        await this.sleep(run, t.WaitTimeSeconds * 1000);
        if (run.aborted) return;
        result = [vendorMessage('UpdateTaskCompleted', t.Name, `waited ${t.WaitTimeSeconds} seconds`)];
      } else if (t.Command === 'ResetServer' || t.Command === 'ResetBmc') {
        // Complete first: the reset it asks for ends the run (a server reset stops the agent, a controller reset the controller).
        const what = t.Command === 'ResetServer' ? 'the server' : 'the controller';
        result = [vendorMessage('UpdateTaskCompleted', t.Name, `${what} is being reset`)];
        afterwards = t.Command === 'ResetServer' ? () => this.d.resetServer(run.agent) : () => this.d.controller.reset();
      } else {
        await this.sleep(run, APPLY_MS[run.agent]);
        if (run.aborted) return;
        if (!this.applier) throw new Error('no update applier configured');
        run.flashing = true;
        const applied = await this.applier.apply(t, run.agent, run.op);
        result = [vendorMessage('UpdateTaskCompleted', t.Name, applied.summary), ...applied.messages];
        if (t.UpdateRecoverySet && t.Component) this.recoverySet?.adoptIntoRecoverySet(t.Component);
      }
      run.op?.complete(result[0]);
      if (!run.aborted) this.finish(run.id, 'Complete', result);
    } catch (e) {
      run.op?.fail(e);
      if (!run.aborted && t) {
        const infos = e instanceof Refusal ? e.infos : [];
        const why = e instanceof Refusal ? (e.infos[0]?.Message ?? e.message) : String((e as Error)?.message ?? e);
        if (!(e instanceof Refusal)) this.d.log.error({ err: e, task: t.Name }, 'update task failed unexpectedly');
        this.finish(run.id, 'Exception', [vendorMessage('UpdateTaskFailed', t.Name, why), ...infos]);
      }
    } finally {
      if (run.op && !run.op.done)
        run.op.fail(vendorRefusal('UpdateTaskFailed', t?.Name ?? run.id, 'the task was deleted while in progress'));
      if (this.run === run) this.run = undefined;
      this.kick();
    }
    if (afterwards && !run.aborted) await this.resetAfterwards(t, afterwards);
  }

  /** The reset a Reset task asked for, once it is Complete; a reset that does not apply now is logged on the task's name. */
  private async resetAfterwards(t: TaskRecord | undefined, reset: () => unknown): Promise<void> {
    try {
      await reset();
    } catch (e) {
      this.d.log.warn({ err: e, task: t?.Name }, 'the reset an update task asked for did not happen');
    }
  }

  /** The task being run, if any. */
  running(): Readonly<Run> | undefined {
    return this.run;
  }

  /** A host reset or OS stop ends a host-side agent's work (not a write in progress). */
  interruptRun(agent: Agent, why: string): void {
    const run = this.run;
    if (!run || run.agent !== agent || run.flashing) return;
    const t = this.docs.get(run.id);
    this.abandon(run);
    if (t) this.interrupt(t, vendorMessage('UpdateTaskFailed', t.Name, why));
    this.kick();
  }

  /** Stop timers (service shutdown); state stays stored. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.run) this.abandon(this.run);
  }

  // -- internals ----------------------------------------------------------------

  private step(): void {
    this.expireDue();
    this.purgeComplete();
    const run = this.claim('Bmc');
    if (run) void this.execute(run);
    this.arm();
  }

  private expireDue(): void {
    const now = this.d.clock.now();
    for (const t of this.docs.list()) {
      if (t.State !== 'Pending' || t.Expire === null || now < t.Expire) continue;
      const m = vendorMessage('UpdateTaskExpired', t.Name, toIso(t.Expire));
      this.save({ ...t, State: 'Expired', FinishedAt: now, Result: [m] });
      this.d.logs.write('IML', m, this.d.uris.updateQueueTask(t.Id));
      this.d.events.publish(m, this.d.uris.updateQueueTask(t.Id), 'StatusChange');
    }
  }

  private purgeComplete(): void {
    const now = this.d.clock.now();
    for (const t of this.docs.list()) {
      if (t.State === 'Complete' && t.FinishedAt !== null && now >= t.FinishedAt + LIMITS.completeRetentionMs) this.remove(t.Id);
    }
  }

  /** One timer at the next instant a Pending task opens or expires, or a Complete one is due for removal. */
  private arm(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const now = this.d.clock.now();
    let next = Infinity;
    for (const t of this.docs.list()) {
      if (t.State === 'Pending') {
        if (t.StartAfter !== null && t.StartAfter > now) next = Math.min(next, t.StartAfter);
        if (t.Expire !== null && t.Expire > now) next = Math.min(next, t.Expire);
      } else if (t.State === 'Complete' && t.FinishedAt !== null) {
        next = Math.min(next, t.FinishedAt + LIMITS.completeRetentionMs);
      }
    }
    if (next !== Infinity) this.timer = this.d.clock.setTimer(next - now, () => this.kick());
  }

  private finish(id: string, state: 'Complete' | 'Exception', result: ExtendedInfo[]): void {
    const t = this.docs.get(id);
    if (!t) return;
    this.save({ ...t, State: state, FinishedAt: this.d.clock.now(), Result: result });
    const uri = this.d.uris.updateQueueTask(id);
    if (state === 'Complete') {
      this.d.events.publish(taskEvent('TaskCompletedOK', id), uri, 'StatusChange');
    } else {
      this.d.logs.write('IML', result[0] as ExtendedInfo, uri);
      this.d.events.publish(taskEvent('TaskAborted', id), uri, 'StatusChange');
    }
  }

  private interrupt(t: TaskRecord, m: ExtendedInfo): void {
    this.save({ ...t, State: 'Exception', FinishedAt: this.d.clock.now(), Result: [m] });
    this.d.logs.write('IML', m, this.d.uris.updateQueueTask(t.Id));
    this.d.events.publish(taskEvent('TaskAborted', t.Id), this.d.uris.updateQueueTask(t.Id), 'StatusChange');
  }

  private abandon(run: Run): void {
    run.aborted = true;
    run.wake?.();
    if (this.run === run) this.run = undefined;
  }

  /** A controller reset interrupts what the controller itself runs, except the write that caused it. */
  private onControllerReset(): void {
    const run = this.run;
    if (run && run.agent === 'Bmc' && !run.flashing) {
      const t = this.docs.get(run.id);
      this.abandon(run);
      if (t) this.interrupt(t, vendorMessage('UpdateTaskInterrupted', t.Name));
    }
    this.kick();
  }

  private sleep(run: Run, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const h = this.d.clock.setTimer(ms, resolve);
      run.wake = () => {
        h.cancel();
        resolve();
      };
    });
  }

  private save(t: TaskRecord): void {
    this.docs.put(t.Id, { ...t, Modified: this.d.clock.now() });
  }
}
