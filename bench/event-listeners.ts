// The listeners of bench/events.ts, in a process of their own (pinned to the other
// CPU): N HTTPS servers that count the event records they receive and their latency
// from publication (the record's first MessageArg: a wall-clock time in ms). For bench/fleet-events.ts
// they also note when each subscription's (Context's) first event was accepted, and can refuse the
// first delivery to every n-th Context (its retry must bring it).
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const [count, certPem, keyPem] = [Number(process.argv[2] ?? 10), process.env.BENCH_CERT ?? '', process.env.BENCH_KEY ?? ''];
const now = () => performance.timeOrigin + performance.now();
let measuring = false;
let latencies: number[] = [];
const ports: number[] = [];
/** Context → when its first event was accepted (wall clock, ms). */
let arrivals = new Map<string, number>();
let refuseEvery = 0;
const refused = new Set<string>();
for (let i = 0; i < count; i++) {
  const server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Context?: string; Events: { MessageArgs: string[] }[] };
      const at = now();
      const context = body.Context ?? '';
      if (refuseEvery && Number(/\d+$/.exec(context)?.[0]) % refuseEvery === 0 && !refused.has(context)) {
        refused.add(context);
        res.writeHead(503).end();
        return;
      }
      if (!arrivals.has(context)) arrivals.set(context, at);
      if (measuring) for (const e of body.Events) latencies.push(at - Number(e.MessageArgs[0]));
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ports.push((server.address() as AddressInfo).port);
}
process.on('message', (m: string | { refuseEvery: number }) => {
  if (typeof m === 'object') {
    refuseEvery = m.refuseEvery;
    refused.clear();
  } else if (m === 'arrivals') {
    process.send?.({ arrivals: Object.fromEntries(arrivals), refused: refused.size });
    arrivals = new Map();
  } else if (m === 'start') {
    latencies = [];
    measuring = true;
  } else if (m === 'stop') {
    measuring = false;
    process.send?.({ latencies });
  } else if (m === 'exit') process.exit(0);
});
process.send?.({ ports });
