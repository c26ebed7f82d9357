// Authentication: None, Basic and Session (G2, Authentication, Limits).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, basic, messageIds, startTestService, type TestService } from '../../support/service.js';

describe('sessions and authentication', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxSessions: 3 } });
  });
  after(() => svc.close());

  const login = (user = ADMIN_USER, password = ADMIN_PASSWORD) =>
    svc.req('POST', '/redfish/v1/SessionService/Sessions', { auth: 'none', body: { UserName: user, Password: password } });

  const logoutAll = async () => {
    for (const s of svc.running.services.sessions.list()) svc.running.services.sessions.delete(s.Id);
  };

  it('needs credentials everywhere but the open resources', async () => {
    for (const path of ['/redfish/v1/', '/redfish', '/redfish/v1/$metadata', '/redfish/v1/odata']) {
      assert.equal((await svc.get(path, { auth: 'none' })).status, 200, path);
    }
    for (const path of ['/redfish/v1/SessionService/', '/redfish/v1/Registries/', '/redfish/v1/AccountService/Accounts/']) {
      assert.equal((await svc.get(path, { auth: 'none' })).status, 401, path);
    }
    assert.equal((await svc.req('PATCH', '/redfish/v1/SessionService/', { auth: 'none', body: { SessionTimeout: 60 } })).status, 401);
  });

  it('logs in with 201, X-Auth-Token, Location and the session body', async () => {
    const r = await login();
    assert.equal(r.status, 201);
    const token = r.headers['x-auth-token'] as string;
    assert.match(token, /^[0-9a-f]{64}$/, 'token carries 256 random bits');
    assert.match(r.headers.location ?? '', /^\/redfish\/v1\/SessionService\/Sessions\/[0-9a-f]+\/$/);
    assert.equal(r.body['@odata.id'], r.headers.location);
    assert.equal(r.body.UserName, ADMIN_USER);
    assert.equal(r.body.Password, null);
    const second = await login();
    assert.notEqual(second.headers['x-auth-token'], token);
    await logoutAll();
  });

  it("marks the caller's own session (MySession link and boolean)", async () => {
    const a = await login();
    const b = await login();
    const token = a.headers['x-auth-token'] as string;
    const list = await svc.get('/redfish/v1/SessionService/Sessions/', { auth: { token } });
    assert.equal(list.body.Oem.Vendor.Links.MySession['@odata.id'], a.headers.location);
    assert.equal((await svc.get(a.headers.location as string, { auth: { token } })).body.Oem.Vendor.MySession, true);
    assert.equal((await svc.get(b.headers.location as string, { auth: { token } })).body.Oem.Vendor.MySession, false);
    await logoutAll();
  });

  it('logs out with DELETE (200 + Success) and leaves other sessions intact', async () => {
    const a = await login();
    const b = await login();
    const ta = a.headers['x-auth-token'] as string;
    const tb = b.headers['x-auth-token'] as string;
    const del = await svc.req('DELETE', a.headers.location as string, { auth: { token: ta } });
    assert.equal(del.status, 200);
    assert.deepEqual(messageIds(del.body), ['Base.1.12.Success']);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token: ta } })).status, 401);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token: tb } })).status, 200);
    assert.equal((await svc.req('DELETE', a.headers.location as string, { auth: { token: tb } })).status, 404);
    await logoutAll();
  });

  it("forgets an ended session's principal and URI: logins and logouts over HTTPS leave the caches as they found them", async () => {
    await logoutAll();
    const { auth, routes } = svc.running.services;
    // Basic: the admin's test session expires on the way. Its principal (one per account and method) stays.
    const timeoutSeconds = (await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).body.SessionTimeout as number;
    const before = auth.cachedPrincipalCount();
    const paths = routes.rememberedPathCount();
    for (let i = 0; i < 40; i++) {
      const r = await login();
      assert.equal(r.status, 201, r.text);
      const token = r.headers['x-auth-token'] as string;
      assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 200);
      assert.equal(auth.cachedPrincipalCount(), before + 1, 'the live session has its principal');
      if (i % 2) assert.equal((await svc.req('DELETE', r.headers.location!, { auth: { token } })).status, 200);
      else await svc.clock.advance((timeoutSeconds + 1) * 1000);
      assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).status, 200);
    }
    assert.equal(auth.cachedPrincipalCount(), before);
    assert.equal(routes.rememberedPathCount(), paths, 'no ended session URI is remembered');
  });

  it('reveals nothing on a failed login: unknown user and bad password answer alike', async () => {
    const bad = await login(ADMIN_USER, 'wrong-password');
    const unknown = await login('nobody', 'wrong-password');
    assert.equal(bad.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(bad.text, unknown.text);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token: 'not-a-token' } })).status, 401);
  });

  it('works with Basic alone, and refuses wrong Basic credentials', async () => {
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).status, 200);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { user: ADMIN_USER, password: 'nope' } })).status, 401);
    const malformed = await svc.get('/redfish/v1/SessionService/', { auth: 'none', headers: { authorization: 'Basic !!!' } });
    assert.equal(malformed.status, 401);
  });

  it('drops cached Basic credentials when the password changes', async () => {
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).status, 200);
    const { accounts } = svc.running.services;
    const admin = accounts.findByUserName(ADMIN_USER)!;
    await accounts.setPassword(admin, 'Another-Pass-9');
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).status, 401);
    const fresh = await svc.get('/redfish/v1/SessionService/', {
      auth: 'none',
      headers: { authorization: basic(ADMIN_USER, 'Another-Pass-9') },
    });
    assert.equal(fresh.status, 200);
    await accounts.setPassword(accounts.findByUserName(ADMIN_USER)!, ADMIN_PASSWORD);
  });

  it('stores passwords only as salted scrypt hashes', async () => {
    const rows = svc.running.services.store.db.prepare("SELECT body FROM document WHERE kind = 'account'").all() as { body: string }[];
    assert.ok(rows.length > 0);
    for (const { body } of rows) {
      assert.doesNotMatch(body, new RegExp(ADMIN_PASSWORD));
      assert.match(JSON.parse(body).PasswordHash, /^scrypt\$\d+\$8\$1\$/);
    }
  });

  it('expires sessions after SessionTimeout of inactivity, and activity keeps them alive', async () => {
    assert.equal((await svc.req('PATCH', '/redfish/v1/SessionService/', { auth: 'basic', body: { SessionTimeout: 60 } })).status, 200);
    const token = (await login()).headers['x-auth-token'] as string;
    await svc.clock.advance(50_000);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 200);
    await svc.clock.advance(50_000);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 200);
    await svc.clock.advance(61_000);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 401);
    assert.equal((await svc.req('PATCH', '/redfish/v1/SessionService/', { auth: 'basic', body: { SessionTimeout: 1800 } })).status, 200);
  });

  it('refuses logins past the session limit until one is deleted or expires', async () => {
    await logoutAll();
    await svc.dropConnections(); // kept-alive Basic connections hold slots of the same limit
    const made = [await login(), await login(), await login()];
    assert.deepEqual(
      made.map((r) => r.status),
      [201, 201, 201],
    );
    const refused = await login();
    assert.equal(refused.status, 503);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.SessionLimitExceeded']);
    const token = made[1]!.headers['x-auth-token'] as string;
    await svc.req('DELETE', made[0]!.headers.location as string, { auth: { token } });
    assert.equal((await login()).status, 201);
    assert.equal((await login()).status, 503);
    await svc.clock.advance(1801_000);
    assert.equal((await login()).status, 201);
    await logoutAll();
  });

  it('does not keep sessions across a restart (a controller reset drops them)', async () => {
    const token = (await login()).headers['x-auth-token'] as string;
    svc = await svc.restart({ maxSessions: 3 });
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 401);
  });

  it('keeps the SessionTimeout across a restart', async () => {
    await svc.req('PATCH', '/redfish/v1/SessionService/', { auth: 'basic', body: { SessionTimeout: 300 } });
    svc = await svc.restart({ maxSessions: 3 });
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: 'basic' })).body.SessionTimeout, 300);
  });

  it("keeps the collection's ETag while nothing changes, and changes it on login and logout", async () => {
    const a = await login();
    const ta = a.headers['x-auth-token'] as string;
    const list = () => svc.get('/redfish/v1/SessionService/Sessions/', { auth: { token: ta } });
    const first = await list();
    const again = await list();
    assert.equal(again.headers.etag, first.headers.etag, 'unchanged collection, same ETag');
    assert.equal(again.body['@odata.etag'], first.headers.etag);
    assert.equal(first.body['Members@odata.count'], 1);

    const b = await login();
    const withB = await list();
    assert.notEqual(withB.headers.etag, first.headers.etag);
    assert.deepEqual(
      withB.body.Members.map((m: { '@odata.id': string }) => m['@odata.id']).sort(),
      [a.headers.location, b.headers.location].sort(),
    );
    // Each viewer sees its own MySession, however often the collection is read.
    const tb = b.headers['x-auth-token'] as string;
    const seenByB = await svc.get('/redfish/v1/SessionService/Sessions/', { auth: { token: tb } });
    assert.equal(seenByB.body.Oem.Vendor.Links.MySession['@odata.id'], b.headers.location);
    assert.equal((await list()).body.Oem.Vendor.Links.MySession['@odata.id'], a.headers.location);

    await svc.req('DELETE', b.headers.location as string, { auth: { token: tb } });
    const afterLogout = await list();
    assert.equal(afterLogout.body['Members@odata.count'], 1);
    assert.equal(afterLogout.headers.etag, first.headers.etag, 'the same members again, the same ETag');
    await logoutAll();
  });

  it('lists Links.Sessions on the root equal to SessionService.Sessions', async () => {
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    const ss = await svc.get('/redfish/v1/SessionService/', { auth: 'basic' });
    assert.equal(root.body.Links.Sessions['@odata.id'], ss.body.Sessions['@odata.id']);
  });
});
