// Decoration: what every resource gets besides its handler's answer — the OData
// annotations, the Actions object from the route's declared actions,
// Members@odata.count, its ETag — and the Allow and Link headers of a GET.
import { deepFreeze } from '../lib/freeze.js';
import { firstDifference, StaleRepresentation } from '../lib/memo.js';
import { selfChecking } from '../lib/self-check.js';
import { actionInfoPath, hasParameters } from './action-info.js';
import {
  enumIn,
  localJsonSchemaUri,
  odataType,
  offeredIn,
  type ActionDef,
  type Prop,
  type Props,
  type ResourceType,
} from './description.js';
import type { Dialect, DialectName } from './dialect.js';
import { etagOfJson, etagSource, hasVolatile, weakEtag } from './etag.js';
import { CANONICAL_NAMING, type Naming } from './naming.js';
import { stampVendorTypes } from './oem.js';
import { actionPath, allowedMethods, type ActionRoute, type AnyRoute, type Match } from './routes.js';

type Json = Record<string, unknown>;

/** What decoration needs of the dialect; without one, the spec dialect's (iLO's). */
type ShownDialect = Pick<Dialect, 'name' | 'hidesDeprecated' | 'vendorActions'>;

export interface Decorated {
  resource: Json;
  etag: string;
  type?: ResourceType;
  /** The resource as JSON, @odata.etag left out, when the ETag was computed from exactly that. */
  json?: string;
  /** The full body of a GET (with @odata.etag) as sent, kept once made for a reused representation. */
  body?: Buffer;
}

/** Decorations of frozen (memoized) handler results, by the result object. */
const decoratedBodies = new WeakMap<object, { uri: string; decorated: Decorated }>();

export function decorate(
  route: AnyRoute | undefined,
  uri: string,
  params: Readonly<Record<string, string>>,
  body: Json,
  type: ResourceType | undefined,
  dialect?: ShownDialect,
  naming: Naming = CANONICAL_NAMING,
): Decorated {
  // A frozen body is a memoized representation (memo.ts): decorated once per URI.
  const reusable = Object.isFrozen(body) && !(route && hasAllowable(route));
  if (reusable) {
    const known = decoratedBodies.get(body);
    if (known?.uri === uri) {
      // Self-checks (lib/self-check.ts): the kept decoration is the one the body gets now.
      if (selfChecking()) {
        const difference = firstDifference(known.decorated.resource, decorateNew(route, uri, params, body, type, dialect, naming).resource);
        if (difference) throw new StaleRepresentation(`the decoration of ${uri}`, difference);
      }
      return known.decorated;
    }
  }
  const decorated = decorateNew(route, uri, params, body, type, dialect, naming);
  if (reusable) {
    Object.freeze(decorated.resource);
    decoratedBodies.set(body, { uri, decorated });
  }
  return decorated;
}

function decorateNew(
  route: AnyRoute | undefined,
  uri: string,
  params: Readonly<Record<string, string>>,
  body: Json,
  type: ResourceType | undefined,
  dialect?: ShownDialect,
  naming: Naming = CANONICAL_NAMING,
): Decorated {
  const resource: Json = {};
  if (type) {
    resource['@odata.context'] = `/redfish/v1/$metadata#${type.name}.${type.name}`;
    resource['@odata.id'] = uri;
    resource['@odata.type'] = odataType(type);
  }
  // Areas write the canonical vendor names; the types (the route table's) are named as served.
  const named = naming.outward(body);
  Object.assign(resource, type ? stampVendorTypes(named, type.properties) : named);
  const name = dialect?.name ?? 'spec';
  if (type && mayHide(type.properties))
    dropHidden(resource, type.properties, (p) => (dialect?.hidesDeprecated === true && p.deprecated !== undefined) || !offeredIn(p, name));
  const writable = route && type && writableProps(route, params);
  if (writable && naming.annotatesWritable) annotateWritable(resource, writable, dialect?.hidesDeprecated ?? false);
  // A page (applyPaging) carries the count of the whole collection already.
  if (Array.isArray(resource.Members) && resource['Members@odata.count'] === undefined)
    resource['Members@odata.count'] = resource.Members.length;
  if (route?.actions?.length) addActions(resource, route, uri, params, dialect?.vendorActions ?? 'oem-vendor', name, naming);
  // One serialization serves both the ETag and, for a plain GET, the body.
  const json = type && hasVolatile(type.properties) ? undefined : JSON.stringify(resource);
  const etag = json !== undefined ? etagOfJson(json) : weakEtag(etagSource(resource, type?.properties));
  if (type) resource['@odata.etag'] = etag;
  return { resource, etag, type, json: type ? json : undefined };
}

const allowableByRoute = new WeakMap<AnyRoute, boolean>();

/** Whether a route has an action whose allowable values are asked per request (routes are fixed: once each). */
function hasAllowable(route: AnyRoute): boolean {
  let known = allowableByRoute.get(route);
  if (known === undefined) allowableByRoute.set(route, (known = route.actions?.some((a) => a.allowable) ?? false));
  return known;
}

const allowCache = new WeakMap<Match, string>();

/** The Allow header of a matched path (matches are shared and fixed, so it is computed once). */
export function allowHeader(match: Match): string {
  let allow = allowCache.get(match);
  if (allow === undefined) {
    allow = allowedMethods(match).join(', ');
    allowCache.set(match, allow);
  }
  return allow;
}

const linkCache = new WeakMap<ResourceType, string>();

export function linkHeader(type: ResourceType): string {
  let link = linkCache.get(type);
  if (link === undefined) {
    // The schema the store serves (clients such as ilorest read it from here, offline too).
    link = `<${localJsonSchemaUri(type)}>; rel=describedby`;
    linkCache.set(type, link);
  }
  return link;
}

const actionEntries = new WeakMap<ActionRoute<string, any>, Map<string, Json>>();

/** One action's entry (target and allowable values); fixed ones are made once per URI and shared. */
function actionEntry(
  a: ActionRoute<string, any>,
  route: AnyRoute,
  uri: string,
  params: Readonly<Record<string, string>>,
  vendorPlace: Dialect['vendorActions'],
  dialect: DialectName,
  naming: Naming,
): Json {
  let byUri = a.allowable ? undefined : actionEntries.get(a);
  const known = byUri?.get(uri);
  if (known) return known;
  const entry: Json = { target: `${uri}${actionPath({ ...route, path: '' }, a.def, vendorPlace, naming)}`, ...a.annotations };
  const overrides = a.allowable?.({ params }) ?? {};
  const def: ActionDef = a.def;
  if (hasParameters(def)) entry['@Redfish.ActionInfo'] = `${uri}${actionInfoPath('', def)}`;
  for (const [name, prop] of Object.entries(def.parameters)) {
    if (!offeredIn(prop, dialect)) continue;
    const values = overrides[name] ?? (prop.type === 'string' ? enumIn(prop, dialect) : undefined);
    if (values) entry[`${name}@Redfish.AllowableValues`] = [...values];
  }
  if (!a.allowable) {
    if (!byUri) actionEntries.set(a, (byUri = new Map()));
    if (byUri.size >= 1024) byUri.clear();
    byUri.set(uri, deepFreeze(entry));
  }
  return entry;
}

/** What a PATCH (or PUT) of the resource may change; none where the route takes no writes or this instance is read-only. */
function writableProps(route: AnyRoute, params: Readonly<Record<string, string>>): Props | undefined {
  const write = route.patch ?? route.put;
  if (!write || route.readOnlyFor?.(params)) return undefined;
  return (write.body as Props | undefined) ?? (route.type as ResourceType).properties;
}

/**
 * Names the writable properties present at each level (DMTF's @Redfish.WriteableProperties, which
 * interoperability profiles read): the resource's root and every object below it with writable
 * members (the first element of an array of objects speaks for all). Derived from the description:
 * neither read-only nor create-only, nor deprecated where the dialect hides those. Objects on the way
 * down are copied before they change. True when this level names any.
 */
function annotateWritable(obj: Json, props: Props, hidesDeprecated: boolean): boolean {
  const names: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const value = obj[name];
    if (value === undefined || prop.readOnly || prop.createOnly || (hidesDeprecated && prop.deprecated !== undefined)) continue;
    if (prop.type === 'object' && isJson(value) && !prop.additionalProperties) {
      const copy = { ...value };
      if (!annotateWritable(copy, prop.properties, hidesDeprecated)) continue;
      obj[name] = copy;
    } else if (prop.type === 'array' && prop.items.type === 'object' && Array.isArray(value) && isJson(value[0])) {
      const first = { ...value[0] };
      if (annotateWritable(first, prop.items.properties, hidesDeprecated)) obj[name] = [first, ...value.slice(1)];
    }
    names.push(name);
  }
  if (names.length) obj['@Redfish.WriteableProperties'] = names;
  return names.length > 0;
}

/**
 * Leaves out the properties the dialect does not show: deprecated ones where it shows their
 * replacements only (DMTF's), and those another dialect alone offers (`onlyIn`). Objects on the
 * way down are copied before they change: the handler's objects may be shared state.
 */
function dropHidden(resource: Json, props: Props, hidden: (p: Prop) => boolean): void {
  for (const [name, prop] of Object.entries(props)) {
    const value = resource[name];
    if (value === undefined) continue;
    if (hidden(prop)) {
      delete resource[name];
      delete resource[`${name}@odata.count`];
    } else if (prop.type === 'object' && isJson(value) && mayHide(prop.properties)) {
      const copy = { ...value };
      dropHidden(copy, prop.properties, hidden);
      resource[name] = copy;
    } else if (prop.type === 'array' && prop.items.type === 'object' && Array.isArray(value) && mayHide(prop.items.properties)) {
      const items = prop.items.properties;
      resource[name] = value.map((v: unknown) => {
        if (!isJson(v)) return v;
        const copy = { ...v };
        dropHidden(copy, items, hidden);
        return copy;
      });
    }
  }
}

const hideableWithin = new WeakMap<Props, boolean>();

/** Whether any property at or below these is deprecated or one dialect's only (descriptions are fixed: computed once). */
function mayHide(props: Props): boolean {
  let known = hideableWithin.get(props);
  if (known === undefined) {
    known = Object.values(props).some(
      (p) =>
        p.deprecated !== undefined ||
        p.onlyIn !== undefined ||
        (p.type === 'object' && mayHide(p.properties)) ||
        (p.type === 'array' && p.items.type === 'object' && mayHide(p.items.properties)),
    );
    hideableWithin.set(props, known);
  }
  return known;
}

function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Actions derived from the route's declarations, with allowable values from parameter enums.
 * Vendor actions go under Oem/<name>/Actions (iLO's place) or Actions/Oem (DMTF's).
 */
function addActions(
  resource: Json,
  route: AnyRoute,
  uri: string,
  params: Readonly<Record<string, string>>,
  vendorPlace: Dialect['vendorActions'],
  dialect: DialectName,
  naming: Naming,
): void {
  let standard: Json | undefined;
  let vendor: Json | undefined;
  for (const a of route.actions ?? []) {
    // Copy on the way down, once: the handler's objects may be shared state.
    let holder: Json;
    if (a.def.oem && vendorPlace === 'actions-oem') {
      standard ??= resource.Actions = { ...(resource.Actions as Json | undefined) };
      holder = vendor ??= standard.Oem = { ...(standard.Oem as Json | undefined) };
    } else if (a.def.oem) {
      if (!vendor) {
        const oem = (resource.Oem = { ...(resource.Oem as Json | undefined) });
        const v = (oem[naming.key] = { ...(oem[naming.key] as Json | undefined) });
        vendor = v.Actions = { ...(v.Actions as Json | undefined) };
      }
      holder = vendor;
    } else {
      holder = standard ??= resource.Actions = { ...(resource.Actions as Json | undefined) };
    }
    holder[`#${a.def.name}`] = actionEntry(a, route, uri, params, vendorPlace, dialect, naming);
  }
}
