// What the attack benchmarks share: the service started as a child process on a free
// port with a temporary data dir, its RSS read from /proc, and a wait for it to answer.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PASSWORD = 'Bench-Pass-123';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What the service answered to a request, as a bare server replays it (bench/bare-server.ts): every header but those node writes itself. */
export async function cannedAnswer(url: string, o: { method?: string; headers: Record<string, string>; body?: string }, dispatcher: Agent) {
  const headers = { ...o.headers, ...(o.body ? { 'content-type': 'application/json' } : {}) };
  const res = await request(url, { method: (o.method ?? 'GET') as 'GET', headers, body: o.body, dispatcher });
  const body = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${o.method ?? 'GET'} ${url}: ${res.statusCode} ${body}`);
  const nodes = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  const out: Record<string, string> = {};
  for (const [h, v] of Object.entries(res.headers)) if (!nodes.has(h) && v !== undefined) out[h] = String(v);
  return { status: res.statusCode, headers: out, body };
}

/** The administrator's credentials: the Basic header, and a session token logged in with them. */
export async function adminCredentials(base: string, dispatcher: Agent): Promise<{ basic: string; token: string }> {
  const login = await request(`${base}/redfish/v1/SessionService/Sessions/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: 'Administrator', Password: PASSWORD }),
    dispatcher,
  });
  await login.body.dump();
  const token = login.headers['x-auth-token'];
  if (login.statusCode !== 201 || typeof token !== 'string') throw new Error(`login: ${login.statusCode}`);
  return { basic: `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`, token };
}

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Where a process's memory is, MiB: resident in all, in glibc's brk heap (SQLite's page caches and
 * statements, OpenSSL's objects) and in the other anonymous mappings (V8's heap, thread arenas).
 */
export function memoryMiB(pid: number): { rss: number; heap: number; otherAnon: number } {
  let heap = 0;
  let otherAnon = 0;
  let mapping = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) mapping = header[1]!;
    else if (line.startsWith('Rss:') && (mapping === '' || mapping === '[heap]')) {
      const kib = Number(line.split(/\s+/)[1]);
      if (mapping === '') otherAnon += kib;
      else heap += kib;
    }
  }
  return { rss: rssMiB(pid), heap: heap / 1024, otherAnon: otherAnon / 1024 };
}

export interface BenchService {
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The service on a free port with a fresh data dir: from the TypeScript sources through tsx, or
 * (built) as `npm start` runs it, dist/cli.js with its node flags. `env` adds BMC_* settings;
 * `port` is a free one unless given; `pipeStdout` keeps its standard output for the caller (what V8's --trace-gc* flags print).
 */
export async function startBenchService(
  o: { built?: boolean; env?: Record<string, string>; nodeArgs?: string[]; pipeStdout?: boolean; port?: number } = {},
): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-bench-'));
  const port = o.port ?? (await freePort());
  const flags = o.built
    ? (process.env.npm_package_config_node_flags ?? '--max-semi-space-size=4 --v8-pool-size=1').split(' ').filter(Boolean)
    : [];
  const entry = o.built ? [join(ROOT, 'dist', 'cli.js')] : ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')];
  const child = spawn(
    process.execPath,
    [...flags, ...(o.nodeArgs ?? []), ...entry, '--port', String(port), '--data-dir', dataDir, '--admin-password', PASSWORD],
    {
      cwd: ROOT,
      env: { ...process.env, BMC_LOG_LEVEL: 'warn', BMC_SSDP_PORT: '0', BMC_SCRYPT_LOG_N: '10', ...o.env },
      stdio: ['ignore', o.pipeStdout ? 'pipe' : 'ignore', 'inherit'],
    },
  );
  const base = `https://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const probe = new Agent({ connect: { rejectUnauthorized: false } });
  for (let i = 0; ; i++) {
    const up = await request(`${base}/redfish/v1/`, { dispatcher: probe }).then(
      async (r) => (await r.body.text(), true),
      () => false,
    );
    if (up) break;
    if (i > 300 || child.exitCode !== null) {
      await stop();
      throw new Error('the service did not start');
    }
    await sleep(100);
  }
  await probe.close();
  return { child, pid: child.pid as number, port, base, dataDir, stop };
}

/**
 * `count` HTTPS event listeners in a process of their own pinned to CPU 1 (bench/event-listeners.ts),
 * with a fresh certificate: their ports, and `ask`, which sends a message and resolves with the answer.
 */
export async function startEventListeners(count: number) {
  const { issueCertificate } = await import('../src/platform/x509.js');
  const cert = await issueCertificate({
    subject: 'CN=localhost',
    ipAddresses: ['127.0.0.1'],
    usage: ['server'],
    notBefore: new Date(Date.now() - 60_000),
  });
  const proc = spawn(
    'taskset',
    ['-c', '1', process.execPath, '--import', 'tsx', join(ROOT, 'bench', 'event-listeners.ts'), String(count)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_CERT: cert.certPem, BENCH_KEY: cert.keyPem },
    },
  );
  const ask = <T>(m?: string | object): Promise<T> =>
    new Promise((resolve) => {
      proc.once('message', (x) => resolve(x as T));
      if (m !== undefined) proc.send(m);
    });
  const { ports } = await ask<{ ports: number[] }>();
  return { proc, ports, ask, cert };
}

/** Run a benchmark's main: exit 0 when it is done (servers it started may still hold the loop), 1 with the error when it fails. */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
