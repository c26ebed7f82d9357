// Issue 28 item 4: iLO's firmware protocol as ilorest speaks it. The upload with ilorest's parts and
// parameters (ETag, UpdateRecoverySet, Section; sessionKey form part and cookie; HPE's empty Expect),
// /fwrepo/<Filename>, large components sent in sections with a compsig each, iLO's fwpkg layout,
// a controller flash reported Complete before the controller resets, and iLO's FirmwareIntegrity.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import { CONTROLLER_RESET_DELAY_MS } from '../../../src/domain/firmware/flasher.js';
import { SCAN_DURATION_MS } from '../../../src/domain/firmware/integrity.js';
import { makeSectionCompsig, SECTION_BYTES, sha256File, VendorSigningKey } from '../../../src/domain/firmware/signing.js';
import { UPLOAD_URI, makePackage, multipart } from '../../support/firmware.js';
import { exchange, parseAnswer, rawTls } from '../../support/raw-http.js';
import { installLicense } from '../../support/licenses.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import { FW, REPO, US, get } from '../../support/update-queue.js';

/** The upload as ilorest 3.6 sends it, with the empty Expect of HPE's examples: sessionKey part and cookie, parameters, compsig, file. */
async function iloUpload(
  svc: TestService,
  file: { name: string; data: Buffer },
  params: Record<string, unknown>,
  o: { compsig?: string; token?: string; uri?: string } = {},
): Promise<{ status: number; body: any }> {
  const token = o.token ?? (await svc.adminToken());
  const form = multipart([
    { name: 'sessionKey', data: token },
    { name: 'parameters', data: JSON.stringify(params) },
    ...(o.compsig !== undefined
      ? [{ name: 'compsig', filename: file.name.replace(/\.[^.]*$/, '.compsig'), contentType: 'application/octet-stream', data: o.compsig }]
      : []),
    { name: 'file', filename: file.name, contentType: 'application/octet-stream', data: file.data },
  ]);
  const c = await rawTls(svc.port);
  c.socket.write(
    `POST ${o.uri ?? UPLOAD_URI} HTTP/1.1\r\nHost: x\r\nExpect:\r\nOData-Version: 4.0\r\nCookie: sessionKey=${token}\r\n` +
      `Content-Type: ${form.contentType}\r\nContent-Length: ${form.body.length}\r\nConnection: close\r\n\r\n`,
  );
  c.socket.write(form.body);
  const a = parseAnswer(await c.untilClosed());
  return { status: a.status, body: a.body };
}

/** ilorest's parameters: UpdateRepository true and UpdateTarget false unless the flags say otherwise. */
const ilorestParams = (file: string, o: { target?: boolean; repository?: boolean; section?: number; srs?: boolean } = {}) => ({
  UpdateRepository: o.repository ?? true,
  UpdateTarget: o.target ?? false,
  ETag: `sum${file.replace(/[.\-_]/g, '')}`,
  Section: o.section ?? 0,
  UpdateRecoverySet: o.srs ?? false,
});

async function zipEntry(path: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (e, zip) => {
      if (e || !zip) return reject(e);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (err, s) => {
          if (err || !s) return reject(err);
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => chunks.push(c));
          s.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in ${path}`)));
      zip.readEntry();
    }),
  );
}

describe('iLO firmware protocol (ilorest uploadcomp, downloadcomp, flashfwpkg, fwintegritycheck)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { repositoryBytes: 80 * 1024 * 1024 } });
  });
  after(() => svc.close());

  const vendor = async () => (await get(svc, US)).body.Oem.Vendor;

  it("takes ilorest's upload (ETag, UpdateRecoverySet, Section 0, sessionKey) and /fwrepo/<Filename> serves the component", async () => {
    const rom = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v9.90', file: 'rom.bin' });
    const r = await iloUpload(svc, rom, ilorestParams('rom.bin'), { compsig: rom.compsig });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const us = await vendor();
    assert.equal(us.State, 'Complete');
    assert.equal(us.UploadCurrentEtag, 'sumrombin');
    const c = (await get(svc, `${REPO}?$expand=.`)).body.Members.find((m: any) => m.Filename === 'rom.bin');
    assert.equal(c.Filepath, 'rom.bin');
    assert.equal(c.ComponentUri, '/fwrepo/rom.bin');
    assert.deepEqual(c.UpdatableBy, ['Bmc']);
    assert.deepEqual(c.Targets, (await get(svc, `${FW}2/`)).body.Oem.Vendor.Targets);
    assert.equal(c.Version, 'U30 v9.90');
    for (const k of ['Id', 'Name', 'Locked', 'SizeBytes', 'Created', 'Criticality', 'Configuration']) assert.ok(k in c, k);
    // downloadcomp: GET /fwrepo/rom.bin, authenticated as every other request.
    const basic = Buffer.from('Administrator:Test-Admin-Pass1').toString('base64');
    const raw = await exchange(
      svc.port,
      `GET /fwrepo/rom.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${basic}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(raw, /^HTTP\/1.1 200 /);
    assert.ok(Buffer.from(raw.slice(raw.indexOf('\r\n\r\n') + 4), 'latin1').equals(rom.data));
    assert.equal((await svc.req('GET', '/fwrepo/rom.bin', { auth: 'none' })).status, 401);
    assert.equal((await svc.req('GET', '/fwrepo/nothing.bin', { auth: 'basic' })).status, 404);
  });

  it('refuses an unknown parameter and a wrong type, and UpdateRecoverySet without the recovery privilege; /cgi-bin/uploadFile takes the form', async () => {
    const ie = await makePackage(svc, { targets: ['IE'], version: '0.2.4.0', file: 'ie.fwpkg' });
    let r = await iloUpload(svc, ie, { ...ilorestParams('ie.fwpkg'), Flash: true }, { compsig: ie.compsig });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterUnknown']);
    r = await iloUpload(svc, ie, { ...ilorestParams('ie.fwpkg'), UpdateRecoverySet: 'yes' }, { compsig: ie.compsig });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueTypeError']);
    r = await iloUpload(svc, ie, { ...ilorestParams('ie.fwpkg'), ETag: 'a', UploadCurrentEtag: 'b' }, { compsig: ie.compsig });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueConflict']);
    // iLO's own upload place takes the same form.
    r = await iloUpload(svc, ie, ilorestParams('ie.fwpkg'), { compsig: ie.compsig, uri: '/cgi-bin/uploadFile' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await get(svc, `${REPO}ie.fwpkg/`)).body.Version, '0.2.4.0');
    const operator = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      auth: 'basic',
      body: { UserName: 'fw-operator', Password: 'Operator-Pass-1', RoleId: 'Operator' },
    });
    assert.equal(operator.status, 201, operator.text);
    const token = await svc.login('fw-operator', 'Operator-Pass-1');
    r = await iloUpload(svc, ie, ilorestParams('ie.fwpkg', { srs: true }), { compsig: ie.compsig, token });
    assert.equal(r.status, 403, JSON.stringify(r.body));
  });

  it('assembles a component sent in sections, each with its own compsig, and refuses a section that is not the one signed', async () => {
    const pkg = await makePackage(svc, { targets: ['CPLD'], version: '0x2D', file: 'cpld-big.fwpkg', image: Buffer.alloc(300_000, 7) });
    const key = VendorSigningKey.loadOrCreate(svc.dataDir);
    const cut = [0, 100_000, 200_000, pkg.data.length];
    const sections = cut.slice(0, -1).map((start, i) => pkg.data.subarray(start, cut[i + 1]));
    const fileSha = (await sha256File(pkg.path)).toString('hex');
    const sig = (i: number, data = sections[i] as Buffer) =>
      makeSectionCompsig(key, pkg.name, createHashOf(data), { Index: i, Count: sections.length, FileSha256: fileSha });
    // A section whose bytes are not the ones its compsig signs.
    let r = await iloUpload(svc, { name: pkg.name, data: sections[1] as Buffer }, ilorestParams(pkg.name, { section: 0 }), {
      compsig: sig(0),
    });
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ComponentSignatureInvalid']);
    for (let i = 0; i < sections.length; i++) {
      r = await iloUpload(svc, { name: pkg.name, data: sections[i] as Buffer }, ilorestParams(pkg.name, { section: i }), {
        compsig: sig(i),
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const last = i === sections.length - 1;
      assert.deepEqual(messageIds(r.body), last ? ['Base.1.12.Success'] : ['Base.1.12.Success', 'Vendor.1.0.UploadSectionReceived']);
      assert.equal((await get(svc, `${REPO}${pkg.name}/`)).status, last ? 200 : 404);
    }
    const c = (await get(svc, `${REPO}${pkg.name}/`)).body;
    assert.equal(c.SizeBytes, pkg.data.length);
    assert.equal(c.Version, '0x2D');
    // Section 1 signed as section 2: refused.
    r = await iloUpload(svc, { name: pkg.name, data: sections[0] as Buffer }, ilorestParams(pkg.name, { section: 0 }), { compsig: sig(0) });
    assert.equal(r.status, 200);
    r = await iloUpload(svc, { name: pkg.name, data: sections[1] as Buffer }, ilorestParams(pkg.name, { section: 1 }), {
      compsig: makeSectionCompsig(key, pkg.name, createHashOf(sections[1] as Buffer), { Index: 2, Count: 3, FileSha256: fileSha }),
    });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueConflict']);
  });

  it("refuses an iLO-layout package whose device is not this server's or whose image is missing", async () => {
    const bad = await makePackage(svc, { targets: ['NIC'], version: '1.0', file: 'nic-a.fwpkg', layout: 'ilo', type: 'A' });
    const r = await iloUpload(svc, bad, ilorestParams(bad.name), { compsig: bad.compsig });
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.FirmwareImageInvalid']);
    assert.match(r.body.error['@Message.ExtendedInfo'][0].Message, /Type A component cannot target NIC/);
    const uefi = await makePackage(svc, { targets: ['NIC'], version: '20.16.0', file: 'nic-b.fwpkg', layout: 'ilo', type: 'B' });
    const ok = await iloUpload(svc, uefi, ilorestParams(uefi.name), { compsig: uefi.compsig });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const c = (await get(svc, `${REPO}${uefi.name}/`)).body;
    assert.deepEqual([c.ComponentType, c.UpdatableBy, c.Activates], ['B', ['Uefi'], 'AfterReboot']);
  });

  it("shows iLO's FirmwareIntegrity (the boot check, then scans) and CurrentTime; PATCH through it", async () => {
    let v = await vendor();
    assert.equal(v.CurrentTime, new Date(svc.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // The controller checked its firmware as it booted.
    assert.match(v.FirmwareIntegrity.LastScanTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(v.FirmwareIntegrity.LastScanResult, 'OK');
    assert.equal(v.LastIntegrityScanTime, v.FirmwareIntegrity.LastScanTime);
    const p = await svc.req('PATCH', US, { auth: 'basic', body: { Oem: { Vendor: { FirmwareIntegrity: { ScanEveryDays: 3 } } } } });
    assert.equal(p.status, 200, p.text);
    v = await vendor();
    assert.equal(v.FirmwareIntegrity.ScanEveryDays, 3);
    assert.equal(v.ScanEveryDays, 3);
    await installLicense(svc, 'PremiumSecurity');
    // What fwintegritycheck reads first: the controller's license type (HpeiLOLicense under iLO's name) and its FWScan feature.
    const licenses = (await get(svc, '/redfish/v1/Managers/1/LicenseService/?$expand=.')).body.Members;
    assert.match(licenses[0]['@odata.type'], /^#VendorLicense\./);
    assert.deepEqual(licenses[0].LicenseFeatures, { FWScan: true, SmartCard: true });
    const before = v.CurrentTime;
    svc.running.services.update.integrity.corrupt('firmware', '3');
    const r = await svc.req('POST', `${US}Actions/Oem/Vendor/VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck/`, {
      auth: 'basic',
      body: {},
    });
    assert.equal(r.status, 200, r.text);
    // Done within the 50 s ilorest's fwintegritycheck --results polls for it (the update service is busy meanwhile).
    await svc.clock.advance(50_000);
    assert.equal(svc.running.services.update.integrity.current(), undefined);
    v = await vendor();
    assert.ok(v.FirmwareIntegrity.LastScanTime > before);
    assert.equal(v.FirmwareIntegrity.LastScanResult, 'Failed');
    // The corrupted image is kept in the invalid-image repository, once however often it is found.
    const invalid = `${US}InvalidImageRepository/`;
    assert.equal(v.InvalidImageRepository['@odata.id'], invalid);
    const scan = svc.running.services.update.integrity.start();
    await svc.clock.advance(SCAN_DURATION_MS);
    await scan;
    const images = (await get(svc, `${invalid}?$expand=.`)).body.Members;
    assert.equal(images.length, 1);
    assert.equal(images[0].DeviceClass, (await get(svc, `${FW}3/`)).body.Oem.Vendor.Targets[0]);
    assert.equal(images[0].FirmwareInventory['@odata.id'], `${FW}3/`);
    assert.equal(images[0].Created, v.FirmwareIntegrity.LastScanTime);
    assert.equal((await svc.req('DELETE', images[0]['@odata.id'], { auth: 'basic' })).status, 200);
    assert.equal((await get(svc, invalid)).body.Members.length, 0);
  });

  it('fwpkg build --layout ilo writes a compsig per 32 MiB section of a large package; its sections upload as ilorest sends them', async () => {
    const out = join(svc.dataDir, 'rom-big.fwpkg');
    const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'cli.ts');
    const args = ['fwpkg', 'build', '--data-dir', svc.dataDir, '--layout', 'ilo', '--target', 'SystemROM', '--version', 'U30 v3.10'];
    execFileSync(process.execPath, ['--import', 'tsx', cli, ...args, '--size', String(SECTION_BYTES + 1024), '--out', out]);
    const data = readFileSync(out);
    assert.ok(data.length > SECTION_BYTES);
    const parts = [data.subarray(0, SECTION_BYTES), data.subarray(SECTION_BYTES)];
    for (const [i, part] of parts.entries()) {
      const compsig = readFileSync(join(svc.dataDir, `rom-big_part${i + 1}.compsig`), 'utf8');
      const r = await iloUpload(svc, { name: 'rom-big.fwpkg', data: part }, ilorestParams('rom-big.fwpkg', { section: i }), { compsig });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const c = (await get(svc, `${REPO}rom-big.fwpkg/`)).body;
    assert.deepEqual([c.SizeBytes, c.Version, c.UpdatableBy], [data.length, 'U30 v3.10', ['Bmc']]);
    assert.equal((await svc.req('DELETE', `${REPO}rom-big.fwpkg/`, { auth: 'basic' })).status, 200);
  });

  // Last: the controller reset at its end ends every session.
  it("accepts iLO's fwpkg layout; flashfwpkg's upload of its image flashes the controller, Complete before the controller resets", async () => {
    const pkg = await makePackage(svc, { targets: ['BMC'], version: '1.99', file: 'ilo5_199.fwpkg', layout: 'ilo' });
    const payload = JSON.parse((await zipEntry(pkg.path, 'payload.json')).toString('utf8'));
    assert.deepEqual(payload.UpdatableBy, ['Bmc']);
    const image = payload.Devices.Device[0].FirmwareImages[0];
    assert.deepEqual(
      { ...image, FileName: undefined },
      { FileName: undefined, DirectFlashOk: true, ResetRequired: false, UefiFlashable: false },
    );
    assert.equal(payload.Devices.Device[0].Target, (await get(svc, `${FW}1/`)).body.Oem.Vendor.Targets[0]);
    // uploadcomp of the package itself: stored, its UpdatableBy the package's.
    let r = await iloUpload(svc, pkg, ilorestParams(pkg.name), { compsig: pkg.compsig });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const c = (await get(svc, `${REPO}${pkg.name}/`)).body;
    assert.deepEqual([c.ComponentType, c.UpdatableBy, c.Version], ['A', ['Bmc'], '1.99']);
    // flashfwpkg (Type A): the image alone, --update_target --update_repository (target true, repository false).
    const bin = await zipEntry(pkg.path, image.FileName);
    const token = await svc.login('Administrator', 'Test-Admin-Pass1');
    const resets = svc.running.services.controller.resets;
    r = await iloUpload(svc, { name: image.FileName, data: bin }, ilorestParams(image.FileName, { target: true, repository: false }), {
      token,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // What ilorest polls next: Complete, with its session still open; then the controller resets.
    const polled = await svc.req('GET', US, { auth: { token } });
    assert.equal(polled.status, 200);
    assert.equal(polled.body.Oem.Vendor.State, 'Complete');
    assert.equal(svc.running.services.controller.resets, resets);
    assert.equal((await get(svc, `${FW}1/`)).body.Version, '1.99');
    await svc.clock.advance(CONTROLLER_RESET_DELAY_MS);
    assert.equal(svc.running.services.controller.resets, resets + 1);
    assert.equal((await svc.req('GET', US, { auth: { token } })).status, 401);
    assert.equal((await get(svc, '/redfish/v1/Managers/1/')).body.FirmwareVersion, '1.99');
  });
});

function createHashOf(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}
