// HTTP benchmark (issues: service core, performance II). Runs the real service and a
// bare node:https server sending the same bytes, each pinned to CPU 0 with taskset, and
// loads both with autocannon from CPU 1: GETs of memoized and built resources, a
// 20-member $expand, an update queue member, a PATCH; then session create + delete pairs,
// and RSS idle and after (10 s and 30 s). Prints one table and writes bench/results.json.
//   npm run bench  (10 s per scenario)   BENCH_SECONDS=5 npm run bench   BENCH_DURABILITY=power-loss npm run bench
//   BENCH_ONLY=PATCH npm run bench  (only the scenarios whose name holds that text)
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { cannedAnswer, freePort, runMain } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PASSWORD = 'Bench-Pass-123';
// info writes one JSON log line per request, as in production; BENCH_LOG_LEVEL=warn measures without it.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const agent = new Agent({ connect: { rejectUnauthorized: false } });

/** Start a server pinned to CPU 0; ready when its port accepts TLS connections. */
async function start(cmd: string[], port: number): Promise<ChildProcess> {
  // Compiled JavaScript runs as is (the service as `npm start` runs it); TypeScript through tsx.
  // The service runs with the node flags `npm start` gives it (package.json config.node_flags).
  const flags = (process.env.npm_package_config_node_flags ?? '').split(' ').filter(Boolean);
  const args = cmd[0]?.endsWith('.js') ? [...flags, ...cmd] : ['--import', 'tsx', ...cmd];
  const proc = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  proc.on('exit', () => (exited = true));
  for (let i = 0; i < 300; i++) {
    if (exited) throw new Error(`${cmd[0]} exited before listening`);
    const up = await request(`https://127.0.0.1:${port}/redfish/v1/`, { dispatcher: agent }).then(
      async (r) => (await r.body.text(), true),
      () => false,
    );
    if (up) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`${cmd[0]} did not listen on ${port}`);
}

interface Scenario {
  name: string;
  method?: 'GET' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, s: Scenario): Promise<Result> {
  const headers = { ...s.headers, ...(s.body ? { 'content-type': 'application/json' } : {}) };
  const o = { url, headers, method: s.method ?? 'GET', body: s.body, connections: CONNECTIONS, tlsOptions: { rejectUnauthorized: false } };
  // Warm up first (JIT, connection set-up), so both servers are measured in their steady state.
  await autocannon({ ...o, duration: 2 });
  const r = await autocannon({ ...o, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Resident memory of a process, MiB, now and at its peak, from /proc (taskset execs the server, so the pid is node's). */
function memory(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/** Session create + delete pairs per second: CONNECTIONS clients logging in and out in a loop. */
async function sessionPairs(base: string): Promise<{ pairs: number; p99: number }> {
  const pool = new Agent({ connect: { rejectUnauthorized: false }, connections: CONNECTIONS });
  const latencies: number[] = [];
  let pairs = 0;
  const until = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const r = await request(`${base}/redfish/v1/SessionService/Sessions/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ UserName: 'Administrator', Password: PASSWORD }),
        dispatcher: pool,
      });
      await r.body.text();
      if (r.statusCode !== 201) throw new Error(`login: ${r.statusCode}`);
      const d = await request(`${base}${String(r.headers.location)}`, {
        method: 'DELETE',
        headers: { 'x-auth-token': String(r.headers['x-auth-token']) },
        dispatcher: pool,
      });
      await d.body.text();
      if (d.statusCode !== 200) throw new Error(`logout: ${d.statusCode}`);
      latencies.push(performance.now() - start);
      pairs++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { pairs: pairs / SECONDS, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? NaN) };
}

/** `count` requests, each on a TLS connection of its own (50 at a time): connection set-up and tear-down. */
async function connectionChurn(base: string, authorization: string, count: number): Promise<number> {
  let done = 0;
  const worker = async () => {
    while (done < count) {
      done++;
      const fresh = new Agent({ connect: { rejectUnauthorized: false }, pipelining: 0 });
      const r = await request(`${base}/redfish/v1/SessionService/`, { headers: { authorization }, dispatcher: fresh });
      await r.body.text();
      await fresh.close();
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  return done;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await request(base + path, {
    method: method as 'POST',
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    dispatcher: agent,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return res;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-bench-'));
  const svcPort = await freePort();
  const barePort = await freePort();
  const svc = await start(
    [
      'dist/cli.js',
      '--port',
      String(svcPort),
      '--data-dir',
      dir,
      '--admin-password',
      PASSWORD,
      '--max-sessions',
      '256',
      '--max-sessions-per-account',
      '256',
      '--log-level',
      LOG_LEVEL,
      ...(process.env.BENCH_DURABILITY ? ['--durability', process.env.BENCH_DURABILITY] : []),
    ],
    svcPort,
  );
  await new Promise((r) => setTimeout(r, 2000));
  const idle = memory(svc.pid);
  const base = `https://127.0.0.1:${svcPort}`;
  try {
    const basicAuth = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;
    const auth = { authorization: basicAuth };
    // A 20-member collection, and a member of the update queue.
    for (let i = 1; i <= 19; i++) {
      await call(base, 'POST', '/redfish/v1/AccountService/Accounts/', auth, {
        UserName: `bench${i}`,
        Password: `Bench-Pass-${i}xx`,
        RoleId: 'ReadOnly',
      });
    }
    const task = await call(base, 'POST', '/redfish/v1/UpdateService/UpdateTaskQueue/', auth, {
      Name: 'bench-wait',
      UpdatableBy: ['Bmc'],
      Command: 'Wait',
      WaitTimeSeconds: 3600,
    });
    const taskPath = String(task.headers.location);

    const scenarios: Scenario[] = [
      { name: 'GET /redfish/v1/ (no auth)', path: '/redfish/v1/', headers: {} },
      { name: 'GET SessionService/', path: '/redfish/v1/SessionService/', headers: auth },
      { name: 'GET Systems/1/', path: '/redfish/v1/Systems/1/', headers: auth },
      { name: 'GET Systems/1/Bios/', path: '/redfish/v1/Systems/1/Bios/', headers: auth },
      { name: 'GET Chassis/1/Thermal/', path: '/redfish/v1/Chassis/1/Thermal/', headers: auth },
      { name: 'GET Accounts/?$expand=. (20)', path: '/redfish/v1/AccountService/Accounts/?$expand=.', headers: auth },
      { name: 'GET UpdateTaskQueue member', path: taskPath, headers: auth },
      {
        name: 'PATCH Systems/1/ (boot override)',
        method: 'PATCH',
        path: '/redfish/v1/Systems/1/',
        headers: auth,
        body: JSON.stringify({ Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once' } }),
      },
    ];
    const canned: Record<string, Awaited<ReturnType<typeof cannedAnswer>>> = {};
    for (const s of scenarios) canned[`${s.method ?? 'GET'} ${s.path}`] ??= await cannedAnswer(base + s.path, s, agent);
    const cannedFile = join(dir, 'canned.json');
    writeFileSync(cannedFile, JSON.stringify(canned));
    const bare = await start(
      ['bench/bare-server.ts', join(dir, 'https-cert.pem'), join(dir, 'https-key.pem'), cannedFile, String(barePort)],
      barePort,
    );
    const results: Record<string, unknown>[] = [];
    try {
      console.log(
        `bench: ${SECONDS}s per run, ${CONNECTIONS} connections, Basic auth, servers on CPU 0, load on CPU 1, log level ${LOG_LEVEL}, node ${process.version}`,
      );
      console.log(`service RSS idle after start: ${idle.rss} MiB`);
      console.log('scenario                           | service req/s | p99 ms | bare req/s | p99 ms | ratio');
      for (const s of scenarios.filter((x) => !process.env.BENCH_ONLY || x.name.includes(process.env.BENCH_ONLY))) {
        const mine = await load(base + s.path, s);
        const yard = await load(`https://127.0.0.1:${barePort}${s.path}`, s);
        const ratio = mine.rps / yard.rps;
        results.push({
          scenario: s.name,
          rps: Math.round(mine.rps),
          p99: mine.p99,
          bareRps: Math.round(yard.rps),
          bareP99: yard.p99,
          ratio,
        });
        console.log(
          `${s.name.padEnd(34)} | ${mine.rps.toFixed(0).padStart(13)} | ${String(mine.p99).padStart(6)} | ${yard.rps.toFixed(0).padStart(10)} | ${String(yard.p99).padStart(6)} | ${(ratio * 100).toFixed(0)}%` +
            (mine.errors || mine.non2xx ? `  (errors ${mine.errors}, non-2xx ${mine.non2xx})` : ''),
        );
      }
      const sessions = await sessionPairs(base);
      results.push({ scenario: 'session create + delete', pairsPerSecond: Math.round(sessions.pairs), p99: sessions.p99 });
      console.log(`session create + delete            | ${sessions.pairs.toFixed(0).padStart(9)} pairs/s | p99 ${sessions.p99} ms`);
      const churned = await connectionChurn(base, basicAuth, 10_000);
      console.log(`${churned} new TLS connections, one GET each`);
      const loaded = memory(svc.pid);
      // Once load stops: what the service keeps. V8 gives memory back only after some seconds of low
      // allocation (its memory reducer, about 8 s), so the figure is taken at 10 s and at 30 s.
      await new Promise((r) => setTimeout(r, 10_000));
      const after10 = memory(svc.pid);
      await new Promise((r) => setTimeout(r, 20_000));
      const after = memory(svc.pid);
      const over = (m: { rss: number }) => `${((m.rss / idle.rss - 1) * 100).toFixed(0)}%`;
      console.log(
        `service RSS: idle ${idle.rss} MiB, at the end of the load ${loaded.rss} MiB, 10 s later ${after10.rss} MiB (${over(after10)} over idle), 30 s later ${after.rss} MiB (${over(after)}; peak ${after.peak} MiB)`,
      );
      writeFileSync(
        new URL('results.json', import.meta.url),
        `${JSON.stringify({ seconds: SECONDS, connections: CONNECTIONS, logLevel: LOG_LEVEL, node: process.version, idleRssMiB: idle.rss, loadedRssMiB: loaded.rss, after10sRssMiB: after10.rss, afterRssMiB: after.rss, peakRssMiB: after.peak, results }, null, 2)}\n`,
      );
      console.log('written: bench/results.json');
    } finally {
      bare.kill('SIGTERM');
    }
  } finally {
    svc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
