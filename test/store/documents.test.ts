// One contract for the document store, over a SQLite file and in memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase, type Durability } from '../../src/store/database.js';
import { DocumentStore } from '../../src/store/documents.js';

interface Doc {
  n: number;
}

const dir = mkdtempSync(join(tmpdir(), 'bmc-store-'));
const now = () => Date.parse('2026-01-01T00:00:00Z');
after(() => rmSync(dir, { recursive: true, force: true }));

for (const [name, path] of [
  ['SQLite file', join(dir, 'a.sqlite')],
  ['in memory', ':memory:'],
] as const) {
  describe(`DocumentStore (${name})`, () => {
    const store = new DocumentStore(openDatabase(path, now));

    it('keeps documents in insertion order; a replaced or renamed one keeps its place', () => {
      const c = store.collection<Doc>('order');
      c.put('a', { n: 1 });
      c.put('b', { n: 2 });
      c.put('c', { n: 3 });
      c.put('a', { n: 10 });
      c.rename('b', 'B', { n: 20 });
      assert.deepEqual(c.ids(), ['a', 'B', 'c']);
      assert.deepEqual(c.list(), [{ n: 10 }, { n: 20 }, { n: 3 }]);
      assert.equal(c.get('b'), undefined);
      assert.equal(c.count(), 3);
      assert.equal(c.delete('c'), true);
      assert.equal(c.delete('c'), false);
      c.put('d', { n: 4 });
      assert.deepEqual(c.ids(), ['a', 'B', 'd']);
    });

    it('returns copies: changing a returned document changes nothing stored', () => {
      const c = store.collection<Doc>('copies');
      c.put('x', { n: 1 });
      const got = c.get('x')!;
      got.n = 99;
      assert.deepEqual(c.get('x'), { n: 1 });
    });

    it('peek shares one frozen document until the next write, which it then shows', () => {
      const c = store.collection<{ n: number; inner: { m: number } }>('peek');
      c.put('x', { n: 1, inner: { m: 2 } });
      const first = c.peek('x')!;
      assert.equal(c.peek('x'), first, 'the same object while nothing is written');
      assert.ok(Object.isFrozen(first) && Object.isFrozen(first.inner), 'deeply frozen');
      assert.throws(() => {
        (first as { n: number }).n = 5;
      }, TypeError);
      c.put('x', { n: 3, inner: { m: 4 } });
      assert.deepEqual(c.peek('x'), { n: 3, inner: { m: 4 } });
      assert.equal(c.get('x')!.n, 3);
      c.delete('x');
      assert.equal(c.peek('x'), undefined);
    });

    it('keeps settings, with a default when absent', () => {
      const s = store.setting('answer', { v: 0 });
      assert.deepEqual(s.get(), { v: 0 });
      s.set({ v: 42 });
      assert.deepEqual(s.get(), { v: 42 });
    });

    it("peeks an absent setting as its default, frozen, sharing the default's frozen parts and freezing nothing of the caller's", () => {
      const shared = Object.freeze({ a: 1, b: 'x' });
      const def = { current: shared, list: [{ n: 1 }] };
      const s = store.setting('absent.frozen', def);
      const seen = s.peek();
      assert.deepEqual(seen, def);
      assert.equal(seen.current, shared, 'a frozen part is shared, not copied once per store');
      assert.ok(Object.isFrozen(seen) && Object.isFrozen(seen.list) && Object.isFrozen(seen.list[0]));
      assert.ok(!Object.isFrozen(def) && !Object.isFrozen(def.list) && !Object.isFrozen(def.list[0]));
      assert.equal(s.peek(), seen);
    });

    it('rolls back every write of a failed transaction, in what it reads back too', () => {
      const c = store.collection<Doc>('tx');
      const s = store.setting('tx.setting', 1);
      c.put('kept', { n: 1 });
      assert.throws(() =>
        store.transaction(() => {
          c.put('kept', { n: 2 });
          c.put('new', { n: 3 });
          s.set(2);
          throw new Error('abort');
        }),
      );
      assert.deepEqual(c.list(), [{ n: 1 }]);
      assert.equal(s.get(), 1);
      store.transaction(() => c.put('new', { n: 3 }));
      assert.deepEqual(c.ids(), ['kept', 'new']);
    });

    it("keeps each store's documents and settings its own, and two handles on one kind alike", () => {
      // A fleet's controllers each have a store, with collections and settings of the same names.
      const other = new DocumentStore(openDatabase(':memory:', now));
      const mine = store.collection<Doc>('own');
      const theirs = other.collection<Doc>('own');
      mine.put('a', { n: 1 });
      theirs.put('b', { n: 2 });
      assert.deepEqual([mine.ids(), theirs.ids()], [['a'], ['b']]);
      assert.deepEqual(store.collection<Doc>('own').peekList(), [{ n: 1 }]);
      const setting = store.setting('own.setting', 0);
      other.setting('own.setting', 0).set(7);
      assert.deepEqual([setting.get(), setting.peek(), other.setting('own.setting', 0).peek()], [0, 0, 7]);
      setting.set(3);
      assert.deepEqual([store.setting('own.setting', 0).get(), other.setting('own.setting', 0).get()], [3, 7]);
    });
  });
}

describe('DocumentStore durability', () => {
  it('a second store over the same file sees every acknowledged write', () => {
    const path = join(dir, 'b.sqlite');
    const first = new DocumentStore(openDatabase(path, now));
    first.collection<Doc>('k').put('one', { n: 1 });
    first.setting('s', 0).set(5);
    const second = new DocumentStore(openDatabase(path, now));
    assert.deepEqual(second.collection<Doc>('k').get('one'), { n: 1 });
    assert.equal(second.setting('s', 0).get(), 5);
  });

  it('syncs each commit only for --durability power-loss; by default a commit survives kill -9 without one', () => {
    const synchronous = (durability?: Durability) => {
      const db = openDatabase(join(dir, `sync-${durability ?? 'default'}.sqlite`), now, [], durability);
      const mode = db.pragma('synchronous', { simple: true });
      db.close();
      return mode;
    };
    assert.equal(synchronous(), 1); // NORMAL
    assert.equal(synchronous('crash'), 1);
    assert.equal(synchronous('power-loss'), 2); // FULL
    // A process that commits and is then killed with SIGKILL, before any close or checkpoint.
    const path = join(dir, 'killed.sqlite');
    const store = new URL('../../src/store/', import.meta.url).href;
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openDatabase } = await import('${store}database.ts');
         const { DocumentStore } = await import('${store}documents.ts');
         const docs = new DocumentStore(openDatabase(${JSON.stringify(path)}, () => 0)).collection('k');
         for (let i = 0; i < 300; i++) docs.put('d' + i, { n: i });
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(child.signal, 'SIGKILL', child.stderr);
    const after = new DocumentStore(openDatabase(path, now)).collection<Doc>('k');
    assert.equal(after.list().length, 300);
    assert.deepEqual(after.get('d299'), { n: 299 });
  });

  it('dates each applied migration with the clock it is given, once', () => {
    const path = join(dir, 'c.sqlite');
    const migrations = [{ id: 'test-001', sql: 'CREATE TABLE t (x INTEGER)' }];
    openDatabase(path, () => Date.parse('2026-03-04T05:06:07Z'), migrations).close();
    const db = openDatabase(path, () => Date.parse('2030-01-01T00:00:00Z'), migrations);
    const rows = db.prepare('SELECT id, applied_at FROM schema_migration ORDER BY id').all();
    db.close();
    assert.deepEqual(rows, [
      { id: 'core-001-documents', applied_at: '2026-03-04T05:06:07.000Z' },
      { id: 'test-001', applied_at: '2026-03-04T05:06:07.000Z' },
    ]);
  });
});
