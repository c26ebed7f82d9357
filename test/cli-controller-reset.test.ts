// A controller reset of the real service process: it goes away and comes back, and the process
// lives through the outage (every timer of the service is unref'd, and nothing listens meanwhile).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { startChild, type Child } from './support/child.js';
import { tempDirs } from './support/temp-dirs.js';
import { basic, insecureAgent } from './support/service.js';

const AUTH = basic('Administrator', 'Reset-Pass-123');

async function status(url: string, path: string, method = 'GET', body?: unknown): Promise<number | 'refused'> {
  try {
    const res = await request(url + path, {
      method: method as 'GET',
      headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: insecureAgent,
    });
    await res.body.dump();
    return res.statusCode;
  } catch {
    return 'refused';
  }
}

describe('a controller reset of the service process', () => {
  const newDir = tempDirs('bmc-reset-');
  let child: Child | undefined;
  after(async () => {
    child?.proc.kill('SIGKILL');
    await child?.exited;
  });

  it('is refused, then 503 while it boots, then answers again; the process never exits', async () => {
    child = await startChild([
      '--port',
      '0',
      '--data-dir',
      newDir(),
      '--admin-password',
      'Reset-Pass-123',
      '--controller-reboot-seconds',
      '3',
    ]);
    const reset = await status(child.url, '/redfish/v1/Managers/1/Actions/Manager.Reset/', 'POST', { ResetType: 'GracefulRestart' });
    assert.equal(reset, 200);
    const seen = new Set<number | 'refused'>();
    let exited = false;
    void child.exited.then(() => (exited = true));
    const until = Date.now() + 20_000;
    while (Date.now() < until && !exited) {
      const s = await status(child.url, '/redfish/v1/Systems/1/');
      seen.add(s);
      if (s === 200 && seen.has('refused')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(exited, false, `the process exited during the reset:\n${child.stdout()}`);
    assert.ok(seen.has('refused'), `never refused: ${[...seen].join()}`);
    assert.ok(seen.has(503), `never 503 while booting: ${[...seen].join()}`);
    assert.equal(await status(child.url, '/redfish/v1/Systems/1/'), 200);
  });
});
