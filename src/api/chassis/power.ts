// Chassis power: Power (PowerControl with consumption, metrics and the power
// limit; PowerSupplies; Redundancy), PowerSubsystem with its PowerSupplies and
// their Metrics, the Sensors collection (temperatures, fans and power) and
// EnvironmentMetrics. Every reading comes from the simulated power model and
// thermal sensors (src/platform/power.ts, thermal.ts) at the instant of the
// request, so Power, Thermal and Sensors agree.
//
// PATCH Power {"PowerControl": [{"PowerLimit": {"LimitInWatts": W | null, "LimitException": ...}}]}
// sets the power limit: W between Oem/Vendor/PowerLimitMinWatts (idle) and
// PowerLimitMaxWatts (the capacity), else 400 PropertyValueOutOfRange; null
// removes it. It is kept across restarts and applies at once. The same limit is
// Controls/PowerLimit (DMTF's Control): SetPoint is LimitInWatts, ControlMode
// Disabled is no limit; a change through either view shows in both.
import { Priv } from '../../lib/privileges.js';
import { baseError } from '../../protocol/errors.js';
import { componentKey, type ComponentStatus } from '../../platform/hardware/health.js';
import { LIMIT_CORRECTION_MS, METRICS_INTERVAL_MIN, psuCarriesLoad, psuSensorId } from '../../platform/power.js';
import type { FanSpec, TemperatureSpec } from '../../platform/thermal.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { odataType } from '../../protocol/description.js';
import { present, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { powerMeterLinks } from './power-meter.js';
import { HYSTERESIS_C, type UserTempThreshold } from '../../domain/chassis/thermal-thresholds.js';
import {
  ControlType,
  EnvironmentMetricsType,
  PowerSubsystemType,
  PowerSupplyMetricsType,
  PowerSupplyType,
  PowerType,
  SensorType,
  VendorPowerControlType,
} from './power-types.js';
import { fanHealth, temperatureHealth } from './thermal.js';
import { OEM } from '../../protocol/naming.js';

/** What the power area uses. */
export type PowerDeps = Pick<Services, 'uris' | 'power' | 'thermal' | 'hardware' | 'health' | 'userTempThresholds'>;

/** A sensor threshold: tripped by the first reading past it. */
const tripAt = (reading: number, activation: 'Increasing' | 'Decreasing') => ({
  Reading: reading,
  Activation: activation,
  DwellTime: 'PT0S',
});

type Health = 'OK' | 'Warning' | 'Critical';
type PowerPath = '/redfish/v1/Chassis/{ChassisId}/Power/';
type ControlPath = '/redfish/v1/Chassis/{ChassisId}/Controls/{ControlId}/';

/** The one control: the power limit. */
const POWER_LIMIT_CONTROL = 'PowerLimit';

/** Nominal line voltage of the supplies' input (high line, as in a data centre). */
const LINE_VOLTS = 230;

interface SensorEntry {
  id: string;
  body: Record<string, unknown>;
}

/** Health of the power supplies for the chassis rollup: N+1 redundancy's (one lost: Warning), or the one supply's own. */
export function powerSupplyHealth(d: Pick<PowerDeps, 'hardware' | 'health'>): Health {
  const psus = d.hardware.powerSupplies;
  const working = psus.filter((p) => psuCarriesLoad(d.health.status(componentKey.psu(p.bay)))).length;
  const needed = Math.max(1, psus.length - 1);
  return working === psus.length ? 'OK' : working >= needed ? 'Warning' : 'Critical';
}

function handlers(d: PowerDeps) {
  const chassis = d.uris.chassis();
  const powerUri = `${chassis}Power/`;
  const subsystemUri = `${chassis}PowerSubsystem/`;
  const suppliesUri = `${subsystemUri}PowerSupplies/`;
  const sensorsUri = `${chassis}Sensors/`;
  const systemUri = d.uris.system();
  const psus = d.hardware.powerSupplies;
  type Psu = (typeof psus)[number];
  const psuStatus = (p: Psu): ComponentStatus => d.health.status(componentKey.psu(p.bay));
  const supplyUri = (p: Psu) => `${suppliesUri}${p.bay}/`;
  /** A supply whose capacity differs from another's: the server cannot balance the load between them. */
  const mismatched = (p: Psu) => psus.some((q) => q.capacityWatts !== p.capacityWatts);

  /** N+1 over two or more supplies: all but one are needed. */
  function redundancy(): { min: number; max: number; health: Health } {
    return { min: Math.max(1, psus.length - 1), max: psus.length, health: powerSupplyHealth(d) };
  }
  const redundant = psus.length > 1;

  function allocation() {
    const requested = d.hardware.power.maxWatts;
    return { requested, allocated: d.power.limitWatts() ?? requested };
  }

  function getPower() {
    const r = d.power.reading();
    const m = d.power.metrics(METRICS_INTERVAL_MIN);
    const limit = d.power.limit();
    const range = d.power.limitRange();
    const capacity = d.power.capacityWatts();
    const { requested, allocated } = allocation();
    const red = redundancy();
    const outputs = d.power.supplyOutputs();
    return {
      Id: 'Power',
      Name: 'Power',
      Description: 'Power consumption, power limit and power supplies of the chassis',
      PowerControl: [
        {
          '@odata.id': `${powerUri}#/PowerControl/0`,
          MemberId: '0',
          Name: 'Server Power Control',
          PowerConsumedWatts: r.consumedWatts,
          PowerRequestedWatts: requested,
          PowerAvailableWatts: Math.max(0, capacity - allocated),
          PowerCapacityWatts: capacity,
          PowerAllocatedWatts: allocated,
          PowerMetrics: {
            IntervalInMin: m.intervalInMin,
            MinConsumedWatts: m.minConsumedWatts,
            MaxConsumedWatts: m.maxConsumedWatts,
            AverageConsumedWatts: m.averageConsumedWatts,
          },
          PowerLimit: { LimitInWatts: limit.limitInWatts, LimitException: limit.limitException, CorrectionInMs: LIMIT_CORRECTION_MS },
          RelatedItem: [{ '@odata.id': chassis }, { '@odata.id': systemUri }],
          Status: { State: 'Enabled', Health: 'OK' },
          Oem: {
            [OEM]: {
              '@odata.type': odataType(VendorPowerControlType),
              PowerCapActive: r.capping,
              PowerLimitMinWatts: range.min,
              PowerLimitMaxWatts: range.max,
            },
          },
        },
      ],
      PowerSupplies: psus.map((p, i) => {
        const status = psuStatus(p);
        return {
          '@odata.id': `${powerUri}#/PowerSupplies/${i}`,
          MemberId: String(i),
          Name: `Power Supply ${p.bay}`,
          Oem: {
            [OEM]: {
              BayNumber: p.bay,
              HotplugCapable: true,
              iPDUCapable: false,
              AveragePowerOutputWatts: outputs[i]?.averageWatts ?? 0,
              MaxPowerOutputWatts: outputs[i]?.maxWatts ?? 0,
              Mismatched: mismatched(p),
              PowerSupplyStatus: { State: psuCarriesLoad(status) ? 'Ok' : 'Failed' },
            },
          },
          PowerSupplyType: 'AC',
          LineInputVoltageType: 'ACHighLine',
          LineInputVoltage: psuCarriesLoad(status) ? LINE_VOLTS : 0,
          PowerCapacityWatts: p.capacityWatts,
          LastPowerOutputWatts: r.psuWatts[i] ?? 0,
          EfficiencyPercent: p.efficiencyPercent,
          HotPluggable: true,
          Manufacturer: p.manufacturer,
          Model: p.model,
          SerialNumber: p.serialNumber,
          PartNumber: p.partNumber,
          FirmwareVersion: p.firmwareVersion,
          InputRanges: [
            {
              InputType: 'AC',
              MinimumVoltage: 200,
              MaximumVoltage: 240,
              MinimumFrequencyHz: 50,
              MaximumFrequencyHz: 60,
              OutputWattage: p.capacityWatts,
            },
          ],
          ...(redundant ? { Redundancy: [{ '@odata.id': `${powerUri}#/Redundancy/0` }] } : {}),
          Status: status,
        };
      }),
      Redundancy: redundant
        ? [
            {
              '@odata.id': `${powerUri}#/Redundancy/0`,
              MemberId: '0',
              Name: 'PowerSupply Redundancy Group 1',
              Mode: 'N+m',
              MinNumNeeded: red.min,
              MaxNumSupported: red.max,
              RedundancySet: psus.map((_, i) => ({ '@odata.id': `${powerUri}#/PowerSupplies/${i}` })),
              Status: { State: 'Enabled', Health: red.health },
            },
          ]
        : [],
      Oem: {
        [OEM]: {
          HasPowerMetering: true,
          // The meters read the whole server's input; CPUs, DIMMs and GPUs are not metered apart.
          HasCpuPowerMetering: false,
          HasDimmPowerMetering: false,
          HasGpuPowerMetering: false,
          MinimumSafelyAchievableCap: range.min,
          MinimumSafelyAchievableCapValid: true,
          Links: powerMeterLinks(powerUri),
        },
      },
    };
  }

  function patchPower(ctx: PatchContext<PowerPath, typeof PowerType.properties>): void {
    // DSP0266: [{}] leaves the element as it is (resolved to the current one before the handler).
    const wanted = ctx.body.PowerControl?.[0]?.PowerLimit;
    if (!wanted) return;
    const { LimitInWatts: watts, LimitException: exception } = wanted;
    checkLimit(watts, 'PowerControl/0/PowerLimit/LimitInWatts');
    d.power.setLimit({
      ...(watts !== undefined ? { limitInWatts: watts } : {}),
      ...(exception !== undefined ? { limitException: exception } : {}),
    });
  }

  /** A new limit in watts must lie in the range the controller accepts (an unchanged one stays whatever the range). */
  function checkLimit(watts: number | null | undefined, path: string): void {
    if (watts === undefined || watts === null || watts === d.power.limitWatts()) return;
    const { min, max } = d.power.limitRange();
    if (watts < min || watts > max) throw baseError('PropertyValueOutOfRange', String(watts), path).about(path);
  }

  function getControl() {
    const limit = d.power.limitWatts();
    const range = d.power.limitRange();
    return {
      Id: POWER_LIMIT_CONTROL,
      Name: 'Server Power Limit',
      Description: "The server's power limit (Power's PowerControl PowerLimit)",
      ControlType: 'Power',
      ControlMode: limit === null ? 'Disabled' : 'Automatic',
      SetPoint: limit,
      SetPointUnits: 'W',
      SetPointType: 'Single',
      AllowableMin: range.min,
      AllowableMax: range.max,
      Implementation: 'Programmable',
      ControlDelaySeconds: LIMIT_CORRECTION_MS / 1000,
      PhysicalContext: 'Chassis',
      Sensor: { DataSourceUri: `${sensorsUri}PowerConsumption/`, Reading: d.power.reading().consumedWatts },
      RelatedItem: [{ '@odata.id': chassis }, { '@odata.id': `${powerUri}#/PowerControl/0` }],
      Status: { State: limit === null ? 'Disabled' : 'Enabled', Health: 'OK' },
    };
  }

  function patchControl(ctx: PatchContext<ControlPath, typeof ControlType.properties>): void {
    const { SetPoint, ControlMode } = ctx.body;
    // Integral watts, as LimitInWatts holds them.
    if (SetPoint !== undefined && SetPoint !== null && !Number.isInteger(SetPoint)) {
      throw baseError('PropertyValueFormatError', String(SetPoint), 'SetPoint').about('SetPoint');
    }
    checkLimit(SetPoint, 'SetPoint');
    const disable = ControlMode === 'Disabled' || SetPoint === null;
    if (!disable && ControlMode === 'Automatic' && SetPoint === undefined && d.power.limitWatts() === null) {
      // Enabled with no limit to hold: the client must say which.
      throw baseError('PropertyMissing', 'SetPoint').about('SetPoint');
    }
    if (disable && SetPoint !== undefined && SetPoint !== null) {
      throw baseError('PropertyValueConflict', 'ControlMode', 'SetPoint').about('ControlMode');
    }
    if (disable) d.power.setLimit({ limitInWatts: null });
    else if (SetPoint !== undefined) d.power.setLimit({ limitInWatts: SetPoint });
  }

  function getPowerSubsystem() {
    const red = redundancy();
    const { requested, allocated } = allocation();
    return {
      Id: 'PowerSubsystem',
      Name: 'Power Subsystem',
      Description: 'Power supplies of the chassis',
      CapacityWatts: d.power.capacityWatts(),
      Allocation: { RequestedWatts: requested, AllocatedWatts: allocated },
      PowerSupplies: { '@odata.id': suppliesUri },
      PowerSupplyRedundancy: redundant
        ? [
            {
              RedundancyType: 'NPlusM',
              MaxSupportedInGroup: red.max,
              MinNeededInGroup: red.min,
              RedundancyGroup: psus.map((p) => ({ '@odata.id': supplyUri(p) })),
              Status: { State: 'Enabled', Health: red.health },
            },
          ]
        : [],
      Status: { State: 'Enabled', Health: red.health },
    };
  }

  function showSupply(p: Psu) {
    return {
      Id: String(p.bay),
      Name: `Power Supply ${p.bay}`,
      PowerSupplyType: 'AC',
      PowerCapacityWatts: p.capacityWatts,
      Manufacturer: p.manufacturer,
      Model: p.model,
      SerialNumber: p.serialNumber,
      PartNumber: p.partNumber,
      FirmwareVersion: p.firmwareVersion,
      HotPluggable: true,
      Replaceable: true,
      Location: { PartLocation: { ServiceLabel: `Power Supply ${p.bay}`, LocationType: 'Bay', LocationOrdinalValue: p.bay } },
      InputRanges: [{ NominalVoltageType: 'AC200To240V', CapacityWatts: p.capacityWatts }],
      EfficiencyRatings: [{ LoadPercent: 50, EfficiencyPercent: p.efficiencyPercent }],
      Metrics: { '@odata.id': `${supplyUri(p)}Metrics/` },
      Status: psuStatus(p),
    };
  }

  function getSupplyMetrics(ctx: Context<'/redfish/v1/Chassis/{ChassisId}/PowerSubsystem/PowerSupplies/{PowerSupplyId}/Metrics/'>) {
    const i = psus.findIndex((p) => String(p.bay) === ctx.params.PowerSupplyId);
    const p = present(psus[i], ctx);
    const status = psuStatus(p);
    return {
      Id: 'Metrics',
      Name: `Power Supply ${p.bay} Metrics`,
      InputVoltage: { DataSourceUri: `${supplyUri(p)}Metrics/`, Reading: psuCarriesLoad(status) ? LINE_VOLTS : 0 },
      OutputPowerWatts: { DataSourceUri: `${sensorsUri}${psuSensorId(p.bay)}/`, Reading: d.power.reading().psuWatts[i] ?? 0 },
      Status: status,
    };
  }

  /** Every sensor, read at one instant. */
  function sensorEntries(): SensorEntry[] {
    const snap = d.thermal.snapshot();
    const power = d.power.readings();
    const temps = snap.temperatures.map(({ spec, celsius }) => ({ id: temperatureSensorId(spec), body: temperatureSensor(spec, celsius) }));
    const fans = snap.fans.map(({ spec, rpm }) => ({ id: fanSensorId(spec), body: fanSensor(spec, rpm) }));
    const watts = power.map((r, i) => {
      const psu = i === 0 ? undefined : psus[i - 1];
      return {
        id: r.id,
        body: {
          Id: r.id,
          Name: r.name,
          ReadingType: 'Power',
          Reading: r.reading,
          ReadingUnits: 'W',
          ReadingRangeMin: 0,
          ReadingRangeMax: psu ? psu.capacityWatts : d.power.capacityWatts(),
          PhysicalContext: psu ? 'PowerSupply' : 'Chassis',
          RelatedItem: [{ '@odata.id': psu ? supplyUri(psu) : `${chassis}` }],
          Status: psu ? psuStatus(psu) : { State: 'Enabled', Health: 'OK' },
        },
      };
    });
    return [...temps, ...fans, ...watts];
  }

  function temperatureSensor(spec: TemperatureSpec, celsius: number) {
    return {
      Id: temperatureSensorId(spec),
      Name: spec.name,
      ReadingType: 'Temperature',
      Reading: celsius,
      ReadingUnits: 'Cel',
      ReadingRangeMin: 0,
      ReadingRangeMax: 130,
      PhysicalContext: spec.context,
      Thresholds: {
        ...(spec.upperCaution !== undefined ? { UpperCaution: tripAt(spec.upperCaution, 'Increasing') } : {}),
        UpperCritical: tripAt(spec.upperCritical, 'Increasing'),
        ...(spec.upperFatal !== undefined ? { UpperFatal: tripAt(spec.upperFatal, 'Increasing') } : {}),
        ...userThresholds(spec),
      },
      RelatedItem: [{ '@odata.id': `${chassis}ThermalSubsystem/` }],
      Status: { State: 'Enabled', Health: temperatureHealth(spec, celsius) },
    };
  }

  /** The user temperature thresholds in force on this sensor; one clears once the reading is HYSTERESIS_C below it. */
  function userThresholds(spec: TemperatureSpec) {
    const effective = d.userTempThresholds.effective();
    const on = (x: UserTempThreshold | null) =>
      x?.SensorNumber === spec.number ? { ...tripAt(x.ThresholdCelsius, 'Increasing'), HysteresisReading: HYSTERESIS_C } : undefined;
    const caution = on(effective.Warning);
    const critical = on(effective.Critical);
    return { ...(caution ? { UpperCautionUser: caution } : {}), ...(critical ? { UpperCriticalUser: critical } : {}) };
  }

  function fanSensor(spec: FanSpec, rpm: number) {
    return {
      Id: fanSensorId(spec),
      Name: spec.name,
      ReadingType: 'Rotational',
      Reading: rpm,
      ReadingUnits: 'RPM',
      ReadingRangeMin: 0,
      ReadingRangeMax: spec.maxRpm,
      PhysicalContext: 'Fan',
      Thresholds: { LowerCritical: tripAt(spec.lowerCritical, 'Decreasing') },
      RelatedItem: [{ '@odata.id': `${chassis}ThermalSubsystem/` }],
      Status: { State: 'Enabled', Health: fanHealth(spec, rpm) },
    };
  }

  /** Sensor ids, known without a reading (the member resolver asks them). */
  const sensorIds = new Set([
    ...d.thermal.temperatureSpecs.map(temperatureSensorId),
    ...d.thermal.fanSpecs.map(fanSensorId),
    ...d.power.readings().map((r) => r.id),
  ]);

  function getEnvironmentMetrics() {
    const snap = d.thermal.snapshot();
    const inlet = snap.temperatures.find((t) => t.spec.context === 'Intake') ?? snap.temperatures[0];
    return {
      Id: 'EnvironmentMetrics',
      Name: 'Chassis Environment Metrics',
      ...(inlet
        ? { TemperatureCelsius: { DataSourceUri: `${sensorsUri}${temperatureSensorId(inlet.spec)}/`, Reading: inlet.celsius } }
        : {}),
      PowerWatts: { DataSourceUri: `${sensorsUri}PowerConsumption/`, Reading: d.power.reading().consumedWatts },
      FanSpeedsPercent: snap.fans.map((f) => ({
        DataSourceUri: `${sensorsUri}${fanSensorId(f.spec)}/`,
        DeviceName: f.spec.name,
        Reading: f.percent,
        SpeedRPM: f.rpm,
      })),
    };
  }

  const supplies: MemberStore<Psu, object> = {
    list: () => psus,
    get: (id) => psus.find((p) => String(p.bay) === id),
    id: (p) => String(p.bay),
  };
  const supplyExists = (id: string) => psus.some((p) => String(p.bay) === id);
  const sensors: MemberStore<{ id: string }, object> = {
    list: () => [...sensorIds].map((id) => ({ id })),
    get: (id) => (sensorIds.has(id) ? { id } : undefined),
    id: (s) => s.id,
  };
  // Read at the request's instant, so the member agrees with Thermal and Power read at the same time.
  const sensorBody = (s: { id: string }) => sensorEntries().find((e) => e.id === s.id)!.body;
  const controls: MemberStore<string, object> = {
    list: () => [POWER_LIMIT_CONTROL],
    get: (id) => (id === POWER_LIMIT_CONTROL ? id : undefined),
    id: (c) => c,
  };
  // The rules and privilege of the PowerLimit it is.
  const updateControl = (_id: string, ctx: PatchContext<ControlPath, typeof ControlType.properties>) => patchControl(ctx);
  return {
    getPower,
    patchPower,
    getPowerSubsystem,
    supplies,
    supplyExists,
    showSupply,
    getSupplyMetrics,
    sensors,
    sensorBody,
    controls,
    getControl,
    updateControl,
    getEnvironmentMetrics,
  };
}

export function registerPowerRoutes(routes: RouteTable, d: PowerDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/Power/',
    type: PowerType,
    get: { privilege: Priv.login, handler: h.getPower },
    patch: { privilege: Priv.powerLimit, handler: h.patchPower },
  });
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/PowerSubsystem/',
    type: PowerSubsystemType,
    get: { privilege: Priv.login, handler: h.getPowerSubsystem },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/PowerSubsystem/PowerSupplies/',
    member: '/redfish/v1/Chassis/{ChassisId}/PowerSubsystem/PowerSupplies/{PowerSupplyId}/',
    type: PowerSupplyType,
    name: 'Power Supply Collection',
    store: h.supplies,
    show: h.showSupply,
    privileges: { read: Priv.login },
  });
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/PowerSubsystem/PowerSupplies/{PowerSupplyId}/Metrics/',
    type: PowerSupplyMetricsType,
    params: { PowerSupplyId: h.supplyExists },
    get: { privilege: Priv.login, handler: h.getSupplyMetrics },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/Sensors/',
    member: '/redfish/v1/Chassis/{ChassisId}/Sensors/{SensorId}/',
    type: SensorType,
    name: 'Sensor Collection',
    store: h.sensors,
    show: h.sensorBody,
    privileges: { read: Priv.login },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/Controls/',
    member: '/redfish/v1/Chassis/{ChassisId}/Controls/{ControlId}/',
    type: ControlType,
    name: 'Control Collection',
    store: h.controls,
    show: h.getControl,
    update: { handler: h.updateControl },
    privileges: { read: Priv.login, write: Priv.powerLimit },
  });
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/EnvironmentMetrics/',
    type: EnvironmentMetricsType,
    get: { privilege: Priv.login, handler: h.getEnvironmentMetrics },
  });
}

/** Temperatures are named apart from fans and power readings of the same id. */
export function temperatureSensorId(spec: TemperatureSpec): string {
  return `${spec.id}Temp`;
}

export function fanSensorId(spec: FanSpec): string {
  return spec.id;
}
