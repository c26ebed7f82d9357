// Sessions and subscriptions under conflicting requests in parallel: the
// session limit and the per-account limit hold, a login racing the deletion,
// disabling or new password of its account leaves no session behind, and the
// subscription limit holds. Every 2xx is visible afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ok, refusedAs, rounds, statuses } from '../support/race.js';
import { startTestService, type Response, type TestService } from '../support/service.js';

const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';
const SESSIONS = '/redfish/v1/SessionService/Sessions/';
const SUBSCRIPTIONS = '/redfish/v1/EventService/Subscriptions/';
const PASSWORD = 'Race-Pass-1234';
const MAX_SESSIONS = 10;
const PER_ACCOUNT = 3;
const MAX_SUBSCRIPTIONS = 6;

describe('sessions and subscriptions under concurrent requests', () => {
  let svc: TestService;
  let admin = { token: '' };

  before(async () => {
    svc = await startTestService({
      config: { scryptLogN: 12, maxSessions: MAX_SESSIONS, maxSessionsPerAccount: PER_ACCOUNT, maxSubscriptions: MAX_SUBSCRIPTIONS },
    });
    admin = { token: await svc.adminToken() };
  });
  after(() => svc.close());

  const login = (user: string, password = PASSWORD): Promise<Response> =>
    svc.req('POST', SESSIONS, { auth: 'none', body: { UserName: user, Password: password } });

  async function create(UserName: string): Promise<string> {
    const r = await svc.req('POST', ACCOUNTS, { auth: admin, body: { UserName, Password: PASSWORD, RoleId: 'ReadOnly' } });
    assert.equal(r.status, 201, r.text);
    return r.headers.location as string;
  }

  /** The sessions as the administrator sees them: URI and user name. */
  async function sessions(): Promise<{ uri: string; user: string }[]> {
    const out: { uri: string; user: string }[] = [];
    for (const m of (await svc.get(SESSIONS, { auth: admin })).body.Members) {
      const s = await svc.get(m['@odata.id'], { auth: admin });
      if (s.status === 200) out.push({ uri: m['@odata.id'], user: s.body.UserName });
    }
    return out;
  }

  /** End every session but the administrator's own. */
  async function logOutOthers(): Promise<void> {
    const mine = (await svc.get(SESSIONS, { auth: admin })).body.Oem.Vendor.Links.MySession['@odata.id'];
    for (const s of await sessions()) if (s.uri !== mine) await svc.req('DELETE', s.uri, { auth: admin });
  }

  it('keeps the session limit and the per-account limit, and every session made is usable', async () => {
    const users = ['s-a', 's-b', 's-c', 's-d', 's-e'];
    for (const u of users) await create(u);
    await rounds(svc, fc.array(fc.constantFrom(...users), { minLength: 8, maxLength: 16 }), async (who, fire) => {
      const answers = await fire(who.map((u) => () => login(u)));
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.SessionLimitExceeded']);
      const all = await sessions();
      assert.ok(all.length <= MAX_SESSIONS, `${all.length} sessions`);
      for (const u of users) assert.ok(all.filter((s) => s.user === u).length <= PER_ACCOUNT, `${u}: ${statuses(answers)}`);
      // Within both limits, no login was refused.
      const expected = Math.min(
        MAX_SESSIONS - 1,
        users.reduce((n, u) => n + Math.min(PER_ACCOUNT, who.filter((x) => x === u).length), 0),
      );
      assert.equal(answers.filter(ok).length, expected, statuses(answers));
      for (const r of answers.filter(ok)) {
        const own = await svc.get(r.headers.location as string, { auth: { token: r.headers['x-auth-token'] as string } });
        assert.equal(own.status, 200, 'a session made is usable');
      }
      await logOutOthers();
    });
  });

  it('leaves no session of an account deleted, disabled or given a new password while it logged in', async () => {
    const change = fc.constantFrom('delete', 'disable', 'password');
    await rounds(svc, fc.tuple(change, fc.integer({ min: 0, max: 8 })), async ([what, lateMs], fire, n) => {
      const user = `racer${n}`;
      const uri = await create(user);
      const late = () => new Promise((resolve) => setTimeout(resolve, lateMs));
      const act = () =>
        late().then(() =>
          what === 'delete'
            ? svc.req('DELETE', uri, { auth: admin })
            : svc.req('PATCH', uri, { auth: admin, body: what === 'disable' ? { Enabled: false } : { Password: `Other-Pass-${n}xx` } }),
        );
      const answers = await fire([() => login(user), () => login(user), act]);
      assert.equal(answers[2]?.status, 200, statuses(answers));
      for (const r of answers.slice(0, 2)) assert.ok([201, 401].includes(r.status), statuses(answers));
      assert.deepEqual(
        (await sessions()).filter((s) => s.user === user),
        [],
        `no session outlives the change (${what}): ${statuses(answers)}`,
      );
      if (what !== 'delete') assert.equal((await svc.req('DELETE', uri, { auth: admin })).status, 200);
    });
  });

  it('keeps the subscription limit, and every subscription made is listed', async () => {
    await rounds(svc, fc.integer({ min: 3, max: 10 }), async (count, fire, n) => {
      const answers = await fire(
        Array.from(
          { length: count },
          (_, i) => () =>
            svc.req('POST', SUBSCRIPTIONS, {
              auth: admin,
              body: { Destination: `https://127.0.0.1:9/r${n}/${i}`, Protocol: 'Redfish', RegistryPrefixes: ['Base'] },
            }),
        ),
      );
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.EventSubscriptionLimitExceeded']);
      const listed: string[] = (await svc.get(SUBSCRIPTIONS, { auth: admin })).body.Members.map((m: any) => m['@odata.id']);
      assert.ok(listed.length <= MAX_SUBSCRIPTIONS, `${listed.length} subscriptions`);
      assert.equal(answers.filter(ok).length, Math.min(count, MAX_SUBSCRIPTIONS), statuses(answers));
      for (const r of answers.filter(ok)) assert.ok(listed.includes(r.headers.location as string));
      for (const uri of listed) assert.equal((await svc.req('DELETE', uri, { auth: admin })).status, 200);
    });
  });
});
