// What a fleet's start makes cheaper must read the same: a new controller's first write (its
// UUID, without the new WAL's syncs) survives kill -9 right after the start, and each
// controller's HTTPS key and certificate, checked for their structure at a restart rather than
// parsed, still stop the start when damaged or cut, and still serve in any form OpenSSL reads.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Agent, request } from 'undici';
import { fleetUuid, startFleet, type RunningFleet } from '../../src/fleet/fleet.js';
import { DataFileError } from '../../src/lib/data-file-error.js';
import { startChild, type Child } from '../support/child.js';
import { FLEET_GLIBC_TUNABLES, FLEET_NODE_FLAGS, fleetConfig } from '../support/fleet.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic } from '../support/service.js';

const CONTROLLERS = 6;
const silent = pino({ level: 'silent' });

/** GET with the fleet's CA trusted and the administrator's Basic credentials, on a new connection. */
async function get(ca: string, url: string): Promise<{ status: number; body: any }> {
  const agent = new Agent({ connect: { ca } });
  try {
    const res = await request(url, { headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD) }, dispatcher: agent });
    return { status: res.statusCode, body: await res.body.json() };
  } finally {
    await agent.close();
  }
}

describe('a fleet killed right after its first start', () => {
  let dir: string;
  let child: Child | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-start-'));
  });
  after(() => {
    child?.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () =>
    startChild(
      [
        ...['--fleet', String(CONTROLLERS), '--fleet-addresses', '127.0.6.1', '--port', '0', '--enable-control'],
        ...['--data-dir', dir, '--admin-password', ADMIN_PASSWORD],
      ],
      // Started as npm run fleet starts it: its node flags and glibc tunables.
      { GLIBC_TUNABLES: FLEET_GLIBC_TUNABLES },
      { nodeFlags: [...FLEET_NODE_FLAGS] },
    );

  it('comes back with every controller as it was made: its UUID, its administrator', async () => {
    child = await start();
    child.proc.kill('SIGKILL');
    await child.exited;
    child = await start();
    const ca = readFileSync(join(dir, 'fleet-ca.pem'), 'utf8');
    const fleet = await get(ca, `${child.url}/control/fleet/`);
    assert.equal(fleet.status, 200);
    const roots: string[] = fleet.body.Members.map((m: { ServiceRoot: string }) => m.ServiceRoot);
    assert.equal(roots.length, CONTROLLERS);
    for (const [i, root] of roots.entries()) {
      assert.equal((await get(ca, root)).body.UUID, fleetUuid(i), `controller ${i}`);
      assert.equal((await get(ca, `${root}Systems/1/`)).status, 200, `controller ${i}: its administrator`);
    }
    assert.doesNotMatch(child.stdout(), /"level":[45]\d/, 'nothing to warn of at the restart');
  });
});

describe("a fleet's HTTPS identities at a restart", () => {
  let dir: string;
  let fleet: RunningFleet | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-tls-'));
  });
  after(async () => {
    await fleet?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const restart = () => startFleet(fleetConfig(dir, { fleet: 3, fleetAddresses: '127.0.6.101', port: 0 }), { logger: silent });
  /** A restart that must be refused for this file (one that starts is closed, and fails the test). */
  const refused = async (file: string, detail: RegExp) => {
    const outcome = await restart().then(
      (f) => f,
      (e: unknown) => e,
    );
    if (!(outcome instanceof Error)) {
      await (outcome as RunningFleet).close();
      assert.fail(`started with ${file} ${detail}`);
    }
    assert.ok(outcome instanceof DataFileError && outcome.file === file && detail.test(outcome.message), String(outcome));
  };

  it('a new controller’s database is back at synchronous=NORMAL once its first write is in', async () => {
    fleet = await restart();
    for (const c of fleet.controllers) assert.deepEqual(c.services.store.db.pragma('synchronous'), [{ synchronous: 1 }]);
    await fleet.close();
    fleet = undefined;
  });

  it('stops at a key or certificate that is cut or damaged, naming it; serves a key in another form OpenSSL reads', async () => {
    const controller = join(dir, 'controllers', '1');
    const keyFile = join(controller, 'https-key.pem');
    const certFile = join(controller, 'https-cert.pem');
    const key = readFileSync(keyFile, 'utf8');
    const cert = readFileSync(certFile, 'utf8');

    writeFileSync(keyFile, `${key.slice(0, 100)}\n-----END PRIVATE KEY-----\n`);
    await refused(keyFile, /not a readable PEM private key/);
    writeFileSync(keyFile, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    await refused(keyFile, /not a readable PEM private key/);
    writeFileSync(keyFile, key);
    writeFileSync(certFile, cert.replace(/\n-----END/, 'QUFB\n-----END'));
    await refused(certFile, /not a readable PEM certificate/);
    writeFileSync(certFile, 'not a certificate\n');
    await refused(certFile, /not a readable PEM certificate/);
    writeFileSync(certFile, cert);

    // The same key as SEC 1 ("EC PRIVATE KEY"), as a replacement may have been installed.
    writeFileSync(keyFile, createPrivateKey(key).export({ format: 'pem', type: 'sec1' }));
    fleet = await restart();
    const root = `${fleet.url(1)}/redfish/v1/`;
    assert.equal((await get(fleet.caPem, root)).body.UUID, fleetUuid(1));
  });
});
