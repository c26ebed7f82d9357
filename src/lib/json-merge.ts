// JSON merge for PATCH, written once: objects merge member by member, and
// arrays follow the DSP0266 rules (null removes an element, {} keeps the
// current one, a shorter array truncates). The request validator, the
// dispatcher and the stores that keep PATCHed documents all use these.

/** The JSON type of a value: 'null', 'array', or its typeof. */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** True for `{}`: in a PATCHed array it keeps the current element. */
export function isEmptyObject(v: unknown): boolean {
  return jsonTypeOf(v) === 'object' && Object.keys(v as object).length === 0;
}

function isArrayMarker(x: unknown): boolean {
  return x === null || isEmptyObject(x);
}

/**
 * Merge a validated PATCH into a stored document: objects merge member by
 * member, arrays of objects follow the DSP0266 rules (null removes, {} keeps,
 * a shorter array truncates), anything else is replaced.
 */
export function mergePatch<T>(current: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    if (jsonTypeOf(v) === 'object' && jsonTypeOf(cur) === 'object') {
      out[k] = mergePatch(cur, v as Record<string, unknown>);
    } else if (Array.isArray(v) && Array.isArray(cur) && v.some((x) => x === null || jsonTypeOf(x) === 'object')) {
      const merged: unknown[] = [];
      v.forEach((item, i) => {
        if (item === null) return;
        if (isEmptyObject(item) && i < cur.length) merged.push(cur[i]);
        else if (jsonTypeOf(item) === 'object' && jsonTypeOf(cur[i]) === 'object')
          merged.push(mergePatch(cur[i], item as Record<string, unknown>));
        else merged.push(item);
      });
      out[k] = merged;
    } else {
      out[k] = v;
    }
  }
  return out as T;
}

/** True when some array in a validated PATCH uses null or {} elements. */
export function hasArrayMarkers(v: unknown): boolean {
  if (Array.isArray(v)) return v.some((x) => isArrayMarker(x) || hasArrayMarkers(x));
  if (jsonTypeOf(v) === 'object') return Object.values(v as object).some(hasArrayMarkers);
  return false;
}

/**
 * Resolve the DSP0266 array forms of a PATCH against the current resource, so
 * handlers only ever see final arrays: null drops the element, {} keeps the
 * current one, a shorter array truncates.
 */
export function resolveArrayMarkers(patch: unknown, current: unknown): unknown {
  if (Array.isArray(patch)) {
    const cur = Array.isArray(current) ? current : [];
    const out: unknown[] = [];
    patch.forEach((item, i) => {
      if (item === null) return;
      if (isEmptyObject(item)) {
        if (i < cur.length) out.push(cur[i]);
        return;
      }
      out.push(resolveArrayMarkers(item, cur[i]));
    });
    return out;
  }
  if (jsonTypeOf(patch) === 'object') {
    const cur = jsonTypeOf(current) === 'object' ? (current as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(patch as object).map(([k, v]) => [k, resolveArrayMarkers(v, cur[k])]));
  }
  return patch;
}
