// The password and lockout policy (src/domain/accounts/account-policy.ts):
// MinPasswordLength, the rule between the lockout settings, and failed-login
// counting on a ManualClock, as tables of settings and login sequences.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountPolicy, DEFAULT_ACCOUNT_POLICY, type AccountPolicySettings } from '../../../src/domain/accounts/account-policy.js';
import { Accounts, type AccountRecord } from '../../../src/domain/accounts/accounts.js';
import { vendorPrivilegesOfRole } from '../../../src/lib/privileges.js';
import { Refusal } from '../../../src/messages/refusal.js';
import { answered } from '../../support/refusals.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { openDatabase } from '../../../src/store/database.js';
import { DocumentStore } from '../../../src/store/documents.js';

const START = '2026-01-01T00:00:00Z';
const REQ = { clientIp: '192.0.2.7' };

/** A fresh policy over an in-memory store, with one enabled Operator account "op". */
function setup(settings: Partial<AccountPolicySettings> = {}) {
  const clock = new ManualClock(START);
  const store = new DocumentStore(openDatabase(':memory:', () => clock.now()));
  const accounts = new Accounts(store, 10);
  const warnings: string[] = [];
  const policy = new AccountPolicy(store, accounts, clock, { warn: (_obj, msg) => warnings.push(msg) });
  if (Object.keys(settings).length) policy.update(settings);
  const record: AccountRecord = {
    Id: '3',
    UserName: 'op',
    PasswordHash: 'not-a-hash',
    RoleId: 'Operator',
    Enabled: true,
    Locked: false,
    Privileges: vendorPrivilegesOfRole('Operator'),
    PasswordChangeRequired: false,
  };
  accounts.saveQuietly(record);
  const account = () => accounts.get('3') as AccountRecord;
  return { store, accounts, clock, policy, warnings, account };
}

/** The error a call throws, as "status Registry.Key(args)@property". */
function thrown(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    const a = answered(e);
    const i = a.infos[0];
    const key = i?.MessageId.replace(/\.\d+\.\d+\./, '.');
    return `${a.status} ${key}(${i?.MessageArgs.join(',')})${i?.RelatedProperties ? `@${i.RelatedProperties.join(',')}` : ''}`;
  }
  return 'ok';
}

describe('password policy', () => {
  const cases: [min: number, password: string, expected: string][] = [
    [8, '', '400 Vendor.PasswordTooShort(8)@#/Password'],
    [8, '1234567', '400 Vendor.PasswordTooShort(8)@#/Password'],
    [8, '12345678', 'ok'],
    [8, 'x'.repeat(39), 'ok'],
    [8, 'x'.repeat(200), 'ok'], // the upper limit is the schema's (maxLength), not the policy's
    [1, '', '400 Vendor.PasswordTooShort(1)@#/Password'],
    [1, 'x', 'ok'],
    [39, 'x'.repeat(38), '400 Vendor.PasswordTooShort(39)@#/Password'],
    [39, 'x'.repeat(39), 'ok'],
    [8, '        ', 'ok'], // spaces are characters
    [8, '\u00e4\u00f6\u00fc\u00df\u20ac\u00e9\u00e8\u00ea', 'ok'], // eight characters outside ASCII
    [8, '\u00e4\u00f6\u00fc\u00df\u20ac\u00e9\u00e8', '400 Vendor.PasswordTooShort(8)@#/Password'],
  ];
  for (const [min, password, expected] of cases) {
    it(`MinPasswordLength ${min}: ${password.length} characters -> ${expected}`, () => {
      const { policy } = setup({ MinPasswordLength: min });
      assert.equal(
        thrown(() => policy.checkPassword(password)),
        expected,
      );
    });
  }

  it('uses the default minimum of 8 until one is set', () => {
    const { policy } = setup();
    assert.equal(policy.get().MinPasswordLength, 8);
    assert.equal(
      thrown(() => policy.checkPassword('1234567')),
      '400 Vendor.PasswordTooShort(8)@#/Password',
    );
  });

  it('never quotes the refused password', () => {
    const { policy } = setup();
    try {
      policy.checkPassword('s3cr3t!');
      assert.fail('accepted');
    } catch (e) {
      assert.ok(e instanceof Refusal);
      assert.ok(!JSON.stringify(e.infos).includes('s3cr3t!'));
    }
  });

  // Lengths are counted in UTF-16 code units: four emoji pass a minimum of eight characters.
  it('counts characters, not UTF-16 code units', { todo: 'account-policy.ts checkPassword uses String.length' }, () => {
    const { policy } = setup();
    assert.equal(
      thrown(() => policy.checkPassword('\u{1F600}\u{1F600}\u{1F600}\u{1F600}')),
      '400 Vendor.PasswordTooShort(8)@#/Password',
    );
  });
});

describe('lockout settings: the counter reset period may not exceed the lockout duration', () => {
  const cases: [label: string, change: Partial<AccountPolicySettings>, expected: string][] = [
    ['reset equal to duration', { AccountLockoutCounterResetAfter: 300 }, 'ok'],
    ['reset below duration', { AccountLockoutCounterResetAfter: 1 }, 'ok'],
    ['reset zero', { AccountLockoutCounterResetAfter: 0 }, 'ok'],
    [
      'reset one second over',
      { AccountLockoutCounterResetAfter: 301 },
      '400 Base.PropertyValueConflict(AccountLockoutCounterResetAfter,AccountLockoutDuration)',
    ],
    [
      'duration one second under the reset',
      { AccountLockoutDuration: 299 },
      '400 Base.PropertyValueConflict(AccountLockoutCounterResetAfter,AccountLockoutDuration)',
    ],
    ['both raised together', { AccountLockoutDuration: 900, AccountLockoutCounterResetAfter: 900 }, 'ok'],
    ['both zero', { AccountLockoutDuration: 0, AccountLockoutCounterResetAfter: 0 }, 'ok'],
    [
      'duration zero under a reset period',
      { AccountLockoutDuration: 0 },
      '400 Base.PropertyValueConflict(AccountLockoutCounterResetAfter,AccountLockoutDuration)',
    ],
    ['unrelated settings', { MinPasswordLength: 12, AccountLockoutThreshold: 5 }, 'ok'],
    ['no change', {}, 'ok'],
  ];
  for (const [label, change, expected] of cases) {
    it(`${label} -> ${expected}`, () => {
      const { policy } = setup();
      const before = policy.get();
      assert.deepEqual(before, DEFAULT_ACCOUNT_POLICY);
      assert.equal(
        thrown(() => policy.update(change)),
        expected,
      );
      // Kept when accepted, nothing kept when refused.
      assert.deepEqual(policy.get(), expected === 'ok' ? { ...before, ...change } : before);
    });
  }

  it('keeps the settings in the store', () => {
    const { store, policy } = setup();
    policy.update({ AccountLockoutThreshold: 4 });
    assert.deepEqual(store.setting('account.policy', {}).get(), { ...DEFAULT_ACCOUNT_POLICY, AccountLockoutThreshold: 4 });
  });
});

describe('failed-login lockout on the controller clock', () => {
  /** F: a failed login, S: a successful one, a number: that many ms pass. */
  type Step = 'F' | 'S' | number;
  interface Case {
    label: string;
    policy: Partial<AccountPolicySettings>;
    steps: Step[];
    /** Whether logins are refused after the steps. */
    locked: boolean;
    /** FailedLogins of the record afterwards (undefined: never counted). */
    failures: number | undefined;
    /** LockedUntil, in ms after START, or undefined. */
    until?: number;
    /** Lockout warnings logged. */
    lockouts?: number;
  }
  const on = { AccountLockoutThreshold: 3, AccountLockoutDuration: 300, AccountLockoutCounterResetAfter: 300 };
  const cases: Case[] = [
    { label: 'threshold 0 (the default) never counts', policy: {}, steps: ['F', 'F', 'F', 'F', 'F'], locked: false, failures: undefined },
    {
      label: 'duration 0 never counts',
      policy: { ...on, AccountLockoutDuration: 0, AccountLockoutCounterResetAfter: 0 },
      steps: ['F', 'F', 'F', 'F'],
      locked: false,
      failures: undefined,
    },
    { label: 'failures under the threshold are counted', policy: on, steps: ['F', 'F'], locked: false, failures: 2 },
    {
      label: 'the failure that reaches the threshold locks',
      policy: on,
      steps: ['F', 'F', 'F'],
      locked: true,
      failures: 0,
      until: 300_000,
      lockouts: 1,
    },
    {
      label: 'threshold 1 locks at the first failure',
      policy: { ...on, AccountLockoutThreshold: 1 },
      steps: ['F'],
      locked: true,
      failures: 0,
      until: 300_000,
      lockouts: 1,
    },
    {
      label: 'a failure exactly the reset period after the last still counts',
      policy: on,
      steps: ['F', 300_000, 'F', 'F'],
      locked: true,
      failures: 0,
      until: 600_000,
      lockouts: 1,
    },
    { label: 'a failure 1 ms past the reset period starts again', policy: on, steps: ['F', 'F', 300_001, 'F'], locked: false, failures: 1 },
    {
      label: 'the period runs from the last failure, not the first',
      policy: on,
      steps: ['F', 200_000, 'F', 200_000, 'F'],
      locked: true,
      failures: 0,
      until: 700_000,
      lockouts: 1,
    },
    { label: 'a successful login clears the count', policy: on, steps: ['F', 'F', 'S', 'F', 'F'], locked: false, failures: 2 },
    {
      label: 'still locked 1 ms before the duration is over',
      policy: on,
      steps: ['F', 'F', 'F', 299_999],
      locked: true,
      failures: 0,
      until: 300_000,
      lockouts: 1,
    },
    {
      label: 'no longer locked when the duration is over',
      policy: on,
      steps: ['F', 'F', 'F', 300_000],
      locked: false,
      failures: 0,
      until: 300_000,
      lockouts: 1,
    },
    {
      label: 'after a lockout the count starts afresh',
      policy: on,
      steps: ['F', 'F', 'F', 300_000, 'F', 'F'],
      locked: false,
      failures: 2,
      until: 300_000,
      lockouts: 1,
    },
    {
      label: 'a second lockout after the first is over',
      policy: on,
      steps: ['F', 'F', 'F', 300_000, 'F', 'F', 'F'],
      locked: true,
      failures: 0,
      until: 600_000,
      lockouts: 2,
    },
    {
      label: 'the lockout duration and the reset period are separate',
      policy: { AccountLockoutThreshold: 2, AccountLockoutDuration: 60, AccountLockoutCounterResetAfter: 10 },
      steps: ['F', 10_001, 'F', 10_000, 'F'],
      locked: true,
      failures: 0,
      until: 20_001 + 60_000,
      lockouts: 1,
    },
    {
      label: 'reset period 0: only failures in the same millisecond add up',
      policy: { ...on, AccountLockoutCounterResetAfter: 0 },
      steps: ['F', 1, 'F', 1, 'F'],
      locked: false,
      failures: 1,
    },
  ];

  for (const c of cases) {
    it(c.label, async () => {
      const { policy, clock, account, warnings } = setup(c.policy);
      for (const step of c.steps) {
        if (typeof step === 'number') await clock.advance(step);
        else policy.afterLogin(account(), step === 'S', REQ);
      }
      const a = account();
      assert.equal(policy.isLocked(a), c.locked, 'locked');
      assert.equal(a.FailedLogins, c.failures, 'FailedLogins');
      assert.equal(a.LockedUntil, c.until === undefined ? undefined : Date.parse(START) + c.until, 'LockedUntil');
      assert.equal(warnings.filter((w) => w === 'account locked out after failed logins').length, c.lockouts ?? 0, 'lockout warnings');
      // beforeLogin refuses exactly while locked, with the answer any failed login gets.
      assert.equal(
        thrown(() => policy.beforeLogin(a, REQ)),
        c.locked ? '401 Base.NoValidSession()' : 'ok',
      );
    });
  }

  it('a refused login is logged with the user and address', () => {
    const { policy, account, warnings } = setup({ ...on, AccountLockoutThreshold: 1 });
    policy.afterLogin(account(), false, REQ);
    assert.throws(() => policy.beforeLogin(account(), REQ));
    assert.deepEqual(warnings, ['account locked out after failed logins', 'login refused: account locked out']);
  });

  it('ignores logins of unknown users', () => {
    const { policy, account } = setup(on);
    const before = account();
    policy.afterLogin(undefined, false, REQ);
    assert.deepEqual(account(), before);
  });

  it('unlock clears the lockout and the count', () => {
    const { policy, account } = setup({ ...on, AccountLockoutThreshold: 1 });
    policy.afterLogin(account(), false, REQ);
    assert.equal(policy.isLocked(account()), true);
    const u = policy.unlock(account());
    assert.equal(policy.isLocked(u), false);
    assert.equal(u.Locked, false);
    assert.equal(u.FailedLogins, 0);
    assert.equal(u.LockedUntil, undefined);
    assert.equal(u.LastFailedLogin, undefined);
  });

  // It kept Locked: true (a lockout sets FailedLogins to 0, and only a non-zero count was cleared),
  // so events/sources.ts announced the account's next unrelated change as AccountLocked.
  it('a successful login after the lockout is over clears Locked', () => {
    const { policy, clock, account } = setup({ ...on, AccountLockoutThreshold: 1 });
    policy.afterLogin(account(), false, REQ);
    return clock.advance(300_000).then(() => {
      policy.afterLogin(account(), true, REQ);
      assert.equal(account().Locked, false);
    });
  });
});
