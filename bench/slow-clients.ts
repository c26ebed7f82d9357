// Slow-client benchmark (issue 12, item 2): the service as the command line
// runs it, then 4,000 TCP connections that never send a TLS ClientHello.
// Prints the service's RSS when idle, with the connections open and after the
// handshake timeout has closed them, and the latency of HTTPS GETs meanwhile.
// Not part of the tests; loopback only.
//   npm run bench:slow-clients     (SLOW_CLIENTS=4000 SLOW_ROUNDS=1 SLOW_HANDSHAKE_TIMEOUT=10 SLOW_SETTLE_SECONDS=30)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = Number(process.env.SLOW_CLIENTS ?? 4000);
const HANDSHAKE_TIMEOUT = Number(process.env.SLOW_HANDSHAKE_TIMEOUT ?? 10);
const GETS = 50;
const SETTLE_SECONDS = Number(process.env.SLOW_SETTLE_SECONDS ?? 30);
/** Rounds of CLIENTS connections, each closed by the service before the next: memory must not grow per round. */
const ROUNDS = Number(process.env.SLOW_ROUNDS ?? 1);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

let refusedGets = 0;

/** GETs of the service root, each on a new TLS connection (a handshake while the idle ones wait) and kept alive. */
async function latency(base: string): Promise<{ fresh: number[]; kept: number[] }> {
  const fresh: number[] = [];
  const kept: number[] = [];
  const keepAgent = new Agent({ connect: { rejectUnauthorized: false } });
  for (let i = 0; i < GETS; i++) {
    const agent = new Agent({ connect: { rejectUnauthorized: false } });
    let t = performance.now();
    // At the connection cap a new connection is refused: counted, not fatal.
    let r = await request(`${base}/redfish/v1/`, { dispatcher: agent }).catch(() => undefined);
    if (r) {
      await r.body.text();
      fresh.push(performance.now() - t);
    } else refusedGets++;
    await agent.close();
    t = performance.now();
    r = await request(`${base}/redfish/v1/`, { dispatcher: keepAgent });
    await r.body.text();
    kept.push(performance.now() - t);
  }
  await keepAgent.close();
  return { fresh, kept };
}

function summary(ms: number[]): string {
  if (ms.length === 0) return 'none answered';
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => (s[Math.min(s.length - 1, Math.floor(q * s.length))] as number).toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`;
}

/** Open CLIENTS plain TCP connections that send nothing; those the service refuses (cap) are counted. */
async function openIdle(port: number): Promise<{ sockets: (Socket & { closedAt?: number })[]; refused: number }> {
  const sockets: (Socket & { closedAt?: number })[] = [];
  for (let i = 0; i < CLIENTS; i += 200) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(200, CLIENTS - i) },
        () =>
          new Promise<Socket & { closedAt?: number }>((resolve, reject) => {
            const s = connect(port, '127.0.0.1') as Socket & { closedAt?: number };
            s.on('error', () => undefined);
            s.once('close', () => (s.closedAt = performance.now()));
            s.once('connect', () => resolve(s));
            s.once('error', reject);
          }),
      ),
    );
    sockets.push(...batch);
  }
  await sleep(300);
  // A connection over the cap is accepted and closed at once.
  return { sockets, refused: sockets.filter((s) => s.closedAt !== undefined).length };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-slow-'));
  const port = await freePort();
  const base = `https://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), '--port', String(port), '--data-dir', dataDir, '--admin-password', 'Bench-Pass-123'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        BMC_LOG_LEVEL: 'warn',
        BMC_SSDP_PORT: '0',
        BMC_SCRYPT_LOG_N: '10',
        BMC_TLS_HANDSHAKE_TIMEOUT: String(HANDSHAKE_TIMEOUT),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const pid = child.pid as number;
  try {
    const probe = new Agent({ connect: { rejectUnauthorized: false } });
    for (let i = 0; ; i++) {
      const up = await request(`${base}/redfish/v1/`, { dispatcher: probe }).then(
        async (r) => (await r.body.text(), true),
        () => false,
      );
      if (up) break;
      if (i > 300) throw new Error('the service did not start');
      await sleep(100);
    }
    await probe.close();
    // Warm up (JIT, first TLS contexts), then let it settle.
    await latency(base);
    await sleep(2000);
    const idleRss = rssMiB(pid);
    const idleLatency = await latency(base);

    const roundRss: string[] = [];
    for (let round = 1; round < ROUNDS; round++) {
      const { sockets } = await openIdle(port);
      while (sockets.some((s) => s.closedAt === undefined)) await sleep(200);
      roundRss.push(`${rssMiB(pid).toFixed(1)}`);
    }
    const opened = performance.now();
    const { sockets, refused } = await openIdle(port);
    const openMs = performance.now() - opened;
    await sleep(500);
    const openRss = rssMiB(pid);
    const during = await latency(base);
    const stillOpen = sockets.filter((s) => s.closedAt === undefined).length;

    while (sockets.some((s) => s.closedAt === undefined) && performance.now() - opened < (HANDSHAKE_TIMEOUT + 30) * 1000) await sleep(100);
    const closedBy = Math.max(...sockets.map((s) => (s.closedAt ?? NaN) - opened)) / 1000;
    const leftOpen = sockets.filter((s) => s.closedAt === undefined).length;
    await sleep(1000);
    const afterRss = rssMiB(pid);
    // V8 gives back the heap it grew once allocation has been quiet for a while (its memory reducer).
    await sleep(SETTLE_SECONDS * 1000);
    const settledRss = rssMiB(pid);

    const lines = [
      `slow clients: ${CLIENTS} TCP connections, no TLS ClientHello; --tls-handshake-timeout ${HANDSHAKE_TIMEOUT}`,
      `  opened in ${openMs.toFixed(0)} ms (${refused} refused at the connection cap); ${stillOpen} still open after the GETs below`,
      ...(roundRss.length ? [`  RSS after each of ${ROUNDS - 1} earlier rounds: ${roundRss.join(', ')} MiB`] : []),
      `  RSS idle                      ${idleRss.toFixed(1)} MiB`,
      `  RSS with ${CLIENTS} idle connections ${openRss.toFixed(1)} MiB`,
      `  RSS after they were closed    ${afterRss.toFixed(1)} MiB at once, ${settledRss.toFixed(1)} MiB ${SETTLE_SECONDS} s later`,
      `  all closed by the service ${closedBy.toFixed(1)} s after opening; left open: ${leftOpen}`,
      `  GET /redfish/v1/ idle,   new connection: ${summary(idleLatency.fresh)}; kept alive: ${summary(idleLatency.kept)}`,
      `  GET /redfish/v1/ during, new connection: ${summary(during.fresh)}; kept alive: ${summary(during.kept)}; refused at the cap: ${refusedGets}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    for (const s of sockets) s.destroy();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
