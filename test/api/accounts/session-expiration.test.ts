// Session ExpirationTime (Session 1.8) and the SessionService's absolute session timeout
// (SessionService 1.2), DMTF 2024.4: a session ends at CreatedTime + AbsoluteSessionTimeout
// whatever its activity. Offered by the dmtf dialect; iLO (spec) has no such timeout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';

const SERVICE = '/redfish/v1/SessionService';
const SESSIONS = `${SERVICE}/Sessions`;

describe('absolute session timeout and ExpirationTime (dmtf dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf' } });
  });
  after(() => svc.close());

  const login = async () => {
    const r = await svc.req('POST', SESSIONS, { auth: 'none', body: { UserName: ADMIN_USER, Password: ADMIN_PASSWORD } });
    assert.equal(r.status, 201, r.text);
    return { token: r.headers['x-auth-token'] as string, uri: r.headers.location as string, body: r.body };
  };

  it('is off until enabled: a session then has no ExpirationTime', async () => {
    const s = (await svc.get(SERVICE, { auth: 'basic' })).body;
    assert.equal(s.AbsoluteSessionTimeout, 86400);
    assert.equal(s.AbsoluteSessionTimeoutEnabled, false);
    const { body } = await login();
    assert.equal(body.ExpirationTime, undefined);
  });

  it('ends a session at CreatedTime + AbsoluteSessionTimeout however busy it is', async () => {
    const r = await svc.req('PATCH', SERVICE, {
      auth: 'basic',
      body: { AbsoluteSessionTimeoutEnabled: true, AbsoluteSessionTimeout: 600 },
    });
    assert.equal(r.status, 200, r.text);
    const { token, uri, body } = await login();
    assert.equal(body.CreatedTime, '2026-11-22T08:00:00Z');
    assert.equal(body.ExpirationTime, '2026-11-22T08:10:00Z');
    assert.equal((await svc.get(uri, { auth: { token } })).body.ExpirationTime, '2026-11-22T08:10:00Z');
    // Busy all along: a request every 2 minutes, far inside the inactivity time-out (SessionTimeout).
    for (let t = 0; t < 4; t++) {
      await svc.clock.advance(120_000);
      assert.equal((await svc.get(SERVICE, { auth: { token } })).status, 200);
    }
    await svc.clock.advance(119_000);
    assert.equal((await svc.get(SERVICE, { auth: { token } })).status, 200, 'one second before it expires');
    await svc.clock.advance(1_000);
    assert.equal((await svc.get(SERVICE, { auth: { token } })).status, 401);
    assert.equal((await svc.get(uri, { auth: 'basic' })).status, 404, 'the session resource is deleted');
  });

  it('follows a change of the setting for the sessions already open, and keeps it across a restart', async () => {
    const { token, uri } = await login();
    await svc.clock.advance(120_000);
    assert.equal((await svc.req('PATCH', SERVICE, { auth: 'basic', body: { AbsoluteSessionTimeout: 300 } })).status, 200);
    assert.equal((await svc.get(uri, { auth: { token } })).body.ExpirationTime, '2026-11-22T08:15:00Z');
    assert.equal((await svc.req('PATCH', SERVICE, { auth: 'basic', body: { AbsoluteSessionTimeout: 60 } })).status, 200);
    assert.equal((await svc.get(uri, { auth: { token } })).status, 401, 'older than the new lifetime: ended');

    const out = await svc.req('PATCH', SERVICE, { auth: 'basic', body: { AbsoluteSessionTimeout: 29 } });
    assert.equal(out.status, 400);
    assert.deepEqual(messageIds(out.body), ['Base.1.12.PropertyValueOutOfRange']);
    svc = await svc.restart();
    const s = (await svc.get(SERVICE, { auth: 'basic' })).body;
    assert.equal(s.AbsoluteSessionTimeout, 60);
    assert.equal(s.AbsoluteSessionTimeoutEnabled, true);
    await svc.req('PATCH', SERVICE, { auth: 'basic', body: { AbsoluteSessionTimeoutEnabled: false } });
    assert.equal((await login()).body.ExpirationTime, undefined);
  });
});

describe('absolute session timeout (spec dialect)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('is not offered: not shown, refused in a PATCH; sessions carry no ExpirationTime', async () => {
    const s = (await svc.get(`${SERVICE}/`)).body;
    assert.equal(s.AbsoluteSessionTimeout, undefined);
    assert.equal(s.AbsoluteSessionTimeoutEnabled, undefined);
    const r = await svc.req('PATCH', `${SERVICE}/`, { body: { AbsoluteSessionTimeoutEnabled: true } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyUnknown']);
    const mine = (await svc.get(`${SESSIONS}/`)).body.Oem.Vendor.Links.MySession['@odata.id'];
    assert.equal((await svc.get(mine)).body.ExpirationTime, undefined);
  });
});
