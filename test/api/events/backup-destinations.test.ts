// EventDestination BackupDestinations (EventDestination 1.15, DMTF 2024.3), dmtf dialect:
// a delivery Destination does not take goes to the backups in order; every delivery tries
// Destination first, so deliveries return to it as soon as it answers; an attempt fails
// (and the retry policy counts it) only when every destination failed.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { EventHub } from '../../../src/domain/events/hub.js';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SUBS = '/redfish/v1/EventService/Subscriptions';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent';
const ERASING = 'StorageDevice.2.1.DrvArrLogDrvErasing';

describe('BackupDestinations (dmtf dialect)', () => {
  let svc: TestService;
  const listeners: EventListener[] = [];
  const listener = async () => {
    const l = await EventListener.start();
    listeners.push(l);
    return l;
  };
  const hub = (): EventHub => svc.running.services.eventHub;
  const subscribe = async (body: Record<string, unknown>) => {
    const r = await svc.req('POST', SUBS, { body: { RegistryPrefixes: ['StorageDevice'], ...body } });
    assert.equal(r.status, 201, r.text);
    return r.body.Id as string;
  };
  const testEvent = async (n: number) => {
    const r = await svc.req('POST', TEST_EVENT, { body: { MessageId: ERASING, MessageArgs: [String(n), 'Slot 1'] } });
    assert.equal(r.status, 200, r.text);
  };
  const args = (l: EventListener) => l.events().map((e) => e.MessageArgs[0]);

  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf' } });
  });
  afterEach(async () => {
    for (const l of listeners.splice(0)) await l.close();
    for (const m of (await svc.get(SUBS)).body.Members) await svc.req('DELETE', m['@odata.id']);
  });
  after(() => svc.close());

  it('are set on POST and PATCH, shown, and checked like Destination', async () => {
    const id = await subscribe({ Destination: 'https://primary.example/events', BackupDestinations: ['https://b1.example/e'] });
    assert.deepEqual((await svc.get(`${SUBS}/${id}`)).body.BackupDestinations, ['https://b1.example/e']);
    let r = await svc.req('PATCH', `${SUBS}/${id}`, { body: { BackupDestinations: ['https://b2.example/e', 'https://b3.example/e'] } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await svc.get(`${SUBS}/${id}`)).body.BackupDestinations, ['https://b2.example/e', 'https://b3.example/e']);
    // DSP0266's array rules: null removes an element.
    r = await svc.req('PATCH', `${SUBS}/${id}`, { body: { BackupDestinations: [null, {}] } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await svc.get(`${SUBS}/${id}`)).body.BackupDestinations, ['https://b3.example/e']);

    r = await svc.req('PATCH', `${SUBS}/${id}`, { body: { BackupDestinations: ['https://ok.example/e', 'http://plain.example/e'] } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/BackupDestinations/1']);
    r = await svc.req('POST', SUBS, { body: { Destination: 'https://p.example/e', BackupDestinations: ['not a url'] } });
    assert.equal(r.status, 400);
    r = await svc.req('POST', SUBS, {
      body: { Destination: 'https://p.example/e', BackupDestinations: Array(5).fill('https://b.example/e') },
    });
    assert.equal(r.status, 400, 'at most 4 backups');
    const none = await subscribe({ Destination: 'https://p.example/e' });
    assert.deepEqual((await svc.get(`${SUBS}/${none}`)).body.BackupDestinations, []);
  });

  it('a delivery Destination refuses goes to the first backup that takes it; the next one tries Destination again', async () => {
    const primary = await listener();
    const down = await listener();
    const backup = await listener();
    await down.close(); // connection refused
    primary.mode = 'fail';
    const id = await subscribe({ Destination: primary.url, BackupDestinations: [down.url, backup.url] });

    await testEvent(1);
    await waitFor(() => backup.received.length === 1, 'delivery to the second backup');
    assert.equal(primary.attempts, 1);
    assert.deepEqual(args(backup), ['1']);
    let s = (await svc.get(`${SUBS}/${id}`)).body;
    assert.deepEqual({ State: s.Status.State, Health: s.Status.Health }, { State: 'Enabled', Health: 'Warning' });
    assert.equal(s.Oem.Vendor.LastDeliveryError, 'HTTP status 500');
    assert.equal(hub().deliveryState(id).waitingForRetry, false, 'a delivery a backup took is no failure to retry');

    primary.mode = 'ok';
    await testEvent(2);
    await waitFor(() => primary.received.length === 1, 'delivery back to Destination');
    assert.deepEqual(args(primary), ['2']);
    assert.deepEqual(args(backup), ['1']);
    s = (await svc.get(`${SUBS}/${id}`)).body;
    assert.deepEqual({ State: s.Status.State, Health: s.Status.Health }, { State: 'Enabled', Health: 'OK' });
    assert.equal(s.Oem.Vendor.LastDeliveryError, null);
  });

  it('an attempt fails only when every destination failed; the retry policy counts such attempts', async () => {
    const primary = await listener();
    const backup = await listener();
    primary.mode = 'fail';
    backup.mode = 'fail';
    const id = await subscribe({
      Destination: primary.url,
      BackupDestinations: [backup.url],
      DeliveryRetryPolicy: 'TerminateAfterRetries',
      Oem: { Vendor: { DeliveryRetryAttempts: 1, DeliveryRetryIntervalInSeconds: 10 } },
    });
    await testEvent(1);
    await waitFor(() => backup.attempts === 1 && hub().deliveryState(id).waitingForRetry, 'first attempt over both');
    assert.equal(primary.attempts, 1);
    // The retry starts at Destination again, then the backup.
    await svc.clock.advance(10_000);
    await waitFor(() => !hub().get(id), 'termination after the retry');
    assert.equal(primary.attempts, 2);
    assert.equal(backup.attempts, 2);
  });

  it('the backup that takes a retry receives the events in order', async () => {
    const primary = await listener();
    const backup = await listener();
    primary.mode = 'fail';
    backup.mode = 'fail';
    const id = await subscribe({ Destination: primary.url, BackupDestinations: [backup.url] });
    await testEvent(1);
    await waitFor(() => hub().deliveryState(id).waitingForRetry, 'a failed attempt');
    await testEvent(2);
    backup.mode = 'ok';
    await svc.clock.advance(30_000);
    await waitFor(() => args(backup).length === 2, 'both events at the backup');
    assert.deepEqual(args(backup), ['1', '2']);
    assert.equal(primary.received.length, 0);
  });
});

describe('BackupDestinations (spec dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('are not offered (iLO has none): refused as unknown, not shown', async () => {
    let r = await svc.req('POST', `${SUBS}/`, {
      body: { Destination: 'https://p.example/e', BackupDestinations: ['https://b.example/e'] },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyUnknown']);
    r = await svc.req('POST', `${SUBS}/`, { body: { Destination: 'https://p.example/e' } });
    assert.equal(r.status, 201);
    assert.equal(r.body.BackupDestinations, undefined);
  });
});
