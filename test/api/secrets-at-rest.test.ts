// Issue 12, item 9: secrets at rest and in answers. The data dir is 0700 and
// every file the service writes there 0600; listener headers, iSCSI CHAP
// secrets and license keys are sealed in the database (never in its bytes,
// WAL included) yet still work, across a restart and from an older,
// plain-text database; HttpHeaders values are never quoted in errors.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventListener, waitFor } from '../support/event-listener.js';
import { installLicense } from '../support/licenses.js';
import { startTestService, type TestService } from '../support/service.js';
import { makePackage, upload } from '../support/firmware.js';

const SUBS = '/redfish/v1/EventService/Subscriptions/';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';
const ISCSI = '/redfish/v1/Systems/1/Bios/Oem/Vendor/iScsi/Settings/';
const LS = '/redfish/v1/Managers/1/LicenseService/';
const LISTENER_TOKEN = 'Bearer s3cret-listener-token';
const CHAP_SECRET = 'chap-s3cret-4567';

/** Every file and directory under dir, with its permission bits. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      out.set(relative(dir, p) + (st.isDirectory() ? '/' : ''), st.mode & 0o777);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** The raw bytes of the database and its WAL, as anyone who copies the files sees them. */
function databaseBytes(dataDir: string): Buffer {
  return Buffer.concat(
    ['bmc.sqlite', 'bmc.sqlite-wal'].map((f) => (existsSync(join(dataDir, f)) ? readFileSync(join(dataDir, f)) : Buffer.alloc(0))),
  );
}

function assertNoPlainSecrets(dataDir: string, secrets: string[]): void {
  const bytes = databaseBytes(dataDir);
  assert.ok(bytes.length > 0);
  for (const s of secrets) assert.equal(bytes.indexOf(s), -1, `"${s.slice(0, 24)}..." in the database bytes`);
}

async function testEvent(svc: TestService, n: number): Promise<void> {
  const r = await svc.req('POST', TEST_EVENT, {
    body: { MessageId: 'StorageDevice.2.1.DrvArrLogDrvErasing', MessageArgs: [String(n), 'Slot 1'] },
  });
  assert.equal(r.status, 200, r.text);
}

describe('secrets at rest', () => {
  let root: string;
  let dataDir: string;
  let svc: TestService;
  let listener: EventListener;
  let licenseKey: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'bmc-secrets-'));
    // A data dir that exists already, with the default modes of an older version.
    dataDir = join(root, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    svc = await startTestService({ dataDir });
    listener = await EventListener.start();
  });
  after(async () => {
    await listener.close();
    await svc.close();
    rmSync(root, { recursive: true, force: true });
  });

  let stored = false;
  /** A subscription with a listener header, a CHAP secret and a license, stored by whichever test runs first. */
  const storeSecrets = async () => {
    if (stored) return;
    stored = true;
    const sub = await svc.req('POST', SUBS, {
      body: { Destination: listener.url, RegistryPrefixes: ['StorageDevice'], HttpHeaders: [{ Authorization: LISTENER_TOKEN }] },
    });
    assert.equal(sub.status, 201, sub.text);
    assert.deepEqual(sub.body.HttpHeaders, []);
    const chap = await svc.req('PATCH', ISCSI, {
      body: {
        iSCSISources: [{ iSCSIAuthenticationMethod: 'Chap', iSCSIChapUsername: 'initiator', iSCSIChapSecret: CHAP_SECRET }, {}, {}, {}],
      },
    });
    assert.equal(chap.status, 200, chap.text);
    await installLicense(svc, 'Advanced');
    licenseKey = svc.running.services.installedLicense.installed()!.key;
  };

  it('keeps listener headers, CHAP secrets and license keys out of the database bytes, and they still work', async () => {
    await storeSecrets();
    assert.equal((await svc.get(ISCSI)).body.iSCSISources[0].iSCSIChapSecret, null);
    assert.match(licenseKey, /^VND1\./);

    assertNoPlainSecrets(dataDir, [LISTENER_TOKEN, 's3cret-listener-token', CHAP_SECRET, licenseKey, licenseKey.split('.')[2]!]);
    // Sealed, not dropped: the database holds the sealed forms.
    const bytes = databaseBytes(dataDir).toString('latin1');
    assert.ok(bytes.includes('enc:v1:'), 'sealed values stored');

    await testEvent(svc, 1);
    await waitFor(() => listener.received.length === 1, 'a delivery');
    assert.equal(listener.received[0]!.headers.authorization, LISTENER_TOKEN);
  });

  it('makes the data dir 0700 and every file the service wrote there 0600', async () => {
    // A component in the repository (upload), the HTTPS identity, keys, the database.
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg' });
    const r = await upload(svc, pkg, { auth: 'basic', params: { UpdateRepository: true, UpdateTarget: false } });
    assert.equal(r.status, 200, r.text);
    // The package the test itself built in the data dir is not the service's.
    for (const name of readdirSync(dataDir)) if (name.startsWith('ie.')) rmSync(join(dataDir, name));

    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    const found = modes(dataDir);
    for (const name of [
      'bmc.sqlite',
      'bmc.sqlite-wal',
      'bmc.sqlite-shm',
      'secrets.key',
      'https-cert.pem',
      'https-key.pem',
      'license-signing-key.pem',
      'firmware-signing-key.pem',
      'repository/',
    ]) {
      assert.ok(found.has(name), `${name} exists`);
    }
    assert.ok(
      [...found.keys()].some((n) => n.startsWith('repository/') && !n.endsWith('/') && !n.includes('.incoming')),
      'a stored component',
    );
    for (const [name, mode] of found) {
      assert.equal(mode, name.endsWith('/') ? 0o700 : 0o600, `${name} is ${mode.toString(8)}`);
    }
    assert.equal(readFileSync(join(dataDir, 'secrets.key'), 'utf8').trim().length, 44, 'a base64 32-byte key');
  });

  it('still delivers with the header and keeps the license valid after a restart', async () => {
    await storeSecrets();
    svc = await svc.restart();
    assert.equal(svc.running.services.licenseTier.tier(), 'Advanced');
    assert.equal(svc.running.services.installedLicense.installed()!.key, licenseKey);
    const members = (await svc.get(LS)).body.Members;
    assert.equal(members.length, 1);
    listener.received.length = 0;
    await testEvent(svc, 2);
    await waitFor(() => listener.received.length === 1, 'a delivery after the restart');
    assert.equal(listener.received[0]!.headers.authorization, LISTENER_TOKEN);
    assertNoPlainSecrets(dataDir, [LISTENER_TOKEN, CHAP_SECRET, licenseKey]);
  });

  it('reads plain values an older version stored, and seals them at start', async () => {
    await storeSecrets();
    // The ROM takes the pending iSCSI settings in at POST: then the current area is stored.
    assert.equal((await svc.req('POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/', { body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(7000);
    await svc.close();
    // What an older version wrote: the same documents with the secrets in plain text.
    const db = new Database(join(dataDir, 'bmc.sqlite'));
    const doc = (kind: string) => db.prepare('SELECT id, body FROM document WHERE kind = ?').get(kind) as { id: string; body: string };
    const setting = (key: string) =>
      JSON.parse((db.prepare('SELECT value FROM setting WHERE key = ?').get(key) as { value: string }).value);
    const putSetting = (key: string, v: unknown) => db.prepare('UPDATE setting SET value = ? WHERE key = ?').run(JSON.stringify(v), key);
    const sub = doc('event.subscription');
    const older = 'Bearer older-plain-token';
    db.prepare('UPDATE document SET body = ? WHERE kind = ? AND id = ?').run(
      JSON.stringify({ ...JSON.parse(sub.body), HttpHeaders: [{ Authorization: older }] }),
      'event.subscription',
      sub.id,
    );
    const iscsi = setting('bios.iscsi');
    iscsi.iSCSISources[1].iSCSIChapSecret = 'older-chap-9876';
    putSetting('bios.iscsi', iscsi);
    putSetting('license.installed', { ...setting('license.installed'), key: licenseKey });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    assert.ok(databaseBytes(dataDir).includes(older), 'the older form is plain');

    svc = await startTestService({ dataDir });
    assert.equal(svc.running.services.licenseTier.tier(), 'Advanced');
    assert.equal(svc.running.services.installedLicense.installed()!.key, licenseKey);
    const stored = svc.running.services.store.setting<any>('bios.iscsi', null).get();
    assert.match(stored.iSCSISources[1].iSCSIChapSecret, /^enc:v1:/);
    assert.equal(svc.running.services.store.secrets.open(stored.iSCSISources[1].iSCSIChapSecret), 'older-chap-9876');
    listener.received.length = 0;
    await testEvent(svc, 3);
    await waitFor(() => listener.received.length === 1, 'a delivery with the older header');
    assert.equal(listener.received[0]!.headers.authorization, older);
    assertNoPlainSecrets(dataDir, [older, 'older-chap-9876', CHAP_SECRET, licenseKey]);
  });
});

describe('HttpHeaders values in error answers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const leaks = (r: { text: string }, secret: string) => {
    assert.ok(!r.text.includes(secret), `the answer quotes the value: ${r.text}`);
  };

  it('never quotes a bad header value, in a POST or a PATCH', async () => {
    const dest = 'https://127.0.0.1:9/events';
    const cases: [unknown, string][] = [
      [[{ Authorization: 987654321 }], '987654321'],
      [[{ Authorization: `Bearer LEAK-${'x'.repeat(1100)}` }], 'LEAK-x'],
      [[{ Authorization: 'Bearer LEAK-crlf\r\nX-Injected: 1' }], 'LEAK-crlf'],
      ['Bearer LEAK-not-an-array', 'LEAK-not-an-array'],
      [Array.from({ length: 17 }, (_, i) => ({ [`X-H${i}`]: `LEAK-many-${i}` })), 'LEAK-many'],
    ];
    for (const [headers, secret] of cases) {
      const r = await svc.req('POST', SUBS, { body: { Destination: dest, HttpHeaders: headers } });
      assert.equal(r.status, 400, r.text);
      leaks(r, secret);
    }
    const made = await svc.req('POST', SUBS, { body: { Destination: dest, HttpHeaders: [{ Authorization: 'Bearer fine' }] } });
    assert.equal(made.status, 201, made.text);
    const uri = made.headers.location!.replace(/^https:\/\/[^/]+/, '');
    for (const [headers, secret] of cases) {
      const r = await svc.req('PATCH', uri, { body: { HttpHeaders: headers } });
      assert.ok(r.status === 400 || r.status === 200, r.text);
      leaks(r, secret);
    }
  });
});
