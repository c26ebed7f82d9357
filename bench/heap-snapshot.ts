// Heap snapshots of a service process (bench/memory.ts, bench/heap-per-controller.ts): taken by
// node on SIGUSR2 (`--heapsnapshot-signal=SIGUSR2`, after a full collection, so what they hold is
// the live heap) and read back as self sizes grouped by what made each object.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './support.js';

/** The node flags that make a process write a heap snapshot into `dir` on SIGUSR2. */
export const snapshotFlags = (dir: string): string[] => ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`];

/** A heap snapshot of `child` (started with snapshotFlags(dir)), moved to `<dir>/<name>.heapsnapshot`. */
export async function snapshot(child: ChildProcess, dir: string, name: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  child.kill('SIGUSR2');
  let file: string | undefined;
  for (let i = 0; i < 1200 && !file; i++) {
    await sleep(100);
    file = readdirSync(dir).find((f) => f.startsWith('Heap') && f.endsWith('.heapsnapshot') && !before.has(f));
  }
  if (!file) throw new Error('no heap snapshot was written');
  const path = join(dir, file);
  // Written when its size stops changing.
  for (let last = -1; ;) {
    await sleep(1000);
    const size = statSync(path).size;
    if (size === last && size > 0) break;
    last = size;
  }
  const target = join(dir, `${name}.heapsnapshot`);
  renameSync(path, target);
  return target;
}

export interface HeapGroups {
  /** Bytes of every object in the snapshot: the live heap. */
  total: number;
  by: Map<string, { size: number; count: number }>;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * Self sizes and counts of a heap snapshot by node type and constructor name (strings together).
 * With `places`, a function is grouped by where it was written (`closure name @ src/file.js:line`)
 * and the context it closes over (V8's `Context`, what its captured variables take) goes with it,
 * so a closure made once per controller shows as the line that made it; a plain object is grouped by
 * its first property names (which literal made it).
 */
export function heapBy(path: string, o: { places?: boolean } = {}): HeapGroups {
  const snap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const { node_fields: fields, node_types, edge_fields, edge_types } = snap.snapshot.meta;
  const types = node_types[0];
  const [t, n, s, ec] = ['type', 'name', 'self_size', 'edge_count'].map((f) => fields.indexOf(f)) as [number, number, number, number];
  const [et, en, eto] = ['type', 'name_or_index', 'to_node'].map((f) => edge_fields.indexOf(f)) as [number, number, number];
  const nf = fields.length;
  const ef = edge_fields.length;
  const count = snap.nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i]! + snap.nodes[i * nf + ec]!;
  const typeOf = (i: number) => types[snap.nodes[i * nf + t]!] as string;
  const nameOf = (i: number) => snap.strings[snap.nodes[i * nf + n]!] as string;
  /** The node a named edge of node i leads to. */
  const named = (e: number) => {
    const kind = edge_types[0][snap.edges[e * ef + et]!];
    return kind === 'element' || kind === 'hidden' ? undefined : { kind, name: snap.strings[snap.edges[e * ef + en]!] };
  };
  const edge = (i: number, name: string): number | undefined => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e++) if (named(e)?.name === name) return snap.edges[e * ef + eto]! / nf;
    return undefined;
  };
  /** A plain object's first property names: which literal in the code made it. */
  const shapeOf = (i: number): string => {
    const keys: string[] = [];
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]! && keys.length < 4; e++) {
      const p = named(e);
      if (p?.kind === 'property' && p.name !== '__proto__') keys.push(p.name!);
    }
    return `{${keys.join(', ')}}`;
  };
  const root = fileURLToPath(new URL('..', import.meta.url));
  /** Where a function was written: its script's path (relative to the project). */
  const placeOf = (closure: number): string => {
    const shared = edge(closure, 'shared');
    const script = shared === undefined ? undefined : edge(shared, 'script_or_debug_info');
    return script === undefined
      ? '?'
      : nameOf(script)
          .replace(/^file:\/\//, '')
          .replace(root, '');
  };
  const lines = new Map<number, number>();
  // Node 20's snapshots carry each function's location: object index, script id, line, column.
  const withLocations = snap as Snapshot & { locations?: number[]; snapshot: { meta: { location_fields?: string[] } } };
  const lf = withLocations.snapshot.meta.location_fields?.length ?? 4;
  for (let i = 0; i < (withLocations.locations?.length ?? 0); i += lf) {
    lines.set(withLocations.locations![i]! / nf, withLocations.locations![i + 2]! + 1);
  }
  const by = new Map<string, { size: number; count: number }>();
  const add = (key: string, size: number) => {
    const e = by.get(key) ?? { size: 0, count: 0 };
    e.size += size;
    e.count++;
    by.set(key, e);
  };
  const counted = new Uint8Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) total += snap.nodes[i * nf + s]!;
  if (o.places) {
    for (let i = 0; i < count; i++) {
      if (typeOf(i) !== 'closure') continue;
      const key = `closure ${nameOf(i) || '(anonymous)'} @ ${placeOf(i)}:${lines.get(i) ?? '?'}`;
      add(key, snap.nodes[i * nf + s]!);
      counted[i] = 1;
      const context = edge(i, 'context');
      if (context !== undefined && !counted[context] && nameOf(context) === 'system / Context') {
        add(`${key} (its context)`, snap.nodes[context * nf + s]!);
        counted[context] = 1;
      }
    }
  }
  for (let i = 0; i < count; i++) {
    if (counted[i]) continue;
    const type = typeOf(i);
    const key = type === 'string' || type === 'concatenated string' || type === 'sliced string' ? '(strings)' : `${type} ${nameOf(i)}`;
    add(o.places && key === 'object Object' ? `object ${shapeOf(i)}` : key, snap.nodes[i * nf + s]!);
  }
  return { total, by };
}
