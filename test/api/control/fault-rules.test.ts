// Issue 29 item 1: fault rules at /control/faults/rules, each action seen by the
// project's own HTTPS client (src/tools/client.ts over undici): the status and
// Retry-After it reads, the error it raises for a cut connection or body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, connect, type Connection } from '../../../src/tools/client.js';
import { rawTls } from '../../support/raw-http.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, messageIds, startTestService, type TestService } from '../../support/service.js';
import { waitUntil } from '../../support/wait.js';

const SYS = '/redfish/v1/Systems/1/';
const RULES = '/control/faults/rules/';

describe('fault rules: off without --enable-control', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('is 404 like the rest of the control API', async () => {
    const r = await svc.req('POST', RULES, { auth: 'basic', body: { Match: { Uri: SYS }, Action: { Status: 503 } } });
    assert.equal(r.status, 404);
  });
});

describe('fault rules', () => {
  let svc: TestService;
  let client: Connection;
  const rule = async (body: unknown) => {
    const r = await svc.req('POST', RULES, { auth: 'basic', body });
    assert.equal(r.status, 201, r.text);
    return r;
  };
  const clear = async () => {
    for (const r of (await svc.req('GET', RULES, { auth: 'basic' })).body.Rules)
      await svc.req('DELETE', `${RULES}${r.Id}`, { auth: 'basic' });
  };

  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
    client = connect({ url: svc.url, user: ADMIN_USER, password: ADMIN_PASSWORD, insecure: true });
  });
  after(async () => {
    await client.agent.close();
    await svc.close();
  });

  it('the simplest rule: 201 with Location, two 503s with Retry-After and a registry message, then the real answer; listed, counted, deleted', async () => {
    const made = await rule({ Match: { Method: 'GET', Uri: '/redfish/v1/Systems/1/' }, Action: { Status: 503 }, Count: 2 });
    const location = made.headers.location as string;
    assert.match(location, /^\/control\/faults\/rules\/[0-9a-f]+\/$/);
    for (let i = 0; i < 2; i++) {
      const a = await call(client, 'GET', SYS);
      assert.equal(a.status, 503);
      assert.equal(a.headers['retry-after'], '5');
      assert.deepEqual(messageIds(a.body), ['Base.1.12.ServiceTemporarilyUnavailable']);
    }
    assert.equal((await call(client, 'GET', SYS)).status, 200);
    // Another method is not matched.
    assert.equal((await call(client, 'GET', '/redfish/v1/Chassis/1/')).status, 200);
    const one = await svc.req('GET', location, { auth: 'basic' });
    assert.equal(one.body.Fired, 2);
    assert.equal(one.body.State, 'Spent');
    const list = await svc.req('GET', RULES, { auth: 'basic' });
    assert.deepEqual(
      list.body.Rules.map((r: { Id: string }) => r.Id),
      [one.body.Id],
    );
    assert.equal((await svc.req('DELETE', location, { auth: 'basic' })).status, 200);
    assert.equal((await svc.req('GET', location, { auth: 'basic' })).status, 404);
  });

  it('matches a pattern (* and {id} segments, any trailing slash, any method) and only the user it names', async () => {
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      auth: 'basic',
      body: { UserName: 'reader', Password: 'Reader-Pass-123', RoleId: 'ReadOnly' },
    });
    await rule({ Match: { Uri: '/redfish/v1/{collection}/*', User: 'reader' }, Action: { Status: 500 } });
    const reader = { user: 'reader', password: 'Reader-Pass-123' };
    const r1 = await svc.req('GET', '/redfish/v1/Systems/1', { auth: reader });
    assert.equal(r1.status, 500);
    assert.deepEqual(messageIds(r1.body), ['Base.1.12.InternalError']);
    assert.equal((await svc.req('GET', '/redfish/v1/Chassis/1/', { auth: reader })).status, 500);
    // Another depth, another user: untouched.
    assert.equal((await svc.req('GET', '/redfish/v1/Systems/', { auth: reader })).status, 200);
    assert.equal((await svc.req('GET', '/redfish/v1/Systems/1/', { auth: 'basic' })).status, 200);
    await clear();
  });

  it('429 with the Retry-After it is given; Every fires on each Nth match', async () => {
    await rule({ Match: { Uri: SYS }, Action: { Status: 429, RetryAfter: 2 }, Every: 3 });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const a = await call(client, 'GET', SYS);
      statuses.push(a.status);
      if (a.status === 429) assert.equal(a.headers['retry-after'], '2');
    }
    assert.deepEqual(statuses, [200, 200, 429, 200, 200, 429]);
    await clear();
  });

  it('Probability with a Seed fires the same requests every time the rule is made, and goes on after a restart', async () => {
    const pattern = async (n: number) => {
      const out: boolean[] = [];
      for (let i = 0; i < n; i++) out.push((await call(client, 'GET', SYS)).status === 503);
      return out;
    };
    const body = { Match: { Uri: SYS }, Action: { Status: 503 }, Probability: 0.5, Seed: 42 };
    await rule(body);
    const first = await pattern(16);
    await clear();
    await rule(body);
    const again = await pattern(8);
    assert.deepEqual(again, first.slice(0, 8));
    assert.ok(first.includes(true) && first.includes(false), `a fair coin: ${first.join()}`);
    // The counters are stored: after a restart the sequence goes on where it was.
    await client.agent.close();
    svc = await svc.restart();
    client = connect({ url: svc.url, user: ADMIN_USER, password: ADMIN_PASSWORD, insecure: true });
    const listed = (await svc.req('GET', RULES, { auth: 'basic' })).body.Rules;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].Matched, 8);
    assert.equal(listed[0].Fired, first.slice(0, 8).filter(Boolean).length);
    assert.deepEqual(await pattern(8), first.slice(8));
    await clear();
  });

  it('expires on the controller clock', async () => {
    const expires = new Date(svc.clock.now() + 60_000).toISOString();
    const made = await rule({ Match: { Uri: SYS }, Action: { Status: 503 }, Expires: expires });
    assert.equal((await call(client, 'GET', SYS)).status, 503);
    await svc.clock.advance(60_000);
    assert.equal((await call(client, 'GET', SYS)).status, 200);
    const r = await svc.req('GET', made.headers.location as string, { auth: 'basic' });
    assert.equal(r.body.State, 'Expired');
    assert.equal(r.body.Fired, 1);
    await clear();
  });

  it('401 as if the session expired: the session is gone, a new login works', async () => {
    const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    const sessions = async () => (await svc.req('GET', '/redfish/v1/SessionService/Sessions/', { auth: 'basic' })).body.Members.length;
    const before = await sessions();
    await rule({ Match: { Uri: SYS }, Action: { Status: 401 }, Count: 1 });
    const r = await svc.req('GET', SYS, { auth: { token } });
    assert.equal(r.status, 401);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.NoValidSession']);
    assert.equal(await sessions(), before - 1);
    // The rule is spent, yet the token stays refused: it really expired.
    assert.equal((await svc.req('GET', SYS, { auth: { token } })).status, 401);
    const fresh = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    assert.equal((await svc.req('GET', SYS, { auth: { token: fresh } })).status, 200);
    await clear();
  });

  it('Delay holds the answer until the controller clock has moved that far', async () => {
    const made = await rule({ Match: { Uri: SYS }, Action: { Delay: 4000 }, Count: 1 });
    let answered = false;
    const pending = call(client, 'GET', SYS).then((a) => {
      answered = true;
      return a;
    });
    // The delay's timer is armed as the rule fires.
    await waitUntil(() => svc.running.services.faultRules?.get(made.body.Id)?.Fired === 1, 'the rule to fire');
    await svc.clock.advance(3000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(answered, false);
    await svc.clock.advance(1000);
    assert.equal((await pending).status, 200);
    await clear();
  });

  it('Drop BeforeBody: the connection ends without an answer; the write was carried out', async () => {
    await rule({ Match: { Method: 'PATCH', Uri: SYS }, Action: { Drop: 'BeforeBody' }, Count: 1 });
    await assert.rejects(svc.req('PATCH', SYS, { auth: 'basic', body: { AssetTag: 'dropped' } }), (e: Error & { code?: string }) =>
      /UND_ERR_SOCKET|ECONNRESET/.test(String(e.code)),
    );
    assert.equal(((await call(client, 'GET', SYS)).body as { AssetTag: string }).AssetTag, 'dropped');
    await clear();
  });

  it('Drop MidBody and Truncate: the headers arrive, the body is cut short of its Content-Length', async () => {
    const whole = await call(client, 'GET', SYS);
    const length = Number(whole.headers['content-length']);
    for (const action of [{ Drop: 'MidBody' }, { Truncate: 100 }]) {
      await rule({ Match: { Uri: SYS }, Action: action, Count: 1 });
      await assert.rejects(call(client, 'GET', SYS), /other side closed|terminated|socket/i, JSON.stringify(action));
      await clear();
    }
    // What the client received: the raw bytes of a truncated answer.
    await rule({ Match: { Uri: SYS }, Action: { Truncate: 100 }, Count: 1 });
    const got = await rawGet(svc, SYS);
    assert.match(got.head, /^HTTP\/1\.1 200/);
    assert.match(got.head, new RegExp(`content-length: ${length}`, 'i'));
    assert.equal(got.body.length, 100);
    await clear();
  });

  it('Patch: a property missing and another of the wrong type', async () => {
    await rule({ Match: { Uri: SYS }, Action: { Patch: { PowerState: null, Model: 7 } }, Count: 1 });
    const a = await call(client, 'GET', SYS);
    const body = a.body as Record<string, unknown>;
    assert.equal(a.status, 200);
    assert.equal('PowerState' in body, false);
    assert.equal(body.Model, 7);
    assert.equal(body.Id, '1');
    await clear();
  });

  it('ETag: weak, strong, unquoted, and changed at every answer', async () => {
    const etag = String((await call(client, 'GET', SYS)).headers.etag);
    const bare = etag.replace(/^W\//, '').replace(/"/g, '');
    const seen: Record<string, string[]> = {};
    for (const style of ['Weak', 'Strong', 'Unquoted', 'Changed']) {
      await rule({ Match: { Uri: SYS }, Action: { ETag: style } });
      seen[style] = [String((await call(client, 'GET', SYS)).headers.etag), String((await call(client, 'GET', SYS)).headers.etag)];
      await clear();
    }
    assert.deepEqual(seen.Weak, [`W/"${bare}"`, `W/"${bare}"`]);
    assert.deepEqual(seen.Strong, [`"${bare}"`, `"${bare}"`]);
    assert.deepEqual(seen.Unquoted, [bare, bare]);
    assert.notEqual(seen.Changed![0], seen.Changed![1]);
    assert.notEqual(seen.Changed![0], etag);
  });

  it('RefuseIfMatch: 412 even for If-Match: *, and only for requests that carry If-Match', async () => {
    await rule({ Match: { Method: 'PATCH', Uri: SYS }, Action: { RefuseIfMatch: true } });
    const refused = await svc.req('PATCH', SYS, { auth: 'basic', body: { AssetTag: 'x' }, headers: { 'if-match': '*' } });
    assert.equal(refused.status, 412);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.PreconditionFailed']);
    assert.equal((await svc.req('PATCH', SYS, { auth: 'basic', body: { AssetTag: 'y' } })).status, 200);
    await clear();
  });

  it('never applies to /control/ itself, and a rule is refused that names it or has not exactly one action', async () => {
    await rule({ Match: { Uri: '/*' }, Action: { Status: 503 } });
    assert.equal((await svc.req('GET', '/control/', { auth: 'basic' })).status, 200);
    assert.equal((await svc.req('GET', '/control/clock/', { auth: 'basic' })).status, 200);
    await clear();
    for (const body of [
      { Match: { Uri: '/control/clock/' }, Action: { Status: 503 } },
      { Match: { Uri: SYS }, Action: { Status: 503, Delay: 5 } },
      { Match: { Uri: SYS }, Action: {} },
      { Match: { Uri: SYS }, Action: { Status: 418 } },
      { Match: { Uri: SYS }, Action: { Status: 500, RetryAfter: 5 } },
      { Match: { Uri: 'redfish/v1/' }, Action: { Status: 503 } },
      { Match: { Uri: SYS }, Action: { Status: 503 }, Expires: 'tomorrow' },
    ]) {
      const r = await svc.req('POST', RULES, { auth: 'basic', body });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
  });
});

/** A GET over a raw TLS connection: the head and whatever body came before the server closed. */
async function rawGet(svc: TestService, path: string): Promise<{ head: string; body: string }> {
  const c = await rawTls(svc.port);
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(ADMIN_USER, ADMIN_PASSWORD)}\r\n\r\n`);
  const all = await c.untilClosed();
  const end = all.indexOf('\r\n\r\n');
  return { head: all.slice(0, end), body: all.slice(end + 4) };
}
