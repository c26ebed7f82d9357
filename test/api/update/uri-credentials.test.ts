// Credentials in an image URI (issue 24, point 6): SimpleUpdate, AddFromUri
// and its CompSigURI use them for the download (HTTP Basic) and keep them
// nowhere: not in a Task, its monitor, a message, the update state, a log
// line, a log entry, the database or its WAL (before a checkpoint and after).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { makePackage, startImageServer, type ImageServer } from '../../support/firmware.js';
import { basic, messageIds, startTestService, type TestService } from '../../support/service.js';

const ACTIONS = '/redfish/v1/UpdateService/Actions/';
const SECRET = 'Zq7-image-secret';
const USER = 'imguser';
/** The secret as it may appear: plain, percent-encoded in a URI, or inside a Basic header. */
const FORMS = [SECRET, encodeURIComponent(SECRET), Buffer.from(`${USER}:${SECRET}`).toString('base64')];

/** Every file under a directory, with its bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

describe('credentials in image URIs', () => {
  let svc: TestService;
  let images: ImageServer;
  let scratch: string;
  const files = new Map<string, Buffer>();
  const logLines: string[] = [];
  const reader = { user: 'uri-reader', password: 'Reader-Pass-123' };
  const withSecret = (path: string) => images.url.replace('https://', `https://${USER}:${SECRET}@`) + path;
  const leaks = (text: string) => FORMS.filter((f) => text.includes(f));

  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'uri-cred-'));
    images = await startImageServer(scratch, files);
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        cb();
      },
    });
    svc = await startTestService({ config: { downloadCa: images.caFile }, logger: pino({ level: 'trace' }, sink) });
    const r = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await svc.close();
    await images.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function runTask(path: string, body: unknown): Promise<string> {
    const r = await svc.req('POST', `${ACTIONS}${path}`, { body });
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(leaks(r.text), [], 'the 202 answer');
    await svc.running.services.tasks.whenDone(r.body.Id);
    return r.body.Id as string;
  }

  it('downloads with them as HTTP Basic credentials, and shows and stores them nowhere', async () => {
    const rom = await makePackage(svc, { targets: ['SystemROM'], version: 'U30 v2.71', file: 'rom.bin' });
    files.set('/rom.bin', rom.data);
    const pkg = await makePackage(svc, { targets: ['IE'], version: '5.2', file: 'ie.fwpkg' });
    files.set('/ie.fwpkg', pkg.data);
    files.set('/ie.compsig', Buffer.from(pkg.compsig));
    svc.running.services.host.setPowerState('On');

    const ids = [
      await runTask('UpdateService.SimpleUpdate/', { ImageURI: withSecret('/rom.bin') }),
      await runTask('Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/', {
        ImageURI: withSecret('/ie.fwpkg'),
        CompSigURI: withSecret('/ie.compsig'),
        UpdateRepository: true,
        UpdateTarget: false,
      }),
      // A download that fails: its message names the URI, without the credentials.
      await runTask('UpdateService.SimpleUpdate/', { ImageURI: withSecret('/missing.bin') }),
    ];
    svc.running.services.host.setPowerState('Off');
    const basicOf = `Basic ${Buffer.from(`${USER}:${SECRET}`).toString('base64')}`;
    for (const path of ['/rom.bin', '/ie.fwpkg', '/ie.compsig', '/missing.bin']) {
      const i = images.requests.indexOf(path);
      assert.ok(i >= 0, `${path} was fetched`);
      assert.equal(images.authorizations[i], basicOf, `${path} was fetched with the credentials`);
    }

    // What a ReadOnly user reads: the tasks, their monitors, the update state, the logs.
    const auth = { user: reader.user, password: reader.password };
    const shown: string[] = [];
    for (const id of ids) {
      const task = await svc.get(`/redfish/v1/TaskService/Tasks/${id}/`, { auth });
      assert.equal(task.status, 200, task.text);
      shown.push(task.text, (await svc.get(task.body.TaskMonitor, { auth })).text);
    }
    const [simple, fromUri, failed] = await Promise.all(ids.map((id) => svc.get(`/redfish/v1/TaskService/Tasks/${id}/`, { auth })));
    assert.equal(simple?.body.TaskState, 'Completed', simple?.text);
    assert.equal(fromUri?.body.TaskState, 'Completed', fromUri?.text);
    assert.equal(failed?.body.TaskState, 'Exception');
    assert.equal(JSON.parse(simple?.body.Payload.JsonBody).ImageURI, `${images.url}/rom.bin`);
    assert.deepEqual(JSON.parse(fromUri?.body.Payload.JsonBody).CompSigURI, `${images.url}/ie.compsig`);
    assert.ok(failed?.text.includes(`${images.url}/missing.bin`), 'the failure names the URI');
    shown.push((await svc.get('/redfish/v1/UpdateService/', { auth })).text);
    for (const log of ['/redfish/v1/Managers/1/LogServices/IEL/Entries/', '/redfish/v1/Systems/1/LogServices/IML/Entries/']) {
      shown.push((await svc.get(log, { auth })).text);
    }
    assert.ok(logLines.length > 10, 'the service logged (every request has a line)');
    shown.push(...logLines);
    assert.deepEqual(shown.flatMap(leaks), [], 'no answer and no log line holds the credentials');

    // Before a checkpoint the recent writes are in the WAL; after one, in the database file.
    const scan = () => filesUnder(svc.dataDir).flatMap((f) => leaks(f.bytes.toString('latin1')).map((l) => `${f.path}: ${l}`));
    assert.deepEqual(scan(), [], 'no file of the data dir holds them (WAL)');
    svc.running.services.store.db.pragma('wal_checkpoint(TRUNCATE)');
    assert.deepEqual(scan(), [], 'no file of the data dir holds them (checkpointed)');
  });

  it('quotes a URI it refuses without its credentials', async () => {
    for (const ImageURI of [`ftp://${USER}:${SECRET}@host/rom.bin`, `https://${USER}:${SECRET}@[bad/rom.bin`]) {
      const r = await svc.req('POST', `${ACTIONS}UpdateService.SimpleUpdate/`, { body: { ImageURI } });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError']);
      assert.deepEqual(leaks(r.text), [], r.text);
    }
    const media = await svc.req('POST', '/redfish/v1/Managers/1/VirtualMedia/2/Actions/VirtualMedia.InsertMedia/', {
      body: { Image: `ftp://${USER}:${SECRET}@host/boot.iso` },
      headers: { authorization: basic('Administrator', 'Test-Admin-Pass1') },
      auth: 'none',
    });
    assert.equal(media.status, 400, media.text);
    assert.deepEqual(leaks(media.text), [], media.text);
  });
});
