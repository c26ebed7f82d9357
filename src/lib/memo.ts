// Values that change only when their inputs do, built once per change and
// frozen. A GET handler that returns the same frozen object as before lets the
// dispatcher reuse that object's serialization and ETag (protocol/dispatch.ts),
// so an unchanged resource is not rebuilt, serialized or hashed again.
// Frozen means nobody can change it behind the cache.
import { deepFreeze } from './freeze.js';

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * Built representations by name (a URI, or a URI plus whatever else they
 * depend on), each kept while its key (the versions of its inputs) is unchanged.
 */
export class Representations<T extends object = Record<string, unknown>> {
  private readonly entries = new Map<string, { key: readonly unknown[]; value: T }>();

  constructor(private readonly max = 1024) {}

  get(name: string, key: readonly unknown[], build: () => T): T {
    const hit = this.entries.get(name);
    if (hit && sameKey(hit.key, key)) return hit.value;
    const value = deepFreeze(build());
    if (!hit && this.entries.size >= this.max) this.entries.clear();
    this.entries.set(name, { key: [...key], value });
    return value;
  }
}
