// Event delivery benchmark: the service in this process, pinned to CPU 0, and 10
// HTTPS listeners (one subscription each) in a process of their own on CPU 1.
// Events are published in-process: first as fast as the outbox drains them (backlog
// capped) for the saturation rate, then at fixed rates (5,000 deliveries/s by default)
// for the latency of a sustained, unsaturated load. Prints delivered records/s and the
// publish-to-listener latency (p50/p99/max).
//   npm run bench:events            BENCH_SECONDS=15 BENCH_LISTENERS=10 BENCH_RATES=5000,2500 npm run bench:events
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { startEventListeners } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 10);
/** Deliveries per second (all listeners together) of the paced phases. */
const RATES = (process.env.BENCH_RATES ?? '5000,2500').split(',').map(Number);
/** Deliveries owed but not yet made, at most, while saturating. */
const MAX_BACKLOG = 500;
const now = () => performance.timeOrigin + performance.now();

const dataDir = mkdtempSync(join(tmpdir(), 'bmc-bench-events-'));
const service = await startService(
  defaultConfig({ port: 0, dataDir, adminPassword: 'Bench-Admin-Pass1', logLevel: 'silent', scryptLogN: 10 }),
);
const hub = service.services.eventHub;
const { proc: listeners, ports, ask } = await startEventListeners(LISTENERS);

for (const [i, port] of ports.entries()) {
  hub.create({ Destination: `https://127.0.0.1:${port}/events`, Context: `bench-${i}`, RegistryPrefixes: ['StorageDevice'] });
}
const pending = () => hub.list().reduce((n, s) => n + s.pending, 0);

interface Phase {
  seconds: number;
  published: number;
  latencies: number[];
}

/** Publish for `seconds`: as fast as deliveries keep up (rate undefined), or at `rate` deliveries/s. */
async function phase(seconds: number, rate?: number): Promise<Phase> {
  listeners.send('start');
  let published = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const eventsPerSecond = rate === undefined ? undefined : rate / LISTENERS;
  while (performance.now() < end) {
    const due = eventsPerSecond === undefined ? published + 1 : Math.floor(((performance.now() - start) / 1000) * eventsPerSecond);
    while (published < due && (eventsPerSecond !== undefined || pending() < MAX_BACKLOG)) {
      hub.submitTestEvent({ MessageId: 'StorageDevice.2.1.DrvArrLogDrvErasing', MessageArgs: [String(now()), 'bench'] });
      published++;
    }
    // The bench's own pacing (wall clock), not the service's clock.
    await (eventsPerSecond === undefined ? new Promise((r) => setImmediate(r)) : sleep(1));
  }
  const seconds_ = (performance.now() - start) / 1000;
  // Let the backlog drain, then collect what arrived.
  const drainEnd = performance.now() + 20_000;
  while (pending() > 0 && performance.now() < drainEnd) await sleep(10);
  await sleep(200);
  const { latencies } = await ask<{ latencies: number[] }>('stop');
  return { seconds: seconds_, published, latencies: latencies.sort((a, b) => a - b) };
}

function report(name: string, p: Phase): void {
  const pct = (q: number) => p.latencies[Math.min(p.latencies.length - 1, Math.floor((q / 100) * p.latencies.length))] ?? NaN;
  console.log(name);
  console.log(`  window                  ${p.seconds.toFixed(1)} s, ${LISTENERS} listeners (their own process, CPU 1)`);
  console.log(`  events published        ${p.published} (${(p.published / p.seconds).toFixed(0)}/s)`);
  console.log(
    `  delivered records       ${p.latencies.length} of ${p.published * LISTENERS} (${(p.latencies.length / p.seconds).toFixed(0)}/s)`,
  );
  console.log(
    `  latency p50 / p99 / max ${pct(50).toFixed(1)} / ${pct(99).toFixed(1)} / ${(p.latencies.at(-1) ?? NaN).toFixed(1)} ms (publish to listener)`,
  );
}

report(`saturation (backlog capped at ${MAX_BACKLOG} deliveries)`, await phase(SECONDS));
for (const rate of RATES) report(`sustained at ${rate} deliveries/s`, await phase(SECONDS, rate));

listeners.send('exit');
await service.close();
rmSync(dataDir, { recursive: true, force: true });
