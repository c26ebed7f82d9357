// The rules of account changes (src/domain/accounts/account-change.ts): who
// may change what, role and privilege switches, unique user names, the account
// limit and the last enabled administrator, as tables of accounts and changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  changedAccount,
  isEnabledAdministrator,
  privilegesFor,
  requireAdministratorLeft,
  requireRoomForAccount,
  type AccountChange,
} from '../../../src/domain/accounts/account-change.js';
import type { AccountRecord } from '../../../src/domain/accounts/accounts.js';
import { vendorPrivilegesOfRole, type RoleId, type VendorPrivileges } from '../../../src/lib/privileges.js';
import { answered } from '../../support/refusals.js';

function account(Id: string, UserName: string, role: RoleId, o: Partial<AccountRecord> = {}): AccountRecord {
  return {
    Id,
    UserName,
    PasswordHash: 'not-a-hash',
    RoleId: role,
    Enabled: true,
    Locked: false,
    Privileges: vendorPrivilegesOfRole(role),
    PasswordChangeRequired: false,
    ...o,
  };
}

const admin = account('1', 'admin', 'Administrator');
const admin2 = account('2', 'admin2', 'Administrator');
const op = account('3', 'op', 'Operator');
const ro = account('4', 'ro', 'ReadOnly');
const disabledAdmin = account('5', 'off', 'Administrator', { Enabled: false });

/** What a call gives: "ok", or its error as "status Registry.Key(args)". */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    const a = answered(e);
    const i = a.infos[0];
    return `${a.status} ${i?.MessageId.replace(/\.\d+\.\d+\./, '.')}(${i?.MessageArgs.join(',')})`;
  }
  return 'ok';
}

/** The parts of an account a change may touch, in one line. */
function summary(a: AccountRecord): string {
  const on = Object.entries(a.Privileges)
    .filter(([, v]) => v)
    .map(([k]) => k.replace(/Priv$/, ''));
  return `${a.UserName} ${a.RoleId} ${a.Enabled ? 'enabled' : 'disabled'}${a.Locked ? ' locked' : ''} [${on.join(' ')}]`;
}

describe('changedAccount', () => {
  type Case = [name: string, before: AccountRecord, change: AccountChange, accounts: AccountRecord[], mayManage: boolean, expected: string];
  const all = [admin, op, ro];
  const cases: Case[] = [
    ['a password change by its owner', ro, { Password: 'new-secret' }, all, false, 'ro ReadOnly enabled [Login]'],
    ['its owner changing anything else', ro, { Password: 'x', Enabled: false }, all, false, '403 Base.InsufficientPrivilege()'],
    ['its owner changing its own privileges', ro, { Privileges: {} }, all, false, '403 Base.InsufficientPrivilege()'],
    [
      'a rename',
      op,
      { UserName: 'operator' },
      all,
      true,
      'operator Operator enabled [Login RemoteConsole VirtualMedia VirtualPowerAndReset HostBIOSConfig HostNICConfig HostStorageConfig]',
    ],
    [
      'a rename to its own name',
      op,
      { UserName: 'op' },
      all,
      true,
      'op Operator enabled [Login RemoteConsole VirtualMedia VirtualPowerAndReset HostBIOSConfig HostNICConfig HostStorageConfig]',
    ],
    ['a rename to a taken name', op, { UserName: 'ro' }, all, true, '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,ro)'],
    [
      'a new role',
      ro,
      { RoleId: 'Operator' },
      all,
      true,
      'ro Operator enabled [Login RemoteConsole VirtualMedia VirtualPowerAndReset HostBIOSConfig HostNICConfig HostStorageConfig]',
    ],
    [
      'switches on top of the account',
      ro,
      { Privileges: { VirtualPowerAndResetPriv: true } },
      all,
      true,
      'ro Operator enabled [Login VirtualPowerAndReset]',
    ],
    [
      'a role with agreeing switches',
      ro,
      { RoleId: 'ReadOnly', Privileges: { RemoteConsolePriv: true } },
      all,
      true,
      'ro ReadOnly enabled [Login RemoteConsole]',
    ],
    [
      'a role with conflicting switches',
      ro,
      { RoleId: 'ReadOnly', Privileges: { UserConfigPriv: true, ManagerConfigPriv: true } },
      all,
      true,
      '400 Base.PropertyValueConflict(RoleId,Oem/Vendor/Privileges)',
    ],
    ['locking', op, { Locked: true }, all, true, '400 Base.PropertyValueIncorrect(Locked,true)'],
    [
      'unlocking',
      account('3', 'op', 'ReadOnly', { Locked: true, LockedUntil: 9, FailedLogins: 2 }),
      { Locked: false },
      all,
      true,
      'op ReadOnly enabled [Login]',
    ],
    [
      'disabling the last enabled administrator',
      admin,
      { Enabled: false },
      [admin, op, disabledAdmin],
      true,
      '409 Vendor.LastAdministrator(admin)',
    ],
    ['demoting the last enabled administrator', admin, { RoleId: 'Operator' }, all, true, '409 Vendor.LastAdministrator(admin)'],
    [
      'taking LoginPriv from the last administrator',
      admin,
      { Privileges: { LoginPriv: false } },
      all,
      true,
      '409 Vendor.LastAdministrator(admin)',
    ],
    ['demoting one of two administrators', admin, { RoleId: 'ReadOnly' }, [admin, admin2], true, 'admin ReadOnly enabled [Login]'],
    [
      'disabling an operator',
      op,
      { Enabled: false },
      all,
      true,
      'op Operator disabled [Login RemoteConsole VirtualMedia VirtualPowerAndReset HostBIOSConfig HostNICConfig HostStorageConfig]',
    ],
    // The first broken rule wins: privilege before Locked before the name before the last administrator.
    ['locking by its owner', ro, { Locked: true }, all, false, '403 Base.InsufficientPrivilege()'],
    ['locking under a taken name', op, { Locked: true, UserName: 'ro' }, all, true, '400 Base.PropertyValueIncorrect(Locked,true)'],
    [
      'a taken name and the last administrator',
      admin,
      { UserName: 'op', Enabled: false },
      all,
      true,
      '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,op)',
    ],
  ];
  for (const [name, before, change, accounts, mayManage, expected] of cases) {
    it(`${name} -> ${expected}`, () => {
      let got = '';
      const err = thrown(() => (got = summary(changedAccount(before, change, { accounts, mayManageAccounts: mayManage }))));
      assert.equal(err === 'ok' ? got : err, expected);
    });
  }

  it('forgets failed logins when unlocking, and leaves the password alone without a new hash', () => {
    const locked = account('3', 'op', 'Operator', {
      Locked: true,
      LockedUntil: 9,
      FailedLogins: 2,
      LastFailedLogin: 8,
      PasswordChangeRequired: true,
    });
    const after = changedAccount(locked, { Locked: false, Password: 'new-secret' }, { accounts: [admin, locked], mayManageAccounts: true });
    assert.deepEqual({ ...after }, { ...locked, Locked: false, LockedUntil: undefined, FailedLogins: 0, LastFailedLogin: undefined });
    assert.equal(locked.Locked, true, 'the record given is not changed');
  });

  it('stores the new password hash, which clears PasswordChangeRequired unless the change sets it again', () => {
    const pending = account('3', 'op', 'Operator', { PasswordChangeRequired: true });
    const facts = { accounts: [admin, pending], mayManageAccounts: true };
    const changed = changedAccount(pending, { Password: 'new-secret' }, facts, 'new-hash');
    assert.deepEqual([changed.PasswordHash, changed.PasswordChangeRequired], ['new-hash', false]);
    const required = changedAccount(pending, { Password: 'new-secret', PasswordChangeRequired: true }, facts, 'new-hash');
    assert.deepEqual([required.PasswordHash, required.PasswordChangeRequired], ['new-hash', true]);
    assert.equal(pending.PasswordHash, 'not-a-hash', 'the record given is not changed');
  });
});

describe('privilegesFor', () => {
  const readOnly = vendorPrivilegesOfRole('ReadOnly');
  const cases: [
    name: string,
    current: VendorPrivileges | undefined,
    role: RoleId | undefined,
    given: Partial<VendorPrivileges>,
    expected: string,
  ][] = [
    ['a new account without a role', undefined, undefined, {}, 'ReadOnly'],
    ['a new Operator', undefined, 'Operator', {}, 'Operator'],
    ['a new Operator without power', undefined, 'Operator', { VirtualPowerAndResetPriv: false }, 'Operator'],
    [
      'a new Operator without power and BIOS',
      undefined,
      'Operator',
      { VirtualPowerAndResetPriv: false, HostBIOSConfigPriv: false },
      '400 Base.PropertyValueConflict(RoleId,Oem/Vendor/Privileges)',
    ],
    ['switches making an administrator', readOnly, undefined, { UserConfigPriv: true, ManagerConfigPriv: true }, 'Administrator'],
    [
      'an administrator role with one switch off',
      readOnly,
      'Administrator',
      { ManagerConfigPriv: false },
      '400 Base.PropertyValueConflict(RoleId,Oem/Vendor/Privileges)',
    ],
  ];
  for (const [name, current, role, given, expected] of cases) {
    it(`${name} -> ${expected}`, () => {
      let got = '';
      const err = thrown(() => {
        const p = privilegesFor(current, role, given);
        got = isEnabledAdministrator(account('9', 'x', 'ReadOnly', { Privileges: p }))
          ? 'Administrator'
          : p.VirtualPowerAndResetPriv || p.HostBIOSConfigPriv
            ? 'Operator'
            : 'ReadOnly';
        assert.deepEqual({ ...p, ...given }, p, 'the switches given are kept');
      });
      assert.equal(err === 'ok' ? got : err, expected);
    });
  }
});

describe('new accounts and removals', () => {
  const cases: [name: string, accounts: AccountRecord[], userName: string, max: number, expected: string][] = [
    ['a free name below the limit', [admin, op], 'new', 3, 'ok'],
    ['a taken name', [admin, op], 'op', 3, '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,op)'],
    ['a name differing in case only', [admin, op], 'OP', 3, '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,OP)'],
    [
      'a name in full-width letters',
      [admin, op],
      '\uff4f\uff50',
      3,
      '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,\uff4f\uff50)',
    ],
    ['a name with a zero-width space', [admin, op], 'o\u200bp', 3, '409 Base.ResourceAlreadyExists(ManagerAccount,UserName,o\u200bp)'],
    ['a name with an accented letter', [admin, op], 'op\u00e9', 3, 'ok'],
    ['at the limit', [admin, op, ro], 'new', 3, '400 Base.CreateLimitReachedForResource()'],
    ['at the limit with a taken name: the limit first', [admin, op, ro], 'op', 3, '400 Base.CreateLimitReachedForResource()'],
  ];
  for (const [name, accounts, userName, max, expected] of cases) {
    it(`${name} -> ${expected}`, () =>
      assert.equal(
        thrown(() => requireRoomForAccount(accounts, userName, max)),
        expected,
      ));
  }

  const removals: [name: string, accounts: AccountRecord[], removed: AccountRecord, expected: string][] = [
    ['the only enabled administrator', [admin, op, disabledAdmin], admin, '409 Vendor.LastAdministrator(admin)'],
    ['one of two administrators', [admin, admin2], admin2, 'ok'],
    ['a disabled administrator', [admin, disabledAdmin], disabledAdmin, 'ok'],
    ['an operator', [admin, op], op, 'ok'],
  ];
  for (const [name, accounts, removed, expected] of removals) {
    it(`removing ${name} -> ${expected}`, () =>
      assert.equal(
        thrown(() => requireAdministratorLeft(accounts, removed, undefined)),
        expected,
      ));
  }
});
