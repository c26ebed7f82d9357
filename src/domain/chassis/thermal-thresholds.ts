// User-defined temperature thresholds (VendorThermalExt.SetUserTempThreshold).
// One Warning and one Critical threshold, each on one sensor. A new value is
// stored as pending and becomes effective at the next controller reset, as on
// the vendor's controller. While effective, the sensor is sampled every
// SAMPLE_MS: the first sample above the threshold writes one IML record and
// publishes one event; the reading must fall HYSTERESIS_C below it before the
// alert clears (one more record and event), so jitter cannot make it flap.
import { vendorMessage } from '../../messages/errors.js';
import { baseRefusal } from '../../messages/refusal.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { ControllerLifecycle } from '../../platform/lifecycle.js';
import type { SensorSource } from '../../platform/sensors.js';
import type { TemperatureSpec } from '../../platform/thermal.js';
import type { DocumentStore, Setting } from '../../store/documents.js';
import type { EventBus } from '../events/bus.js';
import type { Logs } from '../logs/logs.js';
import { oemType } from '../../lib/oem-token.js';

export const ALERT_TYPES = ['Warning', 'Critical'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const SET_USER_TEMP_THRESHOLD = `${oemType('ThermalExt')}.SetUserTempThreshold`;
export const SAMPLE_MS = 10_000;
export const HYSTERESIS_C = 2;

export interface UserTempThreshold {
  SensorNumber: number;
  SensorName: string;
  ThresholdCelsius: number;
}

type PerAlert<T> = Record<AlertType, T>;

interface Stored {
  effective: PerAlert<UserTempThreshold | null>;
  pending: PerAlert<UserTempThreshold | null>;
  /** Whether the effective threshold is currently exceeded (survives restarts: no duplicate record). */
  exceeded: PerAlert<boolean>;
}

const EMPTY: Stored = {
  effective: { Warning: null, Critical: null },
  pending: { Warning: null, Critical: null },
  exceeded: { Warning: false, Critical: false },
};

export class UserTempThresholds {
  private readonly setting: Setting<Stored>;
  private sampling?: TimerHandle;

  constructor(
    store: DocumentStore,
    /** The thermal sensors: their readings and the specs of the profile's temperature sensors. */
    private readonly sensors: SensorSource & { readonly temperatureSpecs: readonly TemperatureSpec[] },
    private readonly logs: Logs,
    private readonly events: EventBus,
    private readonly clock: Clock,
    controller: ControllerLifecycle,
    /** URI of the Thermal resource: origin of records and events. */
    private readonly origin: string,
  ) {
    this.setting = store.setting<Stored>('thermal.userTempThresholds', EMPTY);
    controller.onReset(() => this.applyPending());
    this.sampleWhileEffective();
  }

  /** Sensors are sampled only once a threshold is effective: an idle fleet's controllers have no timer for it. */
  private sampleWhileEffective(): void {
    const { effective } = this.state;
    if (this.sampling || (!effective.Warning && !effective.Critical)) return;
    this.sampling = this.clock.setInterval(SAMPLE_MS, () => this.check());
  }

  effective(): PerAlert<UserTempThreshold | null> {
    return { ...this.state.effective };
  }

  pending(): PerAlert<UserTempThreshold | null> {
    return { ...this.state.pending };
  }

  exceeded(): PerAlert<boolean> {
    return { ...this.state.exceeded };
  }

  /** Validate and store a new threshold as pending. */
  setPending(alert: AlertType, sensorNumber: number, celsius: number): UserTempThreshold {
    const spec = this.sensors.temperatureSpecs.find((s) => s.number === sensorNumber);
    if (!spec) throw baseRefusal('ActionParameterValueNotInList', String(sensorNumber), 'SensorNumber', SET_USER_TEMP_THRESHOLD);
    // Above the hardware critical threshold the server protects itself first: such a value never alerts.
    if (celsius > spec.upperCritical) throw baseRefusal('ActionParameterValueError', 'ThresholdCelsius', SET_USER_TEMP_THRESHOLD);
    const t: UserTempThreshold = { SensorNumber: spec.number, SensorName: spec.name, ThresholdCelsius: celsius };
    this.save({ ...this.state, pending: { ...this.state.pending, [alert]: t } });
    return t;
  }

  /** Sample the sensors and record crossings of the effective thresholds. */
  check(): void {
    // Without a threshold there is nothing to compare: an idle fleet's controllers read no sensors.
    const { effective } = this.state;
    if (!effective.Warning && !effective.Critical) return;
    const readings = this.sensors.readings();
    let exceeded = this.state.exceeded;
    for (const alert of ALERT_TYPES) {
      const t = this.state.effective[alert];
      if (!t) continue;
      const id = this.sensors.temperatureSpecs.find((s) => s.number === t.SensorNumber)?.id;
      const reading = readings.find((r) => r.kind === 'Temperature' && r.id === id)?.reading;
      if (reading === undefined) continue;
      const was = exceeded[alert];
      if (!was && reading > t.ThresholdCelsius) {
        exceeded = { ...exceeded, [alert]: true };
        const msg =
          alert === 'Critical'
            ? vendorMessage('UserTempThresholdExceededCritical', t.SensorName, reading, t.ThresholdCelsius)
            : vendorMessage('UserTempThresholdExceededWarning', t.SensorName, reading, t.ThresholdCelsius);
        this.logs.write('IML', msg, this.origin);
        this.events.publish(msg, this.origin, 'Alert');
      } else if (was && reading <= t.ThresholdCelsius - HYSTERESIS_C) {
        exceeded = { ...exceeded, [alert]: false };
        const msg = vendorMessage('UserTempThresholdCleared', t.SensorName, reading, alert.toLowerCase(), t.ThresholdCelsius);
        this.logs.write('IML', msg, this.origin);
        this.events.publish(msg, this.origin, 'Alert');
      }
    }
    if (exceeded !== this.state.exceeded) this.save({ ...this.state, exceeded });
  }

  private applyPending(): void {
    const { pending } = this.state;
    if (!pending.Warning && !pending.Critical) return;
    const effective = { ...this.state.effective };
    const exceeded = { ...this.state.exceeded };
    for (const alert of ALERT_TYPES) {
      const t = pending[alert];
      if (!t) continue;
      effective[alert] = t;
      exceeded[alert] = false;
      this.logs.write('IEL', vendorMessage('UserTempThresholdSet', alert.toLowerCase(), t.SensorName, t.ThresholdCelsius), this.origin);
    }
    this.save({ effective, pending: { Warning: null, Critical: null }, exceeded });
    this.sampleWhileEffective();
    this.check();
  }

  /** Read from the store each time (not kept aside): a write whose commit fails leaves nothing behind. */
  private get state(): Readonly<Stored> {
    return this.setting.peek();
  }

  private save(next: Stored): void {
    this.setting.set(next);
  }
}
