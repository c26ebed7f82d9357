// Issue 24 item 9: a long clock jump with failing event subscriptions costs about what a short one
// does (their retries within the jump are coalesced), ends each subscription as its retry policy
// says, and a jump beyond the documented maximum is refused at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_CLOCK_JUMP_SECONDS } from '../../../src/domain/control/control.js';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SUBS = '/redfish/v1/EventService/Subscriptions/';
const YEAR_S = 365 * 86400;
const stateAndHealth = (sub: { Status: { State: string; Health: string } }) => ({ State: sub.Status.State, Health: sub.Status.Health });

describe('control API: clock jumps with failing subscriptions', () => {
  let svc: TestService;
  let listener: EventListener;
  const control = (path: string, body?: unknown, method = 'POST') => svc.req(method, `/control/${path}`, { auth: 'basic', body });
  const hub = () => svc.running.services.eventHub;

  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
    listener = await EventListener.start();
  });
  after(async () => {
    await svc.close();
    await listener.close();
  });

  const subscribe = async (Destination: string, DeliveryRetryPolicy: string) => {
    const r = await svc.req('POST', SUBS, {
      auth: 'basic',
      body: { Destination, Protocol: 'Redfish', Context: DeliveryRetryPolicy, DeliveryRetryPolicy },
    });
    assert.equal(r.status, 201, r.text);
    return r.body.Id as string;
  };

  it('a year with five failing subscriptions takes seconds, and each ends as its retry policy says', async () => {
    // Three behind an injected fault, two on a port nobody listens on.
    const fault = await control('faults', { Fault: 'ListenerUnreachable', Destination: listener.url });
    assert.equal(fault.status, 201, fault.text);
    const forever = await subscribe(listener.url, 'RetryForever');
    const suspend = await subscribe(listener.url, 'SuspendRetries');
    const terminate = await subscribe(listener.url, 'TerminateAfterRetries');
    const closedForever = await subscribe('https://127.0.0.1:9/events', 'RetryForever');
    const closedSuspend = await subscribe('https://127.0.0.1:9/events', 'SuspendRetries');
    const ev = await svc.req('POST', '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/', {
      auth: 'basic',
      body: { MessageId: 'ResourceEvent.1.3.TestMessage' },
    });
    assert.ok(ev.status < 300, ev.text);
    const ids = [forever, suspend, terminate, closedForever, closedSuspend];
    await waitFor(() => ids.every((id) => hub().deliveryState(id).waitingForRetry), 'the first failed attempts');

    const started = performance.now();
    const r = await control('clock', { AdvanceSeconds: YEAR_S });
    const took = performance.now() - started;
    assert.equal(r.status, 200, r.text);
    assert.ok(took < 10_000, `a year's jump took ${Math.round(took)} ms`);

    // RetryForever keeps retrying; SuspendRetries and TerminateAfterRetries ran out of their 3 retries.
    for (const id of [forever, closedForever]) {
      const s = await svc.get(`${SUBS}${id}/`);
      assert.deepEqual(stateAndHealth(s.body), { State: 'Enabled', Health: 'Warning' }, `${id} ${s.body.DeliveryRetryPolicy}`);
      assert.ok(hub().deliveryState(id).waitingForRetry, `${id} waits for its next retry`);
    }
    for (const id of [suspend, closedSuspend]) {
      await waitFor(() => hub().get(id)?.State === 'Disabled', `${id} suspended`);
      assert.deepEqual(stateAndHealth((await svc.get(`${SUBS}${id}/`)).body), { State: 'Disabled', Health: 'Warning' });
    }
    await waitFor(() => hub().get(terminate) === undefined, 'termination');
    assert.equal((await svc.get(`${SUBS}${terminate}/`)).status, 404);
    assert.equal(listener.attempts, 0, 'the fault kept every attempt from the listener');

    // The retry interval still holds after the jump: once the listener is reachable, the next retry delivers.
    assert.equal((await control(`faults/${fault.body.Id}`, undefined, 'DELETE')).status, 200);
    await svc.clock.advance(30_000);
    await waitFor(() => listener.received.length === 1, 'the RetryForever delivery');
    assert.equal(listener.received[0]!.body.Context, 'RetryForever');
  });

  it('refuses a jump beyond the maximum at once: Set to year 9999, AdvanceSeconds over ten years', async () => {
    const before = svc.clock.now();
    const started = performance.now();
    const set = await control('clock', { Set: '9999-12-31T00:00:00Z' });
    assert.equal(set.status, 400, set.text);
    assert.deepEqual(messageIds(set.body), ['Base.1.12.PropertyValueOutOfRange']);
    assert.ok(performance.now() - started < 2000);
    const advance = await control('clock', { AdvanceSeconds: MAX_CLOCK_JUMP_SECONDS + 1 });
    assert.equal(advance.status, 400, advance.text);
    assert.deepEqual(messageIds(advance.body), ['Base.1.12.PropertyValueOutOfRange']);
    assert.equal(svc.clock.now(), before, 'the clock did not move');
  });
});
