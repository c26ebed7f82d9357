// Issue 3, point 1 (AccountService: accounts, roles, policy, lockout) and
// point 5 (secrets never echoed), over HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';

const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';

describe('AccountService accounts', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const create = (body: Record<string, unknown>) => svc.req('POST', ACCOUNTS, { body });
  const adminId = async () => {
    const list = await svc.get(ACCOUNTS);
    for (const m of list.body.Members) {
      const a = await svc.get(m['@odata.id']);
      if (a.body.UserName === ADMIN_USER) return a.body.Id as string;
    }
    throw new Error('no administrator');
  };

  it('creates an account (201, Location, Password null, role privileges) and lists it', async () => {
    const r = await create({ UserName: 'op1', Password: 'op1-password', RoleId: 'Operator' });
    assert.equal(r.status, 201);
    assert.equal(r.headers.location, r.body['@odata.id']);
    assert.equal(r.body['@odata.type'], '#ManagerAccount.v1_14_1.ManagerAccount');
    assert.equal(r.body.Password, null);
    assert.equal(r.body.RoleId, 'Operator');
    assert.equal(r.body.Enabled, true);
    assert.equal(r.body.Locked, false);
    const privs = r.body.Oem.Vendor.Privileges;
    assert.equal(privs.VirtualPowerAndResetPriv, true);
    assert.equal(privs.UserConfigPriv, false);
    const list = await svc.get(ACCOUNTS);
    assert.ok(list.body.Members.some((m: any) => m['@odata.id'] === r.headers.location));
    // The new account can log in with Basic and with a session.
    const basic = await svc.get('/redfish/v1/AccountService/', { auth: { user: 'op1', password: 'op1-password' } });
    assert.equal(basic.status, 200);
    await svc.login('op1', 'op1-password');
  });

  it('accepts POST to <collection>/Members as well', async () => {
    const r = await svc.req('POST', `${ACCOUNTS}Members`, {
      body: { UserName: 'viaMembers', Password: 'members-pass1', RoleId: 'ReadOnly' },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.RoleId, 'ReadOnly');
  });

  it('refuses a duplicate user name, a missing property, an unknown role and a short password', async () => {
    assert.equal((await create({ UserName: 'taken', Password: 'taken-password', RoleId: 'Operator' })).status, 201);
    const dup = await create({ UserName: 'taken', Password: 'another-pass', RoleId: 'ReadOnly' });
    assert.equal(dup.status, 409);
    assert.deepEqual(messageIds(dup.body), ['Base.1.12.ResourceAlreadyExists']);
    const missing = await create({ UserName: 'nopass', RoleId: 'ReadOnly' });
    assert.equal(missing.status, 400);
    assert.ok(messageIds(missing.body).includes('Base.1.12.PropertyMissing'));
    const role = await create({ UserName: 'badrole', Password: 'badrole-pass', RoleId: 'Root' });
    assert.equal(role.status, 400);
    assert.ok(messageIds(role.body).includes('Base.1.12.PropertyValueNotInList'));
    const short = await create({ UserName: 'shorty', Password: 'abc', RoleId: 'ReadOnly' });
    assert.equal(short.status, 400);
    assert.deepEqual(messageIds(short.body), ['Vendor.1.0.PasswordTooShort']);
    assert.ok(!short.text.includes('"abc"'));
  });

  it('refuses a new user name that only looks different from a taken one (case, full-width, invisible characters)', async () => {
    const first = await create({ UserName: 'atkadmin', Password: 'atkadmin-pass', RoleId: 'ReadOnly' });
    assert.equal(first.status, 201, first.text);
    const other = await create({ UserName: 'someone', Password: 'someone-pass', RoleId: 'ReadOnly' });
    assert.equal(other.status, 201, other.text);
    for (const lookalike of [
      'ATKADMIN',
      'AtkAdmin',
      '\uff41\uff54\uff4b\uff41\uff44\uff4d\uff49\uff4e',
      'atk\u200badmin',
      '\uff21TKADMIN',
    ]) {
      const posted = await create({ UserName: lookalike, Password: 'lookalike-pass', RoleId: 'Administrator' });
      assert.equal(posted.status, 409, `${lookalike}: ${posted.text}`);
      const info = posted.body.error['@Message.ExtendedInfo'][0];
      assert.equal(info.MessageId, 'Base.1.12.ResourceAlreadyExists');
      assert.deepEqual(info.MessageArgs, ['ManagerAccount', 'UserName', lookalike]);
      assert.deepEqual(info.RelatedProperties, ['#/UserName']);
      const renamed = await svc.req('PATCH', other.headers.location as string, { body: { UserName: lookalike } });
      assert.equal(renamed.status, 409, `${lookalike}: ${renamed.text}`);
      assert.deepEqual(messageIds(renamed.body), ['Base.1.12.ResourceAlreadyExists']);
    }
    assert.equal((await svc.get(other.headers.location as string)).body.UserName, 'someone');
    // Its own name in another case is still its own.
    assert.equal((await svc.req('PATCH', first.headers.location as string, { body: { UserName: 'AtkAdmin' } })).status, 200);
    assert.equal((await svc.get(first.headers.location as string)).body.UserName, 'AtkAdmin');
  });

  it('keeps RoleId and the vendor privilege booleans consistent', async () => {
    const custom = await create({
      UserName: 'custom',
      Password: 'custom-pass1',
      RoleId: 'ReadOnly',
      Oem: { Vendor: { Privileges: { VirtualMediaPriv: true } } },
    });
    assert.equal(custom.status, 201);
    assert.equal(custom.body.RoleId, 'ReadOnly');
    assert.equal(custom.body.Oem.Vendor.Privileges.VirtualMediaPriv, true);
    const conflict = await create({
      UserName: 'conflict',
      Password: 'conflict-pass',
      RoleId: 'ReadOnly',
      Oem: { Vendor: { Privileges: { UserConfigPriv: true, ManagerConfigPriv: true } } },
    });
    assert.equal(conflict.status, 400);
    assert.deepEqual(messageIds(conflict.body), ['Base.1.12.PropertyValueConflict']);
    // Granting the administrator booleans makes the account an Administrator.
    const uri = custom.headers.location as string;
    const up = await svc.req('PATCH', uri, {
      body: { Oem: { Vendor: { Privileges: { UserConfigPriv: true, ManagerConfigPriv: true } } } },
    });
    assert.equal(up.status, 200);
    const got = await svc.get(uri);
    assert.equal(got.body.RoleId, 'Administrator');
    assert.equal(got.body.Links.Role['@odata.id'], '/redfish/v1/AccountService/Roles/Administrator/');
    // Setting a role resets the booleans to the role's.
    await svc.req('PATCH', uri, { body: { RoleId: 'Operator' } });
    const op = await svc.get(uri);
    assert.equal(op.body.RoleId, 'Operator');
    assert.equal(op.body.Oem.Vendor.Privileges.UserConfigPriv, false);
    assert.equal(op.body.Oem.Vendor.Privileges.HostBIOSConfigPriv, true);
  });

  it('changes password, role and enabled with PATCH, and ends the account sessions on a new password', async () => {
    const r = await create({ UserName: 'patchme', Password: 'patchme-pass', RoleId: 'ReadOnly' });
    const uri = r.headers.location as string;
    const token = await svc.login('patchme', 'patchme-pass');
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 200);
    const etag = (await svc.get(uri)).headers.etag as string;
    const wrongEtag = await svc.req('PATCH', uri, { body: { Enabled: true }, headers: { 'if-match': 'W/"nope"' } });
    assert.equal(wrongEtag.status, 412);
    const pw = await svc.req('PATCH', uri, { body: { Password: 'patchme-new1' }, headers: { 'if-match': etag } });
    assert.equal(pw.status, 200);
    assert.deepEqual(messageIds(pw.body), ['Base.1.12.Success']);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 401);
    assert.equal((await svc.get('/redfish/v1/', { auth: { user: 'patchme', password: 'patchme-pass' } })).status, 200); // root is open
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { user: 'patchme', password: 'patchme-pass' } })).status, 401);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { user: 'patchme', password: 'patchme-new1' } })).status, 200);
    const dis = await svc.req('PATCH', uri, { body: { Enabled: false } });
    assert.equal(dis.status, 200);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { user: 'patchme', password: 'patchme-new1' } })).status, 401);
    await svc.req('PATCH', uri, { body: { Enabled: true, RoleId: 'Operator' } });
    const got = await svc.get(uri);
    assert.equal(got.body.Enabled, true);
    assert.equal(got.body.RoleId, 'Operator');
  });

  it('deletes an account, ending its sessions; a second delete is 404', async () => {
    const r = await create({ UserName: 'gone', Password: 'gone-password', RoleId: 'Operator' });
    const uri = r.headers.location as string;
    const token = await svc.login('gone', 'gone-password');
    const del = await svc.req('DELETE', uri);
    assert.equal(del.status, 200);
    assert.equal((await svc.get(uri)).status, 404);
    assert.equal((await svc.req('DELETE', uri)).status, 404);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { auth: { token } })).status, 401);
  });

  it('never lets the last enabled administrator be deleted, demoted or disabled', async () => {
    const uri = `${ACCOUNTS}${await adminId()}/`;
    // Other administrators exist from the earlier tests? Make sure only one does.
    for (const m of (await svc.get(ACCOUNTS)).body.Members) {
      const a = await svc.get(m['@odata.id']);
      if (a.body.RoleId === 'Administrator' && a.body.UserName !== ADMIN_USER) await svc.req('DELETE', m['@odata.id']);
    }
    for (const body of [{ RoleId: 'Operator' }, { Enabled: false }, { Oem: { Vendor: { Privileges: { UserConfigPriv: false } } } }]) {
      const r = await svc.req('PATCH', uri, { body });
      assert.equal(r.status, 409, JSON.stringify(body));
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.LastAdministrator']);
    }
    const del = await svc.req('DELETE', uri);
    assert.equal(del.status, 409);
    assert.deepEqual(messageIds(del.body), ['Vendor.1.0.LastAdministrator']);
    // With a second administrator, the first may be demoted (and restored by the second).
    const second = await create({ UserName: 'admin2', Password: 'admin2-password', RoleId: 'Administrator' });
    assert.equal(second.status, 201);
    const demote = await svc.req('PATCH', uri, { body: { RoleId: 'Operator' } });
    assert.equal(demote.status, 200);
    const restore = await svc.req('PATCH', uri, {
      body: { RoleId: 'Administrator' },
      auth: { user: 'admin2', password: 'admin2-password' },
    });
    assert.equal(restore.status, 200);
    assert.equal((await svc.req('DELETE', second.headers.location as string)).status, 200);
  });

  it('lets any account change its own password (ConfigureSelf) but nothing else, nor another account', async () => {
    const r = await create({ UserName: 'selfie', Password: 'selfie-pass1', RoleId: 'ReadOnly' });
    const uri = r.headers.location as string;
    const me = { user: 'selfie', password: 'selfie-pass1' };
    assert.equal((await svc.get(uri, { auth: me })).status, 200);
    const escalate = await svc.req('PATCH', uri, { body: { RoleId: 'Administrator' }, auth: me });
    assert.equal(escalate.status, 403);
    assert.deepEqual(messageIds(escalate.body), ['Base.1.12.InsufficientPrivilege']);
    const adminUri = `${ACCOUNTS}${await adminId()}/`;
    assert.equal((await svc.get(adminUri, { auth: me })).status, 403);
    assert.equal((await svc.req('PATCH', adminUri, { body: { Password: 'hijacked-pass' }, auth: me })).status, 403);
    const own = await svc.req('PATCH', uri, { body: { Password: 'selfie-pass2' }, auth: me });
    assert.equal(own.status, 200);
    assert.equal((await svc.get(uri, { auth: { user: 'selfie', password: 'selfie-pass2' } })).status, 200);
    assert.equal(
      (
        await svc.req('POST', ACCOUNTS, {
          body: { UserName: 'x', Password: 'xxxxxxxxxx', RoleId: 'ReadOnly' },
          auth: { user: 'selfie', password: 'selfie-pass2' },
        })
      ).status,
      403,
    );
  });

  it('PasswordChangeRequired accounts may only read and change their own account', async () => {
    const r = await create({ UserName: 'mustchange', Password: 'initial-pass', RoleId: 'Operator', PasswordChangeRequired: true });
    assert.equal(r.status, 201);
    assert.equal(r.body.PasswordChangeRequired, true);
    const uri = r.headers.location as string;
    const first = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      auth: 'none',
      body: { UserName: 'mustchange', Password: 'initial-pass' },
    });
    assert.equal(first.status, 201);
    assert.deepEqual(messageIds(first.body), ['Base.1.12.PasswordChangeRequired']);
    const token = first.headers['x-auth-token'] as string;
    assert.equal((await svc.get(uri, { auth: { token } })).status, 200);
    const other = await svc.get('/redfish/v1/AccountService/', { auth: { token } });
    assert.equal(other.status, 403);
    assert.deepEqual(messageIds(other.body), ['Base.1.12.PasswordChangeRequired']);
    assert.equal((await svc.get('/redfish/v1/Systems/', { auth: { user: 'mustchange', password: 'initial-pass' } })).status, 403);
    const role = await svc.req('PATCH', uri, { body: { Enabled: true }, auth: { token } });
    assert.equal(role.status, 403);
    const pw = await svc.req('PATCH', uri, { body: { Password: 'changed-pass' }, auth: { token } });
    assert.equal(pw.status, 200);
    // The answer is the account as it now is, with the Success message (DSP0266; DMTF's Protocol Validator checks it).
    assert.equal(pw.body['@odata.id'], uri);
    assert.equal(pw.body.PasswordChangeRequired, false);
    assert.equal(pw.body.Password, null);
    assert.deepEqual(messageIds(pw.body), ['Base.1.12.Success']);
    const login = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      auth: 'none',
      body: { UserName: 'mustchange', Password: 'changed-pass' },
    });
    assert.equal(login.body['@Message.ExtendedInfo'], undefined, 'no PasswordChangeRequired message once changed');
    const after = await svc.get(uri, { auth: { token } });
    assert.equal(after.body.PasswordChangeRequired, false);
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: { token } })).status, 200);
  });

  it('serves the three predefined roles, whose privileges cannot be modified', async () => {
    const roles = await svc.get('/redfish/v1/AccountService/Roles/');
    assert.deepEqual(
      roles.body.Members.map((m: any) => m['@odata.id']).sort(),
      ['Administrator', 'Operator', 'ReadOnly'].map((r) => `/redfish/v1/AccountService/Roles/${r}/`),
    );
    const op = await svc.get('/redfish/v1/AccountService/Roles/Operator/');
    assert.deepEqual(op.body.AssignedPrivileges, ['Login', 'ConfigureSelf', 'ConfigureComponents']);
    assert.ok(op.body.OemPrivileges.includes('VirtualPowerAndResetPriv'));
    assert.equal(op.headers.allow, 'GET, HEAD');
    const patch = await svc.req('PATCH', '/redfish/v1/AccountService/Roles/Operator/', {
      body: { AssignedPrivileges: ['Login', 'ConfigureUsers'] },
    });
    assert.equal(patch.status, 405);
    assert.deepEqual((await svc.get('/redfish/v1/AccountService/Roles/Operator/')).body.AssignedPrivileges, op.body.AssignedPrivileges);
    assert.equal((await svc.get('/redfish/v1/AccountService/Roles/Root/')).status, 404);
  });

  it('never echoes passwords in responses or errors (hygiene)', async () => {
    const secret = 'S3cret-Value-That-Is-Far-Too-Long-For-The-Limit';
    const r = await create({ UserName: 'leak', Password: secret, RoleId: 'ReadOnly' });
    assert.equal(r.status, 400);
    assert.ok(!r.text.includes(secret), r.text);
    const typed = await create({ UserName: 'leak', Password: 12345678901, RoleId: 'ReadOnly' });
    assert.equal(typed.status, 400);
    assert.ok(!typed.text.includes('12345678901'), typed.text);
    const ok = await create({ UserName: 'leak', Password: 'visible-nowhere', RoleId: 'ReadOnly' });
    const uri = ok.headers.location as string;
    const tooLong = await svc.req('PATCH', uri, { body: { Password: secret } });
    assert.equal(tooLong.status, 400);
    assert.ok(!tooLong.text.includes(secret), tooLong.text);
    const got = await svc.get(uri);
    assert.ok(!got.text.includes('visible-nowhere'));
    assert.ok(!got.text.includes('scrypt'));
    const expanded = await svc.get(`${ACCOUNTS}?$expand=.`);
    assert.ok(!expanded.text.includes('scrypt') && !expanded.text.includes('visible-nowhere'));
  });
});

describe('AccountService policy', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('PATCHes MinPasswordLength and the lockout settings, persisted across a restart', async () => {
    const r = await svc.req('PATCH', '/redfish/v1/AccountService/', {
      body: { MinPasswordLength: 12, AccountLockoutThreshold: 3, AccountLockoutDuration: 60, AccountLockoutCounterResetAfter: 30 },
    });
    assert.equal(r.status, 200);
    svc = await svc.restart();
    const got = await svc.get('/redfish/v1/AccountService/');
    assert.equal(got.body.MinPasswordLength, 12);
    assert.equal(got.body.AccountLockoutThreshold, 3);
    assert.equal(got.body.AccountLockoutDuration, 60);
    assert.equal(got.body.AccountLockoutCounterResetAfter, 30);
    const short = await svc.req('POST', ACCOUNTS, { body: { UserName: 'eleven', Password: '11-chars-ok', RoleId: 'ReadOnly' } });
    assert.equal(short.status, 400);
    assert.deepEqual(messageIds(short.body), ['Vendor.1.0.PasswordTooShort']);
    const conflict = await svc.req('PATCH', '/redfish/v1/AccountService/', { body: { AccountLockoutCounterResetAfter: 120 } });
    assert.equal(conflict.status, 400);
    assert.deepEqual(messageIds(conflict.body), ['Base.1.12.PropertyValueConflict']);
    const range = await svc.req('PATCH', '/redfish/v1/AccountService/', { body: { MinPasswordLength: 100 } });
    assert.equal(range.status, 400);
  });
});

describe('AccountService lockout', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    const r = await svc.req('PATCH', '/redfish/v1/AccountService/', {
      body: { AccountLockoutThreshold: 3, AccountLockoutDuration: 60, AccountLockoutCounterResetAfter: 30 },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(() => svc.close());

  it('locks an account out after the threshold, for the duration, on the controller clock', async () => {
    const r = await svc.req('POST', ACCOUNTS, { body: { UserName: 'victim', Password: 'victim-password', RoleId: 'Operator' } });
    const uri = r.headers.location as string;
    const good = { user: 'victim', password: 'victim-password' };
    const bad = { user: 'victim', password: 'wrong-password' };
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: good })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: bad })).status, 401);
    // Locked: even the right password (and a cached Basic credential) is refused, with the same 401.
    const locked = await svc.get('/redfish/v1/AccountService/', { auth: good });
    assert.equal(locked.status, 401);
    assert.deepEqual(messageIds(locked.body), ['Base.1.12.NoValidSession']);
    const session = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', {
      body: { UserName: 'victim', Password: 'victim-password' },
      auth: 'none',
    });
    assert.equal(session.status, 401);
    assert.equal((await svc.get(uri)).body.Locked, true);
    await svc.clock.advance(61_000);
    assert.equal((await svc.get(uri)).body.Locked, false);
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: good })).status, 200);
  });

  it('counts failures only within AccountLockoutCounterResetAfter, and an administrator can unlock', async () => {
    const service = (await svc.get('/redfish/v1/AccountService/')).body;
    // What the service says of itself: the counter starts again, and Basic (as this test logs in) is accepted.
    assert.deepEqual([service.AccountLockoutCounterResetEnabled, service.HTTPBasicAuth], [true, 'Enabled']);
    const refused = await svc.req('PATCH', '/redfish/v1/AccountService/', { body: { AccountLockoutCounterResetEnabled: false } });
    assert.equal(refused.status, 400);
    const r = await svc.req('POST', ACCOUNTS, { body: { UserName: 'slowfail', Password: 'slowfail-password', RoleId: 'ReadOnly' } });
    const uri = r.headers.location as string;
    const bad = { user: 'slowfail', password: 'nope-nope-nope' };
    for (let i = 0; i < 5; i++) {
      await svc.get('/redfish/v1/AccountService/', { auth: bad });
      await svc.get('/redfish/v1/AccountService/', { auth: bad });
      await svc.clock.advance(31_000); // the counter starts again
    }
    assert.equal((await svc.get(uri)).body.Locked, false);
    for (let i = 0; i < 3; i++) await svc.get('/redfish/v1/AccountService/', { auth: bad });
    assert.equal((await svc.get(uri)).body.Locked, true);
    const lockTrue = await svc.req('PATCH', uri, { body: { Locked: true } });
    assert.equal(lockTrue.status, 400);
    const unlock = await svc.req('PATCH', uri, { body: { Locked: false } });
    assert.equal(unlock.status, 200);
    assert.equal((await svc.get(uri)).body.Locked, false);
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: { user: 'slowfail', password: 'slowfail-password' } })).status, 200);
  });

  it('keeps a lockout across a restart', async () => {
    await svc.req('POST', ACCOUNTS, { body: { UserName: 'persist', Password: 'persist-password', RoleId: 'ReadOnly' } });
    for (let i = 0; i < 3; i++) await svc.get('/redfish/v1/AccountService/', { auth: { user: 'persist', password: 'bad-bad-bad-bad' } });
    svc = await svc.restart();
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: { user: 'persist', password: 'persist-password' } })).status, 401);
    assert.equal((await svc.get('/redfish/v1/AccountService/', { auth: { user: ADMIN_USER, password: ADMIN_PASSWORD } })).status, 200);
  });
});
