// Fleet benchmark (issues: fleet mode, Performance III). The built service as `npm run fleet` runs
// it, under a descriptor limit of FLEET_NOFILE (20,000), pinned to CPU 0; the load from this
// process on CPU 1 (`npm run bench:fleet`).
//   1. start: a fleet of FLEET_SIZE controllers on a fresh data dir, then again on the same one
//      (one core; then two, unless FLEET_TWO_CORES=0);
//   2. RSS idle, against a fleet of one (the base), per controller above the base;
//   3. a fleet manager's poll: one new TLS connection per controller, GET of its service root and
//      Systems/1/, 64 at a time, over every controller; the same connections and GETs against a bare
//      node:https server with a controller's certificate and bytes (TLS handshakes per second);
//   4. GET Systems/1/ latency on the first, a middle and the last controller, one connection,
//      against a single controller (`npm start` without --fleet);
//   5. aggregate GET throughput: 32 connections on 32 different controllers of the fleet, against
//      32 connections on a single controller running beside it;
//   3 and 5 alternate fleet and yardstick FLEET_ALTERNATIONS times (3): the ratios are medians;
//   6. kill -9 of the fleet under writes spread over every controller: no acknowledged write lost.
// Prints one table and writes bench/fleet-results.json. Events across a fleet: bench/fleet-events.ts;
// memory under hours of load: bench/fleet-soak.ts.
//   FLEET_SIZE=10000 BENCH_SECONDS=10 npm run bench:fleet
//   FLEET_PARTS=start,poll (of start, poll, latency, spread, kill; default all) runs some of them:
//   at 10,000 on a loaded machine each start takes minutes.
//   FLEET_NODE_FLAGS adds node flags to the fleet's (`--cpu-prof --cpu-prof-dir=/tmp/p`, `--trace-gc`);
//   FLEET_TRACE_FILE=/tmp/gc.txt keeps what the fleet prints that is not its log, with a line at each
//   spread round's start and end.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import {
  BASE_PORT,
  LIMITS,
  NOFILE,
  PASSWORD,
  auth,
  each,
  fleetArgs,
  insecure,
  onNewConnection,
  printTable,
  cpuMs,
  rssMiB,
  sleep,
  start,
  stop,
  traceMark,
} from './fleet-support.js';

const SIZE = Number(process.env.FLEET_SIZE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ALTERNATIONS = Number(process.env.FLEET_ALTERNATIONS ?? 3);
const TWO_CORES = process.env.FLEET_TWO_CORES !== '0';
const PARTS = new Set((process.env.FLEET_PARTS ?? 'start,poll,latency,spread,kill').split(','));
const CONNECTIONS = 32;
/** A fleet manager's parallel polls. */
const POLLERS = 64;
const SINGLE_PORT = BASE_PORT - 1;
const BARE_PORT = BASE_PORT - 2;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** GET latency on one kept-alive connection, one request at a time (2,000 after 200 to warm up), in ms with µs precision. */
async function sequential(port: number): Promise<{ p50: number; p99: number }> {
  const agent = new Agent({ connect: insecure, connections: 1 });
  const times: number[] = [];
  for (let n = 0; n < 2200; n++) {
    const t = performance.now();
    const res = await request(`https://127.0.0.1:${port}/redfish/v1/Systems/1/`, { headers: { authorization: auth }, dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET on ${port}: ${res.statusCode}`);
    if (n >= 200) times.push(performance.now() - t);
  }
  await agent.close();
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.floor(q * (times.length - 1))]! * 1000) / 1000;
  return { p50: at(0.5), p99: at(0.99) };
}

/** One connection on each of `count` controllers at once; throughput summed, the worst p99. */
async function spread(ports: number[], seconds: number, pid: number) {
  const run = (duration: number) =>
    Promise.all(
      ports.map((port) =>
        autocannon({
          url: `https://127.0.0.1:${port}/redfish/v1/Systems/1/`,
          headers: { authorization: auth },
          connections: 1,
          duration,
          tlsOptions: insecure,
        }),
      ),
    );
  traceMark(`spread warm-up on ${new Set(ports).size} port(s)`);
  await run(2);
  traceMark(`spread on ${new Set(ports).size} port(s)`);
  const cpu0 = cpuMs(pid);
  const rs = await run(seconds);
  const cpu = cpuMs(pid) - cpu0;
  traceMark('spread done');
  if (rs.some((r) => r.non2xx || r.errors)) throw new Error('errors in the spread load');
  const requests = rs.reduce((n, r) => n + r.requests.total, 0);
  return {
    rps: rs.reduce((n, r) => n + r.requests.average, 0),
    p99: Math.max(...rs.map((r) => r.latency.p99)),
    /** The server's CPU time per request, µs. */
    cpuUs: (1000 * cpu) / requests,
  };
}

/** Writers on disjoint sets of controllers, each counting up one controller's AssetTag; SIGKILL mid-way; every acknowledged count must be there after a restart. */
async function killTest(dir: string): Promise<{ acknowledged: number; lost: number; controllers: number }> {
  // Idle connections closed after a second: ten thousand controllers' kept-alive ones would take every descriptor the fleet has for them.
  const agent = new Agent({ connect: insecure, keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
  const call = async (port: number, method: string, body?: unknown) => {
    const res = await request(`https://127.0.0.1:${port}/redfish/v1/Systems/1/`, {
      method: method as 'GET',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  let fleet = await start(fleetArgs(dir, SIZE));
  const acked = new Map<number, number>();
  let running = true;
  const writers = Array.from({ length: CONNECTIONS }, async (_, w) => {
    for (let round = 1; running; round++) {
      for (let i = w; i < SIZE && running; i += CONNECTIONS) {
        try {
          if ((await call(BASE_PORT + i, 'PATCH', { AssetTag: `w-${round}` })).status < 300) acked.set(i, round);
        } catch {
          return;
        }
      }
    }
  });
  // At least 10 s: a loaded machine may take seconds for the first writes.
  await sleep(Math.max(SECONDS, 10) * 1000);
  await stop(fleet, 'SIGKILL');
  running = false;
  await Promise.all(writers);
  fleet = await start(fleetArgs(dir, SIZE));
  let lost = 0;
  let count = 0;
  for (const [i, round] of acked) {
    const tag = (await call(BASE_PORT + i, 'GET')).body.AssetTag as string;
    count += round;
    if (Number(/^w-(\d+)$/.exec(tag)?.[1]) < round) lost++;
  }
  await stop(fleet);
  await agent.close();
  return { acknowledged: count, lost, controllers: acked.size };
}

/** A fleet manager's poll: a new TLS connection per origin, GET of the service root and Systems/1/, POLLERS at a time. */
async function poll(origins: string[]): Promise<{ seconds: number; perSecond: number }> {
  const t0 = performance.now();
  await each(origins.length, POLLERS, async (i) => {
    const answers = await onNewConnection(origins[i]!, [{ path: '/redfish/v1/' }, { path: '/redfish/v1/Systems/1/' }]);
    for (const a of answers) if (a.status !== 200) throw new Error(`${origins[i]}: ${a.status} ${a.body.slice(0, 200)}`);
  });
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, perSecond: origins.length / seconds };
}

/** A bare node:https server (bench/bare-server.ts) with controller 0's certificate, answering its two GETs with its bytes. */
async function startBare(dir: string) {
  const canned: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  const nodes = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  for (const path of ['/redfish/v1/', '/redfish/v1/Systems/1/']) {
    const res = await request(`https://127.0.0.1:${BASE_PORT}${path}`, {
      headers: { authorization: auth },
      dispatcher: new Agent({ connect: insecure }),
    });
    const headers: Record<string, string> = {};
    for (const [h, v] of Object.entries(res.headers)) if (!nodes.has(h) && v !== undefined) headers[h] = String(v);
    canned[`GET ${path}`] = { status: res.statusCode, headers, body: await res.body.text() };
  }
  const cannedFile = join(dir, 'canned.json');
  writeFileSync(cannedFile, JSON.stringify(canned));
  const controller = join(dir, 'controllers', '0');
  const proc = spawn(
    'taskset',
    [
      '-c',
      '0',
      process.execPath,
      '--import',
      'tsx',
      'bench/bare-server.ts',
      join(controller, 'https-cert.pem'),
      join(controller, 'https-key.pem'),
      cannedFile,
      String(BARE_PORT),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => (String(d).includes('ready') ? resolve() : undefined));
    proc.on('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
  return proc;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bmc-bench-fleet-'));
  try {
    // The base: a fleet of one, idle.
    const one = await start(fleetArgs(join(root, 'one'), 1));
    await sleep(5000);
    const baseRss = rssMiB(one.proc.pid!);
    await stop(one);

    // Start times on one core (as everything else here), then with both (the machine's two).
    const dir = join(root, 'fleet');
    const first = await start(fleetArgs(dir, SIZE));
    const firstMs = first.wallMs;
    await stop(first);
    let firstTwo: number | undefined;
    let restartTwo: number | undefined;
    if (TWO_CORES && PARTS.has('start')) {
      const twoCores = join(root, 'fleet-2');
      const f = await start(fleetArgs(twoCores, SIZE), '0,1');
      await stop(f);
      const r = await start(fleetArgs(twoCores, SIZE), '0,1');
      await stop(r);
      rmSync(twoCores, { recursive: true, force: true });
      [firstTwo, restartTwo] = [f.wallMs, r.wallMs];
    }
    const fleet = await start(fleetArgs(dir, SIZE));
    await sleep(10_000);
    const idleRss = rssMiB(fleet.proc.pid!);

    // The yardsticks beside it: a bare node:https server, and a single controller.
    const bare = await startBare(dir);
    const single = await start([
      '--port',
      String(SINGLE_PORT),
      '--data-dir',
      join(root, 'single'),
      '--admin-password',
      PASSWORD,
      '--ssdp-port',
      '0',
      ...LIMITS,
    ]);
    await sleep(2000);
    const singleRss = rssMiB(single.proc.pid!);

    const origins = Array.from({ length: SIZE }, (_, i) => `https://127.0.0.1:${BASE_PORT + i}`);
    const polls: { fleet: number; bare: number; fleetSeconds: number }[] = [];
    for (let k = 0; k < (PARTS.has('poll') ? ALTERNATIONS : 0); k++) {
      const f = await poll(origins);
      const b = await poll(origins.map(() => `https://127.0.0.1:${BARE_PORT}`));
      polls.push({ fleet: f.perSecond, bare: b.perSecond, fleetSeconds: f.seconds });
    }
    bare.kill('SIGTERM');

    const latency: Record<string, { p50: number; p99: number }> = {};
    if (PARTS.has('latency'))
      for (const i of [0, Math.floor(SIZE / 2), SIZE - 1]) latency[`controller ${i}`] = await sequential(BASE_PORT + i);
    const singleLatency = PARTS.has('latency') ? await sequential(SINGLE_PORT) : { p50: NaN, p99: NaN };

    // The same load generator for both (one autocannon per connection): on 32 controllers, and all on the single one.
    const spreads: { fleet: Awaited<ReturnType<typeof spread>>; single: Awaited<ReturnType<typeof spread>> }[] = [];
    const spreadPorts = Array.from({ length: CONNECTIONS }, (_, k) => BASE_PORT + Math.floor((k * SIZE) / CONNECTIONS));
    for (let k = 0; k < (PARTS.has('spread') ? ALTERNATIONS : 0); k++) {
      spreads.push({
        fleet: await spread(spreadPorts, SECONDS, fleet.proc.pid!),
        single: await spread(
          spreadPorts.map(() => SINGLE_PORT),
          SECONDS,
          single.proc.pid!,
        ),
      });
    }
    const loadedRss = rssMiB(fleet.proc.pid!);
    await stop(single);
    await stop(fleet);

    const kill = PARTS.has('kill') ? await killTest(join(root, 'kill')) : undefined;

    const perController = (idleRss - baseRss) / (SIZE - 1);
    const pollRatio = median(polls.map((p) => p.fleet / p.bare));
    const spreadRatio = median(spreads.map((x) => x.fleet.rps / x.single.rps));
    const s = (ms: number | undefined) => (ms === undefined ? 'not run' : `${(ms / 1000).toFixed(1)} s`);
    const mid = <T>(xs: T[], ratio: (x: T) => number) => xs.find((x) => ratio(x) === median(xs.map(ratio)));
    const midSpread = mid(spreads, (x) => x.fleet.rps / x.single.rps);
    const midPoll = mid(polls, (p) => p.fleet / p.bare);
    const rows: [string, string, string][] = [
      [`descriptor limit (prlimit --nofile)`, String(NOFILE), ''],
      [`start, ${SIZE} controllers, fresh data dir, one core`, s(firstMs), '< 60 s at 10,000'],
      [`start, ${SIZE} controllers, restart, one core`, s(fleet.wallMs), '< 45 s at 10,000'],
      [`start, ${SIZE} controllers, fresh data dir, two cores`, s(firstTwo), ''],
      [`start, ${SIZE} controllers, restart, two cores`, s(restartTwo), ''],
      ['RSS idle, fleet of 1 (base)', `${Math.round(baseRss)} MiB`, ''],
      [`RSS idle, fleet of ${SIZE}`, `${Math.round(idleRss)} MiB`, '< 6 GiB at 10,000'],
      ['RSS per controller above the base', `${perController.toFixed(3)} MiB`, '< 0.55 MiB'],
      ['RSS after the load', `${Math.round(loadedRss)} MiB`, ''],
      ['RSS idle, single controller (npm start)', `${Math.round(singleRss)} MiB`, ''],
    ];
    if (midPoll) {
      rows.push(
        [
          `poll of all ${SIZE}: new TLS connection, GET root + Systems/1/, ${POLLERS} at a time`,
          `${midPoll.fleetSeconds.toFixed(1)} s, ${Math.round(midPoll.fleet)} connections/s`,
          '< 60 s at 10,000',
        ],
        ['the same against bare node:https', `${Math.round(midPoll.bare)} connections/s`, ''],
        [
          'TLS handshakes + 2 GETs, fleet / bare (median)',
          `${(100 * pollRatio).toFixed(0)}% (${polls.map((p) => `${((100 * p.fleet) / p.bare).toFixed(0)}%`).join(', ')})`,
          '',
        ],
      );
    }
    rows.push(
      ...Object.entries(latency).map(([k, v]): [string, string, string] => [
        `GET Systems/1/, one at a time, ${k}: p50 / p99`,
        `${v.p50} / ${v.p99} ms`,
        `single: ${singleLatency.p50} / ${singleLatency.p99} ms`,
      ]),
    );
    if (midSpread) {
      rows.push(
        [
          `GET Systems/1/, ${CONNECTIONS} connections on ${CONNECTIONS} controllers`,
          `${Math.round(midSpread.fleet.rps)} req/s, p99 ${midSpread.fleet.p99} ms, ${Math.round(midSpread.fleet.cpuUs)} µs CPU each`,
          'p99 < 10 ms',
        ],
        [
          `GET Systems/1/, ${CONNECTIONS} connections on a single controller`,
          `${Math.round(midSpread.single.rps)} req/s, p99 ${midSpread.single.p99} ms, ${Math.round(midSpread.single.cpuUs)} µs CPU each`,
          '',
        ],
        [
          'fleet throughput / single (median)',
          `${(100 * spreadRatio).toFixed(0)}% (${spreads.map((x) => `${((100 * x.fleet.rps) / x.single.rps).toFixed(0)}%`).join(', ')})`,
          '≥ 80%',
        ],
      );
    }
    if (kill) {
      rows.push([
        `kill -9 under writes to all ${SIZE}`,
        `${kill.acknowledged} acknowledged on ${kill.controllers} controllers, ${kill.lost} lost`,
        '0 lost',
      ]);
    }
    printTable(rows);
    writeFileSync(
      'bench/fleet-results.json',
      `${JSON.stringify({ size: SIZE, nofile: NOFILE, firstMs, restartMs: fleet.wallMs, firstTwoCoresMs: firstTwo, restartTwoCoresMs: restartTwo, baseRss, idleRss, loadedRss, perController, singleRss, polls, pollRatio, latency, singleLatency, spreads, spreadRatio, kill }, null, 2)}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
