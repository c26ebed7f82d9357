// Issue 12 items 1, 5a, 5b and 12a: the HttpPushUri upload takes malformed
// forms, credentials, images and file names without a crash or a 500, and the
// service answers afterwards.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import yazl from 'yazl';
import { BIN_MAGIC, SIG_MAGIC, writeFwpkg, type PayloadJson } from '../../../src/domain/firmware/package.js';
import { makeCompsig, sha256File } from '../../../src/domain/firmware/signing.js';
import { UPLOAD_URI, makePackage, multipart, upload } from '../../support/firmware.js';
import { messageIds, startTestService, type Response, type TestService } from '../../support/service.js';
import { parseAnswer, rawTls } from '../../support/raw-http.js';
import { waitUntil } from '../../support/wait.js';

const US = '/redfish/v1/UpdateService/';
const REPO = `${US}ComponentRepository/`;
const BOUNDARY = 'b';
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;

const NO_SESSION = ['Base.1.12.NoValidSession'];
const MALFORMED = ['Base.1.12.UnrecognizedRequestBody'];
const INVALID_IMAGE = ['Vendor.1.0.FirmwareImageInvalid'];
const BAD_NAME = ['Base.1.12.ActionParameterValueFormatError'];

/** The head of a file part (no data yet). */
const filePart = (name: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n\r\n`;

describe('HttpPushUri upload hardening', () => {
  let svc: TestService;
  /** Errors nobody handled (an 'error' event without a listener); the service runs in this process. */
  const uncaught: unknown[] = [];
  const monitor = (e: unknown) => uncaught.push(e);
  before(async () => {
    process.on('uncaughtExceptionMonitor', monitor);
    svc = await startTestService();
  });
  after(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    await svc.close();
  });

  const post = (body: string | Buffer, auth: 'none' | 'session', headers: Record<string, string> = {}) =>
    svc.req('POST', UPLOAD_URI, { rawBody: body, auth, headers: { 'content-type': FORM, ...headers } });
  const state = async () => (await svc.get(US)).body.Oem.Vendor.State as string;
  // Made at the first upload: absent, it holds nothing.
  const incoming = () => {
    const dir = join(svc.dataDir, 'repository', '.incoming');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  /** The answer is a Redfish error with exactly these message ids; the service still serves a GET. */
  const refused = async (r: Response, status: number, ids: string[]) => {
    assert.equal(r.status, status, r.text);
    assert.deepEqual(messageIds(r.body), ids, r.text);
    assert.equal(typeof r.body.error.message, 'string');
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    assert.equal(root.status, 200);
    assert.deepEqual(uncaught.splice(0), [], 'no error went unhandled');
    // Refusals name what is wrong; no internal error text leaks into them.
    assert.doesNotMatch(r.text, /Cannot read|is not a function|is not iterable|TypeError/);
    assert.notEqual(await state(), 'Uploading');
    assert.deepEqual(incoming(), [], 'no temp file is left behind');
  };

  describe('item 1: forms cut short', () => {
    const truncatedFile = `${filePart('file', 'a.fwpkg')}AAAA`;
    const truncatedSecond = `${filePart('file', 'a.fwpkg')}AAAA\r\n${filePart('file', 'b.fwpkg')}BBBB`;
    const truncatedCompsig = `${filePart('compsig', 'a.compsig')}AAAA`;
    const truncatedParams = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="parameters"; filename="p.json"\r\n\r\n{"UpdateTarget":`;
    const truncatedCompsigThenFile = `${filePart('compsig', 'a.compsig')}SIG\r\n${filePart('file', 'a.fwpkg')}AAAA`;

    it('a file part without its closing boundary, no credentials: 401, no crash', async () => {
      await refused(await post(truncatedFile, 'none'), 401, NO_SESSION);
    });

    it('a file part without its closing boundary, with a session: 400 UnrecognizedRequestBody', async () => {
      await refused(await post(truncatedFile, 'session'), 400, MALFORMED);
      assert.equal(await state(), 'Error');
    });

    it('a second file part cut short after a good first one, no credentials: 401', async () => {
      await refused(await post(truncatedSecond, 'none'), 401, NO_SESSION);
    });

    it('a second file part cut short after a good first one, with a session: 400 (a second file is refused)', async () => {
      await refused(await post(truncatedSecond, 'session'), 400, ['Base.1.12.ActionParameterDuplicate']);
    });

    it('a compsig part cut short: 400 UnrecognizedRequestBody, with or without credentials', async () => {
      await refused(await post(truncatedCompsig, 'none'), 400, MALFORMED);
      await refused(await post(truncatedCompsig, 'session'), 400, MALFORMED);
    });

    it('a parameters file part cut short: 400 UnrecognizedRequestBody', async () => {
      await refused(await post(truncatedParams, 'session'), 400, MALFORMED);
    });

    it('a file part cut short after a compsig: 400 UnrecognizedRequestBody', async () => {
      await refused(await post(truncatedCompsigThenFile, 'session'), 400, MALFORMED);
    });

    it('a malformed part header: 400 UnrecognizedRequestBody', async () => {
      await refused(
        await post(`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nAAAA\r\n--${BOUNDARY}--\r\n`, 'session'),
        400,
        MALFORMED,
      );
    });

    // Found by the fuzz suite: busboy goes on after a malformed header, and the part after it never ended.
    it('a malformed part header followed by a part cut short: 400 at once, with or without credentials', async () => {
      const form = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b"\r\n\r\n\r\n${filePart('compsig', 'a.compsig')}false`;
      for (const auth of ['none', 'session'] as const) await refused(await post(Buffer.from(form, 'latin1'), auth), 400, MALFORMED);
    });

    it('a form that is only a preamble: 400 UnrecognizedRequestBody', async () => {
      await refused(await post('no boundary here at all', 'session'), 400, MALFORMED);
    });

    it('a client that goes away midway through the file leaves the update service usable', async () => {
      const token = await svc.adminToken();
      await new Promise<void>((resolve, reject) => {
        const socket = connect({ port: svc.port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
          socket.write(
            `POST ${UPLOAD_URI} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: ${token}\r\nContent-Type: ${FORM}\r\nContent-Length: 10000000\r\n\r\n`,
          );
          socket.write(`${filePart('file', 'gone.fwpkg')}${'A'.repeat(64 * 1024)}`);
        });
        socket.on('error', () => undefined);
        socket.on('data', () => reject(new Error('the service answered a request it has not fully received')));
        // Go away once the service has begun receiving (the upload is in progress).
        waitUntil(async () => (await state()) === 'Uploading', 'the upload to start').then(() => {
          socket.destroy();
          resolve();
        }, reject);
      });
      await waitUntil(async () => (await state()) !== 'Uploading', 'the cut-off upload to end');
      assert.equal(await state(), 'Error', 'the cut-off upload ended');
      await waitUntil(() => incoming().length === 0, 'the partial file to be removed');
      assert.deepEqual(incoming(), []);
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'after-abort.fwpkg' });
      const r = await upload(svc, pkg, { params: { UpdateTarget: false } });
      assert.equal(r.status, 200, r.text);
    });
  });

  describe('item 5a: a sessionKey cookie that is not valid percent-encoding', () => {
    for (const value of ['%E0%A4%A', '%', '%zz', '%C0%80%']) {
      it(`Cookie: sessionKey=${value} without other credentials: 401 NoValidSession`, async () => {
        const { body, contentType } = multipart([{ name: 'file', filename: 'c.fwpkg', data: 'AAAA' }]);
        const r = await svc.req('POST', UPLOAD_URI, {
          rawBody: body,
          auth: 'none',
          headers: { 'content-type': contentType, cookie: `sessionKey=${value}` },
        });
        await refused(r, 401, NO_SESSION);
      });
    }

    it('a percent-encoded valid token in the cookie still works', async () => {
      const token = await svc.login('Administrator', 'Test-Admin-Pass1');
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'cookie.fwpkg' });
      const r = await upload(svc, pkg, {
        auth: 'none',
        cookie: `other=1; sessionKey=${encodeURIComponent(token)}`,
        params: { UpdateTarget: false },
      });
      assert.equal(r.status, 200, r.text);
    });
  });

  describe('item 5b: images that are not what they claim', () => {
    /** A raw image whose header is the given JSON text; a zero signature trailer. */
    const rawImage = (headerJson: string) => {
      const json = Buffer.from(headerJson, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(json.length);
      return Buffer.concat([BIN_MAGIC, len, json, Buffer.alloc(16, 0x55), Buffer.alloc(64), SIG_MAGIC]);
    };
    const headers: [string, string][] = [
      ['null', 'null'],
      ['an array', '[{"DeviceClass":"BMC","Version":"2.10"}]'],
      ['a number', '42'],
      ['a string', '"BMC 2.10"'],
      ['true', 'true'],
      ['an empty object', '{}'],
      ['no Version', '{"DeviceClass":"BMC"}'],
      ['no DeviceClass', '{"Version":"2.10"}'],
      ['a numeric DeviceClass', '{"DeviceClass":5,"Version":"2.10"}'],
      ['a numeric Version', '{"DeviceClass":"BMC","Version":2.1}'],
      ['an empty Version', '{"DeviceClass":"BMC","Version":""}'],
      ['an object DeviceClass', '{"DeviceClass":{"toString":"BMC"},"Version":"2.10"}'],
      ['DeviceClass __proto__', '{"DeviceClass":"__proto__","Version":"2.10"}'],
      ['DeviceClass constructor', '{"DeviceClass":"constructor","Version":"2.10"}'],
      ['not JSON', '{"DeviceClass":'],
    ];
    for (const [why, json] of headers) {
      it(`a raw image whose header is ${why}: 400 FirmwareImageInvalid`, async () => {
        const r = await upload(svc, { name: 'raw.bin', data: rawImage(json) });
        await refused(r, 400, INVALID_IMAGE);
      });
    }

    it('a raw image shorter than its header length: 400 FirmwareImageInvalid', async () => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(0xffffffff);
      await refused(await upload(svc, { name: 'short.bin', data: Buffer.concat([BIN_MAGIC, len, Buffer.from('{}')]) }), 400, INVALID_IMAGE);
    });

    /** A zip holding payload.json with the given text (and one image), signed for the service. */
    const fwpkg = async (name: string, payloadText: string | undefined) => {
      const path = join(svc.dataDir, name);
      const zip = new yazl.ZipFile();
      if (payloadText !== undefined) zip.addBuffer(Buffer.from(payloadText), 'payload.json');
      zip.addBuffer(Buffer.from('image'), 'img.bin');
      zip.end();
      const chunks: Buffer[] = [];
      for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
      const data = Buffer.concat(chunks);
      writeFileSync(path, data);
      return { name, data, compsig: makeCompsig(svc.running.services.update.signingKey, name, await sha256File(path)) };
    };
    const payloads: [string, string | undefined][] = [
      ['no payload.json', undefined],
      ['payload.json null', 'null'],
      ['payload.json an array', '[]'],
      ['payload.json a number', '7'],
      ['payload.json a string', '"VendorFwPkg/1"'],
      ['payload.json not JSON', '{"PayloadFormat":'],
      ['payload.json empty', ''],
      ['Devices null', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":null}'],
      ['Devices a string', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":"AMS"}'],
      ['Devices [null]', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":[null]}'],
      ['Devices [1]', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":[1]}'],
      ['Devices [[]]', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":[[]]}'],
      ['a numeric DeviceClass', '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":[{"DeviceClass":1}]}'],
      ['a numeric Version', '{"PayloadFormat":"VendorFwPkg/1","Version":1,"ComponentType":"C","Devices":[{"DeviceClass":"AMS"}]}'],
      [
        'ComponentType __proto__',
        '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"__proto__","Devices":[{"DeviceClass":"AMS"}]}',
      ],
      [
        'Activation an object',
        '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Activation":{},"Devices":[{"DeviceClass":"AMS"}]}',
      ],
      [
        'an image entry that is not in the zip',
        '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"A","Devices":[{"DeviceClass":"IE","Image":"nope.bin"}]}',
      ],
      [
        'an image entry that is __proto__',
        '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"A","Devices":[{"DeviceClass":"IE","Image":"__proto__"}]}',
      ],
    ];
    for (const [why, text] of payloads) {
      it(`a component package with ${why}: 400 FirmwareImageInvalid`, async () => {
        await refused(await upload(svc, await fwpkg('junk.fwpkg', text)), 400, INVALID_IMAGE);
      });
    }

    const junkZips: [string, Buffer][] = [
      ['only a local header signature', Buffer.from('PK\x03\x04', 'latin1')],
      ['a local header signature and junk', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(4096, 0xa5)])],
      [
        'an end-of-directory record pointing nowhere',
        Buffer.concat([
          Buffer.from('PK\x03\x04', 'latin1'),
          Buffer.alloc(32),
          Buffer.from('PK\x05\x06', 'latin1'),
          Buffer.from([0, 0, 0, 0, 5, 0, 5, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0]),
        ]),
      ],
    ];
    for (const [why, data] of junkZips) {
      it(`a .fwpkg that is ${why}: 400 FirmwareImageInvalid`, async () => {
        await refused(await upload(svc, { name: 'junk.fwpkg', data, compsig: 'null' }), 400, INVALID_IMAGE);
      });
    }

    it('a zip whose payload.json is damaged (bad CRC): 400 FirmwareImageInvalid', async () => {
      const good = await fwpkg(
        'crc.fwpkg',
        '{"PayloadFormat":"VendorFwPkg/1","Version":"1","ComponentType":"C","Devices":[{"DeviceClass":"AMS"}]}',
      );
      const data = Buffer.from(good.data);
      // yazl stores small buffers deflated; flip a byte of payload.json's compressed data (after its 30+12 byte local header).
      const at = 30 + 'payload.json'.length + 2;
      data.writeUInt8(data.readUInt8(at) ^ 0xff, at);
      await refused(await upload(svc, { name: 'crc.fwpkg', data, compsig: good.compsig }), 400, INVALID_IMAGE);
    });

    for (const [why, compsig] of [
      ['null', 'null'],
      ['an array', '[]'],
      ['a number', '1'],
      ['a string', '"sig"'],
      ['not JSON', '{'],
      ['a Signature that is not base64 of 64 bytes', '{"Format":"VendorCompSig/1","Algorithm":"Ed25519","Signature":"!!"}'],
    ] as const) {
      it(`a compsig that is ${why}: 400 ComponentSignatureInvalid`, async () => {
        const pkg = await makePackage(svc, { targets: ['IE'], version: '0.8', file: 'sig.fwpkg' });
        const r = await upload(svc, { ...pkg, compsig });
        await refused(r, 400, ['Vendor.1.0.ComponentSignatureInvalid']);
      });
    }

    it('a software package for a device class named like an Object member takes the default activation', async () => {
      const path = join(svc.dataDir, 'ctor.fwpkg');
      const payload = {
        PayloadFormat: 'VendorFwPkg/1',
        Name: 'odd',
        Version: '1',
        ComponentType: 'C',
        Devices: [{ DeviceClass: 'constructor' }],
      } as unknown as PayloadJson;
      await writeFwpkg(path, payload, {});
      const compsig = makeCompsig(svc.running.services.update.signingKey, 'ctor.fwpkg', await sha256File(path));
      const r = await upload(svc, { name: 'ctor.fwpkg', data: readFileSync(path), compsig });
      assert.equal(r.status, 200, r.text);
      const m = (await svc.get(`${REPO}?$expand=.`)).body.Members.find((x: any) => x.Filename === 'ctor.fwpkg');
      assert.equal(m.Activates, 'Immediately');
    });
  });

  describe('item 12a: upload file names', () => {
    it('file names are UTF-8: the component keeps its name', async () => {
      const name = 'Größe-固件-\u{1F680}.fwpkg';
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: name });
      const r = await upload(svc, pkg, { params: { UpdateTarget: false } });
      assert.equal(r.status, 200, r.text);
      const names = (await svc.get(`${REPO}?$expand=.`)).body.Members.map((m: any) => m.Filename);
      assert.ok(names.includes(name), JSON.stringify(names));
    });

    const refusedNames: [string, string][] = [
      ['only dots', '...'],
      ['a C1 control', 'a\u0085.fwpkg'],
      ['a right-to-left override', 'evil\u202egkpwf.bin'],
      ['a right-to-left isolate', 'a\u2067.fwpkg'],
      ['a right-to-left mark', 'a\u200f.fwpkg'],
      ['256 bytes of UTF-8 (84 characters)', `${'固'.repeat(83)}x.fwpkg`],
      ['__proto__', '__proto__'],
      ['constructor', 'constructor'],
      ['prototype', 'prototype'],
      ['hasOwnProperty', 'hasOwnProperty'],
    ];
    for (const [why, name] of refusedNames) {
      it(`a file name with ${why}: 400 ActionParameterValueFormatError, nothing stored`, async () => {
        const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'named.fwpkg' });
        const before = (await svc.get(`${REPO}?$expand=.`)).body.Members.length;
        const r = await upload(svc, { ...pkg, name }, { params: { UpdateTarget: false } });
        await refused(r, 400, BAD_NAME);
        // The name is shown with the refused characters escaped.
        assert.doesNotMatch(r.text, /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
        assert.equal((await svc.get(`${REPO}?$expand=.`)).body.Members.length, before);
      });
    }

    // RFC 5987 extended names carry any byte, percent-encoded.
    const extendedNames: [string, string][] = [
      ['a DEL', "UTF-8''a%7F.fwpkg"],
      ['a NUL', "UTF-8''a%00.fwpkg"],
      ['a newline', "UTF-8''a%0D%0A.fwpkg"],
      ['a right-to-left override', "UTF-8''evil%E2%80%AEgkpwf.bin"],
      ['a left-to-right mark', "UTF-8''a%E2%80%8E.fwpkg"],
      ['only dots', "UTF-8''.."],
      ['__proto__', "UTF-8''__proto__"],
    ];
    for (const [why, value] of extendedNames) {
      it(`an extended file name (filename*) with ${why}: 400 ActionParameterValueFormatError`, async () => {
        const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename*=${value}\r\n\r\nAAAA\r\n--${BOUNDARY}--\r\n`;
        const r = await post(body, 'session');
        await refused(r, 400, BAD_NAME);
        assert.doesNotMatch(r.text, /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      });
    }

    it('an extended UTF-8 file name (filename*) is decoded', async () => {
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'ext.fwpkg' });
      const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''Gr%C3%B6%C3%9Fe.fwpkg\r\n\r\n`;
      const params = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n{"UpdateTarget":false}\r\n`;
      const r = await post(Buffer.concat([Buffer.from(params + head), pkg.data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]), 'session');
      // The package's compsig is missing: what matters is the name the answer reports.
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentSignatureMissing']);
      assert.match(r.text, /Größe\.fwpkg/);
    });
  });

  describe('issue 24: an upload that trickles does not hold the upload slot', () => {
    it('cuts an authenticated upload below --body-min-rate with 408; the slot is free again and the next upload proceeds', async () => {
      const token = await svc.adminToken();
      const c = await rawTls(svc.port);
      c.socket.write(
        `POST ${UPLOAD_URI} HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\nContent-Type: ${FORM}\r\nContent-Length: 100000000\r\n\r\n`,
      );
      c.socket.write(`${filePart('file', 'trickle.fwpkg')}AAAA`);
      await waitUntil(async () => (await state()) === 'Uploading', 'the upload to start');
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'after-trickle.fwpkg' });
      // The slot is taken: another upload is refused meanwhile.
      const busy = await upload(svc, pkg, { params: { UpdateTarget: false } });
      assert.equal(busy.status, 503, busy.text);
      // A byte now and then: no progress timeout fires, but 30 s (the body timeout) at a few bytes a second is below the minimum rate.
      c.socket.write('A');
      await svc.clock.advance(31_000);
      const text = await c.untilClosed(5_000);
      assert.equal(parseAnswer(text).status, 408, text);
      await waitUntil(async () => (await state()) !== 'Uploading', 'the upload to end');
      await waitUntil(() => incoming().length === 0, 'the partial file to be removed');
      const r = await upload(svc, pkg, { params: { UpdateTarget: false } });
      assert.equal(r.status, 200, r.text);
    });
  });

  describe('issue 25: an empty Expect header (iLO-style uploads send one)', () => {
    it('takes an upload sent with an empty Expect', async () => {
      const pkg = await makePackage(svc, { targets: ['IE'], version: '0.9', file: 'empty-expect.fwpkg' });
      const form = multipart([
        { name: 'parameters', contentType: 'application/json', data: JSON.stringify({ UpdateTarget: false }) },
        { name: 'compsig', filename: `${pkg.name}.compsig`, contentType: 'application/octet-stream', data: pkg.compsig },
        { name: 'file', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
      ]);
      const token = await svc.adminToken();
      const c = await rawTls(svc.port);
      c.socket.write(
        `POST ${UPLOAD_URI} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nExpect:\r\nOData-Version: 4.0\r\nX-Auth-Token: ${token}\r\n` +
          `Cookie: sessionKey=${token}\r\nContent-Type: ${form.contentType}\r\nContent-Length: ${form.body.length}\r\nConnection: close\r\n\r\n`,
      );
      c.socket.write(form.body);
      const a = parseAnswer(await c.untilClosed());
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.equal((await svc.get(`${REPO}${pkg.name}/`)).status, 200);
    });
  });
});
