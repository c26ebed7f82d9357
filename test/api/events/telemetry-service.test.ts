// TelemetryService (issue 8 point 7): the periodic sensor metric report, its
// definition, the MetricReports collection, and delivery to MetricReport subscribers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const TS = '/redfish/v1/TelemetryService/';
const DEF = '/redfish/v1/TelemetryService/MetricReportDefinitions/SensorReadings/';
const REPORTS = '/redfish/v1/TelemetryService/MetricReports/';
const REPORT = '/redfish/v1/TelemetryService/MetricReports/SensorReadings/';

describe('TelemetryService metric reports', () => {
  let svc: TestService;
  let reports: EventListener;
  let events: EventListener;
  before(async () => {
    svc = await startTestService({ keepData: true });
    reports = await EventListener.start();
    events = await EventListener.start();
    const a = await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      body: { Destination: reports.url, Context: 'metrics', EventFormatType: 'MetricReport' },
    });
    assert.equal(a.status, 201);
    assert.equal(a.body.EventFormatType, 'MetricReport');
    const b = await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      body: { Destination: events.url, Context: 'events', RegistryPrefixes: ['StorageDevice'] },
    });
    assert.equal(b.status, 201);
  });
  after(async () => {
    await reports.close();
    await events.close();
    await svc.close();
  });

  it('is linked from the root and lists its definition', async () => {
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    assert.deepEqual(root.body.TelemetryService, { '@odata.id': TS });
    const t = await svc.get(TS);
    assert.equal(t.status, 200);
    assert.equal(t.body['@odata.type'], '#TelemetryService.v1_4_1.TelemetryService');
    assert.deepEqual(t.body.MetricReports, { '@odata.id': REPORTS });
    const defs = await svc.get(t.body.MetricReportDefinitions['@odata.id']);
    assert.deepEqual(defs.body.Members, [{ '@odata.id': DEF }]);
    const def = await svc.get(DEF);
    assert.equal(def.body.MetricReportDefinitionType, 'Periodic');
    assert.equal(def.body.Schedule.RecurrenceInterval, 'PT1M');
    assert.equal(def.body.MetricReport, undefined, 'no link before the first report');
    const sensors = svc.running.services.sensors.readings();
    assert.equal(def.body.Metrics.length, sensors.length);
  });

  it('has no report before the first period', async () => {
    assert.equal((await svc.get(REPORTS)).body['Members@odata.count'], 0);
    assert.equal((await svc.get(REPORT)).status, 404);
  });

  it('generates a report every period, readable at MetricReports and delivered to MetricReport subscribers only', async () => {
    await svc.clock.advance(60_000);
    await waitFor(() => reports.received.length === 1, 'the report delivery');
    const sent = reports.received[0]!.body;
    assert.equal(sent['@odata.type'], '#MetricReport.v1_5_2.MetricReport');
    assert.equal(sent.Context, 'metrics');
    assert.equal(sent.Id, 'SensorReadings');
    assert.deepEqual(sent.MetricReportDefinition, { '@odata.id': DEF });
    const sensors = svc.running.services.sensors.readings();
    assert.ok(sensors.length > 0, 'the simulator has sensors');
    assert.equal(sent.MetricValues.length, sensors.length);
    for (const v of sent.MetricValues) {
      const s = sensors.find((x) => x.id === v.MetricId);
      assert.ok(s, v.MetricId);
      assert.equal(v.MetricProperty, s.uri);
      assert.ok(!Number.isNaN(Number(v.MetricValue)));
    }
    const r = await svc.get(REPORT);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.id'], REPORT);
    assert.equal(r.body.ReportSequence, sent.ReportSequence);
    assert.deepEqual(r.body.MetricValues, sent.MetricValues);
    assert.deepEqual((await svc.get(REPORTS)).body.Members, [{ '@odata.id': REPORT }]);
    assert.deepEqual((await svc.get(DEF)).body.MetricReport, { '@odata.id': REPORT });
    assert.equal(events.attempts, 0, 'Event subscribers get no metric reports');
    await svc.clock.advance(60_000);
    await waitFor(() => reports.received.length === 2, 'the second report');
    assert.equal(Number(reports.received[1]!.body.ReportSequence), Number(sent.ReportSequence) + 1);
  });

  it('follows a PATCHed schedule and can be disabled', async () => {
    let r = await svc.req('PATCH', DEF, { body: { Schedule: { RecurrenceInterval: 'PT10S' } } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(DEF)).body.Schedule.RecurrenceInterval, 'PT10S');
    const before = reports.received.length;
    await svc.clock.advance(10_000);
    await waitFor(() => reports.received.length === before + 1, 'a report after 10 s');
    r = await svc.req('PATCH', DEF, { body: { Schedule: { RecurrenceInterval: 'ten seconds' } } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    r = await svc.req('PATCH', DEF, { body: { Schedule: { RecurrenceInterval: 'PT1S' } } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueOutOfRange']);
    assert.equal((await svc.req('PATCH', DEF, { body: { MetricReportDefinitionEnabled: false } })).status, 200);
    await svc.clock.advance(60_000);
    assert.equal(reports.received.length, before + 1);
    assert.equal((await svc.get(DEF)).body.Status.State, 'Disabled');
    assert.equal((await svc.req('PATCH', DEF, { body: { MetricReportDefinitionEnabled: true } })).status, 200);
  });

  it('keeps the schedule across a restart; the report starts again, as a rebooted controller’s samples do', async () => {
    assert.equal(
      (await svc.req('PATCH', DEF, { body: { Schedule: { RecurrenceInterval: 'PT10S' }, MetricReportDefinitionEnabled: true } })).status,
      200,
    );
    await svc.clock.advance(10_000);
    assert.ok(Number((await svc.get(REPORT)).body.ReportSequence) > 1, 'reports before the restart');
    svc = await svc.restart();
    assert.equal((await svc.get(DEF)).body.Schedule.RecurrenceInterval, 'PT10S');
    // Sensor samples live in memory: none until the first report after the start.
    assert.deepEqual((await svc.get(REPORTS)).body.Members, []);
    assert.equal((await svc.get(REPORT)).status, 404);
    await svc.clock.advance(10_000);
    assert.equal((await svc.get(REPORT)).body.ReportSequence, '1');
    assert.equal((await svc.get('/redfish/v1/TelemetryService/MetricReports/Other/')).status, 404);
  });
});
