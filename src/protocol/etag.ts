// ETags: computed from a resource as stored, leaving out what moves without a
// client write (volatile properties: readings, clocks), and If-Match/If-None-Match.
import { hash } from 'node:crypto';
import type { Prop, Props } from './description.js';
import { isObject } from './shape.js';

type Json = Record<string, unknown>;

export function weakEtag(value: unknown): string {
  return etagOfJson(JSON.stringify(value));
}

export function etagOfJson(json: string): string {
  return `W/"${hash('sha1', json, 'base64url').slice(0, 16)}"`;
}

export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  const mine = strip(etag);
  return header.split(',').some((t) => strip(t) === mine);
}

/** The serialized resource with @odata.etag added as its last member. */
export function withEtag(json: string, etag: string): string {
  return `${json.slice(0, -1)},"@odata.etag":${JSON.stringify(etag)}}`;
}

const volatileKeysCache = new WeakMap<Props, [string, Prop][]>();

/** The properties that are volatile or hold volatile ones, at any depth: all etagSource must touch. */
function volatileKeys(props: Props): [string, Prop][] {
  let keys = volatileKeysCache.get(props);
  if (!keys) {
    volatileKeysCache.set(props, []); // guards against cycles while computing
    const holds = (p: Prop): boolean =>
      Boolean(p.volatile) || (p.type === 'object' && volatileKeys(p.properties).length > 0) || (p.type === 'array' && holds(p.items));
    keys = Object.entries(props).filter(([, p]) => holds(p));
    volatileKeysCache.set(props, keys);
  }
  return keys;
}

/** Whether any property, at any depth, is volatile (left out of the ETag). */
export function hasVolatile(props: Props): boolean {
  return volatileKeys(props).length > 0;
}

/** What the ETag is computed from: the resource minus volatile properties, at any depth. */
export function etagSource(resource: Json, props: Props | undefined): Json {
  if (!props) return resource;
  const keys = volatileKeys(props);
  if (keys.length === 0) return resource;
  const copy = { ...resource };
  for (const [k, p] of keys) {
    if (!(k in copy)) continue;
    if (p.volatile) delete copy[k];
    else copy[k] = withoutVolatile(copy[k], p);
  }
  return copy;
}

function withoutVolatile(value: unknown, prop: Prop): unknown {
  if (prop.type === 'object' && isObject(value)) return etagSource(value, prop.properties);
  if (prop.type === 'array' && Array.isArray(value)) return value.map((v) => withoutVolatile(v, prop.items));
  return value;
}
