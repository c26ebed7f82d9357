// Fleet benchmark (issue: fleet mode). The built service as `npm start` runs it, pinned to
// CPU 0; the load from this process on CPU 1 (`npm run bench:fleet`).
//   1. start: a fleet of FLEET_SIZE controllers on a fresh data dir, then again on the same one;
//   2. RSS idle, against a fleet of one (the base), per controller above the base;
//   3. GET Systems/1/ latency on the first, a middle and the last controller, one connection,
//      against a single controller (`npm start` without --fleet);
//   4. aggregate GET throughput: 32 connections on 32 different controllers of the fleet,
//      against 32 connections on the single controller;
//   5. kill -9 of the fleet under writes spread over every controller: no acknowledged write lost.
// Prints one table and writes bench/fleet-results.json.
//   FLEET_SIZE=1000 BENCH_SECONDS=10 npm run bench:fleet
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const SIZE = Number(process.env.FLEET_SIZE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const PASSWORD = 'Bench-Pass-123';
const BASE_PORT = Number(process.env.FLEET_BASE_PORT ?? 30000);
// As bench/http.ts: 32 Basic connections on one controller need more than the default 20 session slots.
const LIMITS = ['--max-sessions', '256', '--max-sessions-per-account', '256'];
const auth = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;
const insecure = { rejectUnauthorized: false };

interface Started {
  proc: ChildProcess;
  /** Spawn to the "listening" log line, ms. */
  wallMs: number;
}

/** The built CLI pinned to CPU 0, with the node flags `npm start` uses; resolves on its listening line. */
async function start(args: string[], cpus = '0'): Promise<Started> {
  // A fleet runs as `npm run fleet` runs it (package.json config.fleet_node_flags), one controller as `npm start`.
  const fleet = args.includes('--fleet');
  const flags = ((fleet ? process.env.npm_package_config_fleet_node_flags : process.env.npm_package_config_node_flags) ?? '')
    .split(' ')
    .filter(Boolean);
  const t0 = performance.now();
  const proc = spawn('taskset', ['-c', cpus, process.execPath, ...flags, 'dist/cli.js', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 300 s:\n${out}`)), 300_000);
    proc.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
    proc.stdout.on('data', () => {
      if (/listening/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  // From here the log (a line per request) is read and dropped: keeping it would load this, the load generator's, CPU.
  proc.stdout.removeAllListeners('data');
  proc.stdout.resume();
  return { proc, wallMs: Math.round(performance.now() - t0) };
}

async function stop(s: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill(signal);
  await exited;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fleetArgs(dir: string, size: number): string[] {
  return [
    '--fleet',
    String(size),
    '--port',
    String(BASE_PORT),
    '--data-dir',
    dir,
    '--admin-password',
    PASSWORD,
    '--ssdp-port',
    '0',
    ...LIMITS,
  ];
}

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
async function spread(ports: number[], seconds: number) {
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
  await run(2);
  const rs = await run(seconds);
  if (rs.some((r) => r.non2xx || r.errors)) throw new Error('errors in the spread load');
  return { rps: rs.reduce((n, r) => n + r.requests.average, 0), p99: Math.max(...rs.map((r) => r.latency.p99)) };
}

/** Writers on disjoint sets of controllers, each counting up one controller's AssetTag; SIGKILL mid-way; every acknowledged count must be there after a restart. */
async function killTest(dir: string): Promise<{ acknowledged: number; lost: number; controllers: number }> {
  const agent = new Agent({ connect: insecure });
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
  await sleep(SECONDS * 1000);
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
    const twoCores = join(root, 'fleet-2');
    const firstTwo = await start(fleetArgs(twoCores, SIZE), '0,1');
    await stop(firstTwo);
    const restartTwo = await start(fleetArgs(twoCores, SIZE), '0,1');
    await stop(restartTwo);
    rmSync(twoCores, { recursive: true, force: true });
    const fleet = await start(fleetArgs(dir, SIZE));
    await sleep(10_000);
    const idleRss = rssMiB(fleet.proc.pid!);
    const portsOf = (n: number) => Array.from({ length: n }, (_, k) => BASE_PORT + Math.floor((k * SIZE) / n));
    const latency: Record<string, { p50: number; p99: number }> = {};
    for (const i of [0, Math.floor(SIZE / 2), SIZE - 1]) latency[`controller ${i}`] = await sequential(BASE_PORT + i);
    const fleetSpread = await spread(portsOf(CONNECTIONS), SECONDS);
    const loadedRss = rssMiB(fleet.proc.pid!);
    await stop(fleet);

    const single = await start([
      '--port',
      String(BASE_PORT),
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
    const singleLatency = await sequential(BASE_PORT);
    // The same load generator as the fleet's (one autocannon per connection), all on the one controller.
    const singleLoad = await spread(
      Array.from({ length: CONNECTIONS }, () => BASE_PORT),
      SECONDS,
    );
    await stop(single);

    const kill = await killTest(join(root, 'kill'));

    const perController = (idleRss - baseRss) / (SIZE - 1);
    const rows: [string, string, string][] = [
      [`start, ${SIZE} controllers, fresh data dir, one core`, `${(firstMs / 1000).toFixed(1)} s`, '< 10 s'],
      [`start, ${SIZE} controllers, restart, one core`, `${(fleet.wallMs / 1000).toFixed(1)} s`, '< 10 s'],
      [`start, ${SIZE} controllers, fresh data dir, two cores`, `${(firstTwo.wallMs / 1000).toFixed(1)} s`, '< 10 s'],
      [`start, ${SIZE} controllers, restart, two cores`, `${(restartTwo.wallMs / 1000).toFixed(1)} s`, '< 10 s'],
      ['RSS idle, fleet of 1 (base)', `${baseRss} MiB`, ''],
      [`RSS idle, fleet of ${SIZE}`, `${idleRss} MiB`, '< 1.5 GB'],
      ['RSS per controller above the base', `${perController.toFixed(2)} MiB`, '< 1.5 MB'],
      [`RSS after the load`, `${loadedRss} MiB`, ''],
      ['RSS idle, single controller (npm start)', `${singleRss} MiB`, ''],
      ...Object.entries(latency).map(([k, v]): [string, string, string] => [
        `GET Systems/1/, one at a time, ${k}: p50 / p99`,
        `${v.p50} / ${v.p99} ms`,
        `single: ${singleLatency.p50} / ${singleLatency.p99} ms`,
      ]),
      [
        `GET Systems/1/, ${CONNECTIONS} connections on ${CONNECTIONS} controllers`,
        `${Math.round(fleetSpread.rps)} req/s, p99 ${fleetSpread.p99} ms`,
        '',
      ],
      [
        `GET Systems/1/, ${CONNECTIONS} connections on the single controller`,
        `${Math.round(singleLoad.rps)} req/s, p99 ${singleLoad.p99} ms`,
        '',
      ],
      ['fleet throughput / single', `${((100 * fleetSpread.rps) / singleLoad.rps).toFixed(0)}%`, '≥ 80%'],
      [
        `kill -9 under writes to all ${SIZE}`,
        `${kill.acknowledged} acknowledged on ${kill.controllers} controllers, ${kill.lost} lost`,
        '0 lost',
      ],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v, target] of rows) process.stdout.write(`${k.padEnd(width)}  ${v.padEnd(40)} ${target}\n`);
    writeFileSync(
      'bench/fleet-results.json',
      `${JSON.stringify({ size: SIZE, firstMs, restartMs: fleet.wallMs, firstTwoCoresMs: firstTwo.wallMs, restartTwoCoresMs: restartTwo.wallMs, baseRss, idleRss, loadedRss, perController, singleRss, latency, singleLatency, fleetSpread, singleLoad, kill }, null, 2)}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
