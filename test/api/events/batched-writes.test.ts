// The events of writes answered together (one group commit, src/store/group-commit.ts): each
// write's ResourceChanged has an id of its own, they arrive in id order, and the durable log
// (Last-Event-ID) holds every one of them, in the same order, also after kill -9 of the process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startChild } from '../../support/child.js';
import { waitFor } from '../../support/event-listener.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, insecureAgent, startTestService, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';
import { tempDirs } from '../../support/temp-dirs.js';

const SESSION_SERVICE = '/redfish/v1/SessionService/';
const WRITES = 24;

/** The ResourceChanged events about the SessionService a stream received: their EventIds. */
function changes(stream: SseStream): number[] {
  return stream.events
    .flatMap((e: { Events: { MessageId: string; EventId: string; OriginOfCondition?: { '@odata.id': string } }[] }) => e.Events)
    .filter((e) => e.MessageId.endsWith('.ResourceChanged') && e.OriginOfCondition?.['@odata.id'] === SESSION_SERVICE)
    .map((e) => Number(e.EventId));
}

describe('events of concurrent writes', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService()));
  after(() => svc.close());

  it('gives each of many concurrent PATCHes its event, with distinct ids in order, live and from the log', async () => {
    const auth = { user: ADMIN_USER, password: ADMIN_PASSWORD };
    const live = await SseStream.open(svc, auth);
    try {
      const token = await svc.adminToken();
      const answers = await Promise.all(
        Array.from({ length: WRITES }, (_, i) => svc.req('PATCH', SESSION_SERVICE, { body: { SessionTimeout: 600 + i }, auth: { token } })),
      );
      assert.deepEqual(
        answers.map((r) => r.status),
        answers.map(() => 200),
      );
      await waitFor(() => changes(live).length === WRITES, 'an event per write');
      const ids = changes(live);
      assert.equal(new Set(ids).size, WRITES, 'distinct ids');
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'in id order',
      );
      const replayed = await SseStream.open(svc, auth, undefined, { 'last-event-id': String(ids[0]! - 1) });
      try {
        await waitFor(() => changes(replayed).length === WRITES, 'the same events from the log');
        assert.deepEqual(changes(replayed), ids);
      } finally {
        replayed.close();
      }
    } finally {
      live.close();
    }
  });
});

describe('events of concurrent writes across kill -9', () => {
  const newDir = tempDirs('bmc-batched-');
  const password = 'Kill-Pass-123';
  const patch = async (url: string, timeout: number) => {
    const res = await request(`${url}${SESSION_SERVICE}`, {
      method: 'PATCH',
      headers: { authorization: basic(ADMIN_USER, password), 'content-type': 'application/json' },
      body: JSON.stringify({ SessionTimeout: timeout }),
      dispatcher: insecureAgent,
    });
    await res.body.text();
    return res.statusCode;
  };

  it('keeps every acknowledged PATCH of concurrent writers, and its event, across kill -9 of the process', async () => {
    const dir = newDir();
    const first = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', password]);
    const acked: number[] = [];
    let killed = false;
    // PATCHes 12 at a time (Basic connections within the session limit), each with a timeout of its
    // own; the process is killed once 100 are acknowledged, with the next ones in flight.
    const write = async (timeout: number) => {
      const status = await patch(first.url, timeout).catch(() => undefined);
      if (status === 200 && !killed) {
        acked.push(timeout);
        if (acked.length === 100) {
          killed = true;
          first.proc.kill('SIGKILL');
        }
      }
    };
    for (let wave = 0; wave < 25 && !killed; wave++) await Promise.all(Array.from({ length: 12 }, (_, j) => write(1000 + wave * 12 + j)));
    if (!killed) first.proc.kill('SIGKILL');
    await first.exited;
    assert.ok(killed, `killed while writing (${acked.length} acknowledged)`);
    const second = await startChild(['--port', '0', '--data-dir', dir]);
    try {
      // What it holds was written by the wave of the last acknowledged PATCH or the one in flight, never an older one.
      const res = await request(`${second.url}${SESSION_SERVICE}`, {
        headers: { authorization: basic(ADMIN_USER, password) },
        dispatcher: insecureAgent,
      });
      const kept = ((await res.body.json()) as { SessionTimeout: number }).SessionTimeout;
      const wave = (timeout: number) => Math.floor((timeout - 1000) / 12);
      assert.ok(wave(kept) >= wave(Math.max(...acked)), `${kept} after ${Math.max(...acked)}`);
      // The event log, replayed from its start, holds an event for each acknowledged PATCH, in id order.
      const log = await SseStream.open(second, { user: ADMIN_USER, password }, undefined, { 'last-event-id': '0' });
      try {
        await waitFor(() => changes(log).length >= acked.length, 'an event for every acknowledged PATCH');
      } finally {
        log.close();
      }
      const ids = changes(log);
      assert.equal(new Set(ids).size, ids.length, 'distinct ids');
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'in id order',
      );
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  });
});
