// The update service's Oem/Vendor/State: one operation at a time moves it
// Idle → Uploading → Verifying → Writing → (Updating) → Complete, or Error
// with a result message. While an operation runs or an integrity scan
// runs, new uploads and installs are refused with UpdateServiceBusy.
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { Refusal, vendorRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export const UPDATE_STATES = ['Idle', 'Uploading', 'Verifying', 'Writing', 'Updating', 'Complete', 'Error'] as const;
export type UpdateState = (typeof UPDATE_STATES)[number];

const ACTIVE: ReadonlySet<UpdateState> = new Set(['Uploading', 'Verifying', 'Writing', 'Updating']);

interface Persisted {
  state: UpdateState;
  result?: ExtendedInfo;
  uploadCurrentEtag?: string;
}

export interface UpdateOperation {
  set(state: UpdateState): void;
  /** Finish in Complete with an optional result message. */
  complete(result?: ExtendedInfo): void;
  /** Finish in Error; the result is the first message of the error. */
  fail(e: unknown): void;
  readonly done: boolean;
}

export class UpdateStatus {
  private readonly setting;
  private active = false;
  private readonly blockers: (() => string | undefined)[] = [];
  private readonly listeners: ((s: UpdateState) => void)[] = [];

  constructor(store: DocumentStore) {
    this.setting = store.setting<Persisted>('update.state', { state: 'Idle' });
    const cur = this.setting.get();
    // An operation cut short by a restart did not finish.
    if (ACTIVE.has(cur.state)) this.setting.set({ ...cur, state: 'Error', result: vendorMessage('UpdateInterrupted') });
  }

  get(): Persisted {
    return this.setting.get();
  }

  /** Something else that makes the service busy (the integrity scan); returns its name while busy. */
  addBlocker(fn: () => string | undefined): void {
    this.blockers.push(fn);
  }

  onChange(fn: (s: UpdateState) => void): void {
    this.listeners.push(fn);
  }

  /**
   * A blocker stopped blocking (an integrity scan ended): tell the listeners,
   * as the end of an operation does, so whoever waits for an idle service
   * (the update queue's Bmc updater) looks again.
   */
  blockerEnded(): void {
    const state = this.setting.get().state;
    for (const fn of this.listeners) fn(state);
  }

  /** Why the service is busy now, or undefined. */
  busyReason(): string | undefined {
    if (this.active) return this.setting.get().state;
    for (const b of this.blockers) {
      const why = b();
      if (why) return why;
    }
    return undefined;
  }

  /** Throws UpdateServiceBusy when an operation or a scan is running. */
  assertIdle(): void {
    const why = this.busyReason();
    if (why) throw vendorRefusal('UpdateServiceBusy', why);
  }

  /** Start an operation in `first` (Uploading or Updating); throws when busy. */
  begin(first: UpdateState, uploadCurrentEtag?: string): UpdateOperation {
    this.assertIdle();
    const prev = this.setting.get();
    // Recorded before the slot is taken: a write that fails (a full disk) leaves the service idle.
    this.write({ state: first, uploadCurrentEtag: uploadCurrentEtag ?? prev.uploadCurrentEtag });
    this.active = true;
    let done = false;
    const finish = (state: UpdateState, result?: ExtendedInfo) => {
      if (done) return;
      done = true;
      // Free before the outcome is recorded, which may fail too.
      this.active = false;
      this.write({ ...this.setting.get(), state, result });
    };
    return {
      set: (state) => {
        if (!done) this.write({ ...this.setting.get(), state });
      },
      complete: (result) => finish('Complete', result),
      fail: (e) => finish('Error', e instanceof Refusal ? e.infos[0] : vendorMessage('UpdateFailed', String((e as Error)?.message ?? e))),
      get done() {
        return done;
      },
    };
  }

  private write(p: Persisted): void {
    this.setting.set(p);
    for (const fn of this.listeners) fn(p.state);
  }
}
