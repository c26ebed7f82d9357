// TelemetryService: the periodic metric report of the simulated sensors, its
// definition (schedule, enable) and the latest report. Reports also go to
// EventFormatType MetricReport subscribers and SSE streams (src/domain/event-metric-reports.ts).
import {
  DEFINITIONS_URI,
  MIN_INTERVAL_SECONDS,
  REPORTS_URI,
  SENSOR_REPORT_ID,
  TELEMETRY_URI,
  definitionUri,
  formatDuration,
  parseDuration,
  reportUri,
} from '../../domain/events/metric-reports.js';
import { Priv } from '../../lib/privileges.js';
import { baseError } from '../../messages/errors.js';
import { collectionOf, defineType, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { collection } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const MetricReportType = defineType({
  name: 'MetricReport',
  version: '1.3.0',
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
  version: '1.3.0',
  owner: 'DMTF',
  description: 'What a metric report contains and when it is generated.',
  properties: {
    ...commonProps,
    MetricReportDefinitionType: ro(t.enum(['Periodic', 'OnChange', 'OnRequest'])),
    MetricReportDefinitionEnabled: t.boolean(),
    ReportActions: ro(t.array(t.enum(['LogToMetricReportsCollection', 'RedfishEvent']))),
    ReportUpdates: ro(t.enum(['Overwrite', 'AppendWrapsWhenFull', 'AppendStopsWhenFull', 'NewReport'])),
    Schedule: t.object({ RecurrenceInterval: t.string({ description: `ISO 8601 duration, at least PT${MIN_INTERVAL_SECONDS}S.` }) }, { typeName: 'Schedule' }),
    Metrics: ro(t.array(t.object({ MetricId: ro(t.string()), MetricProperties: ro(t.array(t.string())) }, { typeName: 'Metric' }))),
    MetricReport: t.link({ readOnly: true }),
    Status: statusProp,
  },
});

export const TelemetryServiceType = defineType({
  name: 'TelemetryService',
  version: '1.2.1',
  owner: 'DMTF',
  description: 'Metric reports of the server\'s sensors.',
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


export function registerTelemetryServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.TelemetryService = TELEMETRY_URI;
  const reports = s.metricReports;

  routes.add({
    path: TELEMETRY_URI,
    type: TelemetryServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'TelemetryService',
        Name: 'Telemetry Service',
        Description: 'Metric reports of the server sensors',
        ServiceEnabled: true,
        MinCollectionInterval: formatDuration(MIN_INTERVAL_SECONDS),
        SupportedCollectionFunctions: [],
        MetricReportDefinitions: { '@odata.id': DEFINITIONS_URI },
        MetricReports: { '@odata.id': REPORTS_URI },
        Status: { State: 'Enabled', Health: 'OK' },
      }),
    },
  });

  routes.add({
    path: DEFINITIONS_URI,
    type: collectionOf(MetricReportDefinitionType),
    get: { privilege: Priv.login, handler: () => collection('Metric Report Definitions', [definitionUri(SENSOR_REPORT_ID)]) },
  });

  routes.add({
    path: `${DEFINITIONS_URI}{MetricReportId}/`,
    type: MetricReportDefinitionType,
    params: { MetricReportId: (id) => id === SENSOR_REPORT_ID },
    get: {
      privilege: Priv.login,
      handler: () => {
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
          ...(reports.latest() ? { MetricReport: { '@odata.id': reportUri(SENSOR_REPORT_ID) } } : {}),
          Status: { State: sched.enabled ? 'Enabled' : 'Disabled', Health: 'OK' },
        };
      },
    },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const body = ctx.body as { MetricReportDefinitionEnabled?: boolean; Schedule?: { RecurrenceInterval?: string } };
        const patch: { enabled?: boolean; intervalSeconds?: number } = {};
        if (body.MetricReportDefinitionEnabled !== undefined) patch.enabled = body.MetricReportDefinitionEnabled;
        const interval = body.Schedule?.RecurrenceInterval;
        if (interval !== undefined) {
          const seconds = parseDuration(interval);
          if (seconds === undefined) throw baseError('PropertyValueFormatError', interval, 'Schedule/RecurrenceInterval').about('Schedule/RecurrenceInterval');
          if (seconds < MIN_INTERVAL_SECONDS || seconds > 86400 || !Number.isInteger(seconds)) {
            throw baseError('PropertyValueOutOfRange', interval, 'Schedule/RecurrenceInterval').about('Schedule/RecurrenceInterval');
          }
          patch.intervalSeconds = seconds;
        }
        reports.update(patch);
      },
    },
  });

  routes.add({
    path: REPORTS_URI,
    type: collectionOf(MetricReportType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Metric Reports', reports.latest() ? [reportUri(SENSOR_REPORT_ID)] : []),
    },
  });

  routes.add({
    path: `${REPORTS_URI}{MetricReportId}/`,
    type: MetricReportType,
    params: { MetricReportId: (id) => id === SENSOR_REPORT_ID && reports.latest() !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const latest = present(reports.latest(), ctx);
        const { ['@odata.id']: _id, ['@odata.type']: _type, ...body } = latest;
        return body;
      },
    },
  });
}
