// --admin-password-file (BMC_ADMIN_PASSWORD_FILE): the first administrator's
// password read from a file, so it does not show in the process list.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { ConfigError, parseConfig } from '../src/config.js';
import { startChild } from './support/child.js';
import { basic, insecureAgent } from './support/service.js';

const dir = mkdtempSync(join(tmpdir(), 'bmc-pwfile-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text, { mode: 0o600 });
  return p;
};

describe('--admin-password-file', () => {
  it('reads the password from the file, its trailing newline dropped, from the flag or the environment', () => {
    assert.equal(parseConfig(['--admin-password-file', file('a', 'File-Pass-123\n')], {}).adminPassword, 'File-Pass-123');
    assert.equal(parseConfig(['--admin-password-file', file('b', 'File-Pass-456\r\n')], {}).adminPassword, 'File-Pass-456');
    assert.equal(parseConfig(['--admin-password-file', file('c', ' spaces kept ')], {}).adminPassword, ' spaces kept ');
    assert.equal(parseConfig([], { BMC_ADMIN_PASSWORD_FILE: file('d', 'Env-File-Pass-1\n') }).adminPassword, 'Env-File-Pass-1');
  });

  it('excludes --admin-password, from any source', () => {
    const f = file('e', 'File-Pass-123\n');
    assert.throws(
      () => parseConfig(['--admin-password', 'x', '--admin-password-file', f], {}),
      (e: Error) => e instanceof ConfigError && /exclude each other/.test(e.message),
    );
    assert.throws(() => parseConfig(['--admin-password-file', f], { BMC_ADMIN_PASSWORD: 'x' }), /exclude each other/);
    assert.throws(() => parseConfig(['--admin-password', 'x'], { BMC_ADMIN_PASSWORD_FILE: f }), /exclude each other/);
  });

  it('refuses a missing, empty or multi-line file with a clear message that does not quote its content', () => {
    assert.throws(
      () => parseConfig(['--admin-password-file', join(dir, 'nope')], {}),
      (e: Error) => e instanceof ConfigError && /cannot read .*nope \(ENOENT\)/.test(e.message),
    );
    assert.throws(() => parseConfig(['--admin-password-file', file('f', '\n')], {}), /is empty/);
    assert.throws(
      () => parseConfig(['--admin-password-file', file('g', 'Line-One-Pass\nLine-Two\n')], {}),
      (e: Error) => e instanceof ConfigError && /more than one line/.test(e.message) && !e.message.includes('Line-One-Pass'),
    );
  });

  it("lets the administrator log in over HTTPS with the file's password, which is not on the command line", async () => {
    const password = 'From-A-File-789';
    const child = await startChild(['--port', '0', '--data-dir', join(dir, 'data'), '--admin-password-file', file('h', `${password}\n`)]);
    try {
      assert.ok(!child.proc.spawnargs.join(' ').includes(password));
      const res = await request(`${child.url}/redfish/v1/SessionService/Sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ UserName: 'Administrator', Password: password }),
        dispatcher: insecureAgent,
      });
      await res.body.text();
      assert.equal(res.statusCode, 201);
      const get = await request(`${child.url}/redfish/v1/SessionService/`, {
        headers: { authorization: basic('Administrator', password) },
        dispatcher: insecureAgent,
      });
      await get.body.text();
      assert.equal(get.statusCode, 200);
      assert.ok(!child.stdout().includes(password), 'not in the log');
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
  });
});
