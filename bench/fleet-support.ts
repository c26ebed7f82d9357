// What the fleet benchmarks share (bench/fleet.ts, bench/fleet-events.ts, bench/fleet-soak.ts): the
// built CLI started as `npm run fleet` starts it, pinned to a CPU and under the descriptor limit
// the issue names (FLEET_NOFILE, 20,000), its RSS, and a client that polls controllers as a fleet
// manager does (a new TLS connection per controller).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { Client } from 'undici';
import { PASSWORD } from './support.js';

export { PASSWORD, memoryMiB, rssMiB, sleep } from './support.js';
export const BASE_PORT = Number(process.env.FLEET_BASE_PORT ?? 30000);
export const NOFILE = Number(process.env.FLEET_NOFILE ?? 20000);
/** Node flags added to a fleet's own (profiling: `--cpu-prof --cpu-prof-dir=...`, `--trace-gc`). */
const FLEET_EXTRA_FLAGS = (process.env.FLEET_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** A file that gets a fleet's stdout lines other than its log's (what `--trace-gc` prints). */
const FLEET_TRACE_FILE = process.env.FLEET_TRACE_FILE;
/** How long a start may take: 10,000 controllers on a loaded machine take minutes. */
const START_TIMEOUT_S = Number(process.env.FLEET_START_TIMEOUT_S ?? 1800);
// As bench/http.ts: 32 Basic connections on one controller need more than the default 20 session slots.
export const LIMITS = ['--max-sessions', '256', '--max-sessions-per-account', '256'];
export const auth = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;
// A loaded machine may take seconds for a handshake; undici's 10 s would fail a poll that is only slow.
export const insecure = { rejectUnauthorized: false, timeout: 60_000 };

export interface Started {
  proc: ChildProcess;
  /** Spawn to the "listening" log line, ms. */
  wallMs: number;
}

const running = new Set<ChildProcess>();
// A bench that fails leaves no fleet behind holding its ports.
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/** The built CLI pinned to `cpus` under the descriptor limit, with the node flags `npm start` uses; resolves on its listening line. */
export async function start(args: string[], cpus = '0', extraFlags: string[] = []): Promise<Started> {
  // A fleet runs as `npm run fleet` runs it (package.json config.fleet_node_flags), one controller as `npm start`.
  const fleet = args.includes('--fleet');
  const flags = ((fleet ? process.env.npm_package_config_fleet_node_flags : process.env.npm_package_config_node_flags) ?? '')
    .split(' ')
    .filter(Boolean);
  if (fleet) flags.push(...FLEET_EXTRA_FLAGS);
  // And with the glibc tunables `npm run fleet` gives it (package.json config.fleet_glibc_tunables).
  const tunables = fleet ? process.env.npm_package_config_fleet_glibc_tunables : undefined;
  const t0 = performance.now();
  const proc = spawn(
    'prlimit',
    [`--nofile=${NOFILE}:${NOFILE}`, 'taskset', '-c', cpus, process.execPath, ...flags, ...extraFlags, 'dist/cli.js', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: tunables ? { ...process.env, GLIBC_TUNABLES: tunables } : process.env,
    },
  );
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in ${START_TIMEOUT_S} s:\n${out}`)), START_TIMEOUT_S * 1000);
    proc.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
    proc.stdout.on('data', () => {
      if (/Redfish (fleet|service) listening/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  // From here the log (a line per request) is read and dropped: keeping it would load this, the load generator's, CPU.
  proc.stdout.removeAllListeners('data');
  if (fleet && FLEET_TRACE_FILE) keepTrace(proc, out, FLEET_TRACE_FILE);
  proc.stdout.resume();
  return { proc, wallMs: Math.round(performance.now() - t0) };
}

/** CPU time (user + system) a process has used, in ms: per request, a figure a shared core does not change much. */
export function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A line in FLEET_TRACE_FILE between a fleet's own (which part of the bench the lines after it are from). */
export function traceMark(text: string): void {
  if (FLEET_TRACE_FILE) appendFileSync(FLEET_TRACE_FILE, `=== ${text} (${new Date().toISOString()})\n`);
}

/** The lines of a process's stdout that are not JSON log lines, appended to file (from the start: `before`). */
function keepTrace(proc: ChildProcess, before: string, file: string): void {
  const keep = (lines: string[]) => {
    const kept = lines.filter((l) => l !== '' && !l.startsWith('{'));
    if (kept.length > 0) appendFileSync(file, `${kept.join('\n')}\n`);
  };
  const lines = before.split('\n');
  let partial = lines.pop() ?? '';
  keep(lines);
  proc.stdout?.on('data', (d: Buffer) => {
    const more = (partial + String(d)).split('\n');
    partial = more.pop() ?? '';
    keep(more);
  });
}

export async function stop(s: Started, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  const exited = new Promise((r) => s.proc.once('exit', r));
  s.proc.kill(signal);
  await exited;
}

export function fleetArgs(dir: string, size: number, extra: string[] = []): string[] {
  return [
    ...['--fleet', String(size), '--port', String(BASE_PORT), '--data-dir', dir],
    ...['--admin-password', PASSWORD, '--ssdp-port', '0', ...LIMITS, ...extra],
  ];
}

/** Run fn for 0 … n-1, `concurrency` at a time. */
export async function each(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** Requests on one new TLS connection to `origin`, closed after, as a fleet manager polls a controller. */
export async function onNewConnection(
  origin: string,
  requests: { method?: 'GET' | 'PATCH' | 'POST'; path: string; body?: unknown }[],
): Promise<{ status: number; body: string }[]> {
  const c = new Client(origin, { connect: insecure });
  try {
    const out = [];
    for (const r of requests) {
      const res = await c.request({
        method: r.method ?? 'GET',
        path: r.path,
        headers: { authorization: auth, ...(r.body ? { 'content-type': 'application/json' } : {}) },
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      out.push({ status: res.statusCode, body: await res.body.text() });
    }
    return out;
  } finally {
    await c.close();
  }
}

export function printTable(rows: [string, string, string][]): void {
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v, target] of rows) process.stdout.write(`${k.padEnd(width)}  ${v.padEnd(44)} ${target}\n`);
}
