// A task InProgress when the service is killed (kill -9) comes back in the
// documented state: Exception, with the UpdateTaskInterrupted message.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { request } from 'undici';
import { startChild } from '../../support/child.js';
import { basic, insecureAgent } from '../../support/service.js';

const AUTH = basic('Administrator', 'Kill-Queue-123');

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await request(url + path, {
    method: method as 'GET',
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: insecureAgent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('update task queue across kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-kill-queue-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('turns the InProgress task into Exception (interrupted) and keeps the queue', async () => {
    const first = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Kill-Queue-123']);
    const created = await call(first.url, 'POST', '/redfish/v1/UpdateService/UpdateTaskQueue/', {
      Name: 'long-wait',
      Command: 'Wait',
      UpdatableBy: ['Bmc'],
      WaitTimeSeconds: 3600,
    });
    assert.equal(created.status, 201);
    const uri = String(created.headers.location);
    assert.equal((await call(first.url, 'GET', uri)).body.State, 'InProgress');
    first.proc.kill('SIGKILL');
    await first.exited;

    const second = await startChild(['--port', '0', '--data-dir', dir]);
    const task = await call(second.url, 'GET', uri);
    assert.equal(task.status, 200);
    assert.equal(task.body.State, 'Exception');
    assert.match(JSON.stringify(task.body), /UpdateTaskInterrupted/);
    second.proc.kill('SIGTERM');
    await second.exited;
  });
});
