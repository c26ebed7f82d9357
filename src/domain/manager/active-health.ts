// Active Health System: the controller's continuous record of the server's
// health, which support tools download. Here it is the integrated management
// log and the event log since the AHS log was last cleared, with the
// milestones clients logged; a download is that record for a range of days,
// one JSON object a line (the vendor's binary .ahs format is not modelled).
import type { LogRecord } from '../logs/logs.js';
import type { DocumentStore } from '../../store/documents.js';
import { toIso, type Clock } from '../../platform/clock.js';

const DAY = 86_400_000;

interface AhsState {
  AHSEnabled: boolean;
  /** Controller time the AHS log was cleared (its start); 0 when never. */
  clearedAt: number;
  /** The last record of each log when it was cleared: the AHS log holds those after. */
  clearedAfter?: Record<string, number>;
  milestones: { at: number; operation: string; tag: string }[];
}

const SETTING = 'manager.ahs';
const DEFAULT_AHS: AhsState = { AHSEnabled: true, clearedAt: 0, milestones: [] };
/** Milestones kept, the oldest dropped first. */
const MAX_MILESTONES = 200;

export interface AhsSources {
  records(): { log: 'IML' | 'IEL'; record: Readonly<LogRecord> }[];
}

export class ActiveHealth {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly sources: AhsSources,
  ) {}

  private get setting() {
    return this.store.setting<AhsState>(SETTING, DEFAULT_AHS);
  }

  state(): Readonly<AhsState> {
    return this.setting.peek();
  }

  setEnabled(enabled: boolean): void {
    this.setting.set({ ...this.setting.get(), AHSEnabled: enabled });
  }

  /** The first and last day the log holds (midnight UTC). */
  span(): { start: number; end: number } {
    const s = this.state();
    const times = this.entries().map((e) => e.at);
    const first = Math.max(s.clearedAt, times.length ? Math.min(...times) : this.clock.now());
    return { start: first - (first % DAY), end: this.clock.now() - (this.clock.now() % DAY) };
  }

  clear(): void {
    const clearedAfter: Record<string, number> = {};
    for (const { log, record } of this.sources.records()) clearedAfter[log] = Math.max(clearedAfter[log] ?? 0, Number(record.Id));
    this.setting.set({ ...this.setting.get(), clearedAt: this.clock.now(), clearedAfter, milestones: [] });
  }

  logMilestone(operation: string, tag: string): void {
    const s = this.setting.get();
    this.setting.set({ ...s, milestones: [...s.milestones, { at: this.clock.now(), operation, tag }].slice(-MAX_MILESTONES) });
  }

  private entries(): { at: number; line: Record<string, unknown> }[] {
    const s = this.state();
    const logged = this.sources
      .records()
      .filter((r) => Number(r.record.Id) > (s.clearedAfter?.[r.log] ?? 0))
      .map(({ log, record }) => ({ at: record.Created, line: { log, ...record } }));
    const milestones = s.milestones.map((m) => ({
      at: m.at,
      line: { log: 'Milestone', Created: m.at, Operation: m.operation, Tag: m.tag },
    }));
    return [...logged, ...milestones].sort((a, b) => a.at - b.at);
  }

  /** The log for a range of days (both ends included), one JSON object a line. */
  download(range: { from?: number; to?: number; days?: number }): string {
    const now = this.clock.now();
    const from = range.days !== undefined ? now - range.days * DAY : (range.from ?? 0);
    const to = range.to !== undefined ? range.to + DAY : Infinity;
    return this.entries()
      .filter((e) => e.at >= from && e.at < to)
      .map((e) => `${JSON.stringify({ ...e.line, Created: toIso(e.at) })}\n`)
      .join('');
  }
}
