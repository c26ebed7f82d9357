// Virtual media over HTTPS: the two devices, InsertMedia/EjectMedia and the
// PATCH form, images really read from a local HTTPS (and HTTP) server with the
// download CA, errors as registry messages with the state unchanged, media kept
// across restarts, and boots from the media as Ironic (sushy) runs them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ServiceEvent } from '../../../src/domain/events/bus.js';
import { issueCertificate } from '../../../src/platform/x509.js';
import { isoImage } from '../../support/media.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import { waitUntil } from '../../support/wait.js';

const MGR = '/redfish/v1/Managers/1/';
const VM = `${MGR}VirtualMedia/`;
const USB = `${VM}1/`;
const CD = `${VM}2/`;
const INSERT = (m: string) => `${m}Actions/VirtualMedia.InsertMedia/`;
const EJECT = (m: string) => `${m}Actions/VirtualMedia.EjectMedia/`;
const SYS = '/redfish/v1/Systems/1/';
const RESET = `${SYS}Actions/ComputerSystem.Reset/`;
const IML = `${SYS}LogServices/IML/Entries/`;
const IEL = `${MGR}LogServices/IEL/Entries/`;
const BOOT_TIME = 2000 + 5000; // power on + POST (fast timings)
const LIMIT = 1024 * 1024;
const TIMEOUT_S = 30;

interface Seen {
  method: string;
  url: string;
  authorization?: string;
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function close(server: Server | ReturnType<typeof createHttpServer>): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

describe('virtual media', () => {
  let svc: TestService;
  let dir: string;
  let images: Server;
  let untrusted: Server;
  let plain: ReturnType<typeof createHttpServer>;
  let base = '';
  let untrustedBase = '';
  let plainBase = '';
  const seen: Seen[] = [];
  const iso = isoImage(64 * 1024);
  const events: ServiceEvent[] = [];

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    seen.push({ method: req.method ?? '', url, authorization: req.headers.authorization });
    const ok = (body: Buffer, headers: Record<string, string | number> = { 'content-length': body.length }) =>
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...headers }).end(body);
    switch (url) {
      case '/images/boot.iso':
      case '/images/deploy%20ramdisk.iso':
      case '/images/usb.img':
        return ok(iso);
      case '/private/boot.iso':
        if (req.headers.authorization !== `Basic ${Buffer.from('imguser:img-pass').toString('base64')}`) {
          return res.writeHead(401, { 'www-authenticate': 'Basic realm="images"' }).end();
        }
        return ok(iso);
      case '/big.iso':
        // Declares more than the limit: refused at HEAD, before any GET.
        return res.writeHead(200, { 'content-length': LIMIT + 1 }).end(req.method === 'HEAD' ? undefined : Buffer.alloc(LIMIT + 1));
      case '/endless.iso':
        // No length declared: only counting the bytes finds it too large.
        if (req.method === 'HEAD') return res.writeHead(200).end();
        return ok(Buffer.alloc(LIMIT + 4096), {});
      case '/nohead.iso':
        if (req.method === 'HEAD') return res.writeHead(405).end();
        return ok(iso);
      case '/slow.iso':
        if (req.method === 'HEAD') return ok(iso);
        return; // never answers the GET: the download time limit must end it
      default:
        return res.writeHead(404).end('not found');
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vm-'));
    // The service checks these certificates against real time (TLS), so they start a minute ago.
    const notBefore = new Date(Date.now() - 60_000);
    const ca = await issueCertificate({ subject: 'CN=VM Test CA', ca: true, days: 30, notBefore });
    const leaf = await issueCertificate({
      subject: 'CN=localhost',
      issuer: ca,
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
      usage: ['server'],
      days: 30,
      notBefore,
    });
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, ca.certPem);
    images = createServer({ cert: leaf.certPem, key: leaf.keyPem }, serve);
    base = `https://127.0.0.1:${await listen(images)}`;
    // The same files behind a certificate the controller does not trust.
    const other = await issueCertificate({ subject: 'CN=Other CA', ca: true, days: 30, notBefore });
    const otherLeaf = await issueCertificate({
      subject: 'CN=localhost',
      issuer: other,
      ipAddresses: ['127.0.0.1'],
      usage: ['server'],
      days: 30,
      notBefore,
    });
    untrusted = createServer({ cert: otherLeaf.certPem, key: otherLeaf.keyPem }, serve);
    untrustedBase = `https://127.0.0.1:${await listen(untrusted)}`;
    plain = createHttpServer(serve);
    plainBase = `http://127.0.0.1:${await listen(plain)}`;
    svc = await startTestService({ config: { downloadCa: caFile, virtualMediaBytes: LIMIT, downloadTimeout: TIMEOUT_S } });
    svc.running.services.events.subscribe((e) => events.push(e));
  });
  after(async () => {
    await svc.close();
    await Promise.all([close(images), close(untrusted), close(plain)]);
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (m: string, body: Record<string, unknown>, auth?: { user: string; password: string }) =>
    svc.req('POST', INSERT(m), { body, auth });
  const eject = (m: string) => svc.req('POST', EJECT(m), { body: {} });
  const media = async (m: string) => (await svc.get(m)).body;
  const assertEmpty = async (m: string) => {
    const b = await media(m);
    assert.equal(b.Image, null);
    assert.equal(b.ImageName, null);
    assert.equal(b.Inserted, false);
    assert.equal(b.ConnectedVia, 'NotConnected');
  };
  const entries = async (uri: string): Promise<{ MessageId: string; MessageArgs: string[]; Severity: string }[]> =>
    (await svc.get(uri)).body.Members;
  const powerOff = async () => {
    if ((await svc.get(SYS)).body.PowerState !== 'Off') {
      assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'ForceOff' } })).status, 200);
      await svc.clock.advance(BOOT_TIME);
    }
  };

  it('shows a floppy/USB device and a CD/DVD device, linked from the manager', async () => {
    assert.deepEqual((await svc.get(MGR)).body.VirtualMedia, { '@odata.id': VM });
    const c = await svc.get(VM);
    assert.equal(c.status, 200);
    assert.deepEqual(c.body.Members, [{ '@odata.id': USB }, { '@odata.id': CD }]);
    const usb = await media(USB);
    assert.equal(usb['@odata.type'], '#VirtualMedia.v1_6_5.VirtualMedia');
    assert.deepEqual(usb.MediaTypes, ['Floppy', 'USBStick']);
    const cd = await media(CD);
    assert.equal(cd.Id, '2');
    assert.deepEqual(cd.MediaTypes, ['CD', 'DVD']);
    assert.equal(cd.Actions['#VirtualMedia.InsertMedia'].target, INSERT(CD));
    assert.equal(cd.Actions['#VirtualMedia.EjectMedia'].target, EJECT(CD));
    assert.equal(cd.Oem.Vendor.BootOnNextServerReset, false);
    assert.equal(cd.EjectPolicy, 'Persistent');
    await assertEmpty(CD);
    assert.equal((await svc.get(`${VM}3/`)).status, 404);
  });

  it('InsertMedia reads the image (HEAD, then GET) and connects it; EjectMedia disconnects it', async () => {
    seen.length = 0;
    events.length = 0;
    const image = `${base}/images/boot.iso`;
    const r = await insert(CD, { Image: image, Inserted: true, WriteProtected: true });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    assert.deepEqual(
      seen.map((s) => `${s.method} ${s.url}`),
      ['HEAD /images/boot.iso', 'GET /images/boot.iso'],
    );
    const b = await media(CD);
    assert.equal(b.Image, image);
    assert.equal(b.ImageName, 'boot.iso');
    assert.equal(b.Inserted, true);
    assert.equal(b.WriteProtected, true);
    assert.equal(b.ConnectedVia, 'URI');
    assert.equal(b.TransferProtocolType, 'HTTPS');
    assert.equal(b.TransferMethod, 'Stream');
    assert.ok(events.some((e) => e.origin === CD && e.message.MessageId.endsWith('.ResourceChanged')));
    const iel = await entries(IEL);
    assert.deepEqual(iel.at(-1)?.MessageArgs, ['boot.iso', '2', 'Administrator']);
    assert.match(iel.at(-1)?.MessageId ?? '', /VirtualMediaInserted$/);

    // Another insert must wait for an eject (DSP2046), and changes nothing.
    const again = await insert(CD, { Image: `${base}/images/usb.img` });
    assert.equal(again.status, 409);
    assert.deepEqual(messageIds(again.body), ['Base.1.12.ResourceInUse']);
    assert.equal((await media(CD)).Image, image);

    const e = await eject(CD);
    assert.equal(e.status, 200);
    await assertEmpty(CD);
    assert.match((await entries(IEL)).at(-1)?.MessageId ?? '', /VirtualMediaEjected$/);
    // Ejecting an empty device is no error.
    assert.equal((await eject(CD)).status, 200);
  });

  it("the vendor's InsertVirtualMedia and EjectVirtualMedia (ilorest virtualmedia) do what InsertMedia and EjectMedia do", async () => {
    const oemActions = (await media(CD)).Oem.Vendor.Actions;
    const insertTarget = oemActions['#VendorMCVirtualMedia.InsertVirtualMedia'].target as string;
    assert.equal(insertTarget, `${CD}Actions/Oem/Vendor/VendorMCVirtualMedia.InsertVirtualMedia/`);
    const image = `${base}/images/boot.iso`;
    const r = await svc.req('POST', insertTarget, { body: { Action: 'VendorMCVirtualMedia.InsertVirtualMedia', Image: image } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await media(CD)).Image, image);
    const e = await svc.req('POST', oemActions['#VendorMCVirtualMedia.EjectVirtualMedia'].target, { body: {} });
    assert.equal(e.status, 200, e.text);
    await assertEmpty(CD);
  });

  it('the system view numbers the same devices 3 and 4: no Id names two resources', async () => {
    const sys = (await svc.get('/redfish/v1/Systems/1/VirtualMedia/?$expand=.')).body.Members;
    assert.deepEqual(
      sys.map((m: any) => [m.Id, m['@odata.id'], m.MediaTypes.includes('CD')]),
      [
        ['3', '/redfish/v1/Systems/1/VirtualMedia/3/', false],
        ['4', '/redfish/v1/Systems/1/VirtualMedia/4/', true],
      ],
    );
    assert.equal((await svc.get('/redfish/v1/Systems/1/VirtualMedia/2/')).status, 404);
    const image = `${base}/images/boot.iso`;
    const r = await svc.req('POST', '/redfish/v1/Systems/1/VirtualMedia/4/Actions/VirtualMedia.InsertMedia/', { body: { Image: image } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await media(CD)).Image, image);
    assert.equal((await eject(CD)).status, 200);
    assert.equal((await svc.get('/redfish/v1/Systems/1/VirtualMedia/4/')).body.Inserted, false);
  });

  it('defaults, HTTP images, names from the path, and a server that refuses HEAD', async () => {
    let r = await insert(USB, {
      Image: `${plainBase}/images/deploy%20ramdisk.iso`,
      TransferProtocolType: 'HTTP',
      TransferMethod: 'Stream',
    });
    assert.equal(r.status, 200, r.text);
    let b = await media(USB);
    assert.equal(b.ImageName, 'deploy ramdisk.iso');
    assert.equal(b.TransferProtocolType, 'HTTP');
    assert.equal(b.Inserted, true); // DSP2046 defaults
    assert.equal(b.WriteProtected, true);
    assert.equal((await eject(USB)).status, 200);
    r = await insert(USB, { Image: `${base}/nohead.iso`, Inserted: false, WriteProtected: false });
    assert.equal(r.status, 200, r.text);
    b = await media(USB);
    assert.equal(b.ConnectedVia, 'URI');
    assert.equal(b.Inserted, false);
    assert.equal(b.WriteProtected, false);
    assert.equal((await eject(USB)).status, 200);
  });

  it('sends UserName/Password to the image server and never shows the password', async () => {
    seen.length = 0;
    let r = await insert(CD, { Image: `${base}/private/boot.iso` });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ImageDownloadFailed']);
    assert.match(r.body.error['@Message.ExtendedInfo'][0].MessageArgs[1], /HTTP 401/);
    await assertEmpty(CD);
    r = await insert(CD, { Image: `${base}/private/boot.iso`, UserName: 'imguser', Password: 'img-pass' });
    assert.equal(r.status, 200, r.text);
    assert.ok(!r.text.includes('img-pass'));
    const b = await media(CD);
    assert.equal(b.UserName, 'imguser');
    assert.equal(b.Password, null);
    assert.ok(!JSON.stringify(b).includes('img-pass'));
    assert.equal(seen.at(-1)?.authorization, `Basic ${Buffer.from('imguser:img-pass').toString('base64')}`);
    // Credentials in the URI go to the server too, and the Image shown carries none.
    assert.equal((await eject(CD)).status, 200);
    r = await insert(CD, { Image: `https://imguser:img-pass@127.0.0.1:${new URL(base).port}/private/boot.iso` });
    assert.equal(r.status, 200, r.text);
    assert.equal((await media(CD)).Image, `${base}/private/boot.iso`);
    assert.equal((await eject(CD)).status, 200);
  });

  it('answers every failure with a registry message and leaves the device as it was', async () => {
    const cases: [string, Record<string, unknown>, number, string, RegExp?][] = [
      ['404', { Image: `${base}/images/missing.iso` }, 400, 'Vendor.1.0.ImageDownloadFailed', /HTTP 404/],
      ['unreachable', { Image: 'https://127.0.0.1:1/boot.iso' }, 400, 'Vendor.1.0.ImageDownloadFailed', /ECONNREFUSED|connect/],
      ['declared too large', { Image: `${base}/big.iso` }, 400, 'Vendor.1.0.ImageDownloadFailed', /at most 1048576/],
      ['too large when read', { Image: `${base}/endless.iso` }, 400, 'Vendor.1.0.ImageDownloadFailed', /exceeds 1048576/],
      ['untrusted certificate', { Image: `${untrustedBase}/images/boot.iso` }, 400, 'Vendor.1.0.ImageDownloadFailed', /certificate/i],
      ['ftp', { Image: 'ftp://127.0.0.1/boot.iso' }, 400, 'Base.1.12.ActionParameterValueFormatError'],
      ['not a URI', { Image: 'boot.iso' }, 400, 'Base.1.12.ActionParameterValueFormatError'],
      ['NFS', { Image: `${base}/images/boot.iso`, TransferProtocolType: 'NFS' }, 400, 'Base.1.12.ActionParameterValueNotInList'],
      [
        'scheme mismatch',
        { Image: `${base}/images/boot.iso`, TransferProtocolType: 'HTTP' },
        400,
        'Base.1.12.ActionParameterValueConflict',
      ],
      ['Upload', { Image: `${base}/images/boot.iso`, TransferMethod: 'Upload' }, 400, 'Base.1.12.ActionParameterValueNotInList'],
      ['no Image', { Inserted: true }, 400, 'Base.1.12.ActionParameterMissing'],
    ];
    for (const [what, body, status, id, reason] of cases) {
      const r = await insert(CD, body);
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.deepEqual(messageIds(r.body), [id], what);
      if (reason) assert.match(r.body.error['@Message.ExtendedInfo'][0].MessageArgs[1], reason, what);
      await assertEmpty(CD);
    }
    // A PATCH with a bad image keeps the image already connected.
    assert.equal((await insert(CD, { Image: `${base}/images/boot.iso` })).status, 200);
    let r = await svc.req('PATCH', CD, { body: { Image: `${base}/images/missing.iso` } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ImageDownloadFailed']);
    r = await svc.req('PATCH', CD, { body: { Image: 'nfs://server/boot.iso' } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    assert.equal((await media(CD)).Image, `${base}/images/boot.iso`);
    assert.equal((await eject(CD)).status, 200);
  });

  it('a read that stalls ends at the download time limit (controller clock)', async () => {
    seen.length = 0;
    const pending = insert(CD, { Image: `${base}/slow.iso` });
    await waitUntil(() => seen.some((s) => s.method === 'GET' && s.url === '/slow.iso'), 'the GET of the stalled image');
    // Until then, the device is busy.
    const busy = await insert(CD, { Image: `${base}/images/boot.iso` });
    assert.equal(busy.status, 409);
    await svc.clock.advance(TIMEOUT_S * 1000);
    const r = await pending;
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ImageDownloadFailed']);
    assert.match(r.body.error['@Message.ExtendedInfo'][0].MessageArgs[1], /timed out after 30 s/);
    await assertEmpty(CD);
  });

  it('the PATCH form: Image inserts, Inserted and WriteProtected change, Image null ejects', async () => {
    let r = await svc.req('PATCH', USB, { body: { Image: `${base}/images/usb.img`, WriteProtected: false } });
    assert.equal(r.status, 200, r.text);
    let b = await media(USB);
    assert.equal(b.ImageName, 'usb.img');
    assert.equal(b.Inserted, true);
    assert.equal(b.WriteProtected, false);
    r = await svc.req('PATCH', USB, { body: { Inserted: false, WriteProtected: true } });
    assert.equal(r.status, 200, r.text);
    b = await media(USB);
    assert.equal(b.Inserted, false);
    assert.equal(b.WriteProtected, true);
    assert.equal(b.Image, `${base}/images/usb.img`);
    // A new Image replaces the connected one.
    r = await svc.req('PATCH', USB, { body: { Image: `${base}/images/boot.iso` } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await media(USB)).ImageName, 'boot.iso');
    r = await svc.req('PATCH', USB, { body: { Image: null } });
    assert.equal(r.status, 200, r.text);
    await assertEmpty(USB);
    // Nothing connected: nothing to show or hide.
    r = await svc.req('PATCH', USB, { body: { Inserted: true } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
    r = await svc.req('PATCH', USB, { body: { UserName: 'someone' } });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueConflict']);
    r = await svc.req('PATCH', USB, { body: { ImageName: 'x.iso' } });
    assert.equal(r.status, 400);
    await assertEmpty(USB);
  });

  it('needs the virtual media privilege to change, only login to read', async () => {
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: 'vm-reader', Password: 'Reader-Pass-1', RoleId: 'ReadOnly' });
    await accounts.create({ UserName: 'vm-operator', Password: 'Operator-Pass-1', RoleId: 'Operator' });
    const reader = { user: 'vm-reader', password: 'Reader-Pass-1' };
    assert.equal((await svc.get(CD, { auth: reader })).status, 200);
    let r = await insert(CD, { Image: `${base}/images/boot.iso` }, reader);
    assert.equal(r.status, 403);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
    assert.equal((await svc.req('PATCH', CD, { body: { Image: `${base}/images/boot.iso` }, auth: reader })).status, 403);
    assert.equal((await svc.req('POST', EJECT(CD), { body: {}, auth: reader })).status, 403);
    await assertEmpty(CD);
    r = await insert(CD, { Image: `${base}/images/boot.iso` }, { user: 'vm-operator', password: 'Operator-Pass-1' });
    assert.equal(r.status, 200, r.text);
    assert.match((await entries(IEL)).at(-1)?.MessageArgs.join(' ') ?? '', /vm-operator/);
    assert.equal((await eject(CD)).status, 200);
  });

  it('media stays inserted across Manager.Reset and a service restart', async () => {
    assert.equal((await insert(CD, { Image: `${base}/images/boot.iso` })).status, 200);
    assert.equal((await svc.req('PATCH', USB, { body: { Image: `${base}/images/usb.img`, Inserted: false } })).status, 200);
    assert.equal((await svc.req('POST', `${MGR}Actions/Manager.Reset/`, { body: { ResetType: 'GracefulRestart' } })).status, 200);
    // The reset ended every session: read with Basic.
    assert.equal((await svc.get(CD, { auth: 'basic' })).body.ImageName, 'boot.iso');
    svc = await svc.restart();
    const cd = await media(CD);
    assert.equal(cd.Image, `${base}/images/boot.iso`);
    assert.equal(cd.Inserted, true);
    assert.equal(cd.ConnectedVia, 'URI');
    const usb = await media(USB);
    assert.equal(usb.ImageName, 'usb.img');
    assert.equal(usb.Inserted, false);
    assert.equal((await eject(CD)).status, 200);
    assert.equal((await eject(USB)).status, 200);
    svc = await svc.restart();
    await assertEmpty(CD);
  });

  it('an Ironic virtual-media deployment: insert, boot once from Cd, reset, eject', async () => {
    await powerOff();
    // sushy: eject what is there, insert with its defaults.
    assert.equal((await eject(CD)).status, 200);
    const image = `${base}/images/deploy%20ramdisk.iso`;
    let r = await insert(CD, { Image: image, Inserted: true, WriteProtected: true });
    assert.equal(r.status, 200, r.text);
    r = await svc.req('PATCH', SYS, { body: { Boot: { BootSourceOverrideTarget: 'Cd', BootSourceOverrideEnabled: 'Once' } } });
    assert.equal(r.status, 200, r.text);
    const before = (await entries(IML)).length;
    assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.PowerState, 'On');
    assert.equal(sys.Oem.Vendor.LastBootOption, 'CD.Virtual.2.1');
    assert.equal(sys.Boot.BootSourceOverrideEnabled, 'Disabled');
    assert.equal(sys.Boot.BootSourceOverrideTarget, 'None');
    const boot = (await entries(IML)).slice(before).find((e) => e.MessageId.endsWith('.VirtualMediaBoot'));
    assert.ok(boot, 'the IML shows the boot from the virtual CD');
    assert.deepEqual(boot.MessageArgs, ['CD/DVD', 'deploy ramdisk.iso']);
    // The deployed OS now boots from disk: the next reset does not use the CD.
    assert.equal((await eject(CD)).status, 200);
    await assertEmpty(CD);
    assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'ForceRestart' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.LastBootOption, 'HD.Emb.1.2');
  });

  it('a boot to Cd without media reports the missing device and goes on with the boot order', async () => {
    await assertEmpty(CD);
    await powerOff();
    let r = await svc.req('PATCH', SYS, { body: { Boot: { BootSourceOverrideTarget: 'Cd', BootSourceOverrideEnabled: 'Once' } } });
    assert.equal(r.status, 200);
    const before = (await entries(IML)).length;
    r = await svc.req('POST', RESET, { body: { ResetType: 'On' } });
    assert.equal(r.status, 200);
    await svc.clock.advance(BOOT_TIME);
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.Oem.Vendor.LastBootOption, 'HD.Emb.1.2');
    assert.equal(sys.Boot.BootSourceOverrideTarget, 'None'); // consumed all the same
    const added = (await entries(IML)).slice(before);
    const missing = added.find((e) => e.MessageId.endsWith('.BootDeviceMissing'));
    assert.ok(missing, JSON.stringify(added));
    assert.equal(missing.Severity, 'Warning');
    assert.match(missing.MessageArgs[0] ?? '', /Virtual CD\/DVD-ROM/);
    assert.ok(!added.some((e) => e.MessageId.endsWith('.VirtualMediaBoot')));
  });

  it('Oem/Vendor/BootOnNextServerReset boots the media at the next reset, once', async () => {
    await powerOff();
    let r = await svc.req('PATCH', USB, { body: { Oem: { Vendor: { BootOnNextServerReset: true } } } });
    assert.equal(r.status, 400); // nothing connected
    assert.equal((await insert(USB, { Image: `${base}/images/usb.img` })).status, 200);
    r = await svc.req('PATCH', USB, { body: { Oem: { Vendor: { BootOnNextServerReset: true } } } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await media(USB)).Oem.Vendor.BootOnNextServerReset, true);
    assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.LastBootOption, 'Generic.USB.1.1');
    const boot = (await entries(IML)).filter((e) => e.MessageId.endsWith('.VirtualMediaBoot')).at(-1);
    assert.deepEqual(boot?.MessageArgs, ['floppy/USB key', 'usb.img']);
    assert.equal((await media(USB)).Oem.Vendor.BootOnNextServerReset, false);
    assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'ForceRestart' } })).status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.LastBootOption, 'HD.Emb.1.2');
    assert.equal((await eject(USB)).status, 200);
  });
});
