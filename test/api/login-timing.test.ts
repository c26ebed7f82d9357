// Issue 12, item 6: no login timing oracle. Every failed login pays the same
// password hash, whether the user is unknown, disabled, locked out, or just
// gave a wrong password. Counted deterministically (Accounts.passwordChecks),
// and timed coarsely with a costly scrypt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { basic, startTestService, type TestService } from '../support/service.js';

const SESSIONS = '/redfish/v1/SessionService/Sessions/';
const PASSWORD = 'Timing-Pass-1';

async function login(svc: TestService, user: string, password: string): Promise<number> {
  return (await svc.req('POST', SESSIONS, { auth: 'none', body: { UserName: user, Password: password } })).status;
}

describe('login timing oracle: one password verification per attempt', () => {
  let svc: TestService;
  const checks = () => svc.running.services.accounts.passwordChecks;
  /** The status of one attempt, and how many password verifications it did. */
  const attempt = async (user: string, password: string) => {
    const before = checks();
    const status = await login(svc, user, password);
    return { status, verifications: checks() - before };
  };

  before(async () => {
    svc = await startTestService();
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: 'reader', Password: PASSWORD, RoleId: 'ReadOnly' });
    await accounts.create({ UserName: 'off', Password: PASSWORD, RoleId: 'ReadOnly', Enabled: false });
    await accounts.create({ UserName: 'nologin', Password: PASSWORD, RoleId: 'ReadOnly', Privileges: { LoginPriv: false } });
    await accounts.create({ UserName: 'locked', Password: PASSWORD, RoleId: 'ReadOnly' });
    const policy = await svc.req('PATCH', '/redfish/v1/AccountService/', {
      body: { AccountLockoutThreshold: 2, AccountLockoutDuration: 600, AccountLockoutCounterResetAfter: 60 },
    });
    assert.equal(policy.status, 200, policy.text);
    assert.equal(await login(svc, 'locked', 'wrong-1'), 401);
    assert.equal(await login(svc, 'locked', 'wrong-2'), 401);
    assert.equal((await svc.get('/redfish/v1/AccountService/Accounts/5/')).body.Locked, true);
  });
  after(() => svc.close());

  it('verifies once for a wrong password and for the right one', async () => {
    assert.deepEqual(await attempt('reader', 'wrong-password'), { status: 401, verifications: 1 });
    assert.deepEqual(await attempt('reader', PASSWORD), { status: 201, verifications: 1 });
  });

  it('verifies once, against a dummy hash, for an unknown user', async () => {
    assert.deepEqual(await attempt('nobody-here', 'wrong-password'), { status: 401, verifications: 1 });
  });

  it('verifies once for a disabled account and one without LoginPriv, even with the right password', async () => {
    assert.deepEqual(await attempt('off', 'wrong-password'), { status: 401, verifications: 1 });
    assert.deepEqual(await attempt('off', PASSWORD), { status: 401, verifications: 1 });
    assert.deepEqual(await attempt('nologin', PASSWORD), { status: 401, verifications: 1 });
  });

  it('verifies once for a locked-out account before refusing it, right password or not', async () => {
    assert.deepEqual(await attempt('locked', 'wrong-password'), { status: 401, verifications: 1 });
    assert.deepEqual(await attempt('locked', PASSWORD), { status: 401, verifications: 1 });
  });

  it('skips the hash for credentials verified recently, until the account changes or a minute passes', async () => {
    await svc.running.services.accounts.create({ UserName: 'repeat', Password: PASSWORD, RoleId: 'Operator' });
    assert.deepEqual(await attempt('repeat', PASSWORD), { status: 201, verifications: 1 });
    assert.deepEqual(await attempt('repeat', PASSWORD), { status: 201, verifications: 0 });
    // A wrong password is never a hit.
    assert.deepEqual(await attempt('repeat', 'wrong-password'), { status: 401, verifications: 1 });
    // Basic on a new connection shares what a session login verified.
    const agent = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const before = checks();
      const res = await request(`${svc.url}/redfish/v1/SessionService/`, {
        headers: { authorization: basic('repeat', PASSWORD) },
        dispatcher: agent,
      });
      await res.body.arrayBuffer();
      assert.equal(res.statusCode, 200);
      assert.equal(checks() - before, 0);
    } finally {
      await agent.close();
    }
    // Any account change drops the cache: the next login is verified again.
    assert.equal((await svc.req('PATCH', '/redfish/v1/AccountService/Accounts/6/', { body: { RoleId: 'ReadOnly' } })).status, 200);
    assert.deepEqual(await attempt('repeat', PASSWORD), { status: 201, verifications: 1 });
    // A new password: the old one fails, with a hash.
    const changed = await svc.req('PATCH', '/redfish/v1/AccountService/Accounts/6/', { body: { Password: 'Timing-Pass-2' } });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(await attempt('repeat', PASSWORD), { status: 401, verifications: 1 });
    assert.deepEqual(await attempt('repeat', 'Timing-Pass-2'), { status: 201, verifications: 1 });
    // The entry expires with controller time.
    await svc.clock.advance(61_000);
    assert.deepEqual(await attempt('repeat', 'Timing-Pass-2'), { status: 201, verifications: 1 });
  });

  it('does the same for the first Basic request of a connection', async () => {
    for (const [user, password] of [
      ['nobody-here', 'x-password'],
      ['off', PASSWORD],
      ['locked', PASSWORD],
      ['reader', 'wrong-password'],
    ] as const) {
      const agent = new Agent({ connect: { rejectUnauthorized: false } });
      try {
        const before = checks();
        const res = await request(`${svc.url}/redfish/v1/SessionService/`, {
          headers: { authorization: basic(user, password) },
          dispatcher: agent,
        });
        await res.body.arrayBuffer();
        assert.equal(res.statusCode, 401, user);
        assert.equal(checks() - before, 1, user);
      } finally {
        await agent.close();
      }
    }
  });
});

describe('login timing oracle: timed with a costly hash', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { scryptLogN: 14 } });
    await svc.running.services.accounts.create({ UserName: 'reader', Password: PASSWORD, RoleId: 'ReadOnly' });
  });
  after(() => svc.close());

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const timed = async (user: string) => {
    const start = performance.now();
    assert.equal(await login(svc, user, 'wrong-password'), 401);
    return performance.now() - start;
  };

  it('answers an unknown user no faster than half the time of a wrong password', async () => {
    await timed('reader'); // warm-up
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await timed(`nobody-${i}`));
      wrong.push(await timed('reader'));
    }
    assert.ok(
      median(unknown) >= median(wrong) / 2,
      `unknown ${median(unknown).toFixed(1)} ms vs wrong password ${median(wrong).toFixed(1)} ms`,
    );
  });
});
