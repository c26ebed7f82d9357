// Live JavaScript heap per controller of a fleet (issue 30): V8's scavenges walk every page of
// the old generation, so a fleet's GETs cost more the more heap each controller holds. Starts a
// fleet of one and a fleet of HEAP_FLEET_SIZE (500) as `npm run fleet` does, one after the other,
// polls every controller once as a fleet manager does (a new connection, GET of the service root
// and Systems/1/: what a controller makes lazily is made), takes a heap snapshot (node collects
// fully first, so the snapshot is the live heap), and prints the live heap per controller above
// the fleet of one, and which objects and closures (by the line that made them) grew most per
// controller. These bytes do not depend on the machine's load.
//   npm run bench:heap        (HEAP_FLEET_SIZE=500 FLEET_BASE_PORT=30000 HEAP_TOP=25 HEAP_SNAPSHOTS=<dir, else a temporary one>)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_PORT, each, fleetArgs, onNewConnection, start, stop } from './fleet-support.js';
import { heapBy, snapshot, snapshotFlags, type HeapGroups } from './heap-snapshot.js';

const SIZE = Number(process.env.HEAP_FLEET_SIZE ?? 500);
const TOP = Number(process.env.HEAP_TOP ?? 25);
const KEEP = process.env.HEAP_SNAPSHOTS;

/** A fleet of `size`, every controller polled once, its heap snapshot read back. */
async function fleetHeap(size: number, dir: string): Promise<HeapGroups> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-heap-'));
  const fleet = await start(fleetArgs(dataDir, size), '0-1', snapshotFlags(dir));
  try {
    await each(size, 16, async (g) => {
      const answers = await onNewConnection(`https://127.0.0.1:${BASE_PORT + g}`, [
        { path: '/redfish/v1/' },
        { path: '/redfish/v1/Systems/1/' },
      ]);
      const failed = answers.find((a) => a.status !== 200);
      if (failed) throw new Error(`controller ${g}: ${failed.status} ${failed.body.slice(0, 200)}`);
    });
    return heapBy(await snapshot(fleet.proc, dir, `fleet-${size}`), { places: true });
  } finally {
    await stop(fleet);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = KEEP ?? mkdtempSync(join(tmpdir(), 'bmc-heap-snapshots-'));
  mkdirSync(dir, { recursive: true });
  try {
    const one = await fleetHeap(1, dir);
    const many = await fleetHeap(SIZE, dir);
    const per = (a: number, b: number) => (b - a) / (SIZE - 1);
    const kib = (x: number) => (x / 1024).toFixed(1);
    const mib = (x: number) => (x / 1024 / 1024).toFixed(1);
    const rows = [...many.by].map(([k, v]) => {
      const base = one.by.get(k);
      return { k, size: per(base?.size ?? 0, v.size), count: per(base?.count ?? 0, v.count) };
    });
    rows.sort((x, y) => y.size - x.size);
    const lines = [
      `live JS heap after a full collection: fleet of 1 ${mib(one.total)} MiB, fleet of ${SIZE} ${mib(many.total)} MiB`,
      `per controller above the fleet of one: ${kib(per(one.total, many.total))} KiB`,
      `grew most per controller (self size; a closure with the context it closes over):`,
      ...rows.slice(0, TOP).map((r) => `  ${kib(r.size).padStart(7)} KiB  ${r.count.toFixed(1).padStart(7)}  ${r.k.slice(0, 110)}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
