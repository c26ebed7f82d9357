// What changed between two JSON values, property path by property path (arrays by
// index): the rows the Activity view's detail shows.

export interface Change {
  /** "Boot/BootSourceOverrideTarget", "Attributes/UsbBoot". */
  path: string;
  before: unknown;
  after: unknown;
  kind: 'changed' | 'added' | 'removed' | 'same';
}

/** Leaves of a JSON value by path; an empty object or array is a leaf of its own. */
export function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) out.set(prefix, value);
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}/${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Every path whose value differs between before and after (the paths both hold alike only with `all`). */
export function diff(before: unknown, after: unknown, all = false): Change[] {
  const a = flatten(before);
  const b = flatten(after);
  const out: Change[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(path);
    const y = b.get(path);
    const kind = !a.has(path) ? 'added' : !b.has(path) ? 'removed' : JSON.stringify(x) === JSON.stringify(y) ? 'same' : 'changed';
    if (kind !== 'same' || all) out.push({ path, before: x, after: y, kind });
  }
  return out;
}

/** What a request body asked for against what the answer holds at the same paths. */
export function asked(request: unknown, answer: unknown): Change[] {
  const got = flatten(answer);
  return [...flatten(request)].map(([path, want]) => {
    const have = got.get(path);
    const kind = !got.has(path) ? 'removed' : JSON.stringify(have) === JSON.stringify(want) ? 'same' : 'changed';
    return { path, before: want, after: have, kind };
  });
}
