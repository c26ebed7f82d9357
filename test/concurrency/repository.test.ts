// The component repository under conflicting requests in parallel: one upload
// or download at a time (the others are told the service is busy), the
// repository never holds more than its space, a locked component is never
// replaced, and every upload answered 200 is in the repository afterwards.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { makePackage, startImageServer, upload, type BuiltPackage, type ImageServer } from '../support/firmware.js';
import { ok, refusedAs, rounds, statuses } from '../support/race.js';
import { messageIds, startTestService, type Response, type TestService } from '../support/service.js';
import { QUEUE, REPO } from '../support/update-queue.js';

const ADD_FROM_URI = '/redfish/v1/UpdateService/Actions/Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/';

describe('component repository under concurrent writes', () => {
  let svc: TestService;
  let images: ImageServer;
  let admin = { token: '' };
  const served = new Map<string, Buffer>();
  const packages: BuiltPackage[] = [];
  let total = 0;

  before(async () => {
    const scratch = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'race-img-'));
    images = await startImageServer(scratch, served);
    // Made by a first service, whose signing key the second one shares (same data dir).
    const first = await startTestService({ keepData: true, config: { downloadCa: images.caFile } });
    for (let i = 0; i < 6; i++) packages.push(await makePackage(first, { targets: ['IE'], version: `5.${i}`, file: `c${i}.fwpkg` }));
    for (const p of packages) {
      served.set(`/${p.name}`, p.data);
      served.set(`/${p.name}.compsig`, Buffer.from(p.compsig));
    }
    // Room for three of them: a fourth does not fit.
    total = packages.slice(0, 3).reduce((n, p) => n + p.data.length, 0) + 100;
    await first.close();
    svc = await startTestService({
      dataDir: first.dataDir,
      ownsDataDir: true,
      config: { downloadCa: images.caFile, repositoryBytes: total },
    });
    admin = { token: await svc.adminToken() };
  });
  after(async () => {
    await svc.close();
    await images.close();
  });

  const req = (method: string, path: string, body?: unknown): Promise<Response> => svc.req(method, path, { auth: admin, body });
  const put = (p: BuiltPackage) => () => upload(svc, p, { auth: admin, params: { UpdateRepository: true, UpdateTarget: false } });
  const fromUri = (p: BuiltPackage) => async () => {
    const r = await req('POST', ADD_FROM_URI, {
      ImageURI: `${images.url}/${p.name}`,
      CompSigURI: `${images.url}/${p.name}.compsig`,
      UpdateRepository: true,
      UpdateTarget: false,
    });
    if (r.status !== 202) return r;
    // The download runs in a task: its answer is the task's.
    await svc.running.services.tasks.whenDone(r.body.Id);
    return svc.get(r.headers.location as string, { auth: admin });
  };
  const components = async (): Promise<any[]> => {
    const out = [];
    for (const m of (await req('GET', REPO)).body.Members) out.push((await req('GET', m['@odata.id'])).body);
    return out;
  };

  it('takes one upload or download at a time, within the repository space, and keeps every one answered 200', async () => {
    const index = fc.integer({ min: 0, max: packages.length - 1 });
    await rounds(svc, fc.array(fc.tuple(fc.boolean(), index), { minLength: 2, maxLength: 5 }), async (drawn, fire) => {
      const answers = await fire(
        drawn.map(([viaUri, i]) => (viaUri ? fromUri(packages[i] as BuiltPackage) : put(packages[i] as BuiltPackage))),
      );
      for (const r of answers.filter((x) => !ok(x))) {
        refusedAs(r, ['Vendor.1.0.UpdateServiceBusy', 'Vendor.1.0.RepositoryInsufficientSpace', 'Vendor.1.0.ComponentLocked']);
      }
      assert.ok(
        answers.some((r) => ok(r) || messageIds(r.body).includes('Vendor.1.0.RepositoryInsufficientSpace')),
        `one of them is taken: ${statuses(answers)}`,
      );
      const stored = await components();
      const used = stored.reduce((n, c) => n + (c.SizeBytes as number), 0);
      assert.ok(used <= total, `${used} bytes stored of ${total}`);
      const space = (await req('GET', REPO)).body.Oem.Vendor;
      assert.equal(space.TotalSizeBytes, total);
      assert.ok(space.FreeSizeBytes >= 0 && space.FreeSizeBytes <= total - used, JSON.stringify(space));
      const names = stored.map((c) => c.Filename as string);
      answers.forEach((r, k) => {
        if (ok(r)) assert.ok(names.includes((packages[drawn[k]?.[1] as number] as BuiltPackage).name), `stored: ${statuses(answers)}`);
      });
      assert.equal((await req('GET', '/redfish/v1/UpdateService/')).body.Oem.Vendor.State === 'Uploading', false);
      const incoming = join(svc.dataDir, 'repository', '.incoming');
      assert.deepEqual(existsSync(incoming) ? readdirSync(incoming) : [], [], 'no temp file is left');
      // Kept while there is room, so later rounds meet a full repository too.
      if (stored.length >= 3) for (const c of stored) assert.equal((await req('DELETE', `${REPO}${c.Id}/`)).status, 200);
    });
    for (const c of await components()) assert.equal((await req('DELETE', `${REPO}${c.Id}/`)).status, 200);
  });

  it('never replaces a component while a task holds it', async () => {
    const p = packages[0] as BuiltPackage;
    await rounds(svc, fc.integer({ min: 0, max: 1 }), async (viaUri, fire, n) => {
      assert.equal((await put(p)()).status, 200);
      const before = (await req('GET', `${REPO}${p.name}/`)).body.Created;
      await svc.clock.advance(1000); // a replacement would show a later Created
      const answers = await fire([
        () => req('POST', QUEUE, { Name: `hold${n}`, Command: 'ApplyUpdate', UpdatableBy: ['Uefi'], Component: p.name }),
        viaUri ? fromUri(p) : put(p),
      ]);
      const [task, replace] = answers as [Response, Response];
      assert.equal(task.status, 201, statuses(answers));
      const now = (await req('GET', `${REPO}${p.name}/`)).body;
      assert.equal(now.Locked, true);
      if (ok(replace)) assert.notEqual(now.Created, before, 'replaced before the task took it');
      else refusedAs(replace, ['Vendor.1.0.ComponentLocked', 'Vendor.1.0.UpdateServiceBusy']);
      assert.equal((await req('DELETE', task.headers.location as string)).status, 200);
      assert.equal((await req('DELETE', `${REPO}${p.name}/`)).status, 200);
    });
  });
});
