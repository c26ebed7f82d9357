// Issue 12, item 8: an SSE stream does not outlive the right to read it. It
// ends at once when its session ends (its SessionTimeout included), when its account is deleted or
// disabled, when the account loses a privilege (role lowered) or LoginPriv,
// and, for a stream opened with Basic, when the password changes. Its
// EventDestination goes with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../support/event-listener.js';
import { startTestService, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';

const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';
const SUBSCRIPTIONS = '/redfish/v1/EventService/Subscriptions/';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';
const PASSWORD = 'Stream-Pass-1';

describe('SSE streams end with the right to read them', () => {
  let svc: TestService;
  const streams: SseStream[] = [];
  let n = 0;
  // The administrator uses Basic here: one test lets sessions time out.

  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    for (const s of streams) s.close();
    await svc.close();
  });

  /** A new account (through the API) and its URI. */
  const account = async (RoleId = 'ReadOnly') => {
    const user = `streamer${++n}`;
    const r = await svc.req('POST', ACCOUNTS, { auth: 'basic', body: { UserName: user, Password: PASSWORD, RoleId } });
    assert.equal(r.status, 201, r.text);
    return { user, uri: r.headers.location as string };
  };
  const open = async (auth: { token: string } | { user: string; password: string }) => {
    const s = await SseStream.open(svc, auth);
    assert.equal(s.status, 200);
    streams.push(s);
    return s;
  };
  const sseDestinations = async () => {
    const members = (await svc.get(SUBSCRIPTIONS, { auth: 'basic' })).body.Members as { '@odata.id': string }[];
    return members.filter((m) => m['@odata.id'].includes('/SSE'));
  };
  /** The stream ends at once (bounded wait) and no SSE EventDestination is left. */
  const endsAndGoes = async (s: SseStream, what: string) => {
    await waitFor(() => s.ended, `the stream to end when ${what}`);
    assert.deepEqual(await sseDestinations(), [], `no SSE destination left when ${what}`);
  };
  /** Streams that must stay open: they still get a test event. */
  const stillStreaming = async (...list: SseStream[]) => {
    const before = list.map((s) => s.events.length);
    assert.equal((await svc.req('POST', TEST_EVENT, { auth: 'basic', body: { MessageId: 'Base.1.12.Success' } })).status, 200);
    await waitFor(() => list.every((s, i) => s.events.length > before[i]!), 'the test event');
    assert.ok(list.every((s) => !s.ended));
  };

  it('ends when its session is deleted (logout), not when another session of the account ends', async () => {
    const a = await account();
    const login = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      auth: 'none',
      body: { UserName: a.user, Password: PASSWORD },
    });
    assert.equal(login.status, 201);
    const mine = login.headers['x-auth-token'] as string;
    const other = await svc.login(a.user, PASSWORD);
    const stream = await open({ token: mine });
    const otherStream = await open({ token: other });
    assert.equal((await sseDestinations()).length, 2);
    assert.equal((await svc.req('DELETE', login.headers.location as string, { auth: { token: mine } })).status, 200);
    await waitFor(() => stream.ended, 'the stream to end on logout');
    await stillStreaming(otherStream);
    otherStream.close();
    await waitFor(() => svc.running.services.eventHub.list().every((x) => x.SubscriptionType !== 'SSE'), 'the other destination to go');
  });

  it('ends when its account is deleted, opened with a session or with Basic', async () => {
    const a = await account();
    const bySession = await open({ token: await svc.login(a.user, PASSWORD) });
    const byBasic = await open({ user: a.user, password: PASSWORD });
    assert.equal((await sseDestinations()).length, 2);
    assert.equal((await svc.req('DELETE', a.uri, { auth: 'basic' })).status, 200);
    await waitFor(() => bySession.ended && byBasic.ended, 'both streams to end');
    await endsAndGoes(byBasic, 'the account is deleted');
  });

  it('ends when its account is disabled', async () => {
    const a = await account();
    const bySession = await open({ token: await svc.login(a.user, PASSWORD) });
    const byBasic = await open({ user: a.user, password: PASSWORD });
    assert.equal((await svc.req('PATCH', a.uri, { auth: 'basic', body: { Enabled: false } })).status, 200);
    await waitFor(() => bySession.ended && byBasic.ended, 'both streams to end');
    await endsAndGoes(byBasic, 'the account is disabled');
  });

  it('ends when the role is lowered or LoginPriv is taken away, and stays through unrelated changes', async () => {
    const op = await account('Operator');
    const ro = await account('ReadOnly');
    const operatorStream = await open({ token: await svc.login(op.user, PASSWORD) });
    const operatorBasic = await open({ user: op.user, password: PASSWORD });
    const readerStream = await open({ token: await svc.login(ro.user, PASSWORD) });

    // Changes that take nothing away keep the streams.
    assert.equal(
      (await svc.req('PATCH', ro.uri, { auth: 'basic', body: { Oem: { Vendor: { Privileges: { VirtualMediaPriv: true } } } } })).status,
      200,
    );
    await stillStreaming(operatorStream, operatorBasic, readerStream);

    assert.equal((await svc.req('PATCH', op.uri, { auth: 'basic', body: { RoleId: 'ReadOnly' } })).status, 200);
    await waitFor(() => operatorStream.ended && operatorBasic.ended, "the operator's streams to end");
    await stillStreaming(readerStream);

    assert.equal(
      (await svc.req('PATCH', ro.uri, { auth: 'basic', body: { Oem: { Vendor: { Privileges: { LoginPriv: false } } } } })).status,
      200,
    );
    await endsAndGoes(readerStream, 'LoginPriv is taken away');
  });

  it('ends a Basic stream when the password changes', async () => {
    const a = await account();
    const byBasic = await open({ user: a.user, password: PASSWORD });
    const token = await svc.login(a.user, PASSWORD);
    // The account changes its own password with its session: that session (and its stream) stays.
    const bySession = await open({ token });
    const r = await svc.req('PATCH', a.uri, { auth: { token }, body: { Password: 'Stream-Pass-2' } });
    assert.equal(r.status, 200, r.text);
    await waitFor(() => byBasic.ended, 'the Basic stream to end');
    await stillStreaming(bySession);
    bySession.close();
    await waitFor(() => svc.running.services.eventHub.list().every((x) => x.SubscriptionType !== 'SSE'), 'the destination to go');
  });

  // Issue 24, item 9: an open stream used to keep its session alive past SessionTimeout.
  it('ends with its session at SessionTimeout although the stream is open; requests still keep the session alive', async () => {
    const a = await account();
    const token = await svc.login(a.user, PASSWORD);
    const stream = await open({ token });
    // 20 minutes, a request with the session, 20 more: 40 in all, never 30 without use.
    await svc.clock.advance(20 * 60_000);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 200);
    await svc.clock.advance(20 * 60_000);
    await stillStreaming(stream);
    // Then 31 minutes with only the stream open: the session times out and takes the stream with it.
    await svc.clock.advance(31 * 60_000);
    await endsAndGoes(stream, 'its session timed out');
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 401);
  });
});
