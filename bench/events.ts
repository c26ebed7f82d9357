// Event delivery benchmark: 10 local HTTPS listeners, one subscription each,
// events published in-process as fast as the outbox drains them (backlog
// capped), for a fixed window. Prints sustained delivered events/s and the
// publish-to-listener latency (p50/p99). Stops by itself.
// A second run at half that rate gives the latency of a sustained, unsaturated load.
//   npx tsx bench/events.ts [seconds=15] [listeners=10]    (two runs of that length)
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { issueCertificate } from '../src/platform/x509.js';

const SECONDS = Number(process.argv[2] ?? 15);
const LISTENERS = Number(process.argv[3] ?? 10);
/** Deliveries owed but not yet made, at most: keeps the measured latency that of a sustained rate. */
const MAX_BACKLOG = 500;

const dataDir = mkdtempSync(join(tmpdir(), 'bmc-bench-events-'));
const service = await startService(
  defaultConfig({ port: 0, dataDir, adminPassword: 'Bench-Admin-Pass1', logLevel: 'silent', scryptLogN: 10 }),
);
const hub = service.services.eventHub;
const cert = await issueCertificate({
  subject: 'CN=localhost',
  ipAddresses: ['127.0.0.1'],
  usage: ['server'],
  notBefore: new Date(Date.now() - 60_000),
});

let delivered = 0;
let measuring = true;
const latencies: number[] = [];
const servers: Server[] = [];
for (let i = 0; i < LISTENERS; i++) {
  const server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const sentAt = Number(body.Events[0].MessageArgs[0]);
      if (measuring) {
        delivered++;
        latencies.push(performance.now() - sentAt);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  hub.create({
    Destination: `https://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    Context: `bench-${i}`,
    RegistryPrefixes: ['StorageDevice'],
  });
}

interface Phase {
  seconds: number;
  published: number;
  delivered: number;
  latencies: number[];
}

/** Publish for `seconds`: as fast as deliveries keep up (rate undefined), or at `rate` events/s. */
async function phase(seconds: number, rate?: number): Promise<Phase> {
  delivered = 0;
  latencies.length = 0;
  measuring = true;
  let published = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    const due = rate === undefined ? published + 1 : Math.floor(((performance.now() - start) / 1000) * rate);
    while (published < due && published * LISTENERS - delivered < MAX_BACKLOG) {
      hub.submitTestEvent({ MessageId: 'StorageDevice.2.1.DrvArrLogDrvErasing', MessageArgs: [String(performance.now()), 'bench'] });
      published++;
    }
    // Paced runs sleep between ticks (the bench's own pacing, not the service's clock).
    await (rate === undefined ? new Promise((r) => setImmediate(r)) : sleep(2));
  }
  measuring = false;
  const out = { seconds: (performance.now() - start) / 1000, published, delivered, latencies: [...latencies].sort((a, b) => a - b) };
  // Let the backlog drain so the next phase starts clean.
  const drainEnd = performance.now() + 10_000;
  while (hub.list().some((s) => s.pending > 0) && performance.now() < drainEnd) await sleep(10);
  return out;
}

function report(name: string, p: Phase): void {
  const pct = (q: number) => p.latencies[Math.min(p.latencies.length - 1, Math.floor((q / 100) * p.latencies.length))] ?? NaN;
  console.log(`${name}`);
  console.log(`  window                  ${p.seconds.toFixed(1)} s, ${LISTENERS} listeners`);
  console.log(`  events published        ${p.published} (${(p.published / p.seconds).toFixed(0)}/s)`);
  console.log(`  delivered events/s      ${(p.delivered / p.seconds).toFixed(0)} (${p.delivered} deliveries, all listeners together)`);
  console.log(
    `  latency p50 / p99 / max ${pct(50).toFixed(1)} / ${pct(99).toFixed(1)} / ${(p.latencies.at(-1) ?? NaN).toFixed(1)} ms (publish to listener)`,
  );
}

const saturated = await phase(SECONDS);
report('saturation (backlog capped at 500 deliveries)', saturated);
const rate = Math.max(1, Math.floor((saturated.published / saturated.seconds) * 0.5));
report(`sustained at ${rate} events/s (half the saturation rate)`, await phase(SECONDS, rate));

for (const s of servers) {
  s.closeAllConnections();
  s.close();
}
await service.close();
rmSync(dataDir, { recursive: true, force: true });
