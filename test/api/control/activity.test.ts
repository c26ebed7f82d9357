// Issue 29 item 3: the request inspector. Requests made through the API are kept newest
// first, with the user, status, and both bodies with their secrets masked; listed with
// $top/$skip/$filter, read one by one, streamed as server-sent events; capped; and
// nothing of it exists without --enable-control.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';

const ACTIVITY = '/control/activity/';
const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';

describe('request inspector: off by default', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('/control/activity/ is 404 without --enable-control, and nothing is recorded', async () => {
    await svc.get('/redfish/v1/Systems/1/', { auth: 'basic' });
    for (const path of [ACTIVITY, `${ACTIVITY}1/`, `${ACTIVITY}stream/`]) {
      const r = await svc.get(path, { auth: 'basic' });
      assert.equal(r.status, 404, path);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI']);
    }
    assert.equal(svc.running.services.activity, undefined);
  });
});

describe('request inspector: enabled', () => {
  let svc: TestService;
  const activity = (path = '', opts: { headers?: Record<string, string> } = {}) =>
    svc.get(`${ACTIVITY}${path}`, { auth: 'basic', ...opts });

  before(async () => {
    svc = await startTestService({ config: { enableControl: true, activitySize: 40 } });
  });
  after(() => svc.close());

  it('keeps a write newest first with its user, status and both bodies, secrets masked', async () => {
    const created = await svc.req('POST', ACCOUNTS, {
      auth: 'basic',
      body: { UserName: 'inspected', Password: 'Inspect-Pass-1', RoleId: 'Operator' },
    });
    assert.equal(created.status, 201, created.text);
    const login = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      auth: 'none',
      body: { UserName: 'inspected', Password: 'Inspect-Pass-1' },
    });
    assert.equal(login.status, 201, login.text);
    const patched = await svc.req('PATCH', '/redfish/v1/Systems/1/', {
      auth: { token: login.headers['x-auth-token']! },
      body: { AssetTag: 'rack-7' },
    });
    assert.equal(patched.status, 200, patched.text);

    const list = await activity();
    assert.equal(list.status, 200, list.text);
    const [patch, session, account] = list.body.Members;
    assert.deepEqual(
      [patch, session, account].map((m: any) => [m.Method, m.Uri, m.User, m.Status]),
      [
        ['PATCH', '/redfish/v1/Systems/1/', 'inspected', 200],
        ['POST', '/redfish/v1/SessionService/Sessions/', 'anonymous', 201],
        ['POST', ACCOUNTS, ADMIN_USER, 201],
      ],
    );
    assert.equal(patch['@odata.id'], `${ACTIVITY}${patch.Id}`);
    assert.ok(Number(patch.Id) > Number(session.Id), 'newest first');
    assert.match(patch.Time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(new Date(patch.Time).getTime(), Math.floor(svc.clock.now() / 1000) * 1000, 'the controller clock');
    assert.equal(typeof patch.DurationMs, 'number');

    const one = (await activity(`${patch.Id}/`)).body;
    assert.deepEqual(one.Request.Body, { AssetTag: 'rack-7' });
    assert.deepEqual(one.Response.Body, patched.body, 'the answer as the client read it');
    assert.equal(one.Request.Headers['x-auth-token'], '********');

    const acct = (await activity(`${account.Id}/`)).body;
    assert.deepEqual(acct.Request.Body, { UserName: 'inspected', Password: '********', RoleId: 'Operator' });
    assert.equal(acct.Request.Headers.authorization, '********');
    const sess = (await activity(`${session.Id}/`)).body;
    assert.equal(sess.Request.Body.Password, '********');
    assert.equal(sess.Response.Headers['X-Auth-Token'], '********');
    assert.ok(!JSON.stringify([one, acct, sess]).includes('Inspect-Pass-1'), 'the password is nowhere');
    assert.ok(!JSON.stringify(sess).includes(login.headers['x-auth-token']!), 'nor the session token');
  });

  it('masks credentials in URIs and private keys in a body, even one cut off or malformed', async () => {
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
    const r = await svc.req('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/', {
      auth: 'basic',
      body: { ImageURI: 'https://fwuser:fw-secret@198.51.100.9/bios.bin', Password: 'also-secret', Note: key },
    });
    assert.ok(r.status >= 200, r.text);
    const bad = await svc.req('PATCH', '/redfish/v1/Systems/1/', {
      auth: 'basic',
      rawBody: '{"Password": "cut-off-secret", "AssetTag": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    const [malformed, update] = (await activity('?$top=2')).body.Members;
    const shown = JSON.stringify((await activity(`${update.Id}/`)).body.Request);
    for (const secret of ['fw-secret', 'also-secret', 'MIIEvQ']) assert.ok(!shown.includes(secret), `${secret} is masked: ${shown}`);
    assert.match(shown, /198\.51\.100\.9\/bios\.bin/, 'the URI stays, without its credentials');
    const cut = (await activity(`${malformed.Id}/`)).body.Request.Body;
    assert.equal(typeof cut, 'string', 'not JSON: kept as text');
    assert.ok(!cut.includes('cut-off-secret'), cut);
    assert.match(cut, /AssetTag/);
  });

  it('records nothing of its own reads; pages with $top/$skip; filters by method, status, user and URI', async () => {
    await svc.get('/redfish/v1/Chassis/1/', { auth: 'basic' });
    const first = (await activity()).body;
    const again = (await activity()).body;
    assert.equal(again['Members@odata.count'], first['Members@odata.count'], 'reading the inspector adds nothing');
    assert.equal(first.Members[0].Uri, '/redfish/v1/Chassis/1/');
    assert.deepEqual(first.Capacity, { Requests: 40, BodyBytes: 16384, TotalBytes: 8 * 1024 * 1024 });

    const page = (await activity('?$top=2&$skip=1')).body;
    assert.deepEqual(
      page.Members.map((m: any) => m.Id),
      first.Members.slice(1, 3).map((m: any) => m.Id),
    );
    assert.equal(page['Members@odata.count'], first['Members@odata.count']);

    const q = (f: string) => activity(`?$filter=${encodeURIComponent(f)}`);
    const patches = (await q("Method eq 'PATCH'")).body.Members;
    assert.ok(patches.length >= 2 && patches.every((m: any) => m.Method === 'PATCH'));
    const errors = (await q('Status ge 400')).body.Members;
    assert.ok(errors.length >= 1 && errors.every((m: any) => m.Status >= 400));
    const mine = (await q(`User eq 'inspected' and contains(Uri,'systems/1')`)).body.Members;
    assert.deepEqual(
      mine.map((m: any) => [m.Method, m.Uri]),
      [['PATCH', '/redfish/v1/Systems/1/']],
    );
    const refused = await q('Colour eq 1');
    assert.equal(refused.status, 400);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.QueryParameterValueFormatError']);
  });

  it('streams each new request as a server-sent event, on /stream/ or the list with Accept: text/event-stream', async () => {
    const auth = { user: ADMIN_USER, password: ADMIN_PASSWORD };
    const streams = [await SseStream.open(svc, auth, `${ACTIVITY}stream/`), await SseStream.open(svc, auth, ACTIVITY)];
    try {
      for (const s of streams) assert.equal(s.status, 200);
      await svc.get('/redfish/v1/Managers/1/', { auth: 'basic' });
      for (const s of streams) {
        for (let i = 0; i < 100 && !s.events.some((e) => e.Uri === '/redfish/v1/Managers/1/'); i++)
          await new Promise((r) => setImmediate(r));
        const got = s.events.find((e) => e.Uri === '/redfish/v1/Managers/1/');
        assert.ok(got, JSON.stringify(s.events));
        assert.deepEqual([got.Method, got.Status, got.User], ['GET', 200, ADMIN_USER]);
        assert.ok(!s.events.some((e) => e.Uri.startsWith(ACTIVITY)), 'the stream itself is not recorded');
      }
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('ends a stream opened with a session when the session ends', async () => {
    const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    const [login] = (await activity(`?$top=1&$filter=${encodeURIComponent("Method eq 'POST'")}`)).body.Members;
    const session = (await activity(`${login.Id}/`)).body.Response.Headers.Location as string;
    assert.match(session, /\/SessionService\/Sessions\/.+/);
    const s = await SseStream.open(svc, { token }, `${ACTIVITY}stream/`);
    try {
      assert.equal(s.status, 200);
      assert.equal((await svc.req('DELETE', session, { auth: 'basic' })).status, 200);
      await svc.get('/redfish/v1/', { auth: 'none' });
      for (let i = 0; i < 200 && !s.ended; i++) await new Promise((r) => setImmediate(r));
      assert.ok(s.ended, 'the stream ended with its session');
      assert.deepEqual(s.events, [], 'nothing was sent after the session ended');
    } finally {
      s.close();
    }
  });

  it('cuts a body at the byte cap and says so', async () => {
    const whole = await svc.get('/redfish/v1/$metadata', { auth: 'none' });
    assert.ok(whole.text.length > 16384, 'a long answer');
    const [m] = (await activity('?$top=1')).body.Members;
    const r = (await activity(`${m.Id}/`)).body.Response;
    assert.equal(r.BodyTruncated, true);
    assert.equal(r.Body, whole.text.slice(0, 16384));
  });

  it('keeps the last --activity-size requests; one not kept (or never made) is 404; administrators only', async () => {
    for (let i = 0; i < 45; i++) await svc.get('/redfish/v1/', { auth: 'none' });
    const list = (await activity()).body;
    assert.equal(list['Members@odata.count'], 40);
    const oldest = list.Members.at(-1).Id;
    assert.equal((await activity(`${Number(oldest) - 1}/`)).status, 404);
    assert.equal((await activity('999999/')).status, 404);
    await svc.req('POST', ACCOUNTS, { auth: 'basic', body: { UserName: 'peeker', Password: 'Peeker-Pass-12', RoleId: 'Operator' } });
    const op = await svc.get(ACTIVITY, { auth: { user: 'peeker', password: 'Peeker-Pass-12' } });
    assert.equal(op.status, 403);
  });
});
