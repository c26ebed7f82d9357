// EventService and subscriptions over HTTPS: the resource (issue 8 point 1),
// subscription create/read/patch/delete, limits and persistence (point 2),
// SubmitTestEvent validation (point 4) and the event registries (point 5).
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { after, before, describe, it } from 'node:test';
import { insecureAgent, messageIds, startTestService, type TestService } from '../../support/service.js';

const ES = '/redfish/v1/EventService/';
const SUBS = '/redfish/v1/EventService/Subscriptions/';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';

describe('EventService', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxSubscriptions: 3 } });
  });
  after(() => svc.close());

  it('shows the service with its defaults, prefixes, SSE URI and test action (point 1)', async () => {
    const r = await svc.get(ES);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#EventService.v1_12_0.EventService');
    assert.equal(r.body.ServiceEnabled, true);
    assert.equal(r.body.DeliveryRetryAttempts, 3);
    assert.equal(r.body.DeliveryRetryIntervalSeconds, 30);
    assert.deepEqual(r.body.EventFormatTypes, ['Event', 'MetricReport']);
    // iLO's clients read the event types a subscription may name here; the test event takes the same.
    assert.deepEqual(
      r.body.EventTypesForSubscription,
      r.body.Actions['#EventService.SubmitTestEvent']['EventType@Redfish.AllowableValues'],
    );
    assert.ok(r.body.EventTypesForSubscription.includes('Alert'));
    for (const p of ['Base', 'ResourceEvent', 'TaskEvent', 'VendorResourceEvents', 'StorageDevice'])
      assert.ok(r.body.RegistryPrefixes.includes(p), p);
    assert.equal(r.body.ServerSentEventUri, '/redfish/v1/EventService/SSE/');
    assert.deepEqual(r.body.Subscriptions, { '@odata.id': SUBS });
    assert.equal(r.body.Actions['#EventService.SubmitTestEvent'].target, `${ES}Actions/EventService.SubmitTestEvent/`);
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    assert.deepEqual(root.body.EventService, { '@odata.id': ES });
  });

  it('lists every prefix it can emit under $select=RegistryPrefixes, each one served as a registry', async () => {
    const r = await svc.get(`${ES}?$select=RegistryPrefixes`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      Object.keys(r.body).filter((k) => !k.startsWith('@')),
      ['RegistryPrefixes'],
    );
    for (const prefix of r.body.RegistryPrefixes) {
      const reg = await svc.get(`/redfish/v1/Registries/${prefix}/`);
      assert.equal(reg.status, 200, prefix);
    }
  });

  it('serves the vendor resource-event and StorageDevice registries as gzip files (point 5, Events 7)', async () => {
    for (const [prefix, key] of [
      ['StorageDevice', 'DrvArrLogDrvErasing'],
      ['VendorResourceEvents', 'AccountCreated'],
    ] as const) {
      const res = await request(`${svc.url}/redfish/v1/RegistryStore/registries/en/${prefix}.json`, {
        headers: { 'x-auth-token': await svc.adminToken() },
        dispatcher: insecureAgent,
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      const doc = JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
      assert.equal(doc.RegistryPrefix, prefix);
      assert.ok(doc.Messages[key], key);
    }
  });

  it('PATCHes the retry settings and checks their range', async () => {
    let r = await svc.req('PATCH', ES, { body: { DeliveryRetryAttempts: 5, DeliveryRetryIntervalSeconds: 10 } });
    assert.equal(r.status, 200);
    r = await svc.get(ES);
    assert.equal(r.body.DeliveryRetryAttempts, 5);
    assert.equal(r.body.DeliveryRetryIntervalSeconds, 10);
    r = await svc.req('PATCH', ES, { body: { DeliveryRetryIntervalSeconds: 1 } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueOutOfRange']);
    await svc.req('PATCH', ES, { body: { DeliveryRetryAttempts: 3, DeliveryRetryIntervalSeconds: 30 } });
  });

  it('with ServiceEnabled false refuses test events and SSE with 503 ServiceDisabled', async () => {
    assert.equal((await svc.req('PATCH', ES, { body: { ServiceEnabled: false } })).status, 200);
    try {
      assert.equal((await svc.get(ES)).body.Status.State, 'Disabled');
      const t = await svc.req('POST', TEST_EVENT, { body: { MessageId: 'Base.1.12.Success' } });
      assert.equal(t.status, 503);
      assert.deepEqual(messageIds(t.body), ['Base.1.12.ServiceDisabled']);
      assert.equal((await svc.get(`${ES}SSE/`)).status, 503);
    } finally {
      await svc.req('PATCH', ES, { body: { ServiceEnabled: true } });
    }
  });

  it('refuses writes from a read-only account', async () => {
    const c = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'reader', Password: 'Reader-Pass-123', RoleId: 'ReadOnly' },
    });
    assert.equal(c.status, 201);
    const auth = { user: 'reader', password: 'Reader-Pass-123' };
    assert.equal((await svc.get(ES, { auth })).status, 200);
    assert.equal((await svc.req('POST', SUBS, { auth, body: { Destination: 'https://127.0.0.1:1/x' } })).status, 403);
    assert.equal((await svc.req('POST', TEST_EVENT, { auth, body: { MessageId: 'Base.1.12.Success' } })).status, 403);
  });
});

describe('subscriptions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxSubscriptions: 3 }, keepData: true });
  });
  after(() => svc.close());

  /** The first subscription (the first test makes one; a test run alone makes it here). */
  const subscription = async (): Promise<string> => {
    const have = (await svc.get(SUBS)).body.Members[0]?.['@odata.id'];
    if (have) return have;
    const r = await svc.req('POST', SUBS, { body: { Destination: 'https://127.0.0.1:9/listener', Context: 'first' } });
    assert.equal(r.status, 201, r.text);
    return r.headers.location as string;
  };

  it('creates with 201 and Location, filling the documented defaults (point 2)', async () => {
    const r = await svc.req('POST', SUBS, { body: { Destination: 'https://127.0.0.1:9/listener', Context: 'first' } });
    assert.equal(r.status, 201);
    assert.match(r.headers.location ?? '', /^\/redfish\/v1\/EventService\/Subscriptions\/\d+\/$/);
    assert.equal(r.body['@odata.id'], r.headers.location);
    assert.equal(r.body['@odata.type'], '#EventDestination.v1_16_0.EventDestination');
    assert.equal(r.body.Protocol, 'Redfish');
    assert.equal(r.body.SubscriptionType, 'RedfishEvent');
    assert.equal(r.body.EventFormatType, 'Event');
    assert.equal(r.body.DeliveryRetryPolicy, 'RetryForever');
    assert.equal(r.body.VerifyCertificate, false);
    const es = await svc.get(ES);
    assert.deepEqual(r.body.RegistryPrefixes, es.body.RegistryPrefixes);
    assert.deepEqual(r.body.Oem.Vendor, {
      '@odata.type': '#VendorEventDestination.v1_0_0.VendorEventDestination',
      DeliveryRetryAttempts: 3,
      DeliveryRetryIntervalInSeconds: 30,
      RequestedMaxEventsToQueue: 10000,
      PendingEvents: 0,
      LastDeliveryError: null,
      '@Redfish.WriteableProperties': ['DeliveryRetryAttempts', 'DeliveryRetryIntervalInSeconds', 'RequestedMaxEventsToQueue'],
    });
    assert.deepEqual(r.body.Status, { State: 'Enabled', Health: 'OK', '@Redfish.WriteableProperties': ['State'] });
    const list = await svc.get(SUBS);
    assert.deepEqual(list.body.Members, [{ '@odata.id': r.headers.location }]);
    assert.equal(list.body['Members@odata.count'], 1);
  });

  it('keeps HttpHeaders secret: GET returns them empty (point 2)', async () => {
    const r = await svc.req('POST', SUBS, {
      body: {
        Destination: 'https://listener.example:8443/ev',
        Context: 'c',
        HttpHeaders: [{ Authorization: 'Bearer top-secret' }],
        Protocol: 'Redfish',
      },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.HttpHeaders, []);
    assert.ok(!r.text.includes('top-secret'));
    const g = await svc.get(r.headers.location as string);
    assert.deepEqual(g.body.HttpHeaders, []);
    assert.ok(!g.text.includes('top-secret'));
    await svc.req('DELETE', r.headers.location as string);
  });

  it('refuses a Destination that is not an https:// URL, and other protocols (400)', async () => {
    for (const Destination of ['http://127.0.0.1:9/x', 'ftp://h/x', 'not a url', 'https://', 'https://user:pw@host/x']) {
      const r = await svc.req('POST', SUBS, { body: { Destination, Context: 'x' } });
      assert.equal(r.status, 400, Destination);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError'], Destination);
    }
    let r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/x', Protocol: 'FTP' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    r = await svc.req('POST', SUBS, { body: { Context: 'no destination' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyMissing']);
    r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/x', RegistryPrefixes: ['NoSuchRegistry'] } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/x', HttpHeaders: [{ 'Bad Header': 'v' }] } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/x', HttpHeaders: [{ 'X-Ok': 'line\r\nbreak' }] } });
    assert.equal(r.status, 400);
    assert.ok(!r.text.includes('line'), 'the header value is never echoed');
    r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/x', SubscriptionType: 'SSE' } });
    assert.equal(r.status, 400);
  });

  it('PATCHes Context, RegistryPrefixes, HttpHeaders and DeliveryRetryPolicy, not Destination', async () => {
    const uri = await subscription();
    let r = await svc.req('PATCH', uri, {
      body: {
        Context: 'second',
        RegistryPrefixes: ['StorageDevice'],
        HttpHeaders: [{ 'X-Key': 'k' }],
        DeliveryRetryPolicy: 'SuspendRetries',
      },
    });
    assert.equal(r.status, 200);
    r = await svc.get(uri);
    assert.equal(r.body.Context, 'second');
    assert.deepEqual(r.body.RegistryPrefixes, ['StorageDevice']);
    assert.equal(r.body.DeliveryRetryPolicy, 'SuspendRetries');
    assert.deepEqual(r.body.HttpHeaders, []);
    r = await svc.req('PATCH', uri, { body: { Destination: 'https://elsewhere/x' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyNotWritable']);
    r = await svc.req('PATCH', uri, { body: { DeliveryRetryPolicy: 'Sometimes' } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    r = await svc.req('PATCH', `${SUBS}999/`, { body: { Context: 'x' } });
    assert.equal(r.status, 404);
  });

  it('suspends and resumes through Status/State and the standard actions', async () => {
    const uri = await subscription();
    let r = await svc.req('PATCH', uri, { body: { Status: { State: 'Disabled' } } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(uri)).body.Status.State, 'Disabled');
    r = await svc.req('POST', `${uri}Actions/EventDestination.ResumeSubscription/`, { body: {} });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(uri)).body.Status.State, 'Enabled');
    r = await svc.req('POST', `${uri}Actions/EventDestination.SuspendSubscription/`, { body: {} });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(uri)).body.Status.State, 'Disabled');
    await svc.req('PATCH', uri, { body: { Status: { State: 'Enabled' } } });
  });

  it('refuses subscriptions over the configured maximum with EventSubscriptionLimitExceeded', async () => {
    const have = (await svc.get(SUBS)).body['Members@odata.count'];
    for (let i = have; i < 3; i++) assert.equal((await svc.req('POST', SUBS, { body: { Destination: `https://h/${i}` } })).status, 201);
    const r = await svc.req('POST', SUBS, { body: { Destination: 'https://h/over' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.EventSubscriptionLimitExceeded']);
  });

  it('keeps subscriptions across a restart, then DELETE removes them', async () => {
    await subscription();
    const before = (await svc.get(SUBS)).body.Members;
    const first = await svc.get(before[0]['@odata.id']);
    svc = await svc.restart();
    const list = await svc.get(SUBS);
    assert.deepEqual(list.body.Members, before);
    const again = await svc.get(before[0]['@odata.id']);
    assert.equal(again.body.Context, first.body.Context);
    assert.deepEqual(again.body.RegistryPrefixes, first.body.RegistryPrefixes);
    for (const m of before) assert.equal((await svc.req('DELETE', m['@odata.id'])).status, 200);
    assert.equal((await svc.get(before[0]['@odata.id'])).status, 404);
    assert.equal((await svc.req('DELETE', before[0]['@odata.id'])).status, 404);
    assert.equal((await svc.get(SUBS)).body['Members@odata.count'], 0);
  });
});

describe('SubmitTestEvent validation (point 4)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('accepts a well-formed MessageId with the optional parameters', async () => {
    const r = await svc.req('POST', TEST_EVENT, {
      body: {
        MessageId: 'StorageDevice.2.1.DrvArrLogDrvErasing',
        EventType: 'Alert',
        Severity: 'Warning',
        Message: 'erasing',
        MessageArgs: ['1', 'Slot 3'],
        OriginOfCondition: '/redfish/v1/Systems/1/',
        EventTimestamp: '2026-11-22T08:00:00Z',
        EventId: 'abc',
        EventGroupId: 7,
      },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
  });

  it('refuses a malformed MessageId with 400 ActionParameterValueFormatError', async () => {
    for (const MessageId of ['Base.Success', 'StorageDevice.2.DrvArrLogDrvErasing', 'a b.1.0.c', '.1.0.X', 'Base.1.x.Success']) {
      const r = await svc.req('POST', TEST_EVENT, { body: { MessageId } });
      assert.equal(r.status, 400, MessageId);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError'], MessageId);
    }
    const r = await svc.req('POST', TEST_EVENT, { body: {} });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterMissing']);
    const bad = await svc.req('POST', TEST_EVENT, { body: { MessageId: 'Base.1.12.Success', EventType: 'Whatever' } });
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.ActionParameterValueNotInList']);
  });
});
