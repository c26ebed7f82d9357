// Events across a fleet (issue: Performance III): a fleet of FLEET_SIZE (1,000) controllers as
// `npm run fleet` runs it (CPU 0), a subscription on each to one of 10 HTTPS listeners in a process
// of their own (bench/event-listeners.ts, CPU 1), then one state change on each controller (a PATCH
// of its AssetTag: a ResourceChanged event), 64 at a time. Measured: from the first PATCH to the
// last controller's event at its listener. Then retries: the listeners refuse the first delivery
// to every 10th subscription, each controller's retry interval set to 5 s (its minimum) (retries as they are, a
// shorter wait), one more change on each; every event must arrive, the refused ones at a retry.
//   FLEET_SIZE=1000 npm run bench:fleet-events
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEventListeners } from './support.js';
import { BASE_PORT, each, fleetArgs, onNewConnection, printTable, sleep, start, stop } from './fleet-support.js';

const SIZE = Number(process.env.FLEET_SIZE ?? 1000);
const LISTENERS = 10;
const POLLERS = 64;
const RETRY_SECONDS = 5;
const REFUSE_EVERY = 10;

const origin = (i: number) => `https://127.0.0.1:${BASE_PORT + i}`;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bmc-bench-fleet-events-'));
  const { proc: listeners, ports, ask } = await startEventListeners(LISTENERS);

  const fleet = await start(fleetArgs(join(root, 'fleet'), SIZE));
  try {
    const ok = (i: number, what: string, answers: { status: number; body: string }[]) => {
      for (const a of answers) if (a.status >= 300) throw new Error(`controller ${i}, ${what}: ${a.status} ${a.body.slice(0, 300)}`);
    };
    await each(SIZE, POLLERS, async (i) => {
      const destination = `https://127.0.0.1:${ports[i % LISTENERS]}/events/${i}`;
      ok(
        i,
        'subscribe',
        await onNewConnection(origin(i), [
          {
            method: 'POST',
            path: '/redfish/v1/EventService/Subscriptions/',
            body: { Destination: destination, Context: `controller-${i}` },
          },
          { method: 'PATCH', path: '/redfish/v1/EventService/', body: { DeliveryRetryIntervalSeconds: RETRY_SECONDS } },
        ]),
      );
    });
    await sleep(2000);
    await ask('arrivals');

    /** One change on each controller; how long until every controller's event arrived. */
    const wave = async (tag: string, waitMs: number) => {
      const t0 = performance.timeOrigin + performance.now();
      await each(SIZE, POLLERS, async (i) => {
        ok(
          i,
          'change',
          await onNewConnection(origin(i), [{ method: 'PATCH', path: '/redfish/v1/Systems/1/', body: { AssetTag: `${tag}-${i}` } }]),
        );
      });
      const changedMs = performance.timeOrigin + performance.now() - t0;
      const seen = new Map<string, number>();
      let refused = 0;
      for (const end = Date.now() + waitMs; seen.size < SIZE && Date.now() < end;) {
        await sleep(200);
        const got = await ask<{ arrivals: Record<string, number>; refused: number }>('arrivals');
        for (const [c, at] of Object.entries(got.arrivals)) if (!seen.has(c)) seen.set(c, at);
        refused = got.refused;
      }
      const last = Math.max(...seen.values());
      return { delivered: seen.size, changedMs, allMs: last - t0, refused };
    };
    const first = await wave('first', 60_000);
    listeners.send({ refuseEvery: REFUSE_EVERY });
    const retried = await wave('retried', 60_000 + RETRY_SECONDS * 4000);

    printTable([
      [`subscriptions`, `${SIZE} controllers, one each, ${LISTENERS} listeners (own process, CPU 1)`, ''],
      [`one change on each controller (PATCH, ${POLLERS} at a time)`, `${(first.changedMs / 1000).toFixed(1)} s for all PATCHes`, ''],
      ['every event delivered', `${first.delivered} of ${SIZE} in ${(first.allMs / 1000).toFixed(1)} s from the first PATCH`, '< 10 s'],
      [
        `retries: first delivery refused to every ${REFUSE_EVERY}th, retry after ${RETRY_SECONDS} s`,
        `${retried.delivered} of ${SIZE} in ${(retried.allMs / 1000).toFixed(1)} s (${retried.refused} refused once)`,
        'all delivered',
      ],
    ]);
  } finally {
    await stop(fleet);
    listeners.send('exit');
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
