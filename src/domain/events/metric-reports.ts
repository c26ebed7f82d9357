// Periodic metric reports of the simulated sensors (TelemetryService): one
// definition, "SensorReadings", generated on the controller clock and handed to
// the event hub for EventFormatType MetricReport subscribers and SSE streams.
// The definition's schedule is stored; the latest report is kept in memory only,
// as a controller keeps sensor samples: a fleet's ten thousand idle controllers
// would otherwise write (and open a resting database) every minute each. After a
// restart the collection is empty until the first report. A report nobody takes
// when it is due (no subscription, no stream) is made when first read, with its
// due moment and sequence and the sensors as they read then: ten thousand idle
// controllers made 170 unread reports a second.
import { toIso, type Clock, type TimerHandle } from '../../platform/clock.js';
import type { SensorReading, SensorSource } from '../../platform/sensors.js';
import type { DocumentStore } from '../../store/documents.js';
import { METRIC_REPORT_ODATA_TYPE } from './format.js';
import type { EventHub } from './hub.js';

export const SENSOR_REPORT_ID = 'SensorReadings';

export interface ReportSchedule {
  enabled: boolean;
  /** Seconds between reports. */
  intervalSeconds: number;
}

export const MIN_INTERVAL_SECONDS = 5;
const DEFAULT_SCHEDULE: ReportSchedule = { enabled: true, intervalSeconds: 60 };

export interface MetricValue {
  MetricId: string;
  MetricValue: string;
  Timestamp: string;
  MetricProperty: string;
  MetricDefinition: { '@odata.id': string };
}

/** "PT60S", "PT1M30S", "PT1H": the durations Schedule.RecurrenceInterval takes. */
export function parseDuration(text: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return undefined;
  const [, d, h, min, s] = m;
  return Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0);
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

export class MetricReports {
  private timer?: TimerHandle;
  private readonly schedule: { get(): ReportSchedule; set(v: ReportSchedule): void };
  private latestReport?: Record<string, unknown>;
  /** The report last due, when nobody took it then: made at its first read. */
  private unread?: { seq: number; at: number };
  private sequence = 0;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    /** Read on every report: the simulator installs its sensors after start-up. */
    private readonly sensors: () => SensorSource,
    private readonly hub: EventHub,
    /** Where the report and its definition are (lib/resource-uris.ts, handed in). */
    private readonly uris: {
      metricReport(id: string): string;
      metricReportDefinition(id: string): string;
      metricDefinition(id: string): string;
    },
  ) {
    this.schedule = store.setting('telemetry.schedule', DEFAULT_SCHEDULE);
  }

  start(): void {
    this.arm();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  settings(): ReportSchedule {
    return this.schedule.get();
  }

  update(patch: Partial<ReportSchedule>): void {
    this.schedule.set({ ...this.schedule.get(), ...patch });
    this.arm();
  }

  latest(): Record<string, unknown> | undefined {
    if (this.unread) {
      this.latestReport = this.report(this.unread.seq, this.unread.at);
      this.unread = undefined;
    }
    return this.latestReport;
  }

  /** The sensors the reports read, as they read now. */
  sensorReadings(): SensorReading[] {
    return this.sensors().readings();
  }

  /** The metrics the definition covers: one per sensor. */
  metrics(): { MetricId: string; MetricProperties: string[] }[] {
    return this.sensorReadings().map((r) => ({ MetricId: r.id, MetricProperties: [r.uri] }));
  }

  /** Take a report now, keep it as the latest, and send it to subscribers. */
  generate(): Record<string, unknown> {
    const report = this.report(++this.sequence, this.clock.now());
    this.latestReport = report;
    this.unread = undefined;
    this.hub.publishMetricReport(report, this.uris.metricReportDefinition(SENSOR_REPORT_ID));
    return report;
  }

  /** A report falls due: taken now when someone takes reports, else when first read. */
  private due(): void {
    if (this.hub.takesMetricReports()) {
      this.generate();
      return;
    }
    this.unread = { seq: ++this.sequence, at: this.clock.now() };
    this.latestReport = undefined;
  }

  private report(seq: number, at: number): Record<string, unknown> {
    const now = toIso(at);
    const values: MetricValue[] = this.sensors()
      .readings()
      .map((r) => ({
        MetricId: r.id,
        MetricValue: String(r.reading),
        Timestamp: now,
        MetricProperty: r.uri,
        MetricDefinition: { '@odata.id': this.uris.metricDefinition(r.id) },
      }));
    return {
      '@odata.id': this.uris.metricReport(SENSOR_REPORT_ID),
      '@odata.type': METRIC_REPORT_ODATA_TYPE,
      Id: SENSOR_REPORT_ID,
      Name: 'Sensor readings',
      ReportSequence: String(seq),
      Timestamp: now,
      MetricReportDefinition: { '@odata.id': this.uris.metricReportDefinition(SENSOR_REPORT_ID) },
      MetricValues: values,
    };
  }

  private arm(): void {
    this.stop();
    const s = this.schedule.get();
    if (s.enabled) this.timer = this.clock.setInterval(s.intervalSeconds * 1000, () => this.due());
  }
}
