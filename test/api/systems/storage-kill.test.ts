// The array controller's configuration survives kill -9: a pending volume, a
// pending deletion and a lit drive LED are there after the restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { startChild } from '../../support/child.js';
import { basic, insecureAgent } from '../../support/service.js';

const AUTH = basic('Administrator', 'Kill-Storage-123');
const ST = '/redfish/v1/Systems/1/Storage/DE00A000/';

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await request(url + path, {
    method: method as 'GET',
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: insecureAgent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe('storage configuration across kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-kill-storage-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps pending volume changes and the locate LED', async () => {
    const first = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Kill-Storage-123']);
    const drives = [2, 3, 4].map((n) => ({ '@odata.id': `${ST}Drives/${n}/` }));
    assert.equal((await call(first.url, 'POST', `${ST}Volumes/`, { RAIDType: 'RAID5', Links: { Drives: drives } })).status, 202);
    assert.equal((await call(first.url, 'DELETE', `${ST}Volumes/1/`)).status, 202);
    assert.equal((await call(first.url, 'PATCH', `${ST}Drives/5/`, { LocationIndicatorActive: true })).status, 200);
    first.proc.kill('SIGKILL');
    await first.exited;

    const second = await startChild(['--port', '0', '--data-dir', dir]);
    try {
      const created = await call(second.url, 'GET', `${ST}Volumes/2/`);
      assert.equal(created.status, 200);
      assert.equal(created.body.Oem.Vendor.ConfigurationState, 'PendingCreate');
      assert.equal(created.body.CapacityBytes, 2 * 1200243695616);
      assert.equal((await call(second.url, 'GET', `${ST}Volumes/1/`)).body.Oem.Vendor.ConfigurationState, 'PendingDelete');
      assert.equal((await call(second.url, 'GET', `${ST}Drives/5/`)).body.LocationIndicatorActive, true);
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  });
});
