// The process-level safety net: an exception no handler caught is logged, and
// the controller keeps answering. The fault is planted from outside (a module
// preloaded into the child that throws from a timer and rejects a promise).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { startChild, type Child } from './support/child.js';
import { insecureAgent } from './support/service.js';

// Fired by a signal the test sends once the service listens, so a slow start cannot race it.
const PLANTED = `process.on('SIGUSR2', () => { setTimeout(() => { throw new Error('planted fault'); }, 0); setTimeout(() => { Promise.reject(new Error('planted rejection')); }, 10); });`;

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('safety net', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-net-'));
  let child: Child | undefined;
  after(() => {
    child?.proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs an uncaught exception and an unhandled rejection, and keeps serving', async () => {
    child = await startChild(['--port', '0', '--data-dir', dataDir, '--admin-password', 'Net-Admin-Pass1'], {
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(PLANTED)}`,
    });
    const c = child;
    c.proc.kill('SIGUSR2');
    await until(() => c.stdout().includes('planted rejection'), 20_000);
    assert.match(c.stdout(), /uncaught exception; the service keeps running/);
    assert.equal(c.proc.exitCode, null);
    const r = await request(`${c.url}/redfish/v1/`, { dispatcher: insecureAgent });
    assert.equal(r.statusCode, 200);
    await r.body.dump();
  });
});
