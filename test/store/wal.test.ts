// Issue 24 item 3: the WAL reader counts exactly what SQLite's recovery replays, on logs left by
// a live connection (as after kill -9), cut short, with a damaged frame, a damaged header, and
// with an older generation's frames after the current ones.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspectWal } from '../../src/store/wal.js';

const PAGE = 4096;
const FRAME = 24 + PAGE;

describe('inspectWal', () => {
  let dir: string;
  let live: Database.Database;
  let n = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-wal-'));
    live = new Database(join(dir, 'live.sqlite'));
    live.pragma('journal_mode = WAL');
    live.pragma('wal_autocheckpoint = 0');
    live.exec('CREATE TABLE t (x TEXT)');
    // 40 transactions of one to three pages each.
    for (let i = 0; i < 40; i++) live.prepare('INSERT INTO t VALUES (?)').run(`${i}:${'x'.repeat(1500 * (i % 3))}`);
  });
  after(() => {
    live.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the live database and its WAL, as a kill -9 would leave them; `damage` changes the WAL first. */
  const snapshot = (damage?: (wal: string) => void): string => {
    const db = join(dir, `copy${n++}.sqlite`);
    copyFileSync(join(dir, 'live.sqlite'), db);
    copyFileSync(join(dir, 'live.sqlite-wal'), `${db}-wal`);
    damage?.(`${db}-wal`);
    return db;
  };
  /** What SQLite's recovery replays: the frames it checkpoints, and the rows it then holds. */
  const recovered = (db: string) => {
    const c = new Database(db);
    try {
      const rows = (c.prepare('SELECT count(*) FROM t').pluck().get() as number | undefined) ?? 0;
      const [cp] = c.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      return { frames: cp!.log, rows };
    } catch {
      return { frames: 0, rows: 0 };
    } finally {
      c.close();
    }
  };

  it('a WAL left by a live connection: every frame replayed, one transaction per statement (and the CREATE)', () => {
    const db = snapshot();
    const r = inspectWal(`${db}-wal`);
    assert.equal(r.bytes, statSync(`${db}-wal`).size);
    assert.equal(r.transactions, 41);
    assert.equal(r.replayedFrames, (r.bytes - 32) / FRAME);
    assert.deepEqual([r.unfinishedFrames, r.damagedFrames, r.trailingBytes, r.unreadable], [0, 0, 0, undefined]);
    assert.deepEqual(recovered(db), { frames: r.replayedFrames, rows: 40 });
  });

  it('a WAL cut in half: the transactions before the cut, the rest counted as dropped', () => {
    const db = snapshot((wal) => truncateSync(wal, Math.floor(statSync(wal).size / 2)));
    const r = inspectWal(`${db}-wal`);
    const sqlite = recovered(db);
    assert.equal(r.replayedFrames, sqlite.frames);
    assert.equal(r.transactions, sqlite.rows + 1);
    assert.ok(r.trailingBytes > 0 || r.unfinishedFrames > 0);
    assert.equal(r.replayedFrames + r.unfinishedFrames, Math.floor((r.bytes - 32) / FRAME));
  });

  it('a damaged frame: replay stops before it, and it and the frames after it are damaged', () => {
    const db = snapshot((wal) => {
      const b = readFileSync(wal);
      b[32 + 30 * FRAME + 24 + 100]! ^= 0xff;
      writeFileSync(wal, b);
    });
    const r = inspectWal(`${db}-wal`);
    const sqlite = recovered(db);
    assert.equal(r.replayedFrames, sqlite.frames);
    assert.ok(r.replayedFrames <= 30);
    assert.equal(r.replayedFrames + r.unfinishedFrames, 30);
    assert.equal(r.damagedFrames, (r.bytes - 32) / FRAME - 30);
  });

  it('a damaged header, or a file shorter than one: unreadable, and SQLite replays nothing', () => {
    for (const damage of [
      (wal: string) => {
        const b = readFileSync(wal);
        b[17]! ^= 0x01;
        writeFileSync(wal, b);
      },
      (wal: string) => truncateSync(wal, 20),
    ]) {
      const db = snapshot(damage);
      const r = inspectWal(`${db}-wal`);
      assert.ok(r.unreadable, JSON.stringify(r));
      assert.equal(r.replayedFrames, 0);
      assert.equal(recovered(db).rows, 0);
    }
  });

  it("an older generation's frames after the current ones (a checkpoint restarted the log) are not counted", () => {
    const c = new Database(join(dir, 'gen.sqlite'));
    c.pragma('journal_mode = WAL');
    c.pragma('wal_autocheckpoint = 0');
    c.exec('CREATE TABLE t (x TEXT)');
    for (let i = 0; i < 20; i++) c.prepare('INSERT INTO t VALUES (?)').run('y'.repeat(3000));
    c.pragma('wal_checkpoint(PASSIVE)');
    // The next write starts the log over from its first frame, with new salts; the old frames stay behind.
    c.prepare('INSERT INTO t VALUES (?)').run('z');
    copyFileSync(join(dir, 'gen.sqlite'), join(dir, 'gen-copy.sqlite'));
    copyFileSync(join(dir, 'gen.sqlite-wal'), join(dir, 'gen-copy.sqlite-wal'));
    c.close();
    const r = inspectWal(join(dir, 'gen-copy.sqlite-wal'));
    assert.ok(r.bytes > 10 * FRAME);
    assert.equal(r.transactions, 1);
    assert.deepEqual([r.unfinishedFrames, r.damagedFrames, r.trailingBytes], [0, 0, 0]);
    assert.deepEqual(recovered(join(dir, 'gen-copy.sqlite')), { frames: r.replayedFrames, rows: 21 });
  });

  it('no WAL, or an empty one: nothing to replay', () => {
    assert.equal(inspectWal(join(dir, 'absent-wal')).bytes, 0);
    writeFileSync(join(dir, 'empty-wal'), '');
    assert.deepEqual(inspectWal(join(dir, 'empty-wal')), {
      bytes: 0,
      replayedFrames: 0,
      transactions: 0,
      unfinishedFrames: 0,
      damagedFrames: 0,
      trailingBytes: 0,
    });
  });
});
