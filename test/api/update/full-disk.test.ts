// Issue 24 item 7: a full disk. The data dir sits on a 8 MiB tmpfs, filled to the last byte:
// uploads are refused at once with 507 (and the upload slot is free again), writes answer 507
// StorageFull and leave nothing of themselves in memory, reads go on working; once space is
// freed, writes and uploads work again.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { CHECKPOINT_INTERVAL_MS } from '../../../src/store/database.js';
import { UPLOAD_URI, makePackage, multipart, upload, type BuiltPackage } from '../../support/firmware.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, insecureAgent, messageIds, startTestService, type TestService } from '../../support/service.js';
import { fillUp, mountTmpfs, unmount } from '../../support/tmpfs.js';

const SESSION_SERVICE = '/redfish/v1/SessionService/';
const EVENT_SERVICE = '/redfish/v1/EventService/';

describe('a full disk', () => {
  const mnt = mkdtempSync(join(tmpdir(), 'bmc-full-'));
  let mounted = false;
  let svc: TestService;
  let pkg: BuiltPackage;
  let big: BuiltPackage;
  let filler: string;

  before(async () => {
    mounted = mountTmpfs(mnt, '8m');
    if (!mounted) return;
    svc = await startTestService({ dataDir: join(mnt, 'data') });
    pkg = await makePackage(svc, { targets: ['CPLD'], version: '0x2C', activation: 'Immediate', file: 'cpld.fwpkg' });
    big = await makePackage(svc, { targets: ['CPLD'], version: '0x2D', file: 'big.fwpkg', image: randomBytes(3 * 1024 * 1024) });
    for (const p of [pkg, big]) {
      rmSync(p.path);
      rmSync(`${p.path}.compsig`, { force: true });
    }
    // A checkpoint empties the WAL: from now on a commit has to grow it.
    await svc.clock.advance(CHECKPOINT_INTERVAL_MS);
    filler = fillUp(mnt);
  });
  after(async () => {
    if (!mounted) return rmSync(mnt, { recursive: true, force: true });
    await svc?.close();
    unmount(mnt);
    rmSync(mnt, { recursive: true, force: true });
  });

  it('an upload is refused at once with 507, and the upload slot is free for the next one', async (t) => {
    if (!mounted) return t.skip('mounting a tmpfs is not permitted here (needs root)');
    // The file is written until the disk says no; a second one right after is refused the same way (not 503 busy).
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const r = await upload(svc, pkg, { params: { UpdateTarget: false } });
      assert.ok(performance.now() - started < 5_000, `answered after ${Math.round(performance.now() - started)} ms`);
      assert.equal(r.status, 507, r.text);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.StorageFull']);
    }
    // A Content-Length the disk cannot hold: refused before a byte of it is written.
    const r = await upload(svc, big, { params: { UpdateTarget: false } });
    assert.equal(r.status, 507, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.RepositoryInsufficientSpace']);
    // Without a Content-Length, and the end of the form far off: answered when the disk says no, not when the body ends.
    const { body, contentType } = multipart([
      { name: 'parameters', contentType: 'application/json', data: JSON.stringify({ UpdateTarget: false }) },
      { name: 'file', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
    ]);
    let release = () => {};
    const slow = Readable.from(
      (async function* () {
        yield body.subarray(0, body.length - 100);
        // The end of the form only after a long while: the answer must not wait for it.
        await new Promise<void>((r) => {
          const timer = setTimeout(r, 20_000);
          release = () => {
            clearTimeout(timer);
            r();
          };
        });
      })(),
    );
    const started = performance.now();
    const res = await request(svc.url + UPLOAD_URI, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: basic(ADMIN_USER, ADMIN_PASSWORD) },
      body: slow,
      dispatcher: insecureAgent,
    });
    const answer = (await res.body.json()) as object;
    assert.ok(performance.now() - started < 5_000, `answered after ${Math.round(performance.now() - started)} ms`);
    assert.equal(res.statusCode, 507, JSON.stringify(answer));
    assert.deepEqual(messageIds(answer), ['Vendor.1.0.StorageFull']);
    release();
    slow.destroy();
    const state = (await svc.get('/redfish/v1/UpdateService/')).body.Oem.Vendor.State;
    assert.ok(!['Uploading', 'Verifying', 'Writing'].includes(state), `no upload holds the slot (${state})`);
  });

  it('a write answers 507 StorageFull and leaves nothing of itself behind; reads go on', async (t) => {
    if (!mounted) return t.skip('mounting a tmpfs is not permitted here (needs root)');
    const timeout = (await svc.get(SESSION_SERVICE)).body.SessionTimeout as number;
    const r = await svc.req('PATCH', SESSION_SERVICE, { body: { SessionTimeout: timeout + 1 } });
    assert.equal(r.status, 507, r.text);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.StorageFull']);
    assert.equal((await svc.get(SESSION_SERVICE)).body.SessionTimeout, timeout, 'no phantom value');
    const attempts = (await svc.get(EVENT_SERVICE)).body.DeliveryRetryAttempts as number;
    const e = await svc.req('PATCH', EVENT_SERVICE, { body: { DeliveryRetryAttempts: attempts + 1 } });
    assert.equal(e.status, 507, e.text);
    assert.equal((await svc.get(EVENT_SERVICE)).body.DeliveryRetryAttempts, attempts, 'no phantom value in the event service');
    assert.equal((await svc.get('/redfish/v1/')).status, 200);
    assert.equal((await svc.get('/redfish/v1/Systems/1/')).status, 200);
  });

  it('with space again, writes and uploads work', async (t) => {
    if (!mounted) return t.skip('mounting a tmpfs is not permitted here (needs root)');
    rmSync(filler);
    const r = await svc.req('PATCH', SESSION_SERVICE, { body: { SessionTimeout: 1234 } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await svc.get(SESSION_SERVICE)).body.SessionTimeout, 1234);
    const u = await upload(svc, pkg, { params: { UpdateTarget: false } });
    assert.ok(u.status < 300, u.text);
    assert.equal((await svc.get(`/redfish/v1/UpdateService/ComponentRepository/${pkg.name}/`)).status, 200);
  });
});
