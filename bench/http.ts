// HTTP benchmark (issue: service core). Runs the real service and a bare
// node:https server sending the same bytes, each pinned to CPU 0 with taskset,
// and loads both with autocannon from CPU 1. Prints requests/s, p99 and ratios.
// The root and the session collection are memoized representations (protocol/memo.ts);
// the last scenario is a resource built on every GET, for comparison.
//   npm run bench            (10 s per scenario)   BENCH_SECONDS=5 npm run bench   (builds dist/ first)
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PASSWORD = 'Bench-Pass-123';
// info writes one JSON log line per request, as in production; BENCH_LOG_LEVEL=warn measures without it.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const agent = new Agent({ connect: { rejectUnauthorized: false } });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Start a server pinned to CPU 0; ready when its port accepts TLS connections. */
async function start(cmd: string[], port: number): Promise<ChildProcess> {
  // Compiled JavaScript runs as is (the service as `npm start` runs it); TypeScript through tsx.
  const args = cmd[0]?.endsWith('.js') ? cmd : ['--import', 'tsx', ...cmd];
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

async function fetchCanned(base: string, path: string, headers: Record<string, string>) {
  const res = await request(base + path, { headers, dispatcher: agent });
  const body = await res.body.text();
  const keep = ['content-type', 'odata-version', 'etag', 'allow', 'cache-control', 'link'];
  const out: Record<string, string> = {};
  for (const h of keep) if (res.headers[h]) out[h] = String(res.headers[h]);
  return { status: res.statusCode, headers: out, body };
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Result> {
  // Warm up first (JIT, connection set-up), so both servers are measured in their steady state.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2, tlsOptions: { rejectUnauthorized: false } });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, tlsOptions: { rejectUnauthorized: false } });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Resident memory of a process now and at its peak, from /proc (taskset execs the server, so the pid is node's). */
function memory(pid: number | undefined): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return `RSS ${(kb('VmRSS') / 1024).toFixed(0)} MiB, peak ${(kb('VmHWM') / 1024).toFixed(0)} MiB`;
  } catch {
    return 'unknown (no /proc)';
  }
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
      '64',
      '--log-level',
      LOG_LEVEL,
    ],
    svcPort,
  );
  const base = `https://127.0.0.1:${svcPort}`;
  try {
    const login = await request(`${base}/redfish/v1/SessionService/Sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'Administrator', Password: PASSWORD }),
      dispatcher: agent,
    });
    await login.body.text();
    const token = String(login.headers['x-auth-token']);
    const basicAuth = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;

    const scenarios = [
      { name: 'GET /redfish/v1/ (no auth)', path: '/redfish/v1/', headers: {} as Record<string, string> },
      { name: 'GET Sessions/ (X-Auth-Token)', path: '/redfish/v1/SessionService/Sessions/', headers: { 'x-auth-token': token } },
      { name: 'GET Sessions/ (Basic)', path: '/redfish/v1/SessionService/Sessions/', headers: { authorization: basicAuth } },
      { name: 'GET /redfish/v1/ (X-Auth-Token)', path: '/redfish/v1/', headers: { 'x-auth-token': token } },
      // For scale: a resource the service builds, serializes and hashes on every GET (not memoized).
      { name: 'GET Systems/1/ (X-Auth-Token)', path: '/redfish/v1/Systems/1/', headers: { 'x-auth-token': token } },
    ];
    const canned: Record<string, Awaited<ReturnType<typeof fetchCanned>>> = {};
    for (const s of scenarios) canned[s.path] ??= await fetchCanned(base, s.path, s.headers);
    const cannedFile = join(dir, 'canned.json');
    writeFileSync(cannedFile, JSON.stringify(canned));
    const bare = await start(
      ['bench/bare-server.ts', join(dir, 'https-cert.pem'), join(dir, 'https-key.pem'), cannedFile, String(barePort)],
      barePort,
    );
    try {
      console.log(
        `bench: ${SECONDS}s per run, ${CONNECTIONS} connections, servers on CPU 0, load on CPU 1, log level ${LOG_LEVEL}, node ${process.version}`,
      );
      console.log('scenario                         | service req/s | p99 ms | bare req/s | p99 ms | ratio');
      for (const s of scenarios) {
        const mine = await load(base + s.path, s.headers);
        const yard = await load(`https://127.0.0.1:${barePort}${s.path}`, s.headers);
        const ratio = mine.rps / yard.rps;
        console.log(
          `${s.name.padEnd(32)} | ${mine.rps.toFixed(0).padStart(13)} | ${String(mine.p99).padStart(6)} | ${yard.rps.toFixed(0).padStart(10)} | ${String(yard.p99).padStart(6)} | ${(ratio * 100).toFixed(0)}%` +
            (mine.errors || mine.non2xx ? `  (errors ${mine.errors}, non-2xx ${mine.non2xx})` : ''),
        );
      }
      console.log(`service memory after the runs: ${memory(svc.pid)}`);
    } finally {
      bare.kill('SIGTERM');
    }
  } finally {
    svc.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
