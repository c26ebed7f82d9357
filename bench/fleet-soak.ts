// Memory of a fleet under hours of mixed load (issue: Performance III): a fleet of FLEET_SIZE (1,000)
// controllers as `npm run fleet` runs it (CPU 0, descriptor limit FLEET_NOFILE), and from this
// process (CPU 1) FLEET_SOAK_WORKERS workers, each picking a random controller per operation: GETs of
// Systems/1/ and Chassis/1/Thermal/, a PATCH of the AssetTag, a login and logout (session create +
// delete), while every 10th controller has a subscription to a listener here (so the writes are
// delivered events). RSS sampled every FLEET_SOAK_SAMPLE_SECONDS, with where it is (glibc's heap, the
// other anonymous memory: V8's heap among it); the figure after FLEET_SOAK_MINUTES (20) is compared
// with the one after the first two minutes (target: within 10%), and the slope over the last quarter
// says whether it still rises.
//   FLEET_SOAK_MINUTES=4 npm run bench:fleet-soak
import { createServer } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { issueCertificate } from '../src/platform/x509.js';
import { BASE_PORT, PASSWORD, auth, each, fleetArgs, insecure, memoryMiB, printTable, sleep, start, stop } from './fleet-support.js';

const SIZE = Number(process.env.FLEET_SIZE ?? 1000);
const MINUTES = Number(process.env.FLEET_SOAK_MINUTES ?? 20);
const SAMPLE_SECONDS = Number(process.env.FLEET_SOAK_SAMPLE_SECONDS ?? 30);
const WORKERS = Number(process.env.FLEET_SOAK_WORKERS ?? 16);
const SUBSCRIBED_EVERY = 10;
/** The figure the last one is compared with: after the first two minutes (or a tenth of a shorter run). */
const REFERENCE_SECONDS = Math.min(120, (MINUTES * 60) / 10);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bmc-bench-fleet-soak-'));
  const cert = await issueCertificate({
    subject: 'CN=localhost',
    ipAddresses: ['127.0.0.1'],
    usage: ['server'],
    notBefore: new Date(Date.now() - 60_000),
  });
  let delivered = 0;
  const listener = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const listenerPort = (listener.address() as AddressInfo).port;
  const fleet = await start(fleetArgs(join(root, 'fleet'), SIZE));
  // Idle connections closed after a second: a thousand controllers' kept-alive ones would take the fleet's share of descriptors.
  const agent = new Agent({ connect: insecure, keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
  const call = async (
    i: number,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: auth },
  ) => {
    const res = await request(`https://127.0.0.1:${BASE_PORT + i}${path}`, {
      method: method as 'GET',
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: agent,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} on ${i}: ${res.statusCode} ${text.slice(0, 300)}`);
    return res;
  };
  const counts = { get: 0, patch: 0, login: 0, errors: 0 };
  const samples: { seconds: number; rss: number; heap: number; otherAnon: number }[] = [];
  try {
    await each(Math.ceil(SIZE / SUBSCRIBED_EVERY), 16, async (k) => {
      const body = { Destination: `https://127.0.0.1:${listenerPort}/events`, Context: `soak-${k}` };
      await call(k * SUBSCRIBED_EVERY, 'POST', '/redfish/v1/EventService/Subscriptions/', body);
    });
    const t0 = performance.now();
    const end = t0 + MINUTES * 60_000;
    let running = true;
    const operations = [
      async (i: number) => (await call(i, 'GET', '/redfish/v1/Systems/1/'), counts.get++),
      async (i: number) => (await call(i, 'GET', '/redfish/v1/Chassis/1/Thermal/'), counts.get++),
      async (i: number) => (
        await call(i, 'PATCH', '/redfish/v1/Systems/1/', { AssetTag: `soak-${Math.floor(Math.random() * 1e6)}` }),
        counts.patch++
      ),
      async (i: number) => {
        const login = await call(i, 'POST', '/redfish/v1/SessionService/Sessions/', { UserName: 'Administrator', Password: PASSWORD }, {});
        await call(i, 'DELETE', new URL(String(login.headers.location), 'https://x').pathname, undefined, {
          'x-auth-token': String(login.headers['x-auth-token']),
        });
        counts.login++;
      },
    ];
    const workers = Array.from({ length: WORKERS }, async () => {
      while (running) {
        const i = Math.floor(Math.random() * SIZE);
        try {
          await operations[Math.floor(Math.random() * operations.length)]!(i);
        } catch {
          counts.errors++;
        }
      }
    });
    while (performance.now() < end) {
      await sleep(Math.min(SAMPLE_SECONDS * 1000, end - performance.now()));
      samples.push({ seconds: Math.round((performance.now() - t0) / 1000), ...memoryMiB(fleet.proc.pid!) });
      const s = samples.at(-1)!;
      process.stdout.write(
        `${s.seconds} s: RSS ${Math.round(s.rss)} MiB, glibc heap ${Math.round(s.heap)}, other anonymous ${Math.round(s.otherAnon)} (${counts.get} GETs, ${counts.patch} PATCHes, ${counts.login} logins, ${delivered} events delivered, ${counts.errors} errors)\n`,
      );
    }
    running = false;
    await Promise.all(workers);
  } finally {
    await stop(fleet);
    await agent.close();
    listener.close();
    rmSync(root, { recursive: true, force: true });
  }
  const reference = samples.find((s) => s.seconds >= REFERENCE_SECONDS) ?? samples[0]!;
  const last = samples.at(-1)!;
  const change = (100 * (last.rss - reference.rss)) / reference.rss;
  // Least squares over the last quarter of the samples: near 0 for a flat fleet, whatever its collector's sawtooth.
  const tail = samples.filter((s) => s.seconds >= last.seconds * 0.75);
  const quarter = tail[0]!;
  const perMinute = (key: 'rss' | 'heap' | 'otherAnon') => {
    const mt = tail.reduce((a, s) => a + s.seconds, 0) / tail.length;
    const mv = tail.reduce((a, s) => a + s[key], 0) / tail.length;
    const cov = tail.reduce((a, s) => a + (s.seconds - mt) * (s[key] - mv), 0);
    const variance = tail.reduce((a, s) => a + (s.seconds - mt) ** 2, 0);
    return variance ? (cov / variance) * 60 : 0;
  };
  printTable([
    [`fleet`, `${SIZE} controllers, ${WORKERS} workers, ${MINUTES} min`, ''],
    ['operations', `${counts.get} GETs, ${counts.patch} PATCHes, ${counts.login} logins, ${delivered} events, ${counts.errors} errors`, ''],
    [`RSS after ${reference.seconds} s`, `${Math.round(reference.rss)} MiB`, ''],
    [`RSS after ${last.seconds} s`, `${Math.round(last.rss)} MiB`, ''],
    ['change', `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`, 'within 10%'],
    [
      `slope, ${quarter.seconds}–${last.seconds} s`,
      `RSS ${perMinute('rss').toFixed(1)} MiB/min (glibc heap ${perMinute('heap').toFixed(1)}, other anonymous ${perMinute('otherAnon').toFixed(1)})`,
      '',
    ],
  ]);
}

await main();
