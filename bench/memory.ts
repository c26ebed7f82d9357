// Memory after attacks (issue 24, item 9): the service as `npm start` runs it, then a smaller
// version of the attack run that took it from 78 MB to 408 MB for good: every $expand mode and
// level over a crawl of the resource tree plus two dozen *($levels=6) at once, bad logins
// (sessions and Basic, unknown and known users), connections that trickle unauthenticated
// bodies, and GETs of paths that do not exist. RSS after each phase, then 10, 30 and 60 s after
// the end (V8 collects, and gives memory back, after 30 to 60 s of quiet), and where it is
// (malloc's heap, anonymous mappings, files). With MEMORY_SNAPSHOTS=<dir> it also writes a heap
// snapshot (taken after a full GC) idle and at the end, and prints what grew between them by
// constructor: what the service holds on to. Not part of the tests; loopback only.
//   npm run bench:memory      (MEMORY_URIS=150 MEMORY_LOGINS=3000 MEMORY_SLOW=1000 MEMORY_PATHS=5000)
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { Agent, request } from 'undici';
import { heapBy, snapshot, snapshotFlags } from './heap-snapshot.js';
import { PASSWORD, rssMiB, sleep, startBenchService } from './support.js';

const URIS = Number(process.env.MEMORY_URIS ?? 150);
const LOGINS = Number(process.env.MEMORY_LOGINS ?? 3000);
const SLOW = Number(process.env.MEMORY_SLOW ?? 1000);
const PATHS = Number(process.env.MEMORY_PATHS ?? 5000);
const SNAPSHOTS = process.env.MEMORY_SNAPSHOTS;

const agent = new Agent({ connect: { rejectUnauthorized: false }, connections: 8 });
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = basic('Administrator', PASSWORD);

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const r = await request(base + path, { headers, dispatcher: agent });
  return { status: r.statusCode, text: await r.body.text() };
}

/** Run fn over items, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/** Resource URIs found by following @odata.id links from the service root, breadth first. */
async function crawl(base: string, limit: number): Promise<string[]> {
  const seen = new Set(['/redfish/v1/']);
  const queue = ['/redfish/v1/'];
  const found: string[] = [];
  while (queue.length && found.length < limit) {
    const uri = queue.shift() as string;
    const r = await get(base, uri, { authorization: ADMIN });
    if (r.status !== 200 || !r.text.startsWith('{')) continue;
    found.push(uri);
    for (const m of r.text.matchAll(/"@odata\.id":"(\/redfish\/v1\/[^"#?]*)"/g)) {
      const next = m[1] as string;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return found;
}

async function expansions(base: string, token: string): Promise<string> {
  const uris = await crawl(base, URIS);
  const queries = ['.', '*', '~'].flatMap((m) => [1, 2, 3, 4, 5, 6].map((l) => `${m}($levels=${l})`));
  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  await pool(
    uris.flatMap((u) => queries.map((q) => `${u}?$expand=${q}`)),
    4,
    async (path) => count((await get(base, path, { 'x-auth-token': token })).status),
  );
  for (let round = 0; round < 2; round++) {
    const big = await Promise.all(
      Array.from({ length: 24 }, () => get(base, '/redfish/v1/Systems/1/?$expand=*($levels=6)', { 'x-auth-token': token })),
    );
    for (const r of big) count(r.status);
  }
  return `${uris.length} resources × 18 expansions + 2 × 24 *($levels=6): ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`;
}

async function badLogins(base: string): Promise<string> {
  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  await pool(
    Array.from({ length: LOGINS }, (_, i) => i),
    8,
    async (i) => {
      const user = i % 3 === 0 ? 'Administrator' : `nobody-${i}-${Math.random().toString(36).slice(2)}`;
      const password = `wrong-${Math.random().toString(36).slice(2)}`;
      if (i % 2) {
        count((await get(base, '/redfish/v1/SessionService/', { authorization: basic(user, password) })).status);
      } else {
        const r = await request(`${base}/redfish/v1/SessionService/Sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ UserName: user, Password: password }),
          dispatcher: agent,
        });
        await r.body.text();
        count(r.statusCode);
      }
    },
  );
  return `${LOGINS} bad logins (sessions and Basic): ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}`;
}

/** Connections that send an unauthenticated PATCH with a 100,000-byte body and one byte of it, each from 127.0.0.x. */
async function slowBodies(port: number): Promise<string> {
  let answered = 0;
  let closedByService = 0;
  const sockets = await Promise.all(
    Array.from(
      { length: SLOW },
      (_, i) =>
        new Promise<ReturnType<typeof connect> | undefined>((resolve) => {
          const s = connect({
            port,
            host: '127.0.0.1',
            rejectUnauthorized: false,
            localAddress: `127.0.${1 + (i % 200)}.${2 + (i % 250)}`,
          } as never);
          s.on('error', () => resolve(undefined));
          s.once('data', () => answered++);
          s.once('end', () => closedByService++);
          s.once('secureConnect', () => {
            s.write(
              'PATCH /redfish/v1/Systems/1/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
            );
            resolve(s);
          });
        }),
    ),
  );
  await sleep(5_000);
  for (const s of sockets) s?.destroy();
  return `${SLOW} slow unauthenticated bodies: ${answered} answered, ${closedByService} closed by the service within 5 s`;
}

async function oddPaths(base: string, token: string): Promise<string> {
  await pool(
    Array.from({ length: PATHS }, (_, i) => i),
    8,
    async (i) => {
      const path = `/redfish/v1/${Math.random().toString(36).slice(2)}/${i}/?$select=${'x'.repeat(i % 50)}`;
      await get(base, path, i % 2 ? { 'x-auth-token': token } : {});
    },
  );
  return `${PATHS} GETs of paths that do not exist`;
}

/** Where the RSS is: the brk heap (malloc's main arena), anonymous mappings (V8's heap, other malloc arenas, large buffers), files. */
function mappings(pid: number): string {
  const sums = { heap: 0, anonymous: 0, files: 0 };
  let kind: keyof typeof sums = 'files';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) kind = head[1] === '[heap]' ? 'heap' : head[1] === '' || head[1]?.startsWith('[anon') ? 'anonymous' : 'files';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) sums[kind] += Number(rss[1]) / 1024;
  }
  return `RSS by mapping: brk heap ${sums.heap.toFixed(1)} MiB, anonymous ${sums.anonymous.toFixed(1)} MiB, files ${sums.files.toFixed(1)} MiB`;
}

function growth(idle: string, end: string): string[] {
  const a = heapBy(idle);
  const b = heapBy(end);
  const rows = [...b.by].map(([k, v]) => ({ k, size: v.size - (a.by.get(k)?.size ?? 0), count: v.count - (a.by.get(k)?.count ?? 0) }));
  rows.sort((x, y) => y.size - x.size);
  const mib = (x: number) => (x / 1024 / 1024).toFixed(1);
  return [
    `  live heap (after a full GC): idle ${mib(a.total)} MiB, after the attacks ${mib(b.total)} MiB`,
    '  grew most (self size, objects):',
    ...rows.slice(0, 12).map((r) => `    ${mib(r.size).padStart(7)} MiB  ${String(r.count).padStart(8)}  ${r.k.slice(0, 90)}`),
  ];
}

async function main(): Promise<void> {
  if (SNAPSHOTS && !existsSync(SNAPSHOTS)) mkdirSync(SNAPSHOTS, { recursive: true });
  const svc = await startBenchService({
    built: true,
    nodeArgs: SNAPSHOTS ? snapshotFlags(SNAPSHOTS) : [],
  });
  const lines: string[] = [];
  const rss = (what: string) => lines.push(`  RSS ${what.padEnd(38)} ${rssMiB(svc.pid).toFixed(1)} MiB`);
  try {
    const login = await request(`${svc.base}/redfish/v1/SessionService/Sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'Administrator', Password: PASSWORD }),
      dispatcher: agent,
    });
    await login.body.text();
    const token = login.headers['x-auth-token'] as string;
    await crawl(svc.base, 20);
    await sleep(2_000);
    rss('idle');
    const idleSnapshot = SNAPSHOTS ? await snapshot(svc.child, SNAPSHOTS, 'idle') : undefined;
    const phases: [string, () => Promise<string>][] = [
      ['after the expansions', () => expansions(svc.base, token)],
      ['after the bad logins', () => badLogins(svc.base)],
      ['after the slow bodies', () => slowBodies(svc.port)],
      ['after the odd paths', () => oddPaths(svc.base, token)],
    ];
    for (const [what, run] of phases) {
      lines.push(`  ${await run()}`);
      rss(what);
    }
    await sleep(10_000);
    rss('10 s after the end');
    await sleep(20_000);
    rss('30 s after the end');
    await sleep(30_000);
    rss('60 s after the end');
    if (idleSnapshot) {
      const end = await snapshot(svc.child, SNAPSHOTS as string, 'end');
      rss('after the heap snapshot (a full GC)');
      lines.push(`  ${mappings(svc.pid)}`, ...growth(idleSnapshot, end));
    } else lines.push(`  ${mappings(svc.pid)}`);
    process.stdout.write(`memory after attacks:\n${lines.join('\n')}\n`);
  } finally {
    await agent.close();
    await svc.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
