// Chassis Thermal: temperature and fan readings of the simulated server with
// their thresholds, and the vendor's user-defined temperature thresholds.
//
// VendorThermalExt.SetUserTempThreshold takes
//   SensorNumber     integer, the SensorNumber of one of Temperatures[]
//   AlertType        "Warning" | "Critical"
//   ThresholdCelsius integer, 1 .. that sensor's UpperThresholdCritical
// and stores the threshold as pending (Oem/Vendor/PendingWarningUsertTempThreshold,
// PendingCriticalUsertTempThreshold); the next controller reset makes it
// effective (Oem/Vendor/WarningUsertTempThreshold, CriticalUsertTempThreshold).
// One threshold per alert type: a new one replaces the previous.
import { Representations } from '../../lib/memo.js';
import {
  ALERT_TYPES,
  SET_USER_TEMP_THRESHOLD,
  type UserTempThreshold,
  type UserTempThresholds,
} from '../../domain/chassis/thermal-thresholds.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { SENSOR_SCAN_MS, type FanSpec, type TemperatureSpec } from '../../platform/thermal.js';
import { defineAction, defineType, odataType, oem, ro, statusProp, t, vendorObject, commonProps } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import { action, type ActionContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { VendorThermalExtType } from './thermal-types.js';
import { thermalConfiguration } from '../../domain/chassis/fan-policy.js';
import { OEM, oemType } from '../../protocol/naming.js';

type Health = 'OK' | 'Warning' | 'Critical';

export const VendorThermalFanType = defineType({
  name: oemType('ThermalFan'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of a fan reading.',
  properties: {
    SpeedPercent: ro(t.integer({ units: '%', volatile: true, description: 'Fan speed as a percentage of its maximum.' })),
    Location: ro(t.string()),
    Redundant: ro(t.boolean({ description: 'Whether another fan covers for this one (N+1).' })),
    HotPluggable: ro(t.boolean()),
  },
});

const temperature = t.object(
  {
    '@odata.id': ro(t.string({ format: 'uri-reference' })),
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    SensorNumber: ro(t.integer()),
    PhysicalContext: ro(t.string()),
    ReadingCelsius: ro(t.number({ units: 'Cel', volatile: true })),
    UpperThresholdNonCritical: ro(t.number({ units: 'Cel', nullable: true })),
    UpperThresholdCritical: ro(t.number({ units: 'Cel', nullable: true })),
    UpperThresholdFatal: ro(t.number({ units: 'Cel', nullable: true })),
    MinReadingRangeTemp: ro(t.number({ units: 'Cel' })),
    MaxReadingRangeTemp: ro(t.number({ units: 'Cel' })),
    Status: statusProp,
  },
  { readOnly: true, typeName: 'Temperature' },
);

const fan = t.object(
  {
    '@odata.id': ro(t.string({ format: 'uri-reference' })),
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    PhysicalContext: ro(t.string()),
    Reading: ro(t.integer({ volatile: true })),
    ReadingUnits: ro(t.enum(['RPM', 'Percent'])),
    LowerThresholdCritical: ro(t.integer({ nullable: true })),
    MinReadingRange: ro(t.integer()),
    MaxReadingRange: ro(t.integer()),
    Status: statusProp,
    Oem: t.object({ [OEM]: vendorObject(VendorThermalFanType, { readOnly: true }) }, { readOnly: true, typeName: 'FanOem' }),
  },
  { readOnly: true, typeName: 'Fan' },
);

export const SetUserTempThresholdAction = defineAction({
  name: SET_USER_TEMP_THRESHOLD,
  oem: true,
  description: 'Set a user-defined warning or critical temperature threshold on one sensor; effective after a controller reset.',
  parameters: {
    SensorNumber: t.integer({ required: true, minimum: 1, description: 'SensorNumber of the temperature sensor.' }),
    AlertType: t.enum(ALERT_TYPES, { required: true }),
    ThresholdCelsius: t.integer({ required: true, minimum: 1, maximum: 150, units: 'Cel' }),
  },
});

export const ThermalType = defineType({
  name: 'Thermal',
  version: '1.7.3',
  owner: 'DMTF',
  description: 'Temperatures and fans of the chassis.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Temperatures: t.array(temperature, { readOnly: true }),
    Fans: t.array(fan, { readOnly: true }),
    Oem: oem(VendorThermalExtType, { readOnly: true }),
  },
  actions: [SetUserTempThresholdAction],
});

const HEALTH_ORDER: Health[] = ['OK', 'Warning', 'Critical'];
const worst = (a: Health, b: Health): Health => (HEALTH_ORDER.indexOf(a) >= HEALTH_ORDER.indexOf(b) ? a : b);

/** What Thermal uses. */
export type ThermalDeps = Pick<
  Services,
  'uris' | 'store' | 'sensors' | 'thermal' | 'clock' | 'host' | 'health' | 'userTempThresholds' | 'bios'
>;

/** A temperature's health from the sensor's own thresholds (the Sensors resources show the same). */
export function temperatureHealth(spec: TemperatureSpec, celsius: number): Health {
  if (celsius >= spec.upperCritical) return 'Critical';
  if (spec.upperCaution !== undefined && celsius >= spec.upperCaution) return 'Warning';
  return 'OK';
}

export function fanHealth(spec: FanSpec, rpm: number): Health {
  return rpm < spec.lowerCritical ? 'Critical' : 'OK';
}

/** Worst health over all sensors, for the chassis to roll up. */
export function thermalHealth(d: ThermalDeps): Health {
  return thermalView(d).health;
}

const views = new WeakMap<UserTempThresholds, Representations<{ body: Record<string, unknown>; health: Health }>>();

/**
 * Thermal as it is now, rebuilt once per sensor scan or when the stored state (user thresholds),
 * the host's power, component health or a held reading change; shared by Thermal, ThermalSubsystem
 * and the chassis.
 */
export function thermalView(d: ThermalDeps): { body: Record<string, unknown>; health: Health } {
  const user = d.userTempThresholds;
  let v = views.get(user);
  if (!v) views.set(user, (v = new Representations(2)));
  const key = [
    Math.floor(d.clock.now() / SENSOR_SCAN_MS),
    d.store.generation,
    d.host.generation,
    d.health.generation,
    d.thermal.generation,
  ];
  return v.get('thermal', key, () => thermalBody(d, user));
}

function thermalBody(
  d: Pick<ThermalDeps, 'uris' | 'sensors' | 'thermal' | 'bios'>,
  user: UserTempThresholds,
): { body: Record<string, unknown>; health: Health } {
  const uri = d.uris.chassis('Thermal');
  const readings = new Map(d.sensors.readings().map((r) => [`${r.kind}:${r.id}`, r.reading]));
  const exceeded = user.exceeded();
  const effective = user.effective();
  let overall: Health = 'OK';

  const temperatures = d.thermal.temperatureSpecs.map((spec, i) => {
    const reading = readings.get(`Temperature:${spec.id}`) ?? null;
    let health: Health = reading === null ? 'OK' : temperatureHealth(spec, reading);
    if (exceeded.Warning && effective.Warning?.SensorNumber === spec.number) health = worst(health, 'Warning');
    if (exceeded.Critical && effective.Critical?.SensorNumber === spec.number) health = 'Critical';
    overall = worst(overall, health);
    return {
      '@odata.id': `${uri}#/Temperatures/${i}`,
      MemberId: String(i),
      Name: spec.name,
      SensorNumber: spec.number,
      PhysicalContext: spec.context,
      ReadingCelsius: reading,
      UpperThresholdNonCritical: spec.upperCaution ?? null,
      UpperThresholdCritical: spec.upperCritical,
      UpperThresholdFatal: spec.upperFatal ?? null,
      MinReadingRangeTemp: 0,
      MaxReadingRangeTemp: 130,
      Status: { State: 'Enabled', Health: health },
    };
  });

  // The fans are N+1 redundant: one failed fan is Critical itself but leaves the chassis cooled
  // (Warning, redundancy lost); two or more make it Critical.
  let failedFans = 0;
  const fans = d.thermal.fanSpecs.map((spec, i) => {
    const rpm = readings.get(`Fan:${spec.id}`) ?? 0;
    const health = fanHealth(spec, rpm);
    if (health === 'Critical') failedFans++;
    return {
      '@odata.id': `${uri}#/Fans/${i}`,
      MemberId: String(i),
      Name: spec.name,
      PhysicalContext: 'SystemBoard',
      Reading: rpm,
      ReadingUnits: 'RPM',
      LowerThresholdCritical: spec.lowerCritical,
      MinReadingRange: 0,
      MaxReadingRange: spec.maxRpm,
      Status: { State: 'Enabled', Health: health },
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorThermalFanType),
          SpeedPercent: Math.round((rpm / spec.maxRpm) * 100),
          Location: 'System',
          Redundant: d.thermal.fanSpecs.length > 1,
          HotPluggable: true,
        },
      },
    };
  });

  if (failedFans) overall = worst(overall, failedFans === 1 && d.thermal.fanSpecs.length > 1 ? 'Warning' : 'Critical');
  const pending = user.pending();
  const shown = (x: UserTempThreshold | null) => (x ? { ...x } : null);
  return {
    health: overall,
    body: {
      Id: 'Thermal',
      Name: 'Thermal',
      Description: 'Temperatures and fans of the chassis',
      Status: { State: 'Enabled', Health: overall },
      Temperatures: temperatures,
      Fans: fans,
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorThermalExtType),
          WarningUsertTempThreshold: shown(effective.Warning),
          CriticalUsertTempThreshold: shown(effective.Critical),
          PendingWarningUsertTempThreshold: shown(pending.Warning),
          PendingCriticalUsertTempThreshold: shown(pending.Critical),
          ...thermalConfiguration(d.bios.currentAttributes()),
        },
      },
    },
  };
}

// Thermal's path, for its handlers' contexts (the route below spells it out).
type ThermalPath = '/redfish/v1/Chassis/{ChassisId}/Thermal/';

/** The vendor action on Thermal and ThermalSubsystem: the threshold is pending until the next controller reset. */
export function setUserTempThreshold(
  d: Pick<Services, 'userTempThresholds'>,
  body: ActionContext<string, typeof SetUserTempThresholdAction>['body'],
) {
  d.userTempThresholds.setPending(body.AlertType, body.SensorNumber, body.ThresholdCelsius);
  return success(vendorMessage('ControllerResetRequired'));
}

function handlers(d: ThermalDeps) {
  return { getThermal, postSetUserTempThreshold };

  function getThermal() {
    return thermalView(d).body;
  }

  function postSetUserTempThreshold(ctx: ActionContext<ThermalPath, typeof SetUserTempThresholdAction>) {
    return setUserTempThreshold(d, ctx.body);
  }
}

export function registerThermalRoutes(routes: RouteTable, d: ThermalDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/Thermal/',
    type: ThermalType,
    get: { privilege: Priv.login, handler: h.getThermal },
    actions: [action(SetUserTempThresholdAction, Priv.managerConfig, h.postSetUserTempThreshold)],
  });
}
