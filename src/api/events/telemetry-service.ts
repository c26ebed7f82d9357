// TelemetryService: the periodic metric report of the simulated sensors, its
// definition (schedule, enable) and the latest report. Reports also go to
// EventFormatType MetricReport subscribers and SSE streams (src/domain/event-metric-reports.ts).
// A metric definition describes each sensor the report carries; the user
// temperature thresholds in force (VendorThermalExt.SetUserTempThreshold) are
// its triggers, as they log and send an event when crossed.
import { ALERT_TYPES, HYSTERESIS_C, type AlertType } from '../../domain/chassis/thermal-thresholds.js';
import { MIN_INTERVAL_SECONDS, SENSOR_REPORT_ID, formatDuration, parseDuration } from '../../domain/events/metric-reports.js';
import { Priv } from '../../lib/privileges.js';
import { serviceUris } from '../../lib/resource-uris.js';
import { baseError } from '../../protocol/errors.js';
import { collectionOf, defineType, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { collection } from '../../protocol/reply.js';
import { present, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const MetricReportType = defineType({
  name: 'MetricReport',
  version: '1.5.2',
  owner: 'DMTF',
  description: 'The latest readings of a metric report definition.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    ReportSequence: ro(t.string()),
    Timestamp: ro(t.dateTime()),
    MetricReportDefinition: t.link({ readOnly: true }),
    MetricValues: ro(
      t.array(
        t.object(
          {
            MetricId: ro(t.string()),
            MetricValue: ro(t.string()),
            Timestamp: ro(t.dateTime()),
            MetricProperty: ro(t.string()),
            MetricDefinition: t.link({ readOnly: true }),
          },
          { typeName: 'MetricValue' },
        ),
      ),
    ),
  },
});

export const MetricReportDefinitionType = defineType({
  name: 'MetricReportDefinition',
  version: '1.4.7',
  owner: 'DMTF',
  description: 'What a metric report contains and when it is generated.',
  properties: {
    ...commonProps,
    MetricReportDefinitionType: ro(t.enum(['Periodic', 'OnChange', 'OnRequest'])),
    MetricReportDefinitionEnabled: t.boolean(),
    ReportActions: ro(t.array(t.enum(['LogToMetricReportsCollection', 'RedfishEvent']))),
    ReportUpdates: ro(t.enum(['Overwrite', 'AppendWrapsWhenFull', 'AppendStopsWhenFull', 'NewReport'])),
    Schedule: t.object(
      { RecurrenceInterval: t.string({ description: `ISO 8601 duration, at least PT${MIN_INTERVAL_SECONDS}S.` }) },
      { typeName: 'Schedule' },
    ),
    Metrics: ro(t.array(t.object({ MetricId: ro(t.string()), MetricProperties: ro(t.array(t.string())) }, { typeName: 'Metric' }))),
    MetricReport: t.link({ readOnly: true }),
    Status: statusProp,
  },
});

export const MetricDefinitionType = defineType({
  name: 'MetricDefinition',
  version: '1.3.5',
  owner: 'DMTF',
  description: 'What one metric of the reports is: the sensor it reads, its units and how readings combine.',
  properties: {
    ...commonProps,
    MetricType: ro(t.enum(['Numeric'])),
    MetricDataType: ro(t.enum(['Decimal'])),
    Units: ro(t.string()),
    Implementation: ro(t.enum(['PhysicalSensor'])),
    IsLinear: ro(t.boolean()),
    Calculable: ro(t.enum(['Summable', 'NonSummable'])),
    MetricProperties: ro(t.array(t.string())),
  },
});

export const TriggersType = defineType({
  name: 'Triggers',
  version: '1.4.0',
  owner: 'DMTF',
  description: 'A user temperature threshold in force: crossing it upwards logs an IML record and sends an event.',
  properties: {
    ...commonProps,
    MetricType: ro(t.enum(['Numeric'])),
    TriggerActions: ro(t.array(t.enum(['LogToLogService', 'RedfishEvent']))),
    MetricIds: ro(t.array(t.string())),
    MetricProperties: ro(t.array(t.string())),
    NumericThresholds: ro(
      t.object(
        Object.fromEntries(
          ['UpperWarning', 'UpperCritical'].map((k) => [
            k,
            t.object(
              { Reading: ro(t.number()), Activation: ro(t.enum(['Increasing'])), DwellTime: ro(t.string()) },
              { typeName: 'Threshold' },
            ),
          ]),
        ),
        { typeName: 'Thresholds' },
      ),
    ),
    HysteresisReading: ro(t.number()),
    Status: statusProp,
  },
});

export const TelemetryServiceType = defineType({
  name: 'TelemetryService',
  version: '1.4.1',
  owner: 'DMTF',
  description: "Metric reports of the server's sensors.",
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    MinCollectionInterval: ro(t.string()),
    SupportedCollectionFunctions: ro(t.array(t.string())),
    MetricReportDefinitions: t.link({ readOnly: true }),
    MetricReports: t.link({ readOnly: true }),
    MetricDefinitions: t.link({ readOnly: true }),
    Triggers: t.link({ readOnly: true }),
    MaxReports: ro(t.integer()),
    Status: statusProp,
  },
});

/** What the telemetry service reads. */
export type TelemetryServiceDeps = Pick<Services, 'metricReports' | 'userTempThresholds' | 'thermal'>;

/** The trigger of each user temperature threshold. */
const TRIGGER_IDS: Readonly<Record<AlertType, string>> = { Warning: 'UserTempWarning', Critical: 'UserTempCritical' };

function handlers(d: TelemetryServiceDeps) {
  const reports = d.metricReports;
  return {
    getTelemetryService,
    getDefinitionCollection,
    getDefinition,
    patchDefinition,
    getReportCollection,
    getReport,
    getMetricDefinitionCollection,
    getMetricDefinition,
    getTriggerCollection,
    getTrigger,
    isMetric: (id: string) => reports.sensorReadings().some((r) => r.id === id),
    isTrigger: (id: string) => triggers().some((x) => x.id === id),
  };

  function getTelemetryService() {
    return {
      Id: 'TelemetryService',
      Name: 'Telemetry Service',
      Description: 'Metric reports of the server sensors',
      ServiceEnabled: true,
      MinCollectionInterval: formatDuration(MIN_INTERVAL_SECONDS),
      SupportedCollectionFunctions: [],
      MetricReportDefinitions: { '@odata.id': '/redfish/v1/TelemetryService/MetricReportDefinitions/' },
      MetricReports: { '@odata.id': '/redfish/v1/TelemetryService/MetricReports/' },
      MetricDefinitions: { '@odata.id': '/redfish/v1/TelemetryService/MetricDefinitions/' },
      Triggers: { '@odata.id': '/redfish/v1/TelemetryService/Triggers/' },
      // Only the latest report of the one definition is kept.
      MaxReports: 1,
      Status: { State: 'Enabled', Health: 'OK' },
    };
  }

  function getDefinitionCollection() {
    return collection('Metric Report Definitions', [serviceUris.metricReportDefinition(SENSOR_REPORT_ID)]);
  }

  function getDefinition() {
    const sched = reports.settings();
    return {
      Id: SENSOR_REPORT_ID,
      Name: 'Sensor readings',
      Description: 'Every temperature, fan and power sensor of the server, periodically.',
      MetricReportDefinitionType: 'Periodic',
      MetricReportDefinitionEnabled: sched.enabled,
      ReportActions: ['LogToMetricReportsCollection', 'RedfishEvent'],
      ReportUpdates: 'Overwrite',
      Schedule: { RecurrenceInterval: formatDuration(sched.intervalSeconds) },
      Metrics: reports.metrics(),
      // Linked once the first report exists, so the link always resolves.
      ...(reports.latest() ? { MetricReport: { '@odata.id': serviceUris.metricReport(SENSOR_REPORT_ID) } } : {}),
      Status: { State: sched.enabled ? 'Enabled' : 'Disabled', Health: 'OK' },
    };
  }

  function patchDefinition(
    ctx: PatchContext<
      '/redfish/v1/TelemetryService/MetricReportDefinitions/{MetricReportId}/',
      typeof MetricReportDefinitionType.properties
    >,
  ): void {
    const patch: { enabled?: boolean; intervalSeconds?: number } = {};
    if (ctx.body.MetricReportDefinitionEnabled !== undefined) patch.enabled = ctx.body.MetricReportDefinitionEnabled;
    const interval = ctx.body.Schedule?.RecurrenceInterval;
    if (interval !== undefined) patch.intervalSeconds = intervalSeconds(interval);
    reports.update(patch);
  }

  function getReportCollection() {
    return collection('Metric Reports', reports.latest() ? [serviceUris.metricReport(SENSOR_REPORT_ID)] : []);
  }

  function getReport(ctx: Context<'/redfish/v1/TelemetryService/MetricReports/{MetricReportId}/'>) {
    const latest = present(reports.latest(), ctx);
    const { ['@odata.id']: _id, ['@odata.type']: _type, ...body } = latest;
    return body;
  }

  function getMetricDefinitionCollection() {
    return collection(
      'Metric Definitions',
      reports.metrics().map((m) => serviceUris.metricDefinition(m.MetricId)),
    );
  }

  function getMetricDefinition(ctx: Context<'/redfish/v1/TelemetryService/MetricDefinitions/{MetricDefinitionId}/'>) {
    const sensor = present(
      d.metricReports.sensorReadings().find((r) => r.id === ctx.params.MetricDefinitionId),
      ctx,
    );
    return {
      Id: sensor.id,
      Name: sensor.name,
      MetricType: 'Numeric',
      MetricDataType: 'Decimal',
      Units: sensor.units,
      Implementation: 'PhysicalSensor',
      IsLinear: true,
      // Watts of several supplies add up; temperatures and fan speeds do not.
      Calculable: sensor.kind === 'Power' ? 'Summable' : 'NonSummable',
      MetricProperties: [sensor.uri],
    };
  }

  /** The user temperature thresholds in force, with the sensor each watches. */
  function triggers() {
    const effective = d.userTempThresholds.effective();
    const exceeded = d.userTempThresholds.exceeded();
    const specs = d.thermal.temperatureSpecs;
    const readings = d.thermal.readings();
    return ALERT_TYPES.flatMap((alert) => {
      const threshold = effective[alert];
      if (!threshold) return [];
      const sensorId = specs.find((s) => s.number === threshold.SensorNumber)?.id;
      const sensor = readings.find((r) => r.kind === 'Temperature' && r.id === sensorId);
      return sensor ? [{ id: TRIGGER_IDS[alert], alert, threshold, sensor, exceeded: exceeded[alert] }] : [];
    });
  }

  function getTriggerCollection() {
    return collection(
      'Triggers',
      triggers().map((x) => serviceUris.trigger(x.id)),
    );
  }

  function getTrigger(ctx: Context<'/redfish/v1/TelemetryService/Triggers/{TriggerId}/'>) {
    const x = present(
      triggers().find((y) => y.id === ctx.params.TriggerId),
      ctx,
    );
    return {
      Id: x.id,
      Name: `User temperature ${x.alert.toLowerCase()} threshold`,
      Description: `${x.threshold.SensorName} above ${x.threshold.ThresholdCelsius} Cel`,
      MetricType: 'Numeric',
      TriggerActions: ['LogToLogService', 'RedfishEvent'],
      MetricIds: [x.sensor.id],
      MetricProperties: [x.sensor.uri],
      NumericThresholds: {
        [x.alert === 'Critical' ? 'UpperCritical' : 'UpperWarning']: {
          Reading: x.threshold.ThresholdCelsius,
          Activation: 'Increasing',
          DwellTime: 'PT0S',
        },
      },
      HysteresisReading: HYSTERESIS_C,
      Status: { State: 'Enabled', Health: x.exceeded ? x.alert : 'OK' },
    };
  }
}

/** A RecurrenceInterval as whole seconds, within the allowed range. */
function intervalSeconds(interval: string): number {
  const seconds = parseDuration(interval);
  if (seconds === undefined)
    throw baseError('PropertyValueFormatError', interval, 'Schedule/RecurrenceInterval').about('Schedule/RecurrenceInterval');
  if (seconds < MIN_INTERVAL_SECONDS || seconds > 86400 || !Number.isInteger(seconds)) {
    throw baseError('PropertyValueOutOfRange', interval, 'Schedule/RecurrenceInterval').about('Schedule/RecurrenceInterval');
  }
  return seconds;
}

export function registerTelemetryServiceRoutes(routes: RouteTable, d: TelemetryServiceDeps): void {
  const h = handlers(d);
  const reports = d.metricReports;

  routes.add({
    path: '/redfish/v1/TelemetryService/',
    type: TelemetryServiceType,
    get: { privilege: Priv.login, handler: h.getTelemetryService },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricReportDefinitions/',
    type: collectionOf(MetricReportDefinitionType),
    get: { privilege: Priv.login, handler: h.getDefinitionCollection },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricReportDefinitions/{MetricReportId}/',
    type: MetricReportDefinitionType,
    params: { MetricReportId: (id) => id === SENSOR_REPORT_ID },
    get: { privilege: Priv.login, handler: h.getDefinition },
    patch: { privilege: Priv.managerConfig, handler: h.patchDefinition },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricReports/',
    type: collectionOf(MetricReportType),
    get: { privilege: Priv.login, handler: h.getReportCollection },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricReports/{MetricReportId}/',
    type: MetricReportType,
    params: { MetricReportId: (id) => id === SENSOR_REPORT_ID && reports.latest() !== undefined },
    get: { privilege: Priv.login, handler: h.getReport },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricDefinitions/',
    type: collectionOf(MetricDefinitionType),
    get: { privilege: Priv.login, handler: h.getMetricDefinitionCollection },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/MetricDefinitions/{MetricDefinitionId}/',
    type: MetricDefinitionType,
    params: { MetricDefinitionId: h.isMetric },
    get: { privilege: Priv.login, handler: h.getMetricDefinition },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/Triggers/',
    type: collectionOf(TriggersType),
    get: { privilege: Priv.login, handler: h.getTriggerCollection },
  });
  routes.add({
    path: '/redfish/v1/TelemetryService/Triggers/{TriggerId}/',
    type: TriggersType,
    params: { TriggerId: h.isTrigger },
    get: { privilege: Priv.login, handler: h.getTrigger },
  });
}
