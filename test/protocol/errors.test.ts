// The one table of HTTP statuses (src/protocol/errors.ts): every Base key has a
// status or is listed as never the reason a request fails, every rule the
// domain and the simulator can report has one, and a refusal is answered with
// the status and headers of its first rule.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { baseMessage, vendorMessage } from '../../src/messages/errors.js';
import { Refusal, baseRefusal, refusals, vendorRefusal } from '../../src/messages/refusal.js';
import { BASE_REGISTRY } from '../../src/messages/registries/base.js';
import { VENDOR_REGISTRY } from '../../src/messages/registries/vendor.js';
import {
  BASE_STATUS,
  RedfishError,
  VENDOR_STATUS,
  answerOf,
  baseError,
  combinedError,
  statusOf,
  storageFull,
  vendorError,
} from '../../src/protocol/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Base keys that are never the reason a request fails (successes, notices, deprecations, events). */
const BASE_NON_ERRORS = [
  'AccountModified',
  'AccountNotModified',
  'AccountRemoved',
  'ActionDeprecated',
  'ChassisPowerStateOffRequired',
  'ChassisPowerStateOnRequired',
  'ConditionInRelatedResource',
  'Created',
  'InvalidIndex',
  'MaximumErrorsExceeded',
  'PropertyDeprecated',
  'PropertyNotUpdated',
  'PropertyValueDeprecated',
  'PropertyValueModified',
  'ResetRecommended',
  'ResourceDeprecated',
  'StrictAccountTypes',
  'SubscriptionTerminated',
  'Success',
  'UndeterminedFault',
];

/** Statuses an error may have, and the Base keys that must have a particular one. */
const ERROR_STATUSES = new Set([400, 401, 403, 404, 405, 409, 412, 428, 500, 501, 502, 503, 504]);
const FIXED_STATUS: Record<string, number> = {
  NoValidSession: 401,
  SessionTerminated: 401,
  InsufficientPrivilege: 403,
  AccessDenied: 403,
  PasswordChangeRequired: 403,
  ResourceNotFound: 404,
  ResourceMissingAtURI: 404,
  ResourceAlreadyExists: 409,
  PreconditionFailed: 412,
  PreconditionRequired: 428,
  InternalError: 500,
  QueryNotSupported: 501,
  ServiceTemporarilyUnavailable: 503,
  PropertyValueTypeError: 400,
  MalformedJSON: 400,
};

/** Sample arguments of a message's types. */
function sampleArgs(types: readonly string[]): (string | number)[] {
  return types.map((t, i) => (t === 'number' ? 100 + i : `arg${i + 1}`));
}

/** The .ts files under a folder of src/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every rule the domain and the simulator report (`baseRefusal('Key'`, `vendorRefusal('Key'`), with where. */
function reportedRules(): { registry: 'base' | 'vendor'; key: string; at: string }[] {
  const found: { registry: 'base' | 'vendor'; key: string; at: string }[] = [];
  for (const file of [...sources(join(ROOT, 'src', 'domain')), ...sources(join(ROOT, 'src', 'platform'))]) {
    const text = readFileSync(file, 'utf8');
    const calls = [...text.matchAll(/\b(base|vendor)Refusal\(/g)].length;
    const literal = [...text.matchAll(/\b(base|vendor)Refusal\(\s*'(\w+)'/g)];
    // A key the scan cannot read would escape the check below.
    assert.equal(literal.length, calls, `${relative(ROOT, file)}: every refusal names its rule as a string literal`);
    for (const m of literal) found.push({ registry: m[1] as 'base' | 'vendor', key: m[2] as string, at: relative(ROOT, file) });
  }
  return found;
}

describe('the Base status table', () => {
  it('gives every Base key a status, or lists it as never the reason a request fails', () => {
    for (const key of Object.keys(BASE_REGISTRY.messages)) {
      const hasStatus = key in BASE_STATUS;
      assert.notEqual(
        hasStatus,
        BASE_NON_ERRORS.includes(key),
        `${key}: ${hasStatus ? 'has a status and is listed as no error' : 'has no status'}`,
      );
    }
    for (const key of BASE_NON_ERRORS) assert.ok(key in BASE_REGISTRY.messages, `${key} is a Base key`);
  });

  for (const [key, status] of Object.entries(BASE_STATUS)) {
    it(`${key} -> ${status}`, () => {
      assert.ok(key in BASE_REGISTRY.messages, `${key} is a Base key`);
      assert.ok(ERROR_STATUSES.has(status), `${status} is an error status`);
      if (key in FIXED_STATUS) assert.equal(status, FIXED_STATUS[key]);
      const def = BASE_REGISTRY.messages[key as keyof typeof BASE_REGISTRY.messages];
      const e = (baseError as (k: string, ...a: (string | number)[]) => ReturnType<typeof baseError>)(key, ...sampleArgs(def.paramTypes));
      assert.equal(e.status, status);
      assert.equal(e.infos.length, 1);
      assert.equal(e.infos[0]?.MessageId, `Base.1.12.${key}`);
    });
  }
});

describe('the vendor status table', () => {
  for (const [key, status] of Object.entries(VENDOR_STATUS)) {
    it(`${key} -> ${status}`, () => {
      assert.ok(key in VENDOR_REGISTRY.messages, `${key} is a vendor key`);
      assert.ok(status >= 400 && status <= 599, `${status} is an error status`);
      const def = VENDOR_REGISTRY.messages[key as keyof typeof VENDOR_REGISTRY.messages];
      const e = (vendorError as (k: string, ...a: (string | number)[]) => ReturnType<typeof vendorError>)(
        key,
        ...sampleArgs(def.paramTypes),
      );
      assert.equal(e.status, status);
      assert.equal(e.infos[0]?.MessageId, `Vendor.1.0.${key}`);
    });
  }
});

describe('what the domain and the simulator report', () => {
  const rules = reportedRules();

  it('names its rules literally, and there are many of them', () => {
    assert.ok(rules.length > 100, `${rules.length} refusals found`);
  });

  it('every rule the domain and the simulator can report has a status', () => {
    const missing = rules.filter(({ registry, key }) => !(key in (registry === 'base' ? BASE_STATUS : VENDOR_STATUS)));
    assert.deepEqual(
      missing.map((r) => `${r.at}: ${r.key}`),
      [],
    );
  });

  // The statuses domain code passed itself before the one table (vendorError(409, ...) and the like),
  // and the answers that went with them: each is the same now.
  const KEPT: [refusal: () => Refusal, status: number, headers?: Record<string, string>][] = [
    [() => vendorRefusal('LastAdministrator', 'admin'), 409],
    [() => vendorRefusal('PasswordTooShort', 8), 400],
    [() => vendorRefusal('ControlActionRejected', 'PowerButton', 'no AC power'), 409],
    [() => vendorRefusal('ImageDownloadFailed', 'https://h/x.bin', 'HTTP 404'), 502],
    [() => vendorRefusal('StorageFull', 'the downloaded image'), 507],
    [() => vendorRefusal('ImageNotApplicable', 'x.bin', 'BMC'), 400],
    [() => vendorRefusal('ComponentNotFlashable', 'x.bin', 'C'), 400],
    [() => vendorRefusal('FirmwareUpgradePathBlocked', '2.0', 'BMC', '1.5', '1.0'), 400],
    [() => vendorRefusal('FirmwareFlashFailed', 'x.bin', 'BMC', 'injected'), 500],
    [() => vendorRefusal('FirmwareImageInvalid', 'x.bin', 'damaged'), 400],
    [() => vendorRefusal('RepositoryInsufficientSpace', 10, 5), 413],
    [() => vendorRefusal('ComponentLocked', 'x.bin', 'a task'), 409],
    [() => vendorRefusal('ComponentNotFound', 'x.bin'), 404],
    [() => vendorRefusal('UpdateServiceBusy', 'Updating'), 503, { 'Retry-After': '30' }],
    [() => vendorRefusal('ComponentSignatureInvalid', 'x.bin', 'bad'), 400],
    [() => vendorRefusal('ComponentSignatureMissing', 'x.bin'), 400],
    [() => vendorRefusal('LicenseKeyInvalid', 'bad'), 400],
    [() => vendorRefusal('LicenseKeyExpired', '2020-01-01'), 400],
    [() => vendorRefusal('FeatureRequiresLicense', 'X', 'Advanced', 'Standard'), 403],
    [() => vendorRefusal('CertificateInvalid', 'Certificate', 'bad'), 400],
    [() => vendorRefusal('CertificateSigningRequestMissing'), 400],
    [() => vendorRefusal('CertificateKeyMismatch'), 400],
    [() => vendorRefusal('SecureBootPlatformKeyRequired'), 400],
    [() => vendorRefusal('SecureBootSignaturesNotAccepted', 'PK'), 400],
    [() => vendorRefusal('SecureBootDatabaseReadOnly', 'dbDefault'), 400],
    [() => vendorRefusal('ComponentNameAmbiguous', 'x', 'a, b'), 400],
    [() => vendorRefusal('InstallSetRecoveryItemNotAllowed', 'step', 'why'), 400],
    [() => vendorRefusal('UpdateTaskNotCancelable', 'T', 'InProgress'), 409],
    [() => vendorRefusal('UpdateTaskFailed', 'T', 'deleted'), 409],
    [() => vendorRefusal('UpdateFailed', 'the installer failed'), 500],
    [() => vendorRefusal('InvalidOperationForSystemState', 'On', 'running'), 400],
    [() => vendorRefusal('TaskInterrupted', 'abc'), 500],
    [() => baseRefusal('PropertyValueConflict', 'RoleId', 'Oem/Vendor/Privileges'), 400],
    [() => baseRefusal('InsufficientPrivilege'), 403],
    [() => baseRefusal('NoValidSession'), 401],
    [() => baseRefusal('ResourceInUse'), 409],
    [() => baseRefusal('EventSubscriptionLimitExceeded'), 400],
    // Several at once: the first rule decides (as combinedError did).
    [() => refusals([baseRefusal('ResourceInUse'), vendorRefusal('DriveInUse', '/d', 'a volume')]), 409],
    [() => refusals([baseRefusal('PropertyValueNotInList', 'x', 'Component'), vendorRefusal('ComponentNotFound', 'x')]), 400],
    [() => refusals([baseRefusal('CreateLimitReachedForResource'), vendorRefusal('SecureBootDatabaseLimit', 'PK', 1)]), 400],
    [() => refusals([vendorRefusal('SecureBootEntryExists', 'db'), baseRefusal('ResourceAlreadyExists', 'Certificate', 'Id', '1')]), 400],
  ];
  for (const [refusal, status, headers = {}] of KEPT) {
    const r = refusal();
    it(`${r.infos.map((i) => i.MessageId).join(' + ')} is answered ${status}`, () => {
      const answer = answerOf(r);
      assert.ok(answer instanceof RedfishError);
      assert.equal(answer.status, status);
      assert.deepEqual(answer.headers, headers);
      assert.equal(answer.infos, r.infos, 'the messages themselves, unchanged');
    });
  }
});

describe('answering refusals', () => {
  it('names the rule of a refusal by its first message, and tags its messages with a property', () => {
    const r = refusals([baseRefusal('PropertyMissing', 'A'), vendorRefusal('ComponentNotFound', 'x')]).about('Sequence/1/A');
    assert.equal(r.rule, 'PropertyMissing');
    assert.deepEqual(
      r.infos.map((i) => i.RelatedProperties),
      [['#/Sequence/1/A'], ['#/Sequence/1/A']],
    );
    assert.throws(() => refusals([]), /at least one/);
  });

  it('gives no answer for a rule the table lacks (the dispatcher answers a fault: a logged 500)', () => {
    assert.equal(answerOf(new Refusal([baseMessage('Success')])), undefined);
    assert.equal(answerOf(new Refusal([])), undefined);
    assert.equal(statusOf(vendorMessage('FirmwareStaged', 'BMC', '1.0')), undefined);
  });

  it('keeps a RedfishError as it is, and changes its status only where a caller says so', () => {
    const e = vendorError('MethodNotAllowed', 'CONNECT', '/');
    assert.equal(answerOf(e), e);
    assert.equal(e.status, 405);
    const other = e.withStatus(501);
    assert.equal(other.status, 501);
    assert.equal(other.infos, e.infos);
    assert.equal(storageFull().status, 507);
  });

  it('combines errors with the status of the first, and tags messages with a property', () => {
    const e = combinedError([baseError('PropertyMissing', 'A'), vendorError('ComponentNotFound', 'x.bin'), baseError('InternalError')]);
    assert.equal(e.status, 400);
    assert.deepEqual(
      e.infos.map((i) => i.MessageId),
      ['Base.1.12.PropertyMissing', 'Vendor.1.0.ComponentNotFound', 'Base.1.12.InternalError'],
    );
    assert.throws(() => combinedError([]), /at least one/);
    const tagged = baseError('PropertyMissing', 'A').about('Sequence/1/A');
    assert.deepEqual(tagged.infos[0]?.RelatedProperties, ['#/Sequence/1/A']);
  });
});
