// Issue 3, point 3: Basic-authenticated connections hold a slot of the same
// limit as sessions (--max-sessions) until the connection closes; at the
// limit both new sessions and new Basic connections get 503 SessionLimitExceeded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { ADMIN_PASSWORD, ADMIN_USER, basic, messageIds, startTestService, type TestService } from '../support/service.js';

async function basicGet(svc: TestService, agent: Agent, password = ADMIN_PASSWORD) {
  const res = await request(`${svc.url}/redfish/v1/SessionService/`, {
    headers: { authorization: basic(ADMIN_USER, password) },
    dispatcher: agent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

/** Wait (real time, bounded) for the server to see a socket close: network I/O, not controller time. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'condition not reached');
}

describe('Basic connection accounting', () => {
  let svc: TestService;
  const agents: Agent[] = [];
  const newAgent = () => {
    const a = new Agent({ connect: { rejectUnauthorized: false }, connections: 1 });
    agents.push(a);
    return a;
  };
  before(async () => {
    svc = await startTestService({ config: { maxSessions: 3 } });
  });
  after(async () => {
    await Promise.allSettled(agents.map((a) => a.destroy())); // some were closed by the test
    await svc.close();
  });

  it('counts one slot per Basic connection, shared with sessions, and refuses both at the limit', async () => {
    const auth = svc.running.services.auth;
    const sessions = svc.running.services.sessions;
    await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    assert.equal(sessions.inUse(), 2);

    // A failed Basic login takes no slot.
    const failing = newAgent();
    assert.equal((await basicGet(svc, failing, 'wrong-password')).status, 401);
    assert.equal(auth.basicConnectionCount(), 0);

    const a = newAgent();
    assert.equal((await basicGet(svc, a)).status, 200);
    assert.equal((await basicGet(svc, a)).status, 200); // same connection, same slot
    assert.equal(auth.basicConnectionCount(), 1);
    assert.equal(sessions.inUse(), 3);

    const login = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      body: { UserName: ADMIN_USER, Password: ADMIN_PASSWORD },
      auth: 'none',
    });
    assert.equal(login.status, 503);
    assert.deepEqual(messageIds(login.body), ['Base.1.12.SessionLimitExceeded']);

    const b = newAgent();
    const refused = await basicGet(svc, b);
    assert.equal(refused.status, 503);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.SessionLimitExceeded']);

    // Closing the Basic connection gives its slot back.
    await a.close();
    await until(() => auth.basicConnectionCount() === 0);
    assert.equal(sessions.inUse(), 2);
    const again = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      body: { UserName: ADMIN_USER, Password: ADMIN_PASSWORD },
      auth: 'none',
    });
    assert.equal(again.status, 201);
  });

  it('frees slots when sessions expire, letting a Basic connection in', async () => {
    const auth = svc.running.services.auth;
    // The pool full of sessions (the test above leaves it so).
    while (svc.running.services.sessions.inUse() < 3) await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    const c = newAgent();
    assert.equal((await basicGet(svc, c)).status, 503);
    await svc.clock.advance(31 * 60_000); // past the default 30-minute session time-out
    assert.equal((await basicGet(svc, c)).status, 200);
    assert.equal(auth.basicConnectionCount(), 1);
  });
});
