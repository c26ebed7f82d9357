// Values that change only when their inputs do, built once per change and
// frozen. A GET handler that returns the same frozen object as before lets the
// dispatcher reuse that object's serialization and ETag (protocol/dispatch.ts),
// so an unchanged resource is not rebuilt, serialized or hashed again.
// Frozen means nobody can change it behind the cache. Under self-checks
// (self-check.ts) every read rebuilds the value and fails on any difference:
// the key then missed an input.
import { isDeepStrictEqual } from 'node:util';
import { deepFreeze } from './freeze.js';
import { selfChecking } from './self-check.js';

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Where two JSON-like values first differ ('' when they do not), for the message of a stale representation. */
export function firstDifference(kept: unknown, fresh: unknown, at = ''): string {
  if (isDeepStrictEqual(kept, fresh)) return '';
  if (typeof kept !== 'object' || typeof fresh !== 'object' || kept === null || fresh === null)
    return `${at || '/'}: ${JSON.stringify(kept)} kept, ${JSON.stringify(fresh)} now`;
  const a = kept as Record<string, unknown>;
  const b = fresh as Record<string, unknown>;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference(a[k], b[k], `${at}/${k}`);
    if (d) return d;
  }
  return `${at || '/'}: of another kind`;
}

/** A kept value that differs from what its inputs build now: its key misses an input. */
export class StaleRepresentation extends Error {
  constructor(what: string, difference: string) {
    super(`${what} is stale while its key is unchanged: ${difference}`);
  }
}

/**
 * Built representations by name (a URI, or a URI plus whatever else they
 * depend on), each kept while its key (the versions of its inputs) is unchanged.
 */
export class Representations<T extends object = Record<string, unknown>> {
  /** Made at the first value kept: most of a fleet's controllers never build most of theirs. */
  private entries?: Map<string, { key: readonly unknown[]; value: T }>;

  constructor(private readonly max = 1024) {}

  get(name: string, key: readonly unknown[], build: () => T): T {
    const entries = (this.entries ??= new Map());
    const hit = entries.get(name);
    if (hit && sameKey(hit.key, key)) {
      if (selfChecking()) {
        const difference = firstDifference(hit.value, build());
        if (difference) throw new StaleRepresentation(`memoized '${name}'`, difference);
      }
      return hit.value;
    }
    const value = deepFreeze(build());
    if (!hit && entries.size >= this.max) entries.clear();
    entries.set(name, { key: [...key], value });
    return value;
  }
}
