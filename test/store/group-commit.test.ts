// Group commit (src/store/group-commit.ts): writes held for the end of a batch go in once, inside
// the batch's transaction, and a rollback (of a nested transaction, or of the commit) drops only
// what it should.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/store/database.js';
import { DocumentStore } from '../../src/store/documents.js';
import { GroupCommit } from '../../src/store/group-commit.js';

const dir = mkdtempSync(join(tmpdir(), 'bmc-group-commit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function opened(name: string) {
  const path = join(dir, `${name}.sqlite`);
  const db = openDatabase(path, () => 0);
  const store = new DocumentStore(db);
  const commits = new GroupCommit(db, () => store.dropCopies());
  store.useBatches(commits);
  const changes = db.prepare('SELECT total_changes()').pluck();
  /** What another connection reads: only what is committed. */
  const committed = (key: string) => {
    const other = openDatabase(path, () => 0);
    const row = other.prepare('SELECT value FROM setting WHERE key = ?').pluck().get(key) as string | undefined;
    other.close();
    return row === undefined ? undefined : (JSON.parse(row) as unknown);
  };
  return { db, store, commits, changes: () => changes.get() as number, committed };
}

describe('group commit', () => {
  it('stores a setting that every write of a batch sets once, as the batch commits, and answers after that', async () => {
    const { store, commits, changes, committed } = opened('once');
    const s = store.setting('boot', 'None');
    const before = changes();
    commits.begin();
    for (let i = 0; i < 20; i++) s.set(`target-${i}`);
    assert.equal(s.peek(), 'target-19', 'reads see the batch at once');
    assert.equal(changes(), before, 'nothing written yet');
    const settled = commits.settled();
    commits.commit();
    await settled;
    assert.equal(changes(), before + 1, 'one statement for the twenty');
    assert.equal(committed('boot'), 'target-19');
    s.set('outside');
    assert.equal(committed('boot'), 'outside', 'without a batch a setting is written at once');
  });

  it('keeps what the batch held when a transaction inside it fails, and drops the transaction’s own writes', async () => {
    const { store, commits, committed } = opened('nested');
    const a = store.setting('a', 0);
    const b = store.setting('b', 0);
    commits.begin();
    a.set(1);
    assert.throws(() =>
      store.transaction(() => {
        a.set(2);
        b.set(3);
        throw new Error('refused');
      }),
    );
    assert.deepEqual([a.get(), b.get()], [1, 0]);
    const settled = commits.settled();
    commits.commit();
    await settled;
    assert.deepEqual([committed('a'), committed('b')], [1, undefined]);
  });

  it('drops the held writes when the batch’s commit fails: reads and the file show the last commit', async () => {
    const { store, commits, committed } = opened('failed');
    const s = store.setting('s', 0);
    s.set(1);
    commits.begin();
    s.set(2);
    assert.ok(
      commits.defer(
        () => assert.fail('the disk is full'),
        () => undefined,
      ),
    );
    const settled = commits.settled();
    commits.commit();
    await assert.rejects(settled, /the disk is full/);
    assert.equal(s.get(), 1);
    assert.equal(committed('s'), 1);
    commits.begin();
    commits.commit();
    assert.equal(committed('s'), 1, 'nothing held is written by a later batch');
  });
});
