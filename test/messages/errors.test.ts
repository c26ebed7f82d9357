// The six message registries the service serves (Base, Vendor, ResourceEvent,
// TaskEvent, VendorResourceEvents, StorageDevice): every key's placeholders
// against its ParamTypes, messages built from them, and the registry files the
// service serves against the definitions in code. Statuses: test/protocol/errors.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { baseMessage, redfishErrorBody, successBody } from '../../src/messages/errors.js';
import { baseRefusal } from '../../src/messages/refusal.js';
import { BASE_REGISTRY } from '../../src/messages/registries/base.js';
import { RESOURCE_EVENT_REGISTRY } from '../../src/messages/registries/resource-event.js';
import { STORAGE_DEVICE_REGISTRY } from '../../src/messages/registries/storage-device.js';
import { TASK_EVENT_REGISTRY } from '../../src/messages/registries/task-event.js';
import { VENDOR_RESOURCE_EVENT_REGISTRY } from '../../src/messages/registries/vendor-resource-event.js';
import { VENDOR_REGISTRY } from '../../src/messages/registries/vendor.js';
import { formatMessage, makeMessage, registryId } from '../../src/messages/messages.js';
import type { RegistryDef } from '../../src/messages/registry-types.js';
import { issueCertificate } from '../../src/platform/x509.js';
import { makePackage, startImageServer, upload, type ImageServer } from '../support/firmware.js';
import { insecureAgent, messageIds, startTestService, type TestService } from '../support/service.js';

/** Every message registry src/app.ts serves. */
const REGISTRIES: readonly RegistryDef[] = [
  BASE_REGISTRY,
  VENDOR_REGISTRY,
  RESOURCE_EVENT_REGISTRY,
  TASK_EVENT_REGISTRY,
  VENDOR_RESOURCE_EVENT_REGISTRY,
  STORAGE_DEVICE_REGISTRY,
];

/** Sample arguments of a message's types. */
function sampleArgs(types: readonly string[]): (string | number)[] {
  return types.map((t, i) => (t === 'number' ? 100 + i : `arg${i + 1}`));
}

describe('message registries: definitions', () => {
  it('has six registries with distinct prefixes, each with a major.minor.errata version', () => {
    assert.equal(new Set(REGISTRIES.map((r) => r.prefix)).size, 6);
    for (const r of REGISTRIES) {
      assert.match(r.prefix, /^[A-Za-z][A-Za-z0-9]*$/, r.prefix);
      assert.match(r.version, /^\d+\.\d+\.\d+$/, r.prefix);
      assert.equal(registryId(r), `${r.prefix}.${r.version.split('.').slice(0, 2).join('.')}`);
      assert.ok(['DMTF', 'Vendor'].includes(r.owningEntity), r.prefix);
      assert.equal(r.language, 'en');
      assert.ok(Object.keys(r.messages).length > 0, r.prefix);
    }
  });

  for (const reg of REGISTRIES) {
    describe(`${reg.prefix} ${reg.version}`, () => {
      for (const [key, m] of Object.entries(reg.messages)) {
        it(`${key}: placeholders %1..%${m.paramTypes.length} each used, typed, and filled`, () => {
          assert.match(key, /^[A-Za-z][A-Za-z0-9]*$/);
          const used = new Set([...m.message.matchAll(/%(\d+)/g)].map((x) => Number(x[1])));
          const expected = new Set(m.paramTypes.map((_t, i) => i + 1));
          assert.deepEqual(
            [...used].sort((a, b) => a - b),
            [...expected],
            `${reg.prefix}.${key}: "${m.message}" vs ${m.paramTypes.length} ParamTypes`,
          );
          for (const t of m.paramTypes) assert.ok(t === 'string' || t === 'number', t);
          assert.ok(['OK', 'Warning', 'Critical'].includes(m.severity), m.severity);
          assert.ok(m.description.trim().length > 0 && m.resolution.trim().length > 0);

          const args = sampleArgs(m.paramTypes);
          const info = makeMessage(reg, key, args);
          assert.equal(info.MessageId, `${registryId(reg)}.${key}`);
          // MessageArgs are strings (DMTF Message schema), a `number` ParamType included, one per ParamType.
          assert.deepEqual(info.MessageArgs, args.map(String));
          assert.equal(info.MessageArgs.length, m.paramTypes.length);
          for (const a of info.MessageArgs) assert.equal(typeof a, 'string', `${reg.prefix}.${key} argument ${a}`);
          assert.doesNotMatch(info.Message, /%\d/, 'every placeholder filled');
          for (const a of args) assert.ok(info.Message.includes(String(a)), `${a} in "${info.Message}"`);
          assert.equal(info.MessageSeverity, m.severity);
          assert.equal(info.Severity, m.severity);
          assert.equal(info.Resolution, m.resolution);
          // One argument too few or too many is refused.
          assert.throws(() => makeMessage(reg, key, [...args, 'extra']), /takes \d+ arguments/);
          if (args.length) assert.throws(() => makeMessage(reg, key, args.slice(1)), /takes \d+ arguments/);
        });
      }
    });
  }
});

describe('messages and error bodies', () => {
  it('fills arguments and refuses the wrong number of them', () => {
    const e = baseRefusal('PropertyValueTypeError', 'abc', 'LocationIndicatorActive');
    assert.equal(e.infos[0]?.MessageId, 'Base.1.12.PropertyValueTypeError');
    assert.deepEqual(e.infos[0]?.MessageArgs, ['abc', 'LocationIndicatorActive']);
    assert.equal(
      e.infos[0]?.Message,
      formatMessage(BASE_REGISTRY.messages.PropertyValueTypeError.message, ['abc', 'LocationIndicatorActive']),
    );
    assert.throws(() => makeMessage(BASE_REGISTRY, 'PropertyUnknown', []), /takes 1 arguments/);
    assert.throws(() => makeMessage(BASE_REGISTRY, 'NoSuchKey', []), /unknown message/);
  });

  it('formats placeholders in any order, leaves unknown ones, and does not re-read filled text', () => {
    const cases: [text: string, args: (string | number)[], expected: string][] = [
      ['%1 and %2', ['a', 'b'], 'a and b'],
      ['%2 before %1', ['a', 'b'], 'b before a'],
      ['%1%1', ['x'], 'xx'],
      ['%3', ['a'], '%3'],
      ['%1', ['%2'], '%2'],
      ['100%', [], '100%'],
      ['%10', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 'j'],
      ['%1', [0], '0'],
    ];
    for (const [text, args, expected] of cases) assert.equal(formatMessage(text, args), expected, text);
  });

  it('gives every argument as a string, numbers too, and points RelatedProperties at JSON', () => {
    const info = makeMessage(VENDOR_REGISTRY, 'PasswordTooShort', [8], ['Password']);
    assert.deepEqual(info.MessageArgs, ['8']);
    assert.deepEqual(info.RelatedProperties, ['#/Password']);
    assert.deepEqual(makeMessage(BASE_REGISTRY, 'PropertyUnknown', [5]).MessageArgs, ['5']);
    assert.deepEqual(makeMessage(BASE_REGISTRY, 'PropertyUnknown', ['X'], ['Boot.BootOrder']).RelatedProperties, ['#/Boot/BootOrder']);
    assert.deepEqual(makeMessage(BASE_REGISTRY, 'PropertyUnknown', ['X'], ['#/Attributes/A.B']).RelatedProperties, ['#/Attributes/A.B']);
    assert.equal(makeMessage(BASE_REGISTRY, 'PropertyUnknown', ['X'], []).RelatedProperties, undefined);
  });

  it('builds error bodies: a single message is the code, several are GeneralError (G8); the message always invites to the extended info', () => {
    const one = redfishErrorBody([baseMessage('PropertyUnknown', 'X')]) as { error: { code: string; message: string } };
    assert.equal(one.error.code, 'Base.1.12.PropertyUnknown');
    assert.equal(one.error.message, 'See @Message.ExtendedInfo for more information.');
    const two = redfishErrorBody([baseMessage('PropertyUnknown', 'X'), baseMessage('PropertyUnknown', 'Y')]) as {
      error: { code: string; message: string };
    };
    assert.equal(two.error.code, 'Base.1.12.GeneralError');
    assert.equal(two.error.message, 'See @Message.ExtendedInfo for more information.');
  });

  it('builds success bodies as an error object with Success first, coded Success however many messages follow (G8)', () => {
    const body = successBody([baseMessage('PropertyUnknown', 'X')]) as {
      error: { code: string; '@Message.ExtendedInfo': { MessageId: string }[] };
    };
    assert.equal(body.error['@Message.ExtendedInfo'][0]?.MessageId, 'Base.1.12.Success');
    assert.equal(body.error.code, 'Base.1.12.Success');
    const single = successBody() as { error: { code: string } };
    assert.equal(single.error.code, 'Base.1.12.Success');
  });
});

describe('message registries: the files the service serves', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  /** A registry file as served: gzip on the wire, decompressed here. */
  async function served(uri: string): Promise<any> {
    const res = await request(`${svc.url}${uri}`, { headers: { 'x-auth-token': await svc.adminToken() }, dispatcher: insecureAgent });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    assert.equal(res.statusCode, 200, uri);
    assert.equal(res.headers['content-encoding'], 'gzip', uri);
    return JSON.parse(gunzipSync(bytes).toString('utf8'));
  }

  it('lists exactly these six message registries (and the BIOS attribute registry)', async () => {
    const r = await svc.get('/redfish/v1/Registries/');
    assert.equal(r.status, 200);
    const ids: string[] = r.body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
    const messageRegistries: string[] = [];
    for (const id of ids) {
      const file = await svc.get(id);
      assert.equal(file.status, 200, id);
      const doc = await served(file.body.Location[0].Uri);
      if (doc['@odata.type'].startsWith('#MessageRegistry.')) messageRegistries.push(doc.RegistryPrefix);
      else assert.match(doc['@odata.type'], /^#AttributeRegistry\./, id);
    }
    assert.deepEqual(messageRegistries.sort(), REGISTRIES.map((r) => r.prefix).sort());
  });

  for (const reg of REGISTRIES) {
    it(`${reg.prefix}: the served file holds exactly the definitions in code`, async () => {
      const file = await svc.get(`/redfish/v1/Registries/${reg.prefix}/`);
      assert.equal(file.status, 200);
      assert.equal(file.body.Registry, registryId(reg));
      assert.deepEqual(file.body.Languages, ['en']);
      const location = file.body.Location[0];
      assert.equal(location.Uri, `/redfish/v1/RegistryStore/registries/en/${reg.prefix}.json`);
      if (reg.owningEntity === 'DMTF')
        assert.equal(location.PublicationUri, `http://redfish.dmtf.org/registries/${reg.prefix}.${reg.version}.json`);
      else assert.equal(location.PublicationUri, undefined);

      const doc = await served(location.Uri);
      assert.equal(doc.Id, `${reg.prefix}.${reg.version}`);
      assert.equal(doc.RegistryPrefix, reg.prefix);
      assert.equal(doc.RegistryVersion, reg.version);
      assert.equal(doc.Name, reg.name);
      assert.equal(doc.Description, reg.description);
      assert.equal(doc.OwningEntity, reg.owningEntity);
      assert.equal(doc.Language, 'en');
      assert.deepEqual(Object.keys(doc.Messages).sort(), Object.keys(reg.messages).sort());
      for (const [key, m] of Object.entries(reg.messages)) {
        const s = doc.Messages[key];
        const expected: Record<string, unknown> = {
          Description: m.description,
          Message: m.message,
          MessageSeverity: m.severity,
          NumberOfArgs: m.paramTypes.length,
          Resolution: m.resolution,
        };
        if (m.paramTypes.length) expected.ParamTypes = [...m.paramTypes];
        assert.deepEqual(s, expected, `${reg.prefix}.${key}`);
      }
    });
  }
});

describe('MessageArgs in answers over HTTPS: strings, as many as the registry says', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { bodyLimit: 64 * 1024, repositoryBytes: 256 * 1024 } });
  });
  after(() => svc.close());

  /** The extended info of an answer, each checked against its registry's definition. */
  function checkedArgs(body: any): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const info of body?.error?.['@Message.ExtendedInfo'] ?? []) {
      const [prefix, , , key] = String(info.MessageId).split('.') as [string, string, string, string];
      const def = REGISTRIES.find((r) => r.prefix === prefix)?.messages[key];
      assert.ok(def, info.MessageId);
      assert.equal(info.MessageArgs.length, def.paramTypes.length, `${info.MessageId} NumberOfArgs`);
      for (const a of info.MessageArgs) assert.equal(typeof a, 'string', `${info.MessageId}: ${JSON.stringify(info.MessageArgs)}`);
      out[key] = info.MessageArgs;
    }
    return out;
  }

  it('RequestBodyTooLarge and SecureBootDatabaseLimit carry their numbers as strings', async () => {
    const big = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1800, Pad: 'x'.repeat(70_000) } });
    assert.equal(big.status, 413);
    assert.deepEqual(checkedArgs(big.body).RequestBodyTooLarge, ['65536']);

    const pk = '/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/PK/Certificates/';
    const enroll = async (cn: string) => {
      const c = await issueCertificate({ subject: `CN=${cn}`, ca: true, notBefore: new Date(svc.clock.now() - 60_000) });
      return svc.req('POST', pk, { body: { CertificateString: c.certPem, CertificateType: 'PEM' } });
    };
    if ((await svc.get(pk)).body['Members@odata.count'] === 0) assert.equal((await enroll('First PK')).status, 201);
    const second = await enroll('Second PK');
    assert.equal(second.status, 400);
    assert.deepEqual(checkedArgs(second.body).SecureBootDatabaseLimit, ['PK', '1']);
  });

  it('upload sections and repository space carry their numbers as strings', async () => {
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.9', file: 'sps.fwpkg' });
    const half = Math.ceil(pkg.data.length / 2);
    const section = (i: number) =>
      upload(svc, { name: pkg.name, data: pkg.data.subarray(i * half, (i + 1) * half) }, { params: { Section: i } });
    const outOfOrder = await section(1);
    assert.equal(outOfOrder.status, 400, outOfOrder.text);
    assert.deepEqual(checkedArgs(outOfOrder.body).UploadSectionOutOfOrder, ['1', 'sps.fwpkg', '0']);
    const first = await section(0);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(checkedArgs(first.body).UploadSectionReceived, ['0', 'sps.fwpkg']);

    const huge = await makePackage(svc, { targets: ['IE'], version: '9', file: 'huge.fwpkg', image: randomBytes(300 * 1024) });
    const full = await upload(svc, huge, { params: { UpdateTarget: false } });
    assert.equal(full.status, 413, full.text);
    const [size, free] = checkedArgs(full.body).RepositoryInsufficientSpace ?? [];
    assert.match(size ?? '', /^\d+$/);
    assert.match(free ?? '', /^\d+$/);
  });
});

describe('successes that carry several messages over HTTPS: coded as their first message, never GeneralError', () => {
  let svc: TestService;
  let images: ImageServer;
  const files = new Map<string, Buffer>();
  before(async () => {
    images = await startImageServer(mkdtempSync(join(tmpdir(), 'img-')), files);
    svc = await startTestService({ config: { downloadCa: images.caFile } });
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  /** A 200 whose body is a success with more than one message; its code. */
  function successCode(r: { status: number; body: any; text: string }, ids: string[]): string {
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ids);
    assert.notEqual(r.body.error.code, 'Base.1.12.GeneralError');
    return r.body.error.code;
  }

  it('SetUserTempThreshold, ClearRestApiState and ResetBios answer Success, then what needs a reset', async () => {
    const threshold = await svc.req('POST', '/redfish/v1/Chassis/1/Thermal/Actions/Oem/Vendor/VendorThermalExt.SetUserTempThreshold/', {
      body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 60 },
    });
    assert.equal(successCode(threshold, ['Base.1.12.Success', 'Vendor.1.0.ControllerResetRequired']), 'Base.1.12.Success');
    const clear = await svc.req('POST', '/redfish/v1/Managers/1/Actions/Oem/Vendor/VendorMC.ClearRestApiState/', { body: {} });
    assert.equal(successCode(clear, ['Base.1.12.Success', 'Vendor.1.0.ControllerResetRequired']), 'Base.1.12.Success');
    const resetBios = await svc.req('POST', '/redfish/v1/Systems/1/Bios/Actions/Bios.ResetBios/', { body: {} });
    assert.equal(successCode(resetBios, ['Base.1.12.Success', 'Vendor.1.0.SystemResetRequired']), 'Base.1.12.Success');
  });

  it('a PATCH applied with a refused property is coded as its first message, SystemResetRequired', async () => {
    const r = await svc.req('PATCH', '/redfish/v1/Systems/1/Bios/Settings/', { body: { Attributes: { ProcTurbo: 'Disabled' }, Bogus: 1 } });
    assert.equal(successCode(r, ['Vendor.1.0.SystemResetRequired', 'Base.1.12.PropertyUnknown']), 'Vendor.1.0.SystemResetRequired');
  });

  it('the task monitor of a finished SimpleUpdate answers Success, then FirmwareStaged', async () => {
    const pkg = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v2.70', file: 'rom.bin' });
    files.set('/rom.bin', pkg.data);
    const r = await svc.req('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/', {
      body: { ImageURI: `${images.url}/rom.bin` },
    });
    assert.equal(r.status, 202, r.text);
    await svc.running.services.tasks.whenDone(r.body.Id);
    const done = await svc.get(r.headers.location as string);
    assert.equal(successCode(done, ['Base.1.12.Success', 'Vendor.1.0.FirmwareStaged']), 'Base.1.12.Success');
  });
});
