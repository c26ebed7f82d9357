// The pool that bounds a fleet's open databases: the least recently used idle connection rests
// (closed, its WAL checkpointed) when another must open, opens again at its next statement with
// its statements prepared again, and a connection inside a transaction is never closed.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DatabasePool, PooledDatabase } from '../../src/store/database-pool.js';
import { PAGE_CACHE_KIB, atomically, connect, openDatabase } from '../../src/store/database.js';
import { DocumentStore } from '../../src/store/documents.js';
import { GroupCommit } from '../../src/store/group-commit.js';

describe('the database pool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-pool-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const pooled = (pool: DatabasePool, name: string) => {
    const path = join(dir, `${name}.sqlite`);
    return {
      path,
      db: new PooledDatabase(
        pool,
        openDatabase(path, () => 0),
        () => connect(path),
      ),
    };
  };

  it('rests the least recently used connection, and opens it again, statements and all, when it is used', () => {
    const pool = new DatabasePool(2);
    const a = pooled(pool, 'a');
    const b = pooled(pool, 'b');
    const count = a.db.prepare('SELECT COUNT(*) FROM setting').pluck();
    const docs = new DocumentStore(a.db);
    docs.setting('x', 0).set(1);
    b.db.pragma('user_version');
    const c = pooled(pool, 'c');
    assert.equal(pool.openCount, 2);
    assert.ok(a.db.resting, 'a was used least recently');
    assert.ok(!b.db.resting && !c.db.resting);
    // Closed, its WAL was checkpointed and removed: the write is in the database file.
    assert.ok(!existsSync(`${a.path}-wal`));
    assert.equal(count.get(), 1, 'prepared again on the new connection, still plucked');
    assert.equal(a.db.opening, 1);
    assert.deepEqual(a.db.pragma('cache_size'), [{ cache_size: -PAGE_CACHE_KIB }], 'opened again, its page cache bounded as before');
    assert.ok(b.db.resting, 'b made room for a');
    assert.equal(new DocumentStore(a.db).setting('x', 0).get(), 1);
    assert.equal(pool.reopened, 1);
  });

  it('prepares a statement another connection of the process prepared only when it is first used: a resting database stays closed', () => {
    const pool = new DatabasePool(1);
    const a = pooled(pool, 'lazy-a');
    const sql = "SELECT value FROM setting WHERE key = 'lazy'";
    a.db.prepare(sql);
    assert.throws(() => a.db.prepare('SELECT missing FROM nowhere'), /no such/, 'the first of its kind fails where it is made');
    const b = pooled(pool, 'lazy-b');
    assert.ok(a.db.resting);
    const again = a.db.prepare(sql).pluck();
    assert.ok(a.db.resting, 'not opened to prepare it');
    assert.equal(pool.reopened, 0);
    new DocumentStore(b.db).setting('lazy', 0).set(5);
    new DocumentStore(a.db).setting('lazy', 0).set(7);
    assert.equal(again.get(), '7', 'prepared, and plucked, at its first use');
    assert.equal(pool.reopened, 1);
  });

  it('never closes a connection inside a transaction: a group commit open on it stays open and commits', async () => {
    const pool = new DatabasePool(1);
    const a = pooled(pool, 'd');
    const commits = new GroupCommit(a.db, () => undefined);
    const store = new DocumentStore(a.db);
    commits.begin();
    store.setting('y', 0).set(2);
    const settled = commits.settled();
    const b = pooled(pool, 'e');
    atomically(b.db, () => b.db.pragma('user_version'));
    assert.ok(!a.db.resting, 'inside its batch');
    assert.equal(pool.openCount, 2, 'over the bound rather than lose the batch');
    await settled;
    // Once committed it may rest; what it acknowledged is there when it opens again.
    pooled(pool, 'f');
    assert.ok(a.db.resting);
    assert.equal(new DocumentStore(a.db).setting('y', 0).get(), 2);
    a.db.close();
    assert.throws(() => a.db.pragma('user_version'), /not open/);
  });
});
