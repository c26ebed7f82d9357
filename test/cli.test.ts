// The command line: flags and environment variables, the first administrator's
// password, structured request logs, and durability across kill -9.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { ConfigError, parseConfig } from '../src/config.js';
import { runToExit, startChild } from './support/child.js';
import { FLEET_GLIBC_TUNABLES, FLEET_NODE_FLAGS } from './support/fleet.js';
import { tempDirs } from './support/temp-dirs.js';
import { EventListener } from './support/event-listener.js';
import { basic, insecureAgent } from './support/service.js';
import { fillUp, mountTmpfs, remount, unmount } from './support/tmpfs.js';
import { waitUntil } from './support/wait.js';

async function call(url: string, method: string, path: string, auth: string, body?: unknown) {
  const res = await request(url + path, {
    method: method as 'GET',
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: insecureAgent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = parseConfig([], {});
    assert.equal(c.port, 8443);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, './data');
    assert.equal(c.adminUser, 'Administrator');
    assert.equal(c.adminPassword, undefined);
  });

  it('reads flags, then environment variables', () => {
    const env = { BMC_PORT: '9000', BMC_HOST: '0.0.0.0', BMC_ADMIN_USER: 'root' };
    const c = parseConfig(['--port', '9443', '--data-dir', '/tmp/x', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], env);
    assert.equal(c.port, 9443);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.adminUser, 'root');
    assert.equal(c.dataDir, '/tmp/x');
    assert.equal(c.tlsCert, 'c.pem');
  });

  it('refuses bad values with a clear message', () => {
    assert.throws(() => parseConfig(['--port', 'abc'], {}), ConfigError);
    assert.throws(() => parseConfig(['--port', '70000'], {}), /0-65535/);
    assert.throws(() => parseConfig(['--tls-cert', 'c.pem'], {}), /go together/);
    assert.throws(() => parseConfig(['--nope'], {}));
  });

  it('refuses system, chassis and manager ids that would need percent-encoding in their URIs, naming the character', () => {
    const refused: [string[], Record<string, string>, RegExp][] = [
      [
        ['--chassis-id', 'rack 1'],
        {},
        /: --chassis-id \(BMC_CHASSIS_ID\) must be 1 to 64 of the characters A-Z a-z 0-9 \. _ ~ - .*got "rack 1": " " would need percent-encoding/,
      ],
      [['--system-id', 'a/b'], {}, /--system-id \(BMC_SYSTEM_ID\).*"\/" would need percent-encoding/],
      [['--manager-id', 'mc?1'], {}, /--manager-id.*"\?"/],
      [['--manager-id', 'mc#1'], {}, /--manager-id.*"#"/],
      [['--system-id', 'x\u0001'], {}, /--system-id.*"\\u0001"/],
      [['--chassis-id', 'é'], {}, /--chassis-id.*"é"/],
      [['--chassis-id', '%20'], {}, /"%" would need percent-encoding/],
      [['--system-id', '..'], {}, /--system-id.*it is only dots/],
      [['--system-id', 'x'.repeat(65)], {}, /longer than 64 characters/],
      [[], { BMC_CHASSIS_ID: 'rack 1' }, /--chassis-id \(BMC_CHASSIS_ID\)/],
    ];
    for (const [argv, env, message] of refused) assert.throws(() => parseConfig(argv, env), message, JSON.stringify(argv));
    for (const id of ['1', 'Self', 'rack-1.a', 'a~b_c', 'x'.repeat(64)]) {
      const c = parseConfig(['--system-id', id, '--chassis-id', id, '--manager-id', id], {});
      assert.deepEqual([c.systemId, c.chassisId, c.managerId], [id, id, id]);
    }
  });
});

describe('the service process', () => {
  const newDir = tempDirs('bmc-cli-');

  it('generates the first administrator password once, prints it and writes it to the data dir', async () => {
    const dir = newDir();
    const first = await startChild(['--port', '0', '--data-dir', dir]);
    const file = join(dir, 'initial-admin-password');
    const password = readFileSync(file, 'utf8').trim();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(first.stdout().includes(password), 'printed on first start');
    assert.equal((await call(first.url, 'GET', '/redfish/v1/SessionService/', basic('Administrator', password))).status, 200);
    first.proc.kill('SIGTERM');
    await first.exited;
    const second = await startChild(['--port', '0', '--data-dir', dir]);
    assert.ok(!second.stdout().includes(password), 'not printed again');
    assert.equal((await call(second.url, 'GET', '/redfish/v1/SessionService/', basic('Administrator', password))).status, 200);
    second.proc.kill('SIGTERM');
    await second.exited;
  });

  it('does not start with an id that would need percent-encoding: one clear line, no stack trace', async () => {
    const dir = newDir();
    const start = startChild(['--data-dir', join(dir, 'data'), '--port', '0', '--chassis-id', 'rack 1']);
    await assert.rejects(start, (e: Error) => {
      assert.match(
        e.message,
        /--chassis-id \(BMC_CHASSIS_ID\) must be 1 to 64 of the characters A-Z a-z 0-9 \. _ ~ - and not only dots, got "rack 1"/,
      );
      assert.doesNotMatch(e.message, /\bat .*\.ts:\d+/, 'no stack trace');
      return true;
    });
  });

  it('takes its options from environment variables too', async () => {
    const dir = newDir();
    const child = await startChild([], { BMC_PORT: '0', BMC_DATA_DIR: dir, BMC_ADMIN_USER: 'root', BMC_ADMIN_PASSWORD: 'Env-Pass-123' });
    assert.equal((await call(child.url, 'GET', '/redfish/v1/SessionService/', basic('root', 'Env-Pass-123'))).status, 200);
    assert.ok(!existsSync(join(dir, 'initial-admin-password')), 'no generated password when one is given');
    child.proc.kill('SIGTERM');
    await child.exited;
  });

  it('writes one structured log line per request, with no secrets', async () => {
    const dir = newDir();
    const child = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Log-Pass-123']);
    const login = await request(`${child.url}/redfish/v1/SessionService/Sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'Administrator', Password: 'Log-Pass-123' }),
      dispatcher: insecureAgent,
    });
    await login.body.text();
    const token = String(login.headers['x-auth-token']);
    await call(child.url, 'GET', '/redfish/v1/SessionService/?$select=SessionTimeout', basic('Administrator', 'Log-Pass-123'));
    // Lines are written in batches, at the latest a quarter second later, not only at exit.
    await waitUntil(
      () => child.stdout().includes('"path":"/redfish/v1/SessionService/?$select=SessionTimeout"'),
      'the request line while running',
      3000,
    );
    child.proc.kill('SIGTERM');
    await child.exited;
    const lines = child
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l));
    const get = lines.find((l) => l.method === 'GET');
    assert.ok(get, 'a request line');
    assert.equal(get.path, '/redfish/v1/SessionService/?$select=SessionTimeout');
    assert.equal(get.status, 200);
    assert.equal(get.user, 'Administrator');
    assert.equal(typeof get.ms, 'number');
    assert.ok(!child.stdout().includes('Log-Pass-123'), 'no password in the log');
    assert.ok(!child.stdout().includes(token), 'no token in the log');
  });

  it('keeps serving when the reader of its log goes away', async () => {
    const dir = newDir();
    const child = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Pipe-Pass-123']);
    // `npm start | head`: the pipe's reader closes, and later log writes fail with EPIPE.
    child.proc.stdout?.destroy();
    const auth = basic('Administrator', 'Pipe-Pass-123');
    // 600 request lines (about 160 bytes each) are well over the 64 KiB at which the batcher writes
    // (src/logging.ts): it writes into the closed pipe while these requests are still being answered.
    for (let i = 0; i < 600; i++) assert.equal((await call(child.url, 'GET', '/redfish/v1/SessionService/', auth)).status, 200);
    assert.equal((await call(child.url, 'GET', '/redfish/v1/', auth)).status, 200);
    assert.equal(child.proc.exitCode, null, 'still running');
    child.proc.kill('SIGTERM');
    assert.equal(await child.exited, 0);
  });

  it('stops on SIGTERM within the grace period while a listener holds a delivery open, and delivers the event after the restart', async () => {
    const dir = newDir();
    const auth = basic('Administrator', 'Stop-Pass-123');
    const listener = await EventListener.start();
    try {
      listener.mode = 'hang';
      const first = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Stop-Pass-123']);
      const sub = await call(first.url, 'POST', '/redfish/v1/EventService/Subscriptions/', auth, {
        Destination: listener.url,
        Protocol: 'Redfish',
        Context: 'held',
      });
      assert.equal(sub.status, 201);
      const ev = await call(first.url, 'POST', '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/', auth, {
        MessageId: 'ResourceEvent.1.3.TestMessage',
      });
      assert.ok(ev.status < 300);
      await waitUntil(() => listener.attempts === 1, 'the delivery the listener holds open');
      const started = performance.now();
      first.proc.kill('SIGTERM');
      const code = await Promise.race([first.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 15_000))]);
      if (code === 'still running') first.proc.kill('SIGKILL');
      assert.equal(code, 0);
      // The delivery is aborted at once, well within the 10 s grace period.
      assert.ok(performance.now() - started < 5_000, `stopped after ${Math.round(performance.now() - started)} ms`);
      assert.equal(listener.received.length, 0);
      listener.mode = 'ok';
      const second = await startChild(['--port', '0', '--data-dir', dir]);
      try {
        const delivered = () => listener.received.flatMap((d) => (d.body.Events as { MessageId: string }[]).map((e) => e.MessageId));
        await waitUntil(() => delivered().includes('ResourceEvent.1.3.TestMessage'), 'the owed event after the restart');
        assert.equal(listener.received[0]!.body.Context, 'held');
      } finally {
        second.proc.kill('SIGTERM');
      }
      assert.equal(await second.exited, 0);
    } finally {
      await listener.close();
    }
  });

  it('keeps every acknowledged write across kill -9', async () => {
    const dir = newDir();
    const auth = basic('Administrator', 'Kill-Pass-123');
    const first = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Kill-Pass-123']);
    const uuid = (await call(first.url, 'GET', '/redfish/v1/', auth)).body.UUID;
    const patch = await call(first.url, 'PATCH', '/redfish/v1/SessionService/', auth, { SessionTimeout: 777 });
    assert.equal(patch.status, 200);
    first.proc.kill('SIGKILL');
    await first.exited;
    const second = await startChild(['--port', '0', '--data-dir', dir]);
    assert.equal((await call(second.url, 'GET', '/redfish/v1/SessionService/', auth)).body.SessionTimeout, 777);
    assert.equal((await call(second.url, 'GET', '/redfish/v1/', auth)).body.UUID, uuid);
    second.proc.kill('SIGTERM');
    await second.exited;
  });

  it('keeps every acknowledged write of concurrent requests (one group commit) across kill -9', async () => {
    const dir = newDir();
    const auth = basic('Administrator', 'Kill-Pass-123');
    const args = ['--port', '0', '--data-dir', dir, '--admin-password', 'Kill-Pass-123', '--max-subscriptions', '400'];
    const first = await startChild(args);
    const acked: string[] = [];
    let killed = false;
    // Creations 12 at a time (12 Basic connections: within the session limit); the process is killed
    // once 100 are acknowledged, with the next ones in flight.
    const create = async (i: number) => {
      const r = await call(first.url, 'POST', '/redfish/v1/EventService/Subscriptions/', auth, {
        Destination: 'https://127.0.0.1:9/events',
        Protocol: 'Redfish',
        Context: `c${i}`,
      }).catch(() => undefined);
      if (r?.status === 201 && !killed) {
        acked.push(`c${i}`);
        if (acked.length === 100) {
          killed = true;
          first.proc.kill('SIGKILL');
        }
      }
    };
    for (let wave = 0; wave < 25 && !killed; wave++) await Promise.all(Array.from({ length: 12 }, (_, j) => create(wave * 12 + j)));
    if (!killed) first.proc.kill('SIGKILL');
    await first.exited;
    assert.ok(killed, `killed while writing (${acked.length} acknowledged)`);
    const second = await startChild(['--port', '0', '--data-dir', dir, '--max-subscriptions', '400']);
    const subs = await call(second.url, 'GET', '/redfish/v1/EventService/Subscriptions/?$expand=.', auth);
    const kept = new Set((subs.body.Members as { Context: string }[]).map((m) => m.Context));
    assert.deepEqual(
      acked.filter((c) => !kept.has(c)),
      [],
      'every acknowledged creation is there',
    );
    second.proc.kill('SIGTERM');
    await second.exited;
  });
});

describe("a fleet's memory settings: its young generation and glibc's cache", () => {
  const newDir = tempDirs('bmc-cli-young-');
  const startFleet = (nodeFlags: string[], env: Record<string, string> = { GLIBC_TUNABLES: FLEET_GLIBC_TUNABLES }) =>
    startChild(['--fleet', '2', '--fleet-addresses', '127.0.8.1', '--port', '0', '--data-dir', newDir()], env, { nodeFlags });
  /** The warning whose message starts with `start`, from a fleet's log. */
  const warningOf = (start: string) => (out: string) =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; minSemiSpaceMiB?: number; maxSemiSpaceMiB?: number; tcacheCount?: number })
      .find((l) => l.level === 40 && l.msg.startsWith(start));
  const warning = warningOf('a fleet runs best with node');
  const tcacheWarning = warningOf('a fleet runs best with GLIBC_TUNABLES');

  it('is left alone with the flags npm run fleet gives (package.json config.fleet_node_flags)', async () => {
    const fleet = await startFleet([...FLEET_NODE_FLAGS]);
    assert.equal(warning(fleet.stdout()), undefined, fleet.stdout());
    assert.equal(tcacheWarning(fleet.stdout()), undefined, fleet.stdout());
    fleet.proc.kill('SIGTERM');
    await fleet.exited;
  });

  it("is warned of without npm run fleet's glibc tunables (package.json config.fleet_glibc_tunables), or with a smaller cache", async () => {
    for (const [tunables, count] of [
      ['', 7],
      ['glibc.malloc.tcache_count=64', 64],
    ] as const) {
      const fleet = await startFleet([...FLEET_NODE_FLAGS], { GLIBC_TUNABLES: tunables });
      const w = tcacheWarning(fleet.stdout());
      assert.ok(w, `GLIBC_TUNABLES=${tunables}: a warning`);
      assert.match(w.msg, new RegExp(`GLIBC_TUNABLES=${FLEET_GLIBC_TUNABLES.replace(/\./g, '\\.')}`));
      assert.equal(w.tcacheCount, count);
      fleet.proc.kill('SIGTERM');
      await fleet.exited;
    }
  });

  it('is warned of when it may shrink below them (no floor) or stay smaller (a lower maximum)', async () => {
    for (const [flags, min, max] of [
      [['--max-semi-space-size=256'], 0, 256],
      [['--min-semi-space-size=64', '--max-semi-space-size=64'], 64, 64],
    ] as const) {
      const fleet = await startFleet([...flags]);
      const w = warning(fleet.stdout());
      assert.ok(w, `${flags.join(' ')}: a warning`);
      assert.match(w.msg, /--min-semi-space-size=256 --max-semi-space-size=256/);
      assert.deepEqual([w.minSemiSpaceMiB, w.maxSemiSpaceMiB], [min, max]);
      fleet.proc.kill('SIGTERM');
      await fleet.exited;
    }
  });
});

describe('start-up failures: one line naming the file and the remedy, an exit code per kind, no stack trace', () => {
  const newDir = tempDirs('bmc-fail-');
  /** A controller that has started once (and was stopped cleanly). */
  const controller = async (dir = newDir()) => {
    const child = await startChild(['--port', '0', '--data-dir', dir, '--admin-password', 'Fail-Pass-123']);
    child.proc.kill('SIGTERM');
    assert.equal(await child.exited, 0);
    return dir;
  };
  const fails = async (args: string[], code: number, file: string, what: RegExp) => {
    const r = await runToExit(['--port', '0', ...args], {}, 20_000);
    assert.equal(r.code, code, r.stderr + r.stdout);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.startsWith(`cannot start: ${file}`), r.stderr);
    assert.match(r.stderr, what);
    assert.doesNotMatch(r.stderr, /\n\s+at |DECODER|SqliteError/);
  };

  it('a damaged key file: 3 (firmware signing key, HTTPS key)', async () => {
    const dir = await controller();
    const key = join(dir, 'firmware-signing-key.pem');
    writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    await fails(['--data-dir', dir], 3, key, /not a readable PEM private key\. Restore it from a backup.*packages signed with the old key/);
    rmSync(key);
    const https = join(dir, 'https-key.pem');
    writeFileSync(https, 'not a key\n');
    await fails(['--data-dir', dir], 3, https, /not a readable PEM private key/);
  });

  it('a directory where a file belongs: 5 (the database, a key)', async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'bmc.sqlite'));
    await fails(['--data-dir', dir], 5, join(dir, 'bmc.sqlite'), /not a file\. Move what is at that path aside/);
    const other = await controller();
    const key = join(other, 'license-signing-key.pem');
    rmSync(key);
    mkdirSync(key);
    await fails(['--data-dir', other], 5, key, /a directory, where the service keeps a file \(EISDIR\)/);
  });

  it('a read-only file system: 4; a full one: 6 (a tmpfs, where mounting is permitted)', async (t) => {
    const mnt = newDir();
    if (!mountTmpfs(mnt, '4m')) {
      t.skip('mounting a tmpfs is not permitted here (needs root)');
      return;
    }
    try {
      const dir = await controller(join(mnt, 'data'));
      remount(mnt, 'ro');
      await fails(['--data-dir', dir], 4, join(dir, 'bmc.sqlite'), /the file system is read-only \(EROFS\)\. Make the data dir writable/);
      remount(mnt, 'rw');
      fillUp(mnt);
      await fails(['--data-dir', dir], 6, join(dir, 'bmc.sqlite'), /no space left.*Free space on that file system/);
      await fails(['--data-dir', join(mnt, 'new')], 6, join(mnt, 'new'), /no space left|Free space/);
    } finally {
      unmount(mnt);
    }
  });

  it('an address in use: 7; a bad configuration: 2', async () => {
    const dir = await controller();
    const running = await startChild(['--port', '0', '--data-dir', dir]);
    try {
      const port = new URL(running.url).port;
      const r = await runToExit(['--port', port, '--data-dir', newDir()], {}, 20_000);
      assert.equal(r.code, 7, r.stderr);
      assert.match(
        r.stderr.trim(),
        new RegExp(`^cannot start: cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)\\. Choose another`),
      );
    } finally {
      running.proc.kill('SIGTERM');
      await running.exited;
    }
    const bad = await runToExit(['--port', '0', '--data-dir', newDir(), '--hardware', 'no-such-profile'], {}, 20_000);
    assert.equal(bad.code, 2, bad.stderr);
    assert.doesNotMatch(bad.stderr, /\n\s+at /);
  });
});
