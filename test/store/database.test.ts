// Issue 24 item 3: committed data does not live in the WAL alone for long: every
// CHECKPOINT_INTERVAL_MS of controller time, what was committed is copied into the database file
// and the WAL emptied. A stream of writes is not checkpointed by SQLite every 1,000 pages meanwhile
// (two fsyncs inside a commit each time): the interval empties the WAL.
// Issue 30 item 5: a connection keeps at most PAGE_CACHE_KIB of its database in memory, however
// large the event log grows (a fleet's memory followed its controllers' event logs).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CHECKPOINT_INTERVAL_MS, PAGE_CACHE_KIB } from '../../src/store/database.js';
import { startTestService, type TestService } from '../support/service.js';

describe('regular WAL checkpoints', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  const walBytes = () => statSync(join(svc.dataDir, 'bmc.sqlite-wal')).size;

  it('a write reaches the database file within one checkpoint interval, and the WAL is emptied', async () => {
    await svc.clock.advance(CHECKPOINT_INTERVAL_MS);
    assert.equal(walBytes(), 0, 'the first start checkpointed too');
    const r = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 900 } });
    assert.equal(r.status, 200, r.text);
    assert.ok(walBytes() > 0, 'a commit lands in the WAL');
    await svc.clock.advance(CHECKPOINT_INTERVAL_MS - 1);
    assert.ok(walBytes() > 0, 'not before the interval');
    await svc.clock.advance(1);
    assert.equal(walBytes(), 0);
    assert.equal((await svc.get('/redfish/v1/SessionService/')).body.SessionTimeout, 900);
  });

  it('a stream of writes is checkpointed by the interval, not by SQLite every 1,000 pages of WAL', async () => {
    await svc.clock.advance(CHECKPOINT_INTERVAL_MS);
    const frame = 4096 + 24;
    for (let i = 0; walBytes() < 1500 * frame; i++) {
      assert.ok(i < 2000, `${walBytes()} bytes of WAL after ${i} writes`);
      const r = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1000 + (i % 500) } });
      assert.equal(r.status, 200, r.text);
    }
    await svc.clock.advance(CHECKPOINT_INTERVAL_MS);
    assert.equal(walBytes(), 0);
  });
});

describe("a connection's page cache", () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  /** Bytes this process has read from files (the service runs in it). */
  const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

  it('keeps at most PAGE_CACHE_KIB of the event log that writes over HTTPS grew: reading it again reads the file again', async () => {
    // Below the log's first prune (1,000 events): every event is still there.
    for (let i = 0; i < 900; i++) {
      const r = await svc.req('PATCH', '/redfish/v1/Systems/1/', { body: { AssetTag: `tag-${i}` } });
      assert.equal(r.status, 200, r.text);
    }
    const db = svc.running.services.store.db;
    const logBytes = db.prepare('SELECT SUM(LENGTH(body)) FROM event_log').pluck().get() as number;
    assert.ok(logBytes > 4 * PAGE_CACHE_KIB * 1024, `the log (${logBytes} bytes) outgrew the cache`);
    const before = bytesRead();
    assert.equal(db.prepare('SELECT SUM(LENGTH(body)) FROM event_log').pluck().get(), logBytes);
    const read = bytesRead() - before;
    assert.ok(read > logBytes - 2 * PAGE_CACHE_KIB * 1024, `${read} bytes read again of a ${logBytes}-byte log`);
  });
});
