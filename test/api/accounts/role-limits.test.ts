// Issue 12, item 7: limits by role. One account holds at most
// --max-sessions-per-account slots (sessions plus Basic connections) and
// --max-sse-per-account SSE streams; when the pools are full of lesser-role
// holders an administrator still gets in, ending the oldest of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { waitFor } from '../../support/event-listener.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, messageIds, startTestService, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';

const SESSIONS = '/redfish/v1/SessionService/Sessions/';
const SUBSCRIPTIONS = '/redfish/v1/EventService/Subscriptions/';
const PASSWORD = 'Limits-Pass-1';

describe('session slots by role', () => {
  let svc: TestService;
  const agents: Agent[] = [];
  /** A client with one connection of its own: each holds one slot once it authenticates with Basic. */
  const connection = () => {
    const a = new Agent({ connect: { rejectUnauthorized: false }, connections: 1 });
    agents.push(a);
    return a;
  };
  const basicGet = async (agent: Agent, user: string, password: string) => {
    const res = await request(`${svc.url}/redfish/v1/SessionService/`, {
      headers: { authorization: basic(user, password) },
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  const login = (user: string, password = PASSWORD) =>
    svc.req('POST', SESSIONS, { auth: 'none', body: { UserName: user, Password: password } });
  const alive = async (token: string) => (await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status === 200;

  before(async () => {
    svc = await startTestService({ config: { maxSessions: 4, maxSessionsPerAccount: 3 } });
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: 'reader1', Password: PASSWORD, RoleId: 'ReadOnly' });
    await accounts.create({ UserName: 'reader2', Password: PASSWORD, RoleId: 'ReadOnly' });
    await accounts.create({ UserName: 'operator', Password: PASSWORD, RoleId: 'Operator' });
    await accounts.create({ UserName: 'admin2', Password: PASSWORD, RoleId: 'Administrator' });
  });
  after(async () => {
    await Promise.allSettled(agents.map((a) => a.destroy()));
    await svc.close();
  });

  /** reader1's sessions, oldest first. */
  const reader1: { id: string; token: string }[] = [];
  /** reader1 at its cap of three sessions (made by whichever test needs them first). */
  const fillReader1 = async () => {
    while (reader1.length < 3) {
      const r = await login('reader1');
      assert.equal(r.status, 201, r.text);
      reader1.push({ id: r.body.Id, token: r.headers['x-auth-token'] as string });
    }
  };

  it('caps the sessions and Basic connections of one account (503 SessionLimitExceeded)', async () => {
    await fillReader1();
    const fourth = await login('reader1');
    assert.equal(fourth.status, 503);
    assert.deepEqual(messageIds(fourth.body), ['Base.1.12.SessionLimitExceeded']);
    const byBasic = await basicGet(connection(), 'reader1', PASSWORD);
    assert.equal(byBasic.status, 503, 'a Basic connection counts against the same cap');
    assert.deepEqual(messageIds(byBasic.body), ['Base.1.12.SessionLimitExceeded']);
    assert.equal(svc.running.services.sessions.inUse(), 3);
  });

  it('lets an administrator in when ReadOnly sessions and Basic connections fill the pool, ending the oldest lesser-role holder', async () => {
    const sessions = svc.running.services.sessions;
    const auth = svc.running.services.auth;
    await fillReader1();
    const [oldest, second, third] = reader1;

    // reader2 takes the last slot with a kept-alive Basic connection: the pool is full.
    const reader2 = connection();
    assert.equal((await basicGet(reader2, 'reader2', PASSWORD)).status, 200);
    assert.equal(sessions.inUse(), 4);
    assert.equal((await login('reader2')).status, 503, 'a lesser role does not evict');
    assert.equal((await login('operator')).status, 503, 'an operator does not evict either');

    // An administrator's session login ends reader1's oldest session, and that session's event stream.
    const readerSse = await SseStream.open(svc, { token: oldest!.token });
    assert.equal(readerSse.status, 200);
    const admin = await login(ADMIN_USER, ADMIN_PASSWORD);
    assert.equal(admin.status, 201, admin.text);
    assert.equal(await alive(oldest!.token), false);
    assert.ok((await alive(second!.token)) && (await alive(third!.token)));
    await waitFor(() => readerSse.ended, "the evicted session's event stream to end");

    // The first Basic request of an administrator's connection does the same.
    assert.equal((await basicGet(connection(), ADMIN_USER, ADMIN_PASSWORD)).status, 200);
    assert.equal(await alive(second!.token), false);
    assert.equal((await login(ADMIN_USER, ADMIN_PASSWORD)).status, 201);
    assert.equal(await alive(third!.token), false);
    assert.equal(sessions.inUse(), 4);

    // With no lesser-role session left, reader2's Basic connection is closed for another administrator.
    const other = await login('admin2');
    assert.equal(other.status, 201, other.text);
    await waitFor(() => auth.basicConnectionCount() === 1, "reader2's connection to close");
    assert.equal((await basicGet(reader2, 'reader2', PASSWORD)).status, 503, 'reconnecting finds the pool full');

    // A pool full of administrators refuses administrators too.
    const refused = await login('admin2');
    assert.equal(refused.status, 503);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.SessionLimitExceeded']);
    assert.ok(await alive(admin.headers['x-auth-token'] as string));
  });
});

describe('SSE streams and subscriptions by role', () => {
  let svc: TestService;
  const streams: SseStream[] = [];
  const open = async (token: string) => {
    const s = await SseStream.open(svc, { token });
    streams.push(s);
    return s;
  };
  const refusedWith = async (s: SseStream) => {
    assert.equal(s.status, 400);
    await waitFor(() => s.ended, 'the refusal body');
    assert.deepEqual(messageIds(s.body()), ['Base.1.12.EventSubscriptionLimitExceeded']);
  };
  const destinations = async () => ((await svc.get(SUBSCRIPTIONS)).body.Members as { '@odata.id': string }[]).map((m) => m['@odata.id']);

  before(async () => {
    svc = await startTestService({ config: { maxSubscriptions: 3, maxSsePerAccount: 2 } });
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: 'reader1', Password: PASSWORD, RoleId: 'ReadOnly' });
    await accounts.create({ UserName: 'reader2', Password: PASSWORD, RoleId: 'ReadOnly' });
  });
  after(async () => {
    for (const s of streams) s.close();
    await svc.close();
  });

  it('caps the streams of one account, and lets an administrator in when lesser-role streams fill every slot', async () => {
    const reader1 = await svc.login('reader1', PASSWORD);
    const reader2 = await svc.login('reader2', PASSWORD);
    const [a, b] = [await open(reader1), await open(reader1)];
    assert.deepEqual([a.status, b.status], [200, 200]);
    await refusedWith(await open(reader1)); // its own cap (2)
    assert.equal((await open(reader2)).status, 200); // the last slot
    await refusedWith(await open(reader2)); // every slot taken
    assert.equal((await destinations()).length, 3);

    // An administrator's stream ends the oldest lesser-role stream.
    const admin = await open(await svc.adminToken());
    assert.equal(admin.status, 200);
    await waitFor(() => a.ended, "reader1's oldest stream to end");
    assert.equal(b.ended, false);

    // So does an administrator's subscription.
    const sub = await svc.req('POST', SUBSCRIPTIONS, { body: { Destination: 'https://127.0.0.1:9/events', Context: 'admin' } });
    assert.equal(sub.status, 201, sub.text);
    await waitFor(() => b.ended, "reader1's other stream to end");
    assert.equal((await destinations()).length, 3);
    assert.equal(admin.ended, false);

    // Lesser roles still get the 400 at the limit.
    await refusedWith(await open(reader1));
    assert.equal((await svc.req('DELETE', sub.headers.location as string)).status, 200);
  });
});
