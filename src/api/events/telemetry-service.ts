// TelemetryService: the periodic metric report of the simulated sensors, its
// definition (schedule, enable) and the latest report. Reports also go to
// EventFormatType MetricReport subscribers and SSE streams (src/domain/event-metric-reports.ts).
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
          { MetricId: ro(t.string()), MetricValue: ro(t.string()), Timestamp: ro(t.dateTime()), MetricProperty: ro(t.string()) },
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
    Status: statusProp,
  },
});

/** What the telemetry service reads. */
export type TelemetryServiceDeps = Pick<Services, 'metricReports'>;

function handlers(d: TelemetryServiceDeps) {
  const reports = d.metricReports;
  return { getTelemetryService, getDefinitionCollection, getDefinition, patchDefinition, getReportCollection, getReport };

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
}
