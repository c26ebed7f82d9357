// A fleet larger than its descriptor limit: controllers with addresses of their own share one
// listening socket, and databases rest (closed) while others are used, opened again when used,
// without losing an acknowledged write across kill -9. A fleet that cannot fit is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from 'undici';
import { runToExit, startChild, type Child } from '../support/child.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic } from '../support/service.js';

// Without sharing: 200 listening sockets and 600 database descriptors against a limit of 160.
const CONTROLLERS = 200;
const NOFILE = 160;
const FIRST = '127.0.6.1';

function addressOf(i: number): string {
  return `127.0.${6 + Math.floor((1 + i) / 256)}.${(1 + i) % 256}`;
}

describe('a fleet beyond its descriptor limit', () => {
  let dir: string;
  let child: Child | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-fds-'));
  });
  after(() => {
    child?.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    child = await startChild(
      [
        ...['--fleet', String(CONTROLLERS), '--fleet-addresses', FIRST, '--port', '0', '--enable-control'],
        ...['--data-dir', dir, '--admin-password', ADMIN_PASSWORD],
      ],
      {},
      { nofile: NOFILE, startMs: 240_000 },
    );
    const port = Number(new URL(child.url).port);
    const ca = readFileSync(join(dir, 'fleet-ca.pem'), 'utf8');
    /** One new connection per controller, closed after, as a fleet manager polls. */
    const call = async (i: number, method: string, body?: unknown, path = '/redfish/v1/Systems/1/') => {
      const c = new Client(`https://${addressOf(i)}:${port}`, { connect: { ca } });
      try {
        const res = await c.request({
          path,
          method: method,
          headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD), 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await res.body.text();
        return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
      } finally {
        await c.close();
      }
    };
    return { call, child };
  };

  /** Every controller, a few at a time. */
  const each = async (fn: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < CONTROLLERS) await fn(next++);
      }),
    );
  };

  it('serves every controller on its own address, writes to each, and keeps every acknowledged write across kill -9', async () => {
    const { call, child: c } = await start();
    const limits =
      /"msg":"file descriptor limit (\d+): (\d+) socket\(s\) to accept on, (\d+) connections, (\d+) for event deliveries \(\d+ per destination\), (\d+) of (\d+) databases/.exec(
        c.stdout(),
      );
    assert.ok(limits, c.stdout().slice(0, 2000));
    assert.equal(Number(limits[1]), NOFILE);
    assert.equal(Number(limits[2]), 1, 'one listening socket for every address');
    assert.ok(Number(limits[4]) <= 8, `event deliveries hold a small share: ${limits[0]}`);
    assert.ok(Number(limits[5]) < CONTROLLERS, `only some databases open at once: ${limits[0]}`);

    const acknowledged = new Set<number>();
    await each(async (i) => {
      const res = await call(i, 'PATCH', { AssetTag: `tag-${i}` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      acknowledged.add(i);
    });
    const open = readdirSync(`/proc/${c.proc.pid}/fd`).length;
    assert.ok(open <= NOFILE, `${open} descriptors`);
    const d = (await call(0, 'GET', undefined, '/control/fleet/')).body.Descriptors;
    assert.equal(d.Limit, NOFILE);
    assert.ok(d.DatabasesOpen <= d.DatabasesOpenAtOnce, JSON.stringify(d));
    assert.ok(d.DatabasesReopened > 0, `databases rested and were opened again: ${JSON.stringify(d)}`);
    await each(async (i) => {
      assert.equal((await call(i, 'GET')).body.AssetTag, `tag-${i}`);
    });

    // Connections beyond the fleet's share of the limit are closed as they arrive (an accept never
    // fails for want of a descriptor), to any controller; once they go, new ones are served.
    const held = Number(limits[3]);
    const port = Number(new URL(c.url).port);
    const sockets = Array.from({ length: held + 8 }, (_, k) => connect(port, addressOf(k % CONTROLLERS)));
    const closedAtOnce = await Promise.all(
      sockets.map((s) => new Promise<boolean>((resolve) => s.once('close', () => resolve(true)).setTimeout(3000, () => resolve(false)))),
    );
    assert.ok(closedAtOnce.filter(Boolean).length >= 8, `${closedAtOnce.filter(Boolean).length} closed of ${sockets.length}`);
    assert.match(c.stdout(), /connections \(its share of the descriptor limit\) are all taken/);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await call(CONTROLLERS - 1, 'GET')).status, 200);

    c.proc.kill('SIGKILL');
    await c.exited;
    const again = await start();
    await each(async (i) => {
      const sys = await again.call(i, 'GET');
      assert.equal(sys.status, 200);
      assert.equal(sys.body.AssetTag, `tag-${i}`, `controller ${i}`);
    });
    assert.equal(acknowledged.size, CONTROLLERS);
  });

  it('refuses, naming the limit, a fleet whose listening sockets leave no room', async () => {
    // Refused before anything listens: the ports are never bound.
    const r = await runToExit(
      [...['--fleet', String(CONTROLLERS), '--port', '47000'], ...['--data-dir', join(dir, 'ports'), '--admin-password', ADMIN_PASSWORD]],
      {},
      60_000,
      { nofile: NOFILE },
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /needs at least \d+ file descriptors .*the limit is 160 \(ulimit -n\)/);
    assert.match(r.stdout + r.stderr, /--fleet-addresses/);
  });
});
