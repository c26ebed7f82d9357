// Issue 24 item 3: damaged data files never start an empty controller silently. Against the real
// command line: a database that is missing, empty, not a database, damaged, or whose WAL cannot be
// replayed stops the start with one line naming the file (exit 3) and leaves every file as it was;
// what WAL recovery replays and drops is logged, and a WAL recovery drops part of is kept first.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { runToExit, startChild } from '../support/child.js';
import { tempDirs } from '../support/temp-dirs.js';
import { basic, insecureAgent } from '../support/service.js';

const PASSWORD = 'Damage-Pass-123';
const AUTH = basic('Administrator', PASSWORD);
const DAMAGED = 3;

describe('start-up checks of the database', () => {
  const newDir = tempDirs('bmc-damage-');
  const db = (dir: string) => join(dir, 'bmc.sqlite');
  const wal = (dir: string) => join(dir, 'bmc.sqlite-wal');

  /** A first start, stopped with SIGKILL (all of its data in the WAL) or SIGTERM (all in the database file). */
  const firstStart = async (signal: 'SIGKILL' | 'SIGTERM') => {
    const dir = newDir();
    const child = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', PASSWORD]);
    child.proc.kill(signal);
    await child.exited;
    return dir;
  };
  const start = (dir: string) => runToExit(['--port', '0', '--data-dir', dir], {}, 20_000);
  /** A refused start: exit 3, one line on stderr naming the file, no stack trace. */
  const refused = async (dir: string, file: string, what: RegExp) => {
    const r = await start(dir);
    assert.equal(r.code, DAMAGED, r.stderr + r.stdout);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(file), r.stderr);
    assert.match(r.stderr, what);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.doesNotMatch(r.stdout, /listening/);
  };
  const get = async (url: string, path: string) => {
    const res = await request(url + path, { headers: { authorization: AUTH }, dispatcher: insecureAgent });
    return (await res.body.json()) as Record<string, unknown>;
  };
  /** The log line holding `text`; fails the test without one. */
  const logLine = (out: string, text: string): string => {
    const line = out.split('\n').find((l) => l.includes(text));
    assert.ok(line, out);
    return line;
  };
  const setTimeoutTo = async (url: string, SessionTimeout: number) => {
    const res = await request(`${url}/redfish/v1/SessionService/`, {
      method: 'PATCH',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ SessionTimeout }),
      dispatcher: insecureAgent,
    });
    assert.equal(res.statusCode, 200);
    await res.body.dump();
  };

  it('a zero-length database beside the controller keys: refused, its WAL kept as it was', async () => {
    const dir = await firstStart('SIGKILL');
    const before = readFileSync(wal(dir));
    assert.ok(before.length > 32, 'the killed start left its data in the WAL');
    writeFileSync(db(dir), '');
    await refused(dir, db(dir), /empty \(0 bytes\), while the data dir holds this controller's secrets\.key/);
    assert.deepEqual(readFileSync(wal(dir)), before);
    assert.equal(statSync(db(dir)).size, 0);
  });

  it('a missing database beside the controller keys: refused', async () => {
    const dir = await firstStart('SIGTERM');
    rmSync(db(dir));
    await refused(dir, db(dir), /missing, while the data dir holds/);
    assert.equal(existsSync(db(dir)), false, 'no new database was made');
  });

  it('a WAL with a damaged header: refused, and the WAL is not reset', async () => {
    const dir = await firstStart('SIGKILL');
    const damaged = readFileSync(wal(dir));
    damaged[10]! ^= 0xff;
    writeFileSync(wal(dir), damaged);
    await refused(dir, wal(dir), /its transactions cannot be replayed\. .*move the -wal file aside/);
    assert.deepEqual(readFileSync(wal(dir)), damaged);
  });

  it('a WAL cut to its 32-byte header, all the data having been in it: refused (the database holds no controller)', async () => {
    const dir = await firstStart('SIGKILL');
    truncateSync(wal(dir), 32);
    await refused(dir, db(dir), /holds no controller/);
    assert.equal(statSync(wal(dir)).size, 32);
  });

  it('a file that is not a database, and a damaged page: refused', async () => {
    const junk = await firstStart('SIGTERM');
    writeFileSync(db(junk), Buffer.alloc(8192, 'x'));
    await refused(junk, db(junk), /not a SQLite database/);

    const page = await firstStart('SIGTERM');
    const bytes = readFileSync(db(page));
    // The b-tree header of page 3: quick_check finds it.
    for (let i = 0; i < 12; i++) bytes[2 * 4096 + i]! ^= 0xa5;
    writeFileSync(db(page), bytes);
    const files = readdirSync(page).sort();
    await refused(page, db(page), /fails its integrity check \(.*page 3/);
    // Checked on the connection the service opens (no WAL to replay): the refusal leaves every file as it was.
    assert.deepEqual(readFileSync(db(page)), bytes);
    assert.deepEqual(readdirSync(page).sort(), files);
  });

  it('after kill -9, says what WAL recovery replayed; a WAL cut in half is logged, kept, and the rest replayed', async () => {
    const dir = await firstStart('SIGTERM');
    const second = await startChild(['--port', '0', '--data-dir', dir]);
    for (let t = 101; t <= 120; t++) await setTimeoutTo(second.url, t);
    second.proc.kill('SIGKILL');
    await second.exited;
    const size = statSync(wal(dir)).size;
    assert.ok(size > 20 * 4096, `the 20 PATCHes are in the WAL (${size} bytes)`);
    // Mid-frame, about half-way.
    truncateSync(wal(dir), Math.floor(size / 2) + 1000);
    const cut = readFileSync(wal(dir));

    const third = await startChild(['--port', '0', '--data-dir', dir]);
    try {
      const line = logLine(third.stdout(), "the database's WAL is damaged or cut");
      const logged = JSON.parse(line) as { level: number; transactions: number; trailingBytes: number; keptIn: string; file: string };
      assert.equal(logged.level, 40);
      assert.equal(logged.file, wal(dir));
      assert.ok(logged.transactions > 0 && logged.transactions < 20, line);
      assert.ok(logged.trailingBytes > 0);
      assert.ok(logged.keptIn.startsWith(join(dir, 'damaged-')), line);
      assert.deepEqual(readFileSync(join(logged.keptIn, 'bmc.sqlite-wal')), cut, 'the WAL as found is kept');
      assert.ok(existsSync(join(logged.keptIn, 'bmc.sqlite')));
      // What the cut left: the PATCHes up to the last whole transaction.
      const timeout = (await get(third.url, '/redfish/v1/SessionService/')).SessionTimeout as number;
      assert.ok(timeout >= 100 && timeout < 120, `SessionTimeout ${timeout}`);
      await setTimeoutTo(third.url, 200);
    } finally {
      third.proc.kill('SIGKILL');
      await third.exited;
    }
    // A plain kill -9: its recovery is logged too, and nothing is copied.
    const fourth = await startChild(['--port', '0', '--data-dir', dir]);
    try {
      const line = logLine(fourth.stdout(), 'WAL recovery after an unclean stop');
      assert.match(line, /"transactions":[1-9]/);
      assert.equal((await get(fourth.url, '/redfish/v1/SessionService/')).SessionTimeout, 200);
      assert.equal(readdirSync(dir).filter((f) => f.startsWith('damaged-')).length, 1);
    } finally {
      fourth.proc.kill('SIGTERM');
      await fourth.exited;
    }
  });
});
