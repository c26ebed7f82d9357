import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { ADMIN_PASSWORD, ADMIN_USER, insecureAgent, messageIds, startTestService, type TestService } from '../../support/service.js';
import { UPLOAD_URI, makePackage, multipart, upload } from '../../support/firmware.js';
import { waitUntil } from '../../support/wait.js';

const US = '/redfish/v1/UpdateService/';
const REPO = `${US}ComponentRepository/`;
const FW = `${US}FirmwareInventory/`;

describe('update service: HttpPushUri uploads and the component repository', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { repositoryBytes: 2 * 1024 * 1024 } });
  });
  after(() => svc.close());

  const state = async () => (await svc.get(US, { auth: 'basic' })).body.Oem.Vendor;
  /** cpld.fwpkg in the repository (the flashing test stores it; a test run alone stores it here). */
  const cpldStored = async () => {
    if ((await svc.get(`${REPO}cpld.fwpkg/`)).status === 200) return;
    const pkg = await makePackage(svc, { targets: ['CPLD'], version: '0x2C', activation: 'Immediate', file: 'cpld.fwpkg' });
    const r = await upload(svc, pkg, { auth: 'basic', params: { UpdateTarget: false } });
    assert.equal(r.status, 200, r.text);
  };

  it('point 4: the sessionKey part authenticates; no credentials get 401 and nothing is written', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg' });
    let r = await upload(svc, pkg, { auth: 'none', params: { UpdateTarget: false } });
    assert.equal(r.status, 401);
    assert.equal((await svc.get(REPO)).body['Members@odata.count'], 0);
    r = await upload(svc, pkg, { auth: 'none', sessionKey: 'not-a-token', params: { UpdateTarget: false } });
    assert.equal(r.status, 401);
    const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    r = await upload(svc, pkg, { auth: 'none', sessionKey: token, params: { UpdateTarget: false, UploadCurrentEtag: 'etag-1' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    const s = await state();
    assert.equal(s.State, 'Complete');
    assert.equal(s.UploadCurrentEtag, 'etag-1');
  });

  it('authenticates first: every method without credentials gets 401, whatever the body', async () => {
    for (const method of ['GET', 'HEAD', 'PATCH', 'PUT', 'DELETE']) {
      const r = await svc.req(method, UPLOAD_URI, { auth: 'none', ...(method === 'PATCH' || method === 'PUT' ? { body: {} } : {}) });
      assert.equal(r.status, 401, method);
    }
    const json = await svc.req('POST', UPLOAD_URI, { auth: 'none', body: { a: 1 } });
    assert.equal(json.status, 401);
    assert.deepEqual(messageIds(json.body), ['Base.1.12.NoValidSession']);
    assert.ok(json.headers['www-authenticate']);
    // With credentials the method and media type rules speak.
    assert.equal((await svc.req('GET', UPLOAD_URI, { auth: 'basic' })).status, 405);
    assert.equal((await svc.req('POST', UPLOAD_URI, { auth: 'basic', body: { a: 1 } })).status, 415);
  });

  it('point 4: the sessionKey cookie authenticates, and an account without the privilege gets 403', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.4.0', file: 'ie2.fwpkg' });
    const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    let r = await upload(svc, pkg, { auth: 'none', cookie: `foo=bar; sessionKey=${token}`, params: { UpdateTarget: false } });
    assert.equal(r.status, 200, r.text);
    const made = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'reader', Password: 'Reader-Pass-123', RoleId: 'ReadOnly' },
    });
    assert.equal(made.status, 201, made.text);
    const readerToken = await svc.login('reader', 'Reader-Pass-123');
    r = await upload(svc, pkg, { auth: 'none', sessionKey: readerToken });
    assert.equal(r.status, 403);
    r = await upload(svc, pkg, { auth: { token: readerToken } });
    assert.equal(r.status, 403);
  });

  it('point 4: parameters: ExecutionParameters and Configuration are refused, unknown and mistyped ones too', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.5.0', file: 'ie3.fwpkg' });
    for (const [params, id] of [
      [{ ExecutionParameters: '-f' }, 'Vendor.1.0.UploadParameterNotAllowed'],
      [{ Configuration: 'x' }, 'Vendor.1.0.UploadParameterNotAllowed'],
      [{ Bogus: 1 }, 'Base.1.12.ActionParameterUnknown'],
      [{ Section: -1 }, 'Base.1.12.ActionParameterValueTypeError'],
      [{ UpdateTarget: 'yes' }, 'Base.1.12.ActionParameterValueTypeError'],
    ] as const) {
      const r = await upload(svc, pkg, { auth: 'basic', params });
      assert.equal(r.status, 400, JSON.stringify(params));
      assert.deepEqual(messageIds(r.body), [id]);
    }
    // Refused before the upload started: nothing stored.
    assert.equal((await svc.get(`${REPO}ie3.fwpkg/`)).status, 404);
  });

  it('point 3: packages are verified: bad signature, missing compsig, foreign key, not a package', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.6.0', file: 'ie4.fwpkg' });
    let r = await upload(svc, pkg, { auth: 'basic', withCompsig: false });
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentSignatureMissing']);
    const tampered = Buffer.from(pkg.data);
    tampered.writeUInt8((tampered.at(-30) as number) ^ 0xff, tampered.length - 30);
    r = await upload(svc, { ...pkg, data: tampered }, { auth: 'basic' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentSignatureInvalid']);
    const sig = JSON.parse(pkg.compsig);
    r = await upload(svc, { ...pkg, compsig: JSON.stringify({ ...sig, KeyId: '0000' }) }, { auth: 'basic' });
    assert.match(r.body.error['@Message.ExtendedInfo'][0].Message, /does not trust/);
    r = await upload(svc, { name: 'notes.txt', data: Buffer.from('hello'), compsig: pkg.compsig }, { auth: 'basic' });
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.FirmwareImageInvalid']);
    // A raw image is self-signed: a flipped byte in it fails the embedded signature.
    const bin = await makePackage(svc, { targets: ['BMC'], version: '1.45', file: 'vmc.bin' });
    const badBin = Buffer.from(bin.data);
    badBin.writeUInt8((badBin.at(100) as number) ^ 0xff, 100);
    r = await upload(svc, { name: 'vmc.bin', data: badBin }, { auth: 'basic' });
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentSignatureInvalid']);
    const s = await state();
    assert.equal(s.State, 'Error');
    assert.equal(s.Result.MessageId, 'Vendor.1.0.ComponentSignatureInvalid');
  });

  it('points 4, 5, 8: an upload flashes at once and stores the component; state ends Complete', async () => {
    const seen: string[] = [];
    svc.running.services.update.status.onChange((s) => seen.push(s));
    const events: string[] = [];
    const unsubscribe = svc.running.services.events.subscribe((e) => events.push(e.message.MessageId));
    const pkg = await makePackage(svc, { targets: ['CPLD'], version: '0x2C', activation: 'Immediate', file: 'cpld.fwpkg' });
    const r = await upload(svc, pkg, { auth: 'basic' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success', 'Vendor.1.0.FirmwareUpdated']);
    assert.deepEqual(seen, ['Uploading', 'Verifying', 'Writing', 'Updating', 'Complete']);
    assert.equal((await svc.get(`${FW}3/`)).body.Version, '0x2C');
    const c = (await svc.get(`${REPO}cpld.fwpkg/`)).body;
    assert.equal(c.Version, '0x2C');
    assert.equal(c.SizeBytes, pkg.data.length);
    const iml = svc.running.services.logs.list('IML').map((l) => l.MessageId);
    assert.ok(iml.includes('Vendor.1.0.FirmwareUpdated'));
    unsubscribe();
    assert.ok(
      events.some((id) => /^VendorResourceEvents\.\d+\.\d+\.FirmwareFlashed$/.test(id)),
      events.join(' '),
    );
  });

  it('point 4: Type C and D components are stored, never flashed, whatever UpdateTarget says', async () => {
    const pkg = await makePackage(svc, { targets: ['AMS'], version: '2.11.0', type: 'D', file: 'ams.fwpkg' });
    const r = await upload(svc, pkg, { auth: 'basic', params: { UpdateTarget: true, UpdateRepository: false } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    assert.equal((await svc.get(`${US}SoftwareInventory/1/`)).body.Version, '2.10.0');
    const c = (await svc.get(`${REPO}ams.fwpkg/`)).body;
    assert.equal(c.ComponentType, 'D');
  });

  it('point 6: repository members carry every Component field; $expand and $select of the space', async () => {
    await cpldStored();
    const c = (await svc.get(`${REPO}cpld.fwpkg/`)).body;
    for (const f of [
      'Name',
      'Filename',
      'Version',
      'SizeBytes',
      'Criticality',
      'Created',
      'Locked',
      'ComponentUri',
      'Activates',
      'Configuration',
      'ExecutionParameters',
    ]) {
      assert.ok(f in c, f);
    }
    assert.equal(c.Locked, false);
    assert.equal(c.Criticality, 'Recommended');
    const bin = await svc.get(c.ComponentUri);
    assert.equal(bin.status, 200);
    assert.equal(Number(bin.headers['content-length']), c.SizeBytes);
    const expanded = (await svc.get(`${REPO}?$expand=.`)).body;
    assert.ok(expanded.Members.every((m: any) => typeof m.Filename === 'string'));
    const space = (await svc.get(`${REPO}?$select=Oem/Vendor/FreeSizeBytes,Oem/Vendor/TotalSizeBytes`)).body;
    assert.equal(space.Oem.Vendor.TotalSizeBytes, 2 * 1024 * 1024);
    const used = expanded.Members.reduce((n: number, m: any) => n + m.SizeBytes, 0);
    assert.equal(space.Oem.Vendor.FreeSizeBytes, 2 * 1024 * 1024 - used);
    assert.equal(space.Members, undefined);
  });

  it('point 6: PATCH only Criticality, Configuration, ExecutionParameters', async () => {
    await cpldStored();
    let r = await svc.req('PATCH', `${REPO}cpld.fwpkg/`, {
      body: { Criticality: 'Critical', Configuration: 'cfg', ExecutionParameters: '-s' },
    });
    assert.equal(r.status, 200, r.text);
    const c = (await svc.get(`${REPO}cpld.fwpkg/`)).body;
    assert.deepEqual([c.Criticality, c.Configuration, c.ExecutionParameters], ['Critical', 'cfg', '-s']);
    r = await svc.req('PATCH', `${REPO}cpld.fwpkg/`, { body: { Criticality: 'Urgent' } });
    assert.equal(r.status, 400);
    r = await svc.req('PATCH', `${REPO}cpld.fwpkg/`, { body: { Version: '9' } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyNotWritable']);
    r = await svc.req('PATCH', `${REPO}nope/`, { body: { Criticality: 'Optional' } });
    assert.equal(r.status, 404);
  });

  it('point 6: re-upload overwrites unless Locked; DELETE refused while Locked (Errors 10)', async () => {
    await cpldStored();
    assert.equal((await svc.req('PATCH', `${REPO}cpld.fwpkg/`, { body: { Configuration: 'cfg' } })).status, 200);
    const repo = svc.running.services.update.repository;
    const v2 = await makePackage(svc, { targets: ['CPLD'], version: '0x2D', activation: 'Immediate', file: 'cpld.fwpkg' });
    repo.lock('cpld.fwpkg', '/redfish/v1/UpdateService/UpdateTaskQueue/t1/');
    let r = await upload(svc, v2, { auth: 'basic', params: { UpdateTarget: false } });
    assert.equal(r.status, 409);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentLocked']);
    assert.equal((await svc.get(`${REPO}cpld.fwpkg/`)).body.Locked, true);
    r = await svc.req('DELETE', `${REPO}cpld.fwpkg/`);
    assert.equal(r.status, 409);
    repo.unlock('cpld.fwpkg', '/redfish/v1/UpdateService/UpdateTaskQueue/t1/');
    r = await upload(svc, v2, { auth: 'basic', params: { UpdateTarget: false } });
    assert.equal(r.status, 200, r.text);
    const c = (await svc.get(`${REPO}cpld.fwpkg/`)).body;
    assert.equal(c.Version, '0x2D');
    assert.equal(c.Configuration, 'cfg');
    assert.equal((await svc.get(REPO)).body.Members.filter((m: any) => m['@odata.id'].includes('cpld')).length, 1);
    r = await svc.req('DELETE', `${REPO}cpld.fwpkg/`);
    assert.equal(r.status, 200);
    assert.equal((await svc.get(`${REPO}cpld.fwpkg/`)).status, 404);
  });

  it('point 6: file names become URI-safe Ids; an upload that does not fit is refused', async () => {
    const odd = await makePackage(svc, { targets: ['IE'], version: '0.3', file: 'ie v2#.fwpkg' });
    let r = await upload(svc, odd, { auth: 'basic', params: { UpdateTarget: false } });
    assert.equal(r.status, 200, r.text);
    const member = (await svc.get(REPO)).body.Members.map((m: any) => m['@odata.id']).find((u: string) => u.includes('ie_v2_'));
    assert.ok(member);
    assert.equal((await svc.get(member)).body.Filename, 'ie v2#.fwpkg');
    const free = (await svc.get(REPO)).body.Oem.Vendor.FreeSizeBytes;
    const big = await makePackage(svc, { targets: ['IE'], version: '9', file: 'big.fwpkg', image: randomBytes(free + 1000) });
    r = await upload(svc, big, { auth: 'basic', params: { UpdateTarget: false } });
    assert.equal(r.status, 413, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.RepositoryInsufficientSpace']);
    assert.equal((await svc.get(REPO)).body.Oem.Vendor.FreeSizeBytes, free);
  });

  it('point 4: Section uploads are assembled in order; out-of-order and missing sections are refused', async () => {
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.9', activation: 'Immediate', file: 'sps.fwpkg' });
    const third = Math.ceil(pkg.data.length / 3);
    const parts = [0, 1, 2].map((i) => pkg.data.subarray(i * third, (i + 1) * third));
    const send = (i: number, o: { compsig?: boolean } = {}) =>
      upload(
        svc,
        { name: pkg.name, data: parts[i] as Buffer, compsig: o.compsig ? pkg.compsig : undefined },
        { auth: 'basic', params: { Section: i } },
      );
    let r = await send(1);
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.UploadSectionOutOfOrder']);
    r = await send(0);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success', 'Vendor.1.0.UploadSectionReceived']);
    r = await send(2, { compsig: true });
    assert.equal(r.status, 400, 'section 1 is missing');
    r = await send(1);
    assert.equal(r.status, 200);
    assert.equal((await svc.get(`${FW}4/`)).body.Version, '4.1.4.505', 'nothing flashed before the last section');
    r = await send(2, { compsig: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success', 'Vendor.1.0.FirmwareUpdated']);
    assert.equal((await svc.get(`${FW}4/`)).body.Version, '4.9');
    assert.equal((await svc.get(`${REPO}sps.fwpkg/`)).body.SizeBytes, pkg.data.length);
  });

  it('points 4, 5: the file is streamed; State is Uploading meanwhile and a second upload is Busy (503)', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.4', file: 'stream.fwpkg' });
    const { body, contentType } = multipart([
      { name: 'parameters', data: JSON.stringify({ UpdateTarget: false }) },
      { name: 'compsig', filename: 'stream.compsig', data: pkg.compsig },
      { name: 'file', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
    ]);
    const cut = body.length - 2000;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield body.subarray(0, cut);
      await gate;
      yield body.subarray(cut);
    }
    const pending = request(`${svc.url}${UPLOAD_URI}`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: `Basic ${Buffer.from(`${ADMIN_USER}:${ADMIN_PASSWORD}`).toString('base64')}` },
      body: Readable.from(slow()),
      dispatcher: insecureAgent,
    });
    await waitUntil(async () => (await state()).State === 'Uploading', 'the first upload to be in progress');
    const other = await upload(svc, await makePackage(svc, { targets: ['IE'], version: '0.5' }), { auth: 'basic' });
    assert.equal(other.status, 503);
    assert.equal(other.headers['retry-after'], '30');
    assert.deepEqual(messageIds(other.body), ['Vendor.1.0.UpdateServiceBusy']);
    release();
    const res = await pending;
    assert.equal(res.statusCode, 200, await res.body.text());
    assert.equal((await state()).State, 'Complete');
  });

  it('FreeSizeBytes shows the real free space while an upload is open: less only what it has received', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.6', file: 'held.fwpkg', image: randomBytes(256 * 1024) });
    const head = Buffer.from(`--held\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n{"UpdateTarget":false}\r\n`);
    const compsig = Buffer.from(
      `--held\r\nContent-Disposition: form-data; name="compsig"; filename="held.compsig"\r\n\r\n${pkg.compsig}\r\n`,
    );
    const fileHead = Buffer.from(
      `--held\r\nContent-Disposition: form-data; name="file"; filename="${pkg.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    // A first piece of the file that does not end like the start of a boundary, so the parser passes all of it on.
    let sent = 100 * 1024;
    while (pkg.data[sent - 1] === 0x0d || pkg.data[sent - 1] === 0x0a || pkg.data[sent - 1] === 0x2d) sent++;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* held() {
      yield Buffer.concat([head, compsig, fileHead, pkg.data.subarray(0, sent)]);
      await gate;
      yield Buffer.concat([pkg.data.subarray(sent), Buffer.from('\r\n--held--\r\n')]);
    }
    const space = async () => (await svc.get(`${REPO}?$select=Oem/Vendor/FreeSizeBytes,Oem/Vendor/TotalSizeBytes`)).body.Oem.Vendor;
    const before = await space();
    const stored = async () => (await svc.get(`${REPO}?$expand=.`)).body.Members.reduce((n: number, m: any) => n + m.SizeBytes, 0);
    assert.equal(before.FreeSizeBytes, before.TotalSizeBytes - (await stored()));
    const pending = request(`${svc.url}${UPLOAD_URI}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=held', 'x-auth-token': await svc.adminToken() },
      body: Readable.from(held()),
      dispatcher: insecureAgent,
    });
    try {
      let seen = before.FreeSizeBytes;
      await waitUntil(async () => (seen = (await space()).FreeSizeBytes) === before.FreeSizeBytes - sent, `FreeSizeBytes less ${sent}`);
      assert.equal((await state()).State, 'Uploading');
      assert.ok(seen > 0);
    } finally {
      release();
    }
    const res = await pending;
    assert.equal(res.statusCode, 200, await res.body.text());
    const after = await space();
    assert.equal(after.FreeSizeBytes, before.FreeSizeBytes - pkg.data.length);
    assert.equal(after.FreeSizeBytes, after.TotalSizeBytes - (await stored()));
    assert.equal((await svc.req('DELETE', `${REPO}held.fwpkg/`)).status, 200);
    assert.equal((await space()).FreeSizeBytes, before.FreeSizeBytes);
  });

  it('point 3: the fwpkg CLI builds a package and compsig that the service accepts', async () => {
    const out = join(svc.dataDir, 'cli-pmc.fwpkg');
    const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'cli.ts');
    const args = [
      'fwpkg',
      'build',
      '--data-dir',
      svc.dataDir,
      '--target',
      'PMC',
      '--version',
      '1.0.8',
      '--type',
      'A',
      '--activation',
      'Immediate',
      '--out',
      out,
    ];
    const printed = execFileSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });
    assert.match(printed, /wrote .*cli-pmc\.compsig/);
    const r = await upload(
      svc,
      { name: 'cli-pmc.fwpkg', data: readFileSync(out), compsig: readFileSync(join(svc.dataDir, 'cli-pmc.compsig'), 'utf8') },
      { auth: 'basic' },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal((await svc.get(`${FW}6/`)).body.Version, '1.0.8');
  });

  it('point 4: a wrong content type is refused with 415', async () => {
    const r = await svc.req('POST', UPLOAD_URI, { auth: 'basic', body: { a: 1 } });
    assert.equal(r.status, 415);
    const get = await svc.get(UPLOAD_URI);
    assert.equal(get.status, 405);
  });

  it('point 6: components survive a restart', async () => {
    const before = (await svc.get(`${REPO}?$expand=.`)).body.Members.map((m: any) => m.Filename).sort();
    svc = await svc.restart();
    const after = (await svc.get(`${REPO}?$expand=.`, { auth: 'basic' })).body.Members.map((m: any) => m.Filename).sort();
    assert.deepEqual(after, before);
  });
});
