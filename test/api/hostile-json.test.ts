// JSON built to hurt: keys named like Object.prototype members, and nesting
// deep enough to blow a recursive walk. Each gets a 400 registry error, and
// nothing of it is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../../src/lib/json.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

const WRITES: [string, string][] = [
  ['POST', '/redfish/v1/SessionService/Sessions'],
  ['PATCH', '/redfish/v1/Systems/1/'],
  ['PATCH', '/redfish/v1/Systems/1/Bios/Settings/'],
  ['PATCH', '/redfish/v1/AccountService/'],
  ['POST', '/redfish/v1/AccountService/Accounts/'],
  ['POST', '/redfish/v1/EventService/Subscriptions/'],
  ['POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/'],
  ['PATCH', '/redfish/v1/Managers/1/NetworkProtocol/'],
  ['POST', '/redfish/v1/UpdateService/UpdateTaskQueue/'],
];

const nested = (depth: number, inner = '1') => `${'['.repeat(depth - 1)}${inner}${']'.repeat(depth - 1)}`;

describe('hostile JSON', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const raw = (method: string, path: string, body: string) =>
    svc.req(method, path, {
      rawBody: body,
      headers: { 'content-type': 'application/json' },
      auth: path.endsWith('/Sessions') ? 'none' : 'basic',
    });

  it('answers keys named like Object.prototype members with 400 PropertyUnknown, at the top and nested, on every kind of write', async () => {
    const failures: string[] = [];
    for (const [method, path] of WRITES) {
      for (const key of PROTOTYPE_KEYS) {
        for (const body of [
          `{"${key}": 1}`,
          `{"Boot": {"${key}": 1}}`,
          `{"Attributes": {"${key}": 1}}`,
          `{"Oem": {"Vendor": {"${key}": {}}}}`,
        ]) {
          const r = await raw(method, path, body);
          const ids = messageIds(r.body);
          if (r.status >= 500 || !r.body?.error || ids.length === 0) failures.push(`${method} ${path} ${body}: ${r.status}`);
          else if (
            r.status === 400 &&
            body.startsWith(`{"${key}"`) &&
            !ids.some((id: string) => /PropertyUnknown|ActionParameterUnknown/.test(id))
          ) {
            failures.push(`${method} ${path} ${body}: ${ids.join(',')}`);
          }
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('creates nothing from a body with a prototype key, and leaves Object.prototype alone', async () => {
    const r = await raw(
      'POST',
      '/redfish/v1/AccountService/Accounts/',
      '{"UserName":"u1","Password":"password-123","RoleId":"ReadOnly","__proto__":{"polluted":true}}',
    );
    assert.equal(r.status, 400);
    assert.ok(messageIds(r.body).includes('Base.1.12.PropertyUnknown'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const accounts = await svc.get('/redfish/v1/AccountService/Accounts/?$expand=.');
    assert.equal(
      accounts.body.Members.some((a: any) => a.UserName === 'u1'),
      false,
    );
    assert.equal(
      (await raw('POST', '/redfish/v1/AccountService/Accounts/', '{"UserName":"u1","Password":"password-123","RoleId":"ReadOnly"}')).status,
      201,
    );
    const login = await raw('POST', '/redfish/v1/SessionService/Sessions', '{"UserName":"u1","Password":"password-123","constructor":{}}');
    assert.equal(login.status, 400);
    assert.ok(messageIds(login.body).some((id: string) => id.endsWith('PropertyUnknown')));
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels at parse time, and takes exactly ${MAX_JSON_DEPTH}`, async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 2_500, 100_000]) {
      const r = await raw('PATCH', '/redfish/v1/Systems/1/Bios/Settings/', `{"Attributes": {"AdminName": ${nested(depth - 1)}}}`);
      assert.equal(r.status, 400, `depth ${depth}`);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.JsonNestingTooDeep']);
    }
    // Brackets inside strings do not count.
    const inString = await raw(
      'PATCH',
      '/redfish/v1/Systems/1/Bios/Settings/',
      JSON.stringify({ Attributes: { ServerName: '[[[[['.repeat(40) } }),
    );
    assert.equal(inString.status, 200);
    const exact = await raw('PATCH', '/redfish/v1/Systems/1/', `{"Boot": ${nested(MAX_JSON_DEPTH - 1, '{}')}}`);
    assert.notEqual(exact.body?.error?.code, 'Vendor.1.0.JsonNestingTooDeep');
    assert.ok(exact.status < 500);
  });

  it('refuses BIOS attribute values of the wrong JSON type at PATCH time, so nested values are never stored', async () => {
    const r = await raw(
      'PATCH',
      '/redfish/v1/Systems/1/Bios/Settings/',
      JSON.stringify({ Attributes: { AdminName: [[[]]], NoSuchThing: { a: 1 }, ProcTurbo: 3, QuietBoot: 'no' } }),
    );
    assert.equal(r.status, 400);
    const related = r.body.error['@Message.ExtendedInfo'].map((m: any) => m.RelatedProperties?.[0]).sort();
    assert.deepEqual(related, ['#/Attributes/AdminName', '#/Attributes/NoSuchThing', '#/Attributes/ProcTurbo', '#/Attributes/QuietBoot']);
    const partial = await raw(
      'PATCH',
      '/redfish/v1/Systems/1/Bios/Settings/',
      JSON.stringify({ Attributes: { AdminName: [1], QuietBoot: false } }),
    );
    assert.equal(partial.status, 200);
    assert.ok(messageIds(partial.body).includes('Base.1.12.PropertyValueTypeError'));
    svc = await svc.restart();
    const pending = await svc.get('/redfish/v1/Systems/1/Bios/Settings/');
    assert.equal(pending.status, 200);
    assert.equal(pending.body.Attributes.QuietBoot, false);
    assert.equal(typeof pending.body.Attributes.AdminName, 'string');
  });
});
