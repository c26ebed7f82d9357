// Vendor (Oem/Vendor) objects carry the @odata.type of their vendor type,
// derived from the description so no handler has to remember it.
import { odataType, type Prop, type Props } from './description.js';

type Json = Record<string, unknown>;

const hasVendor = new WeakMap<object, boolean>();

function containsVendorType(p: Prop): boolean {
  if (p.type === 'array') return containsVendorType(p.items);
  if (p.type !== 'object') return false;
  const known = hasVendor.get(p);
  if (known !== undefined) return known;
  hasVendor.set(p, false); // guards against cycles while computing
  const result = Boolean(p.vendorType) || Object.values(p.properties).some(containsVendorType);
  hasVendor.set(p, result);
  return result;
}

function stampValue(v: unknown, p: Prop): unknown {
  if (p.type === 'array') return Array.isArray(v) && containsVendorType(p.items) ? v.map((x) => stampValue(x, p.items)) : v;
  if (p.type !== 'object' || typeof v !== 'object' || v === null || Array.isArray(v) || !containsVendorType(p)) return v;
  const out = stampVendorTypes(v as Json, p.properties);
  if (p.vendorType && !('@odata.type' in out)) return { '@odata.type': odataType(p.vendorType), ...out };
  return out;
}

const vendorKeys = new WeakMap<Props, [string, Prop][]>();

/** A copy of body where every object described by a vendor type has its @odata.type. */
export function stampVendorTypes(body: Json, props: Props): Json {
  let keys = vendorKeys.get(props);
  if (!keys) {
    keys = Object.entries(props).filter(([, p]) => containsVendorType(p));
    vendorKeys.set(props, keys);
  }
  let out: Json | undefined;
  for (const [k, p] of keys) {
    if (!(k in body)) continue;
    const before = body[k];
    const after = stampValue(before, p);
    if (after !== before) (out ??= { ...body })[k] = after;
  }
  return out ?? body;
}
