// Accounts under conflicting requests in parallel (issue 25, point 1): an
// account change is one step, checked against the accounts as they are when it
// is written, so no change is lost, an enabled administrator always remains,
// user names stay unique (case and Unicode look-alikes included), the account
// limit holds, and a deleted account stays deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ok, rounds, statuses } from '../support/race.js';
import { messageIds, startTestService, type Response, type TestService } from '../support/service.js';

const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';
const PASSWORD = 'Race-Pass-1234';
const MAX_ACCOUNTS = 12;

describe('accounts under concurrent writes', () => {
  let svc: TestService;
  /** A session of an account that administers accounts (UserConfigPriv) without being an administrator itself. */
  let keeper = { token: '' };
  const req = (method: string, path: string, body?: unknown) => svc.req(method, path, { auth: keeper, body });

  before(async () => {
    // A slower hash (still milliseconds) leaves a window a concurrent request can fall into.
    svc = await startTestService({ config: { scryptLogN: 12, maxAccounts: MAX_ACCOUNTS } });
    const privileges = { LoginPriv: true, UserConfigPriv: true };
    const r = await svc.req('POST', ACCOUNTS, {
      body: { UserName: 'keeper', Password: PASSWORD, RoleId: 'ReadOnly', Oem: { Vendor: { Privileges: privileges } } },
    });
    assert.equal(r.status, 201, r.text);
    // A session: each Basic connection would hold one of the account's session slots.
    keeper = { token: await svc.login('keeper', PASSWORD) };
  });
  after(() => svc.close());

  async function create(UserName: string, RoleId: string): Promise<string> {
    const r = await req('POST', ACCOUNTS, { UserName, Password: PASSWORD, RoleId });
    assert.equal(r.status, 201, r.text);
    return r.headers.location as string;
  }

  async function canLogIn(user: string, password: string): Promise<boolean> {
    const r = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', { auth: 'none', body: { UserName: user, Password: password } });
    if (r.status === 201) await svc.req('DELETE', r.headers.location as string, { auth: { token: r.headers['x-auth-token'] as string } });
    return r.status === 201;
  }

  it('keeps both of two changes of one account: a role and a password', async () => {
    await rounds(svc, fc.constant(null), async (_, fire, n) => {
      const uri = await create(`both${n}`, 'Operator');
      const answers = await fire([
        () => req('PATCH', uri, { RoleId: 'ReadOnly' }),
        () => req('PATCH', uri, { Password: `New-Pass-${n}xx` }),
      ]);
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200],
        statuses(answers),
      );
      assert.equal((await req('GET', uri)).body.RoleId, 'ReadOnly', 'the role change is not lost');
      assert.ok(await canLogIn(`both${n}`, `New-Pass-${n}xx`), 'the password change is not lost');
      assert.equal((await req('DELETE', uri)).status, 200);
    });
  });

  it('always leaves an enabled administrator, whatever the last two administrators are asked at once', async () => {
    const a = await create('admin-a', 'Administrator');
    const b = await create('admin-b', 'Administrator');
    // Administrator (the test's own) steps down: admin-a and admin-b are the last two.
    assert.equal((await req('PATCH', '/redfish/v1/AccountService/Accounts/1/', { RoleId: 'Operator' })).status, 200);
    const uris = { a, b };
    const names = { a: 'admin-a', b: 'admin-b' };
    const change = fc.constantFrom('disable', 'disable with a new password', 'demote with a new password', 'delete');
    await rounds(svc, fc.tuple(change, change), async ([ca, cb], fire, n) => {
      const send = (who: 'a' | 'b', what: string) => () => {
        const password = `Round-${n}-${who}-pass`;
        if (what === 'delete') return req('DELETE', uris[who]);
        if (what === 'disable') return req('PATCH', uris[who], { Enabled: false });
        if (what === 'demote with a new password') return req('PATCH', uris[who], { RoleId: 'ReadOnly', Password: password });
        return req('PATCH', uris[who], { Enabled: false, Password: password });
      };
      const answers = await fire([send('a', ca), send('b', cb)]);
      assert.equal(answers.filter(ok).length, 1, `exactly one succeeds: ${statuses(answers)}`);
      const refused = answers.find((r) => !ok(r));
      assert.equal(refused?.status, 409);
      assert.deepEqual(messageIds(refused?.body), ['Vendor.1.0.LastAdministrator']);
      const admins: string[] = [];
      for (const m of (await req('GET', ACCOUNTS)).body.Members) {
        const acc = (await req('GET', m['@odata.id'])).body;
        if (acc.Enabled && acc.RoleId === 'Administrator') admins.push(acc.UserName);
      }
      assert.equal(admins.length, 1, `one enabled administrator is left: ${admins.join(', ')}`);
      // Both administrators again for the next round.
      for (const who of ['a', 'b'] as const) {
        if ((await req('GET', uris[who])).status === 404) uris[who] = await create(names[who], 'Administrator');
        else assert.equal((await req('PATCH', uris[who], { Enabled: true, RoleId: 'Administrator' })).status, 200);
      }
    });
  });

  it('creates one account per user name, look-alikes included, and never more than the limit', async () => {
    const fullWidth = (s: string) => [...s].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    await rounds(svc, fc.integer({ min: 2, max: 6 }), async (distinct, fire, n) => {
      const before = (await req('GET', ACCOUNTS)).body['Members@odata.count'] as number;
      const names: string[] = [];
      for (let i = 0; i < distinct; i++) names.push(`u${n}x${i}`, `U${n}X${i}`, fullWidth(`u${n}x${i}`));
      const answers = await fire(
        names.map((UserName) => () => req('POST', ACCOUNTS, { UserName, Password: PASSWORD, RoleId: 'ReadOnly' })),
      );
      const made = answers.filter((r) => r.status === 201);
      for (const r of answers.filter((x) => !ok(x))) {
        assert.ok(
          ['Base.1.12.ResourceAlreadyExists', 'Base.1.12.CreateLimitReachedForResource'].includes(messageIds(r.body)[0] as string),
          `${r.status} ${r.text}`,
        );
      }
      assert.equal(made.length, Math.min(distinct, MAX_ACCOUNTS - before), statuses(answers));
      const members: string[] = (await req('GET', ACCOUNTS)).body.Members.map((m: any) => m['@odata.id']);
      assert.ok(members.length <= MAX_ACCOUNTS);
      const keys = new Set<string>();
      for (const r of made) {
        assert.ok(members.includes(r.headers.location as string), 'a created account is listed');
        const got = await req('GET', r.headers.location as string);
        assert.equal(got.status, 200);
        const key = (got.body.UserName as string).normalize('NFKC').toLowerCase();
        assert.ok(!keys.has(key), `one account per name: ${got.body.UserName}`);
        keys.add(key);
      }
      for (const r of made) assert.equal((await req('DELETE', r.headers.location as string)).status, 200);
    });
  });

  it('takes one of two changes made against the same ETag, and refuses the other (412)', async () => {
    await rounds(svc, fc.constant(null), async (_, fire, n) => {
      const uri = await create(`etag${n}`, 'Operator');
      const etag = (await req('GET', uri)).headers.etag as string;
      const conditional = (body: unknown) => () => svc.req('PATCH', uri, { auth: keeper, body, headers: { 'if-match': etag } });
      const answers = await fire([conditional({ Password: `Etag-Pass-${n}xx`, RoleId: 'ReadOnly' }), conditional({ Enabled: false })]);
      assert.equal(answers.filter(ok).length, 1, statuses(answers));
      const refused = answers.find((r) => !ok(r)) as Response;
      assert.equal(refused.status, 412, refused.text);
      const now = (await req('GET', uri)).body;
      assert.equal(now.Enabled === false, ok(answers[1] as Response), 'only the change answered 200 was made');
      assert.equal(now.RoleId === 'ReadOnly', ok(answers[0] as Response));
      assert.equal((await req('DELETE', uri)).status, 200);
    });
  });

  it('does not bring back an account deleted while a change of it was being made', async () => {
    // The deletion a few milliseconds late (drawn) too, so it can land while the change hashes a password.
    await rounds(svc, fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 8 })), async ([withPassword, lateMs], fire, n) => {
      const uri = await create(`gone${n}`, 'ReadOnly');
      const change = withPassword ? { Password: `Gone-Pass-${n}xx` } : { Enabled: false };
      const late = () => new Promise((resolve) => setTimeout(resolve, lateMs));
      const answers = await fire([() => req('PATCH', uri, change), () => late().then(() => req('DELETE', uri))]);
      assert.equal(answers[1]?.status, 200, statuses(answers));
      assert.ok([200, 404].includes(answers[0]?.status as number), statuses(answers));
      assert.equal((await req('GET', uri)).status, 404, 'the deleted account stays deleted');
    });
  });
});
