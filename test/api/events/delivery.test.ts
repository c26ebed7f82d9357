// Delivery to real HTTPS listeners (issue 8 points 3, 5 and 8): headers and
// Context, prefix filtering, retries on the controller clock and each
// DeliveryRetryPolicy, a slow listener, and an outage spanning a restart.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { EventHub } from '../../../src/domain/events/hub.js';
import { issueCertificate } from '../../../src/platform/x509.js';
import { EventListener, issueListenerCertificate, waitFor } from '../../support/event-listener.js';
import { startTestService, type TestService } from '../../support/service.js';

const SUBS = '/redfish/v1/EventService/Subscriptions/';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';
const ERASING = 'StorageDevice.2.1.DrvArrLogDrvErasing';

function hubOf(svc: TestService): EventHub {
  return svc.running.services.eventHub;
}

async function subscribe(svc: TestService, body: Record<string, unknown>): Promise<string> {
  const r = await svc.req('POST', SUBS, { body });
  assert.equal(r.status, 201, r.text);
  return r.body.Id as string;
}

async function testEvent(svc: TestService, n: number | string, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await svc.req('POST', TEST_EVENT, { body: { MessageId: ERASING, MessageArgs: [String(n), 'Slot 1'], ...extra } });
  assert.equal(r.status, 200, r.text);
}

/** Wait until the listener saw `attempts` requests and the service armed its retry timer. */
async function failedAttempts(svc: TestService, l: EventListener, id: string, attempts: number): Promise<void> {
  await waitFor(() => l.attempts >= attempts && hubOf(svc).deliveryState(id).waitingForRetry, `${attempts} failed attempts`);
}

describe('event delivery', () => {
  let svc: TestService;
  const listeners: EventListener[] = [];
  const listener = async (port?: number) => {
    const l = await EventListener.start(port);
    listeners.push(l);
    return l;
  };
  before(async () => {
    svc = await startTestService({ keepData: true });
  });
  afterEach(async () => {
    for (const l of listeners.splice(0)) await l.close();
    for (const m of (await svc.get(SUBS)).body.Members) await svc.req('DELETE', m['@odata.id']);
  });
  after(() => svc.close());

  it("POSTs a Redfish Event with the subscription's headers and Context (point 3)", async () => {
    const l = await listener();
    await subscribe(svc, {
      Destination: l.url,
      Context: 'ctx-A',
      RegistryPrefixes: ['StorageDevice'],
      HttpHeaders: [{ Authorization: 'Bearer listener-secret' }, { 'X-Extra': '1' }],
    });
    await testEvent(svc, 7, { OriginOfCondition: '/redfish/v1/Systems/1/' });
    await waitFor(() => l.received.length === 1, 'one delivery');
    const d = l.received[0]!;
    assert.equal(d.headers.authorization, 'Bearer listener-secret');
    assert.equal(d.headers['x-extra'], '1');
    assert.match(String(d.headers['content-type']), /^application\/json/);
    assert.equal(d.body['@odata.type'], '#Event.v1_13_0.Event');
    assert.equal(d.body.Context, 'ctx-A');
    assert.equal(d.body.Name, 'Event Array');
    assert.equal(typeof d.body.Id, 'string');
    const e = d.body.Events[0];
    assert.equal(e.EventType, 'Alert');
    assert.match(e.EventId, /^\d+$/);
    assert.equal(e.EventTimestamp, '2026-11-22T08:00:00Z');
    assert.equal(e.Severity, 'Warning');
    assert.equal(e.MessageSeverity, 'Warning');
    assert.equal(e.MessageId, ERASING);
    assert.deepEqual(e.MessageArgs, ['7', 'Slot 1']);
    assert.equal(e.Message, 'The logical drive 7 of the array controller in Slot 1 is erasing.');
    assert.deepEqual(e.OriginOfCondition, { '@odata.id': '/redfish/v1/Systems/1/' });
  });

  it('does not contact the listener when the subscription is created (Events 2)', async () => {
    const l = await listener();
    await subscribe(svc, { Destination: l.url, Context: 'quiet', RegistryPrefixes: ['StorageDevice'] });
    await svc.get(SUBS);
    assert.equal(l.attempts, 0);
  });

  it('delivers only to subscriptions whose RegistryPrefixes hold the prefix (Events 3)', async () => {
    const storage = await listener();
    const base = await listener();
    const all = await listener();
    await subscribe(svc, { Destination: storage.url, Context: 's', RegistryPrefixes: ['StorageDevice'] });
    await subscribe(svc, { Destination: base.url, Context: 'b', RegistryPrefixes: ['Base'] });
    await subscribe(svc, { Destination: all.url, Context: 'all' });
    await testEvent(svc, 1);
    await svc.req('POST', TEST_EVENT, { body: { MessageId: 'Base.1.12.Success' } });
    await waitFor(
      () => storage.received.length === 1 && base.received.length === 1 && all.messageIds().includes('Base.1.12.Success'),
      'deliveries',
    );
    assert.deepEqual(storage.messageIds(), [ERASING]);
    assert.deepEqual(base.messageIds(), ['Base.1.12.Success']);
    assert.ok(all.messageIds().includes(ERASING));
    assert.equal(base.events()[0].Message, 'The request completed successfully.');
  });

  it("keeps each listener's events in order", async () => {
    const l = await listener();
    await subscribe(svc, { Destination: l.url, Context: 'order', RegistryPrefixes: ['StorageDevice'] });
    for (let i = 0; i < 20; i++) await testEvent(svc, i);
    await waitFor(() => l.events().length === 20, '20 events');
    // Events that wait travel together (an Event's Events array), in order, never one split.
    assert.ok(l.received.length <= 20);
    assert.ok(l.received.every((d) => d.body.Events.length >= 1 && d.body.Events.length <= 32));
    assert.deepEqual(
      l.events().map((e) => e.MessageArgs[0]),
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
    const ids = l.events().map((e) => Number(e.EventId));
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      ids,
    );
  });

  it('sends a backlog together: up to 32 records per POST, in order, after a listener outage', async () => {
    const l = await listener();
    l.mode = 'fail';
    const id = await subscribe(svc, { Destination: l.url, Context: 'batch', RegistryPrefixes: ['StorageDevice'] });
    for (let i = 0; i < 40; i++) await testEvent(svc, i);
    await failedAttempts(svc, l, id, 1);
    l.mode = 'ok';
    await svc.clock.advance(30_000);
    await waitFor(() => l.events().length === 40, 'the backlog');
    // The retry takes what waits by then: all 40, in two POSTs.
    assert.deepEqual(
      l.received.map((d) => d.body.Events.length),
      [32, 8],
    );
    assert.deepEqual(
      l.events().map((e) => e.MessageArgs[0]),
      Array.from({ length: 40 }, (_, i) => String(i)),
    );
    assert.equal(l.received[0]!.body.Id, l.events()[0].EventId);
  });

  it('retries DeliveryRetryAttempts times, DeliveryRetryIntervalSeconds apart, then TerminateAfterRetries removes it', async () => {
    const l = await listener();
    l.mode = 'fail';
    const id = await subscribe(svc, {
      Destination: l.url,
      Context: 't',
      RegistryPrefixes: ['StorageDevice'],
      DeliveryRetryPolicy: 'TerminateAfterRetries',
    });
    await testEvent(svc, 1);
    await failedAttempts(svc, l, id, 1);
    const status = await svc.get(`${SUBS}${id}/`);
    assert.deepEqual(status.body.Status, { State: 'Enabled', Health: 'Warning', '@Redfish.WriteableProperties': ['State'] });
    assert.equal(status.body.Oem.Vendor.LastDeliveryError, 'HTTP status 500');
    await svc.clock.advance(29_000);
    assert.equal(l.attempts, 1, 'no retry before the interval');
    await svc.clock.advance(1_000);
    await failedAttempts(svc, l, id, 2);
    await svc.clock.advance(30_000);
    await failedAttempts(svc, l, id, 3);
    await svc.clock.advance(30_000);
    await waitFor(() => !hubOf(svc).get(id), 'termination');
    assert.equal(l.attempts, 4, 'one attempt and three retries');
    assert.equal((await svc.get(`${SUBS}${id}/`)).status, 404);
    await svc.clock.advance(120_000);
    assert.equal(l.attempts, 4, 'nothing more after termination');
  });

  it('SuspendRetries disables the subscription, keeps its events, and delivers them in order once resumed', async () => {
    const l = await listener();
    l.mode = 'fail';
    const id = await subscribe(svc, {
      Destination: l.url,
      Context: 'susp',
      RegistryPrefixes: ['StorageDevice'],
      DeliveryRetryPolicy: 'SuspendRetries',
      Oem: { Vendor: { DeliveryRetryAttempts: 1, DeliveryRetryIntervalInSeconds: 10 } },
    });
    await testEvent(svc, 1);
    await failedAttempts(svc, l, id, 1);
    await svc.clock.advance(10_000);
    await waitFor(() => hubOf(svc).get(id)?.State === 'Disabled', 'suspension');
    assert.equal(l.attempts, 2);
    const r = await svc.get(`${SUBS}${id}/`);
    assert.deepEqual(r.body.Status, { State: 'Disabled', Health: 'Warning', '@Redfish.WriteableProperties': ['State'] });
    await testEvent(svc, 2);
    await testEvent(svc, 3);
    await svc.clock.advance(60_000);
    assert.equal(l.attempts, 2, 'a suspended subscription is not contacted');
    assert.equal((await svc.get(`${SUBS}${id}/`)).body.Oem.Vendor.PendingEvents, 3);
    l.mode = 'ok';
    assert.equal((await svc.req('PATCH', `${SUBS}${id}/`, { body: { Status: { State: 'Enabled' } } })).status, 200);
    await waitFor(() => l.events().length === 3, 'the kept events');
    assert.deepEqual(
      l.events().map((e) => e.MessageArgs[0]),
      ['1', '2', '3'],
    );
    assert.deepEqual((await svc.get(`${SUBS}${id}/`)).body.Status, {
      State: 'Enabled',
      Health: 'OK',
      '@Redfish.WriteableProperties': ['State'],
    });
  });

  it('RetryForever keeps retrying past DeliveryRetryAttempts until the listener answers', async () => {
    const l = await listener();
    l.mode = 'fail';
    const id = await subscribe(svc, {
      Destination: l.url,
      Context: 'forever',
      RegistryPrefixes: ['StorageDevice'],
      DeliveryRetryPolicy: 'RetryForever',
    });
    await testEvent(svc, 1);
    for (let n = 1; n <= 6; n++) {
      await failedAttempts(svc, l, id, n);
      await svc.clock.advance(30_000);
    }
    assert.ok(hubOf(svc).get(id));
    l.mode = 'ok';
    await waitFor(() => l.received.length === 1, 'the delivery');
    assert.equal(l.attempts, 7);
  });

  it('a slow listener holds up neither the API nor the other listeners, and times out on the clock', async () => {
    const slow = await listener();
    const fast = await listener();
    slow.mode = 'hang';
    const slowId = await subscribe(svc, { Destination: slow.url, Context: 'slow', RegistryPrefixes: ['StorageDevice'] });
    await subscribe(svc, { Destination: fast.url, Context: 'fast', RegistryPrefixes: ['StorageDevice'] });
    for (let i = 0; i < 5; i++) await testEvent(svc, i);
    await waitFor(() => fast.events().length === 5 && slow.attempts === 1, 'fast deliveries');
    assert.equal(slow.received.length, 0);
    assert.ok(hubOf(svc).deliveryState(slowId).inFlight);
    const started = performance.now();
    assert.equal((await svc.get('/redfish/v1/EventService/')).status, 200);
    assert.ok(performance.now() - started < 1000, 'the API answers at once');
    await svc.clock.advance(30_000);
    await waitFor(() => hubOf(svc).deliveryState(slowId).waitingForRetry, 'the timeout');
    assert.match(hubOf(svc).get(slowId)?.lastError ?? '', /no answer within 30 s/);
    slow.mode = 'ok';
    await svc.clock.advance(30_000);
    await waitFor(() => slow.events().length === 5, 'slow deliveries');
    assert.deepEqual(
      slow.events().map((e) => e.MessageArgs[0]),
      ['0', '1', '2', '3', '4'],
    );
  });

  it('VerifyCertificate true refuses a listener whose certificate is not trusted', async () => {
    const l = await listener();
    const id = await subscribe(svc, { Destination: l.url, Context: 'v', RegistryPrefixes: ['StorageDevice'], VerifyCertificate: true });
    await testEvent(svc, 1);
    await waitFor(() => hubOf(svc).deliveryState(id).waitingForRetry, 'the failed attempt');
    assert.equal(l.attempts, 0, 'the TLS handshake fails before any request');
    assert.match(hubOf(svc).get(id)?.lastError ?? '', /CERT|SELF_SIGNED|certificate/i);
  });

  it("VerifyCertificate true delivers to a listener whose CA is imported into EventService's CACertificates, and not once it is deleted", async () => {
    const ca = await issueCertificate({ subject: 'CN=Listener CA', ca: true, notBefore: new Date(Date.now() - 60_000) });
    const l = await EventListener.start(0, await issueListenerCertificate(ca));
    listeners.push(l);
    const es = (await svc.get('/redfish/v1/EventService/')).body;
    const cas = es.Oem.Vendor.CACertificates['@odata.id'];
    assert.equal(cas, '/redfish/v1/EventService/CACertificates/');
    const importAt = es.Oem.Vendor.Actions['#VendorEventService.ImportCACertificate'].target;
    assert.equal(importAt, '/redfish/v1/EventService/Actions/Oem/Vendor/VendorEventService.ImportCACertificate/');

    const id = await subscribe(svc, { Destination: l.url, Context: 'ca', RegistryPrefixes: ['StorageDevice'], VerifyCertificate: true });
    await testEvent(svc, 1);
    await waitFor(() => hubOf(svc).deliveryState(id).waitingForRetry, 'the refused attempt');
    assert.equal(l.attempts, 0);

    const imported = await svc.req('POST', importAt, { body: { Certificate: ca.certPem } });
    assert.equal(imported.status, 201, imported.text);
    const member = imported.headers.location as string;
    assert.deepEqual((await svc.get(cas)).body.Members, [{ '@odata.id': member }]);
    assert.equal((await svc.get(member)).body.X509CertificateInformation.Subject, 'CN=Listener CA');
    // Not a CA certificate: refused, naming why.
    const leaf = await svc.req('POST', importAt, { body: { Certificate: (await issueListenerCertificate()).certPem } });
    assert.equal(leaf.status, 400, leaf.text);

    await svc.clock.advance(30_000);
    await waitFor(() => l.events().length === 1, 'the delivery once the CA is trusted');

    // Kept across a restart; deleted, the listener is refused again.
    svc = await svc.restart();
    assert.equal((await svc.get(cas)).body['Members@odata.count'], 1);
    assert.equal((await svc.req('DELETE', member)).status, 200);
    assert.equal((await svc.get(member)).status, 404);
    await testEvent(svc, 2);
    await waitFor(() => hubOf(svc).deliveryState(id).waitingForRetry, 'the refused attempt after the delete');
    // (Event 1 may come twice: delivery is at least once across a restart.)
    assert.ok(!l.events().some((e) => e.MessageArgs[0] === '2'));
    assert.match(hubOf(svc).get(id)?.lastError ?? '', /CERT|VERIFY|certificate/i);
  });

  it('loses nothing across a listener outage and a service restart, and keeps the order', async () => {
    const l = await listener();
    const port = l.port;
    const id = await subscribe(svc, { Destination: l.url, Context: 'outage', RegistryPrefixes: ['StorageDevice'] });
    await testEvent(svc, 0);
    await waitFor(() => l.received.length === 1, 'first delivery');
    await l.close();
    for (let i = 1; i <= 3; i++) await testEvent(svc, i);
    await waitFor(() => hubOf(svc).deliveryState(id).waitingForRetry, 'the failed attempt');
    svc = await svc.restart();
    assert.equal(hubOf(svc).deliveryState(id).pending, 3, 'the outbox survived the restart');
    await testEvent(svc, 4);
    await testEvent(svc, 5);
    await l.open();
    assert.equal(l.port, port);
    await svc.clock.advance(30_000);
    await waitFor(() => l.events().length === 6, 'every event');
    assert.deepEqual(
      l.events().map((e) => e.MessageArgs[0]),
      ['0', '1', '2', '3', '4', '5'],
    );
    const ids = l.events().map((e) => Number(e.EventId));
    assert.deepEqual(
      [...new Set(ids)].sort((a, b) => a - b),
      ids,
      'EventIds are unique and increasing across the restart',
    );
    await waitFor(() => hubOf(svc).deliveryState(id).pending === 0, 'the outbox to drain');
  });
});

describe('real event sources (point 5)', () => {
  let svc: TestService;
  let l: EventListener;
  before(async () => {
    svc = await startTestService();
    l = await EventListener.start();
    await subscribe(svc, { Destination: l.url, Context: 'src', RegistryPrefixes: ['VendorResourceEvents', 'ResourceEvent'] });
  });
  after(async () => {
    await l.close();
    await svc.close();
  });

  it('reports accounts created, changed and removed, and resources written through the API', async () => {
    const c = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'ops', Password: 'Ops-Password-123', RoleId: 'Operator' },
    });
    assert.equal(c.status, 201);
    const uri = c.headers.location as string;
    assert.equal((await svc.req('PATCH', uri, { body: { RoleId: 'ReadOnly' } })).status, 200);
    assert.equal((await svc.req('DELETE', uri)).status, 200);
    const want = [
      'VendorResourceEvents.1.0.AccountCreated',
      'ResourceEvent.1.4.ResourceCreated',
      'VendorResourceEvents.1.0.AccountModified',
      'ResourceEvent.1.4.ResourceChanged',
      'VendorResourceEvents.1.0.AccountRemoved',
      'ResourceEvent.1.4.ResourceRemoved',
    ];
    // Exactly these, once each, in order (the administrator's session was made before).
    const ofAccount = () => l.events().filter((e) => e.OriginOfCondition?.['@odata.id'] === uri);
    await waitFor(() => ofAccount().length >= want.length, 'account and resource events');
    await svc.req('POST', '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/', {
      body: { MessageId: 'ResourceEvent.1.4.ResourceChanged', OriginOfCondition: '/redfish/v1/fence/' },
    });
    await waitFor(() => l.events().some((e) => e.OriginOfCondition?.['@odata.id'] === '/redfish/v1/fence/'), 'the fence');
    assert.deepEqual(
      ofAccount().map((e) => e.MessageId),
      want,
    );
    const created = l.events().find((e) => e.MessageId === 'ResourceEvent.1.4.ResourceCreated' && e.OriginOfCondition['@odata.id'] === uri);
    assert.equal(created?.EventType, 'ResourceAdded');
    const removed = l.events().find((e) => e.MessageId === 'VendorResourceEvents.1.0.AccountRemoved');
    assert.deepEqual(removed?.MessageArgs, ['ops']);
  });

  it('reports a session that ends', async () => {
    const token = await svc.login('Administrator', 'Test-Admin-Pass1');
    const sessions = (await svc.get('/redfish/v1/SessionService/Sessions/', { auth: { token } })).body;
    const mine = sessions.Oem.Vendor.Links.MySession['@odata.id'];
    assert.equal((await svc.req('DELETE', mine, { auth: { token } })).status, 200);
    await waitFor(() => l.messageIds().includes('VendorResourceEvents.1.0.SessionEnded'), 'session event');
    const e = l.events().find((x) => x.MessageId === 'VendorResourceEvents.1.0.SessionEnded');
    assert.deepEqual(e.MessageArgs, ['Administrator', 'logout']);
  });

  it('names only messages of registries the service serves (Events 7)', async () => {
    const prefixes = (await svc.get('/redfish/v1/EventService/')).body.RegistryPrefixes as string[];
    for (const id of new Set(l.messageIds())) {
      const [prefix, major, minor, key] = id.split('.');
      assert.ok(prefixes.includes(prefix!), id);
      const reg = await svc.get(`/redfish/v1/Registries/${prefix}/`);
      assert.equal(reg.status, 200, id);
      assert.ok(key && major && minor);
    }
  });
});
