// Applies $select, $expand and $top/$skip to a decorated resource body.
import type { ExpandMode } from './query.js';

type Json = Record<string, unknown>;

const ALWAYS_KEPT = ['@odata.context', '@odata.etag', '@odata.id', '@odata.type'];

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keep only the selected paths (plus the OData annotations). Paths are case-sensitive. */
export function applySelect(resource: Json, paths: readonly (readonly string[])[]): Json {
  const out: Json = {};
  for (const k of ALWAYS_KEPT) if (k in resource) out[k] = resource[k];
  for (const path of paths) copyPath(resource, out, path);
  return out;
}

function copyPath(src: Json, dst: Json, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in src)) return;
  const value = src[head];
  if (rest.length === 0 || !isObject(value)) {
    if (rest.length === 0) dst[head] = value;
    return;
  }
  const child = isObject(dst[head]) ? dst[head] : {};
  dst[head] = child;
  copyPath(value, child, rest);
  // A selected member count travels with its collection.
  if (head === 'Members' && 'Members@odata.count' in src) dst['Members@odata.count'] = src['Members@odata.count'];
}

/** Slice Members for $top/$skip; the count stays the total (DSP0266). */
export function applyPaging(resource: Json, uri: string, top?: number, skip?: number): Json {
  const members = resource.Members;
  if (!Array.isArray(members)) return resource;
  const from = skip ?? 0;
  const to = top === undefined ? members.length : from + top;
  const out: Json = { ...resource, Members: members.slice(from, to), 'Members@odata.count': members.length };
  if (to < members.length) out['Members@odata.nextLink'] = `${uri}?$skip=${to}${top !== undefined ? `&$top=${top}` : ''}`;
  return out;
}

export type Fetch = (uri: string) => Promise<Json | undefined>;

/**
 * Replace links {"@odata.id"} with the resources they point to, `levels` deep.
 * '.' expands subordinate links (not under Links), '~' only those under Links, '*' both.
 */
export async function applyExpand(resource: Json, mode: ExpandMode, levels: number, fetch: Fetch): Promise<Json> {
  if (levels <= 0) return resource;
  return (await walk(resource, mode, levels, fetch, false, true)) as Json;
}

async function walk(v: unknown, mode: ExpandMode, levels: number, fetch: Fetch, inLinks: boolean, top: boolean): Promise<unknown> {
  if (Array.isArray(v)) return Promise.all(v.map((x) => walk(x, mode, levels, fetch, inLinks, false)));
  if (!isObject(v)) return v;
  const keys = Object.keys(v);
  if (!top && keys.length === 1 && typeof v['@odata.id'] === 'string') {
    const eligible = mode === 'all' || (mode === 'subordinate' ? !inLinks : inLinks);
    if (!eligible) return v;
    const target = await fetch(v['@odata.id']);
    if (!target) return v;
    return levels > 1 ? walk(target, mode, levels - 1, fetch, false, true) : target;
  }
  const out: Json = {};
  for (const k of keys) {
    // Annotations and actions carry no expandable links; Links sections switch mode.
    out[k] = k.startsWith('@') || k === 'Actions' ? v[k] : await walk(v[k], mode, levels, fetch, inLinks || k === 'Links', false);
  }
  return out;
}
