// DMTF tasks for long operations answered 202 (DSP0266 asynchronous
// operations): state, progress, messages, and the outcome the task monitor
// answers with once the task has finished. Persisted; a task running when
// the controller restarted ends in Exception, one Pending (waiting for a reset
// of its target) still waits.
import { randomBytes } from 'node:crypto';
import { taskEvent } from '../messages/event-messages.js';
import { vendorMessage, type ExtendedInfo } from '../messages/errors.js';
import { Refusal } from '../messages/refusal.js';
import type { Clock } from '../platform/clock.js';
import type { DocumentCollection, DocumentStore } from '../store/documents.js';
import type { EventBus } from './events/bus.js';

/** Finished tasks kept; the oldest finished ones go first. */
export const MAX_TASKS = 32;

export type TaskState = 'New' | 'Running' | 'Pending' | 'Completed' | 'Exception' | 'Killed' | 'Cancelled';
export type TaskStatus = 'OK' | 'Warning' | 'Critical';

export interface TaskRecord {
  Id: string;
  Name: string;
  TaskState: TaskState;
  TaskStatus: TaskStatus;
  PercentComplete: number;
  StartTime: number;
  EndTime?: number;
  Messages: ExtendedInfo[];
  /** The request that started the task. */
  Payload: { HttpOperation: string; TargetUri: string; JsonBody: string };
  /** How it ended, for the task monitor to answer. */
  Result?: TaskResult;
}

/** A finished task's outcome: its messages, which say why when it failed. */
export interface TaskResult {
  failed: boolean;
  messages: ExtendedInfo[];
}

export interface TaskHandle {
  readonly id: string;
  progress(percent: number, message?: ExtendedInfo): void;
  complete(messages?: ExtendedInfo[]): void;
  fail(e: unknown): void;
  /** Halted on request before it finished (e.g. a pending change withdrawn): Cancelled. */
  cancel(): void;
  /** Its work is done until a condition outside it comes true (its target's reset): Pending, with why. */
  pending(message: ExtendedInfo): void;
}

const FINISHED: ReadonlySet<TaskState> = new Set(['Completed', 'Exception', 'Killed', 'Cancelled']);

export class Tasks {
  private readonly docs: DocumentCollection<TaskRecord>;
  private readonly waiters = new Map<string, Promise<void>>();

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly events: EventBus,
    /** Where a task is, which its events name (lib/resource-uris.ts, handed in). */
    private readonly uris: { task(id: string): string },
  ) {
    this.docs = store.collection('task');
    for (const t of this.docs.list()) {
      if (FINISHED.has(t.TaskState) || t.TaskState === 'Pending') continue;
      const m = vendorMessage('TaskInterrupted', t.Id);
      this.docs.put(t.Id, {
        ...t,
        TaskState: 'Exception',
        TaskStatus: 'Critical',
        EndTime: clock.now(),
        Messages: [...t.Messages, m],
        Result: { failed: true, messages: [m] },
      });
    }
  }

  list(): TaskRecord[] {
    return this.docs.list();
  }

  get(id: string): TaskRecord | undefined {
    return this.docs.get(id);
  }

  isFinished(t: TaskRecord): boolean {
    return FINISHED.has(t.TaskState);
  }

  delete(id: string): boolean {
    return this.docs.delete(id);
  }

  /** The handle of a task that has not finished, to finish it later (one Pending since before a restart too). */
  handleOf(id: string): TaskHandle | undefined {
    const t = this.docs.get(id);
    return t && !FINISHED.has(t.TaskState) ? this.handle(id) : undefined;
  }

  /** Resolves when the task has finished (tests, and callers that chain work). */
  whenDone(id: string): Promise<void> {
    return this.waiters.get(id) ?? Promise.resolve();
  }

  /** Resolves when every running task has finished (shutdown). */
  async settle(): Promise<void> {
    await Promise.all([...this.waiters.values()]);
  }

  /** Create a Running task and run `work` with its handle; failures end the task in Exception. */
  run(name: string, payload: TaskRecord['Payload'], work: (task: TaskHandle) => Promise<void>): TaskRecord {
    this.prune();
    const id = this.newId();
    const record: TaskRecord = {
      Id: id,
      Name: name,
      TaskState: 'Running',
      TaskStatus: 'OK',
      PercentComplete: 0,
      StartTime: this.clock.now(),
      Messages: [],
      Payload: payload,
    };
    this.docs.put(id, record);
    this.events.publish(taskEvent('TaskStarted', id), this.uris.task(id), 'Other');
    const handle = this.handle(id);
    const done = Promise.resolve()
      .then(() => work(handle))
      .catch((e: unknown) => handle.fail(e))
      .finally(() => this.waiters.delete(id));
    this.waiters.set(id, done);
    return record;
  }

  private handle(id: string): TaskHandle {
    const update = (fn: (t: TaskRecord) => TaskRecord) => {
      const t = this.docs.get(id);
      if (t && !FINISHED.has(t.TaskState)) this.docs.put(id, fn(t));
    };
    return {
      id,
      progress: (percent, message) => {
        update((t) => ({
          ...t,
          PercentComplete: Math.max(t.PercentComplete, Math.min(100, Math.round(percent))),
          Messages: message ? [...t.Messages, message] : t.Messages,
        }));
        this.events.publish(taskEvent('TaskProgressChanged', id, Math.round(percent)), this.uris.task(id), 'Other');
      },
      complete: (messages = []) => {
        update((t) => ({
          ...t,
          TaskState: 'Completed',
          TaskStatus: 'OK',
          PercentComplete: 100,
          EndTime: this.clock.now(),
          Messages: [...t.Messages, ...messages],
          Result: { failed: false, messages },
        }));
        this.events.publish(taskEvent('TaskCompletedOK', id), this.uris.task(id), 'Other');
      },
      pending: (message) => {
        update((t) => ({ ...t, TaskState: 'Pending', Messages: [...t.Messages, message] }));
      },
      cancel: () => {
        const m = taskEvent('TaskCancelled', id);
        update((t) => ({
          ...t,
          TaskState: 'Cancelled',
          TaskStatus: 'Warning',
          EndTime: this.clock.now(),
          Messages: [...t.Messages, m],
          Result: { failed: false, messages: [m] },
        }));
        this.events.publish(m, this.uris.task(id), 'Other');
      },
      fail: (e) => {
        const infos = e instanceof Refusal ? e.infos : [vendorMessage('UpdateFailed', String((e as Error)?.message ?? e))];
        update((t) => ({
          ...t,
          TaskState: 'Exception',
          TaskStatus: 'Critical',
          EndTime: this.clock.now(),
          Messages: [...t.Messages, ...infos],
          Result: { failed: true, messages: infos },
        }));
        this.events.publish(taskEvent('TaskAborted', id), this.uris.task(id), 'Other');
      },
    };
  }

  private prune(): void {
    const all = this.docs.list();
    let excess = all.length - (MAX_TASKS - 1);
    for (const t of all) {
      if (excess <= 0) break;
      if (FINISHED.has(t.TaskState)) {
        this.docs.delete(t.Id);
        excess--;
      }
    }
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(4).toString('hex');
      if (!this.docs.has(id)) return id;
    }
  }
}
