// Slow-client benchmark (issue 12, item 2; issue 24, item 1): the service as the command line
// runs it, then one of two floods while new clients keep asking for the service root.
//  - hello: 4,000 TCP connections that never send a TLS ClientHello. Prints the service's RSS
//    idle, with the connections open and after the handshake timeout has closed them.
//  - bodies: the attack of issue 24 — 4,200 TLS connections from SLOW_SOURCES client addresses
//    (1: all from 127.0.0.1) sending, without credentials, a PATCH of Systems/1, a login or an
//    upload with Content-Length 100000 and then one byte every 20 s, for 55 s. Prints how many
//    the service took, answered and closed (and when), and how the new clients fared: from other
//    addresses (127.0.1.x) and from the flooding address itself.
// Not part of the tests; loopback only.
//   npm run bench:slow-clients   (SLOW_MODE=hello|bodies|both SLOW_CLIENTS=4000|4200 SLOW_SOURCES=1
//                                 SLOW_SECONDS=55 SLOW_ROUNDS=1 SLOW_HANDSHAKE_TIMEOUT=10 SLOW_SETTLE_SECONDS=30)
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { rssMiB, sleep, startBenchService } from './support.js';

const MODE = process.env.SLOW_MODE ?? 'both';
const HANDSHAKE_TIMEOUT = Number(process.env.SLOW_HANDSHAKE_TIMEOUT ?? 10);
const GETS = 50;
const SETTLE_SECONDS = Number(process.env.SLOW_SETTLE_SECONDS ?? 30);
/** Rounds of CLIENTS connections, each closed by the service before the next: memory must not grow per round. */
const ROUNDS = Number(process.env.SLOW_ROUNDS ?? 1);
const SOURCES = Number(process.env.SLOW_SOURCES ?? 1);
const ATTACK_SECONDS = Number(process.env.SLOW_SECONDS ?? 55);
const BYTE_EVERY_MS = 20_000;

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

/** Open `count` plain TCP connections that send nothing; those the service refuses (cap) are counted. */
async function openIdle(port: number, count: number): Promise<{ sockets: (Socket & { closedAt?: number })[]; refused: number }> {
  const sockets: (Socket & { closedAt?: number })[] = [];
  for (let i = 0; i < count; i += 200) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(200, count - i) },
        (_, j) =>
          new Promise<Socket & { closedAt?: number }>((resolve, reject) => {
            // Spread over addresses: the per-source cap is not what this flood measures.
            const s = connect({ port, host: '127.0.0.1', localAddress: `127.0.2.${1 + ((i + j) % 250)}` }) as Socket & {
              closedAt?: number;
            };
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

async function hello(): Promise<string[]> {
  const clients = Number(process.env.SLOW_CLIENTS ?? 4000);
  const svc = await startBenchService({ env: { BMC_TLS_HANDSHAKE_TIMEOUT: String(HANDSHAKE_TIMEOUT) } });
  try {
    // Warm up (JIT, first TLS contexts), then let it settle.
    await latency(svc.base);
    await sleep(2000);
    const idleRss = rssMiB(svc.pid);
    const idleLatency = await latency(svc.base);

    const roundRss: string[] = [];
    for (let round = 1; round < ROUNDS; round++) {
      const { sockets } = await openIdle(svc.port, clients);
      while (sockets.some((s) => s.closedAt === undefined)) await sleep(200);
      roundRss.push(`${rssMiB(svc.pid).toFixed(1)}`);
    }
    const opened = performance.now();
    const { sockets, refused } = await openIdle(svc.port, clients);
    const openMs = performance.now() - opened;
    await sleep(500);
    const openRss = rssMiB(svc.pid);
    const during = await latency(svc.base);
    const stillOpen = sockets.filter((s) => s.closedAt === undefined).length;

    while (sockets.some((s) => s.closedAt === undefined) && performance.now() - opened < (HANDSHAKE_TIMEOUT + 30) * 1000) await sleep(100);
    const closedBy = Math.max(...sockets.map((s) => (s.closedAt ?? NaN) - opened)) / 1000;
    const leftOpen = sockets.filter((s) => s.closedAt === undefined).length;
    await sleep(1000);
    const afterRss = rssMiB(svc.pid);
    // V8 gives back the heap it grew once allocation has been quiet for a while (its memory reducer).
    await sleep(SETTLE_SECONDS * 1000);
    const settledRss = rssMiB(svc.pid);
    for (const s of sockets) s.destroy();
    return [
      `slow clients: ${clients} TCP connections, no TLS ClientHello; --tls-handshake-timeout ${HANDSHAKE_TIMEOUT}`,
      `  opened in ${openMs.toFixed(0)} ms (${refused} refused at the connection cap); ${stillOpen} still open after the GETs below`,
      ...(roundRss.length ? [`  RSS after each of ${ROUNDS - 1} earlier rounds: ${roundRss.join(', ')} MiB`] : []),
      `  RSS idle                      ${idleRss.toFixed(1)} MiB`,
      `  RSS with ${clients} idle connections ${openRss.toFixed(1)} MiB`,
      `  RSS after they were closed    ${afterRss.toFixed(1)} MiB at once, ${settledRss.toFixed(1)} MiB ${SETTLE_SECONDS} s later`,
      `  all closed by the service ${closedBy.toFixed(1)} s after opening; left open: ${leftOpen}`,
      `  GET /redfish/v1/ idle,   new connection: ${summary(idleLatency.fresh)}; kept alive: ${summary(idleLatency.kept)}`,
      `  GET /redfish/v1/ during, new connection: ${summary(during.fresh)}; kept alive: ${summary(during.kept)}; refused at the cap: ${refusedGets}`,
    ];
  } finally {
    await svc.stop();
  }
}

/** The three slow requests of the attack: their head and the first bytes of their body, no credentials. */
const ATTACKS = {
  patch: 'PATCH /redfish/v1/Systems/1/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
  login:
    'POST /redfish/v1/SessionService/Sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
  upload:
    'POST /redfish/v1/UpdateService/upload/ HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n' +
    '--XX\r\nContent-Disposition: form-data; name="file"; filename="slow.fwpkg"\r\n\r\nA',
};
type Kind = keyof typeof ATTACKS;

interface Attacker {
  kind: Kind;
  socket?: TLSSocket;
  openedAt: number;
  status?: number;
  closedAt?: number;
}

/** One attacking connection: the request head, then a byte every 20 s until the service closes it. */
function attack(port: number, kind: Kind, source: string): Promise<Attacker> {
  const a: Attacker = { kind, openedAt: performance.now() };
  return new Promise((resolve) => {
    const s = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, localAddress: source } as never);
    let timer: NodeJS.Timeout | undefined;
    s.on('error', () => undefined);
    s.once('data', (d: Buffer) => (a.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? NaN)));
    s.once('close', () => {
      a.closedAt = performance.now();
      clearInterval(timer);
      resolve(a);
    });
    s.once('secureConnect', () => {
      a.socket = s;
      s.write(ATTACKS[kind]);
      timer = setInterval(() => s.write('a'), BYTE_EVERY_MS);
      resolve(a);
    });
  });
}

/** A new client asking for the root on a fresh connection from `source`: its latency, or why it failed. */
async function newClient(base: string, source: string): Promise<number | string> {
  const agent = new Agent({ connect: { rejectUnauthorized: false }, localAddress: source, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const t = performance.now();
  try {
    const r = await request(`${base}/redfish/v1/`, { dispatcher: agent });
    await r.body.text();
    return r.statusCode === 200 ? performance.now() - t : String(r.statusCode);
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  } finally {
    await agent.close();
  }
}

/** How a list of new clients fared: served (with latency) and failures by reason. */
function fared(list: (number | string)[]): string {
  const ok = list.filter((x): x is number => typeof x === 'number');
  const why = new Map<string, number>();
  for (const x of list) if (typeof x === 'string') why.set(x, (why.get(x) ?? 0) + 1);
  const failed = [...why].map(([w, n]) => `${n} × ${w}`).join(', ');
  return `${ok.length} of ${list.length} served (${summary(ok)})${failed ? `; failed: ${failed}` : ''}`;
}

async function bodies(): Promise<string[]> {
  const clients = Number(process.env.SLOW_CLIENTS ?? 4200);
  const svc = await startBenchService();
  const kinds = Object.keys(ATTACKS) as Kind[];
  const source = (i: number) => `127.0.0.${1 + (i % SOURCES)}`;
  try {
    await latency(svc.base);
    await sleep(2000);
    const idleRss = rssMiB(svc.pid);
    const started = performance.now();
    const attackers: Attacker[] = [];
    for (let i = 0; i < clients; i += 200) {
      attackers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(200, clients - i) }, (_, j) => attack(svc.port, kinds[(i + j) % 3]!, source(i + j))),
        )),
      );
    }
    const openMs = performance.now() - started;
    // New clients every 250 ms while the attack lasts: from other addresses, and from the flooding one.
    const others: (number | string)[] = [];
    const same: (number | string)[] = [];
    let peakRss = 0;
    let heldAt5s: number | undefined;
    for (let i = 0; performance.now() - started < ATTACK_SECONDS * 1000; i++) {
      others.push(await newClient(svc.base, `127.0.1.${1 + (i % 250)}`));
      if (i % 4 === 0) same.push(await newClient(svc.base, '127.0.0.1'));
      peakRss = Math.max(peakRss, rssMiB(svc.pid));
      if (heldAt5s === undefined && performance.now() - started > 5_000)
        heldAt5s = attackers.filter((a) => a.socket && a.closedAt === undefined).length;
      await sleep(250);
    }
    const taken = attackers.filter((a) => a.socket);
    const open = taken.filter((a) => a.closedAt === undefined);
    const lines = [
      `slow bodies: ${clients} TLS connections from ${SOURCES} address(es), no credentials, Content-Length 100000, one byte every 20 s, for ${ATTACK_SECONDS} s`,
      `  opened in ${openMs.toFixed(0)} ms: ${taken.length} taken by the service, ${clients - taken.length} refused before TLS; ${heldAt5s ?? 0} still open 5 s in, ${open.length} at the end`,
    ];
    for (const kind of kinds) {
      const mine = taken.filter((a) => a.kind === kind);
      const statuses = new Map<string, number>();
      for (const a of mine) statuses.set(String(a.status ?? 'none'), (statuses.get(String(a.status ?? 'none')) ?? 0) + 1);
      const closed = mine.filter((a) => a.closedAt !== undefined).map((a) => (a.closedAt as number) - a.openedAt);
      lines.push(
        `  ${kind.padEnd(6)} ${mine.length} taken; answered ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}; ` +
          `${closed.length} closed by the service (${summary(closed)} after opening)`,
      );
    }
    lines.push(
      `  new clients from other addresses: ${fared(others)}`,
      `  new clients from the flooding address: ${fared(same)}`,
      `  RSS idle ${idleRss.toFixed(1)} MiB, peak during the attack ${peakRss.toFixed(1)} MiB`,
    );
    for (const a of attackers) a.socket?.destroy();
    return lines;
  } finally {
    await svc.stop();
  }
}

async function main(): Promise<void> {
  const out: string[] = [];
  if (MODE === 'hello' || MODE === 'both') out.push(...(await hello()));
  if (MODE === 'bodies' || MODE === 'both') out.push(...(await bodies()));
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
