// ThermalSubsystem: DMTF's replacement for the deprecated Thermal resource —
// fans as resources of their own and the temperatures as ThermalMetrics. The
// readings, health and user thresholds are Thermal's own, at the same instant.
import { Priv } from '../../lib/privileges.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf, defineType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { action, type ActionContext, type Context, type RouteTable } from '../../protocol/routes.js';
import { SetUserTempThresholdAction, setUserTempThreshold, thermalView, type ThermalDeps } from './thermal.js';
import type { Services } from '../services.js';
import { VendorThermalExtType } from './thermal-types.js';
import { OEM } from '../../protocol/naming.js';
import { fanSensorId, temperatureSensorId } from './power.js';

type Json = Record<string, unknown>;

const reading = (units: string) =>
  t.object(
    { DataSourceUri: ro(t.string({ format: 'uri-reference' })), Reading: ro(t.number({ units, nullable: true, volatile: true })) },
    { readOnly: true, typeName: 'SensorExcerpt' },
  );

export const FanType = defineType({
  name: 'Fan',
  version: '1.6.0',
  owner: 'DMTF',
  description: 'A fan of the chassis.',
  properties: {
    ...commonProps,
    PhysicalContext: ro(t.string()),
    Status: statusProp,
    SpeedPercent: ro(
      t.object(
        {
          DataSourceUri: ro(t.string({ format: 'uri-reference' })),
          Reading: ro(t.number({ units: '%', nullable: true, volatile: true })),
          SpeedRPM: ro(t.number({ units: '{rev}/min', nullable: true, volatile: true })),
        },
        { typeName: 'SensorFanExcerpt' },
      ),
    ),
    HotPluggable: ro(t.boolean()),
    Replaceable: ro(t.boolean()),
  },
});

export const ThermalMetricsType = defineType({
  name: 'ThermalMetrics',
  version: '1.3.2',
  owner: 'DMTF',
  description: 'Temperature readings of the chassis.',
  properties: {
    ...commonProps,
    TemperatureSummaryCelsius: ro(
      t.object(
        { Intake: reading('Cel'), Ambient: reading('Cel') },
        { typeName: 'TemperatureSummary', description: 'Both read the inlet sensor.' },
      ),
    ),
    TemperatureReadingsCelsius: ro(
      t.array(
        t.object(
          {
            DeviceName: ro(t.string()),
            PhysicalContext: ro(t.string()),
            Reading: ro(t.number({ units: 'Cel', nullable: true, volatile: true })),
          },
          { typeName: 'SensorArrayExcerpt' },
        ),
      ),
    ),
  },
});

export const ThermalSubsystemType = defineType({
  name: 'ThermalSubsystem',
  version: '1.5.0',
  owner: 'DMTF',
  description: 'Cooling of the chassis: its fans and temperatures.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Fans: t.link({ readOnly: true }),
    ThermalMetrics: t.link({ readOnly: true }),
    Oem: oem(VendorThermalExtType, { readOnly: true }),
  },
});

interface FanEntry {
  Name: string;
  PhysicalContext: string;
  Reading: number;
  Status: Json;
  Oem?: { Vendor?: { SpeedPercent?: number } };
}

interface TemperatureEntry {
  Name: string;
  PhysicalContext: string;
  ReadingCelsius: number | null;
}

/** What ThermalSubsystem uses: Thermal's view. */
export type ThermalSubsystemDeps = Pick<Services, keyof ThermalDeps>;

type SubsystemPath = '/redfish/v1/Chassis/{ChassisId}/ThermalSubsystem/';

function handlers(d: ThermalSubsystemDeps) {
  const sensorUri = (id: string) => d.uris.chassis('Sensors', id);
  const fans = () => (thermalView(d).body.Fans as FanEntry[]).map((f, i) => ({ id: String(i + 1), f }));
  return { getThermalSubsystem, postSetUserTempThreshold, getThermalMetrics, fans, fanBody };

  function getThermalSubsystem(ctx: Context<SubsystemPath>) {
    const v = thermalView(d);
    return {
      Id: 'ThermalSubsystem',
      Name: 'Thermal Subsystem',
      Status: { State: 'Enabled', Health: v.health, HealthRollup: v.health },
      Fans: { '@odata.id': `${ctx.uri}Fans/` },
      ThermalMetrics: { '@odata.id': `${ctx.uri}ThermalMetrics/` },
      Oem: v.body.Oem,
    };
  }

  function postSetUserTempThreshold(ctx: ActionContext<SubsystemPath, typeof SetUserTempThresholdAction>) {
    return setUserTempThreshold(d, ctx.body);
  }

  function getThermalMetrics() {
    const temps = thermalView(d).body.Temperatures as TemperatureEntry[];
    const at = temps.findIndex((x) => x.PhysicalContext === 'Intake');
    const spec = d.thermal.temperatureSpecs[at];
    // The inlet sensor reads the air the server draws in: iLO's ambient temperature.
    const inlet = spec ? { DataSourceUri: sensorUri(temperatureSensorId(spec)), Reading: temps[at]?.ReadingCelsius ?? null } : undefined;
    return {
      Id: 'ThermalMetrics',
      Name: 'Chassis Thermal Metrics',
      TemperatureSummaryCelsius: inlet ? { Intake: inlet, Ambient: inlet } : {},
      TemperatureReadingsCelsius: temps.map((x) => ({
        DeviceName: x.Name,
        PhysicalContext: x.PhysicalContext,
        Reading: x.ReadingCelsius,
      })),
    };
  }

  function fanBody({ id, f }: { id: string; f: FanEntry }) {
    const spec = d.thermal.fanSpecs[Number(id) - 1];
    return {
      Id: id,
      Name: f.Name,
      PhysicalContext: f.PhysicalContext,
      Status: f.Status,
      SpeedPercent: {
        ...(spec ? { DataSourceUri: sensorUri(fanSensorId(spec)) } : {}),
        Reading: f.Oem?.[OEM]?.SpeedPercent ?? null,
        SpeedRPM: f.Reading,
      },
      HotPluggable: true,
      Replaceable: true,
    };
  }
}

/**
 * Serves ThermalSubsystem beside Thermal, from Thermal's own view; the vendor
 * SetUserTempThreshold action is offered here too (same rule and privilege).
 */
export function registerThermalSubsystemRoutes(routes: RouteTable, d: ThermalSubsystemDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/ThermalSubsystem/',
    type: ThermalSubsystemType,
    get: { privilege: Priv.login, handler: h.getThermalSubsystem },
    actions: [action(SetUserTempThresholdAction, Priv.managerConfig, h.postSetUserTempThreshold)],
  });
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/ThermalSubsystem/ThermalMetrics/',
    type: ThermalMetricsType,
    get: { privilege: Priv.login, handler: h.getThermalMetrics },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/ThermalSubsystem/Fans/',
    member: '/redfish/v1/Chassis/{ChassisId}/ThermalSubsystem/Fans/{FanId}/',
    type: FanType,
    collectionType: collectionOf(FanType),
    name: 'Fans',
    store: { list: h.fans, get: (id) => h.fans().find((x) => x.id === id), id: (x) => x.id },
    show: h.fanBody,
    privileges: { read: Priv.login },
  });
}
