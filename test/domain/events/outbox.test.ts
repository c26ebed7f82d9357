// The event log and outbox in SQLite (src/domain/events/outbox.ts): ids survive the
// migration that took AUTOINCREMENT away, never repeat, and pruning keeps what is owed; the
// events of a batch go in together as it commits.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EVENT_LOG_KEEP, EVENT_MIGRATIONS, EventOutbox } from '../../../src/domain/events/outbox.js';
import { openDatabase } from '../../../src/store/database.js';
import { DocumentStore } from '../../../src/store/documents.js';
import { GroupCommit } from '../../../src/store/group-commit.js';

const dir = mkdtempSync(join(tmpdir(), 'bmc-outbox-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('event outbox', () => {
  it('keeps the ids and owed events of a log made before the rowid migration, and goes on after them', () => {
    const path = join(dir, 'old.sqlite');
    const old = openDatabase(path, () => 0, [EVENT_MIGRATIONS[0]!]);
    const insert = old.prepare("INSERT INTO event_log (kind, body) VALUES ('Event', ?)");
    for (let i = 1; i <= 5; i++) insert.run(JSON.stringify({ i }));
    old.prepare("INSERT INTO event_outbox (subscription, event) VALUES ('s1', 4), ('s1', 5)").run();
    old.close();

    const db = openDatabase(path, () => 0, EVENT_MIGRATIONS);
    assert.doesNotMatch(
      String((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'event_log'").get() as { sql: string }).sql),
      /AUTOINCREMENT/,
    );
    const outbox = new EventOutbox(db);
    assert.deepEqual(
      outbox.next('s1', 10).map((e) => [e.id, e.body.i]),
      [
        [4, 4],
        [5, 5],
      ],
    );
    const next = outbox.append({ kind: 'Event', body: { i: 6 } }, [{ id: 's1', cap: 100, pending: 2 }]);
    assert.equal(next.id, 6);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    db.close();
  });

  it('never gives an id twice across pruning, and keeps at least the last events', () => {
    const db = openDatabase(join(dir, 'prune.sqlite'), () => 0, EVENT_MIGRATIONS);
    const outbox = new EventOutbox(db);
    let last = 0;
    for (let i = 0; i < 3 * EVENT_LOG_KEEP + 17; i++) {
      const e = outbox.append({ kind: 'Event', body: { i } }, []);
      assert.ok(e.id > last);
      last = e.id;
    }
    const kept = db.prepare('SELECT COUNT(*) AS n, MAX(id) AS max FROM event_log').get() as { n: number; max: number };
    assert.equal(kept.max, last);
    assert.ok(kept.n >= EVENT_LOG_KEEP && kept.n <= 2 * EVENT_LOG_KEEP + 17, `${kept.n} kept`);
    db.close();
  });

  it('logs the events of a batch together as it commits, numbered in order, and shows them to readers at once', async () => {
    const path = join(dir, 'batch.sqlite');
    const db = openDatabase(path, () => 0, EVENT_MIGRATIONS);
    const store = new DocumentStore(db);
    const commits = new GroupCommit(db, () => store.dropCopies());
    store.useBatches(commits);
    const outbox = new EventOutbox(db, store);
    const changes = db.prepare('SELECT total_changes()').pluck();
    const ids: number[] = [];
    for (const size of [45, 1, 63]) {
      commits.begin();
      const before = changes.get() as number;
      for (let i = 0; i < size; i++) ids.push(outbox.append({ kind: 'Event', body: { i: ids.length } }, []).id);
      assert.equal(changes.get(), before, 'held until the commit');
      const settled = commits.settled();
      commits.commit();
      await settled;
      assert.equal(changes.get(), before + size);
    }
    assert.deepEqual(
      ids,
      ids.map((_, i) => ids[0]! + i),
      'consecutive ids',
    );
    // A reader inside a batch (an SSE resume) sees what the batch logged so far; an event with a
    // subscriber goes in at once, after them.
    commits.begin();
    const held = outbox.append({ kind: 'Event', body: { i: ids.length } }, []);
    assert.deepEqual(
      outbox.since(held.id - 1).map((e) => e.id),
      [held.id],
    );
    const owed = outbox.append({ kind: 'Event', body: { i: ids.length + 1 } }, [{ id: 's1', cap: 10, pending: 0 }]);
    assert.deepEqual(
      outbox.next('s1', 10).map((e) => e.id),
      [owed.id],
    );
    commits.commit();
    ids.push(held.id, owed.id);
    db.close();

    const again = new EventOutbox(openDatabase(path, () => 0, EVENT_MIGRATIONS));
    assert.deepEqual(
      again.since(0).map((e) => [e.id, e.body.i]),
      ids.map((id, i) => [id, i]),
    );
    assert.equal(again.append({ kind: 'Event', body: {} }, []).id, ids.at(-1)! + 1);
  });

  it('logs nothing of a batch whose commit failed, not even with the next batch', async () => {
    const db = openDatabase(join(dir, 'lost.sqlite'), () => 0, EVENT_MIGRATIONS);
    const store = new DocumentStore(db);
    const commits = new GroupCommit(db, () => store.dropCopies());
    store.useBatches(commits);
    const outbox = new EventOutbox(db, store);
    commits.begin();
    assert.ok(
      commits.defer(
        () => assert.fail('the disk is full'),
        () => undefined,
      ),
    );
    outbox.append({ kind: 'Event', body: { lost: true } }, []);
    const lost = commits.settled();
    commits.commit();
    await assert.rejects(lost, /the disk is full/);
    commits.begin();
    const kept = outbox.append({ kind: 'Event', body: { lost: false } }, []);
    commits.commit();
    assert.deepEqual(
      outbox.since(0).map((e) => [e.id, e.body.lost]),
      [[kept.id, false]],
    );
    db.close();
  });
});
