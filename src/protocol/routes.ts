// The route table: each resource path declared once with its type, methods,
// privileges and actions. Matching is case-insensitive on literal segments;
// Allow, 405s, HEAD and the Actions object all derive from the declaration.
import { Priv, type PrivilegeRule } from '../lib/privileges.js';
import { selfChecking, sometimesLate } from '../lib/self-check.js';
import { actionInfoBody, actionInfoPath, ActionInfoType, hasParameters } from './action-info.js';
import type { ActionDef, BodyOf, Props, ResourceType } from './description.js';
import type { DialectName } from './dialect.js';
import type { Principal } from './principal.js';
import type { Query } from './query.js';
import { baseError, type RedfishError } from './errors.js';
import { compilePatterns } from './validate.js';
import { CANONICAL_NAMING, type Naming } from './naming.js';
import type { ExtendedInfo } from '../messages/messages.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The {Param} names of a path literal. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** The path parameters of a path literal, each a string (resolved by the pipeline before the handler runs). */
export type PathParams<P extends string> = string extends P ? Readonly<Record<string, string>> : { readonly [K in ParamNames<P>]: string };

export interface RequestContext<Params = Readonly<Record<string, string>>, Body = Record<string, unknown>> {
  /** Path parameters, as sent (percent-decoded). */
  params: Params;
  /** Canonical URI of the addressed resource (or action). */
  uri: string;
  principal: Principal;
  query: Query;
  /** The validated body: only properties that passed validation, typed from the description. */
  body: Body;
  /** Messages for properties that failed validation in a partially applied PATCH. */
  problems: ExtendedInfo[];
  /** The body's top-level `@Redfish.*` annotations (e.g. `@Redfish.OperationApplyTime`), which validation leaves out of `body`. */
  annotations?: Readonly<Record<string, unknown>>;
  headers: IncomingHttpHeaders;
  clientIp: string;
  socket?: TLSSocket;
  /** Unparsed request stream, for routes declared with `stream: true` (uploads). */
  stream?: Readable;
}

/**
 * Whether a path parameter's value names something that exists (the other
 * parameters of the path are given too, for members of members). Every
 * parameter of every route has one, so the pipeline answers 404 for a
 * wrong id in any position before a handler runs.
 */
export type ParamResolver = (value: string, params: Readonly<Record<string, string>>) => boolean | Promise<boolean>;

/** The 404 of a resource whose path resolved but which was removed before its handler ran. */
export function missing(ctx: { uri: string }): RedfishError {
  return baseError('ResourceMissingAtURI', ctx.uri);
}

/** What a resolved path parameter names, or that 404 when it has gone since. */
export function present<T>(value: T | undefined, ctx: { uri: string }): T {
  if (value === undefined) throw missing(ctx);
  return value;
}

export interface MethodSpec<P extends string = string> {
  privilege: PrivilegeRule;
  // A method signature: a route's handler takes its own precise context, and the table holds them all.
  handler(ctx: RequestContext<PathParams<P>>): unknown;
  /** This method needs no credentials (session login). */
  open?: boolean;
  /** The handler evaluates $filter itself (raw expression in `ctx.query.filter`). */
  filter?: boolean;
}

export interface WriteSpec<
  P extends string = string,
  B extends Props = Props,
  Mode extends 'patch' | 'create' = 'patch' | 'create',
> extends Omit<MethodSpec<P>, 'handler'> {
  handler(ctx: RequestContext<PathParams<P>, BodyOf<B, Mode>>): unknown;
  /** Properties a client may send; defaults to the resource type's (PATCH) or member type's (POST). */
  body?: B;
  /** Don't parse a JSON body: the handler reads `ctx.stream` (multipart uploads). */
  stream?: boolean;
  /** Content types accepted when streaming. */
  contentTypes?: readonly string[];
  /**
   * What a successful write answers when the handler returns nothing: a Success
   * message (default, as the vendor does), or the resource as it now is with the
   * Success message in @Message.ExtendedInfo.
   */
  respond?: 'message' | 'representation';
}

export interface ActionRoute<P extends string = string, D extends ActionDef = ActionDef> {
  def: D;
  privilege: PrivilegeRule;
  handler(ctx: RequestContext<PathParams<P>, BodyOf<D['parameters']>>): unknown;
  /** Override of @Redfish.AllowableValues per parameter, when they depend on state. */
  allowable?: (ctx: { params: Readonly<Record<string, string>> }) => Record<string, readonly string[]>;
  /** Fixed annotations of the action's entry in Actions (`@Redfish.OperationApplyTimeSupport`). */
  annotations?: Readonly<Record<string, unknown>>;
}

/**
 * An action of a route, its body typed from the action's parameters. The handler's
 * declared context (`ActionContext<Path, typeof Def>`) is inferred whole, so its path
 * parameters stay typed; it must take the body the action's parameters describe.
 */
export function action<const D extends ActionDef, C extends ActionContext<string, D> = ActionContext<string, D>>(
  def: D,
  privilege: PrivilegeRule,
  handler: (ctx: C) => unknown,
  o: Pick<ActionRoute, 'allowable' | 'annotations'> = {},
): ActionRoute<string, D> {
  return { def, privilege, handler, ...o };
}

/** The context of a handler of path P: GET and DELETE (no body). */
export type Context<P extends string> = RequestContext<PathParams<P>>;
/** The context of a PATCH of path P whose writable properties are B. */
export type PatchContext<P extends string, B extends Props> = RequestContext<PathParams<P>, BodyOf<B, 'patch'>>;
/** The context of a POST (create) of path P whose accepted properties are B. */
export type PostContext<P extends string, B extends Props> = RequestContext<PathParams<P>, BodyOf<B, 'create'>>;
/** The context of an action D of path P. */
export type ActionContext<P extends string, D extends ActionDef> = RequestContext<PathParams<P>, BodyOf<D['parameters']>>;

type PropsOf<T> = T extends ResourceType<infer Q, ResourceType | undefined> ? Q : Props;
type MemberPropsOf<T> = T extends ResourceType<Props, infer M> ? (M extends ResourceType<infer Q, undefined> ? Q : PropsOf<T>) : Props;

/** One URI with everything it serves; handlers get bodies typed from `body` or from the type. */
export interface ResourceRoute<
  P extends string = string,
  T extends ResourceType | undefined = ResourceType | undefined,
  PB extends Props = PropsOf<T>,
  CB extends Props = MemberPropsOf<T>,
> {
  /** Literal path template with {Params}, ending in '/' unless `file`. */
  path: P;
  type?: T;
  /** Reachable without credentials (service root, $metadata, odata). */
  open?: boolean;
  /** Outside the Redfish tree (the control API): no type, and left out of OpenAPI and the route walks of the Redfish tests. */
  outside?: boolean;
  /** A file: its canonical form has no trailing slash and GET is not redirected. */
  file?: boolean;
  /** Served exactly as written, whatever the dialect (DSP0266 fixes /redfish as {"v1": "/redfish/v1/"}). */
  verbatim?: boolean;
  /** True when the principal owns the resource (grants ConfigureSelf). */
  ownedBy?(principal: Principal, params: PathParams<P>): boolean;
  /** Resolvers of this route's own parameters; the table's shared ones (RouteTable.param) cover the rest. */
  params?: Readonly<Record<string, ParamResolver>>;
  /** Let a route authenticate by other means than headers (upload sessionKey part). */
  deferAuth?: boolean;
  /**
   * True for instances that only allow reading (e.g. the read-only members of a writable collection):
   * writes get 405 and Allow shows GET, HEAD. Actions are unaffected. Depends on the params only.
   */
  readOnlyFor?(params: PathParams<P>): boolean;
  get?: MethodSpec<P>;
  patch?: WriteSpec<P, PB, 'patch'>;
  put?: WriteSpec<P, PB, 'patch'>;
  post?: WriteSpec<P, CB, 'create'>;
  delete?: MethodSpec<P>;
  actions?: readonly ActionRoute<P, any>[];
}

/** A route as the table holds it, whatever its path and types. */
export type AnyRoute = ResourceRoute<string, any, any, any>;

export interface Match {
  readonly route: AnyRoute;
  readonly params: Readonly<Record<string, string>>;
  /** The parameter names, outermost first. */
  readonly paramNames: readonly string[];
  /** Canonical URI with the params substituted. */
  readonly uri: string;
  /** Set when the path addresses one of the route's actions. */
  readonly action?: ActionRoute<string, any>;
  /** The path named <collection>/Members (POST alias of the collection). */
  readonly membersAlias?: boolean;
}

/**
 * What a table serves at an action's path or a collection's Members path: the route, and which of
 * the two. At a route's own path the table holds the route itself (no object per route and table).
 */
class Alias {
  constructor(
    readonly route: AnyRoute,
    readonly action?: ActionRoute<string, any>,
    readonly membersAlias?: boolean,
  ) {}
}

/** What a table serves at a path: its own (the route and its handlers are each table's). */
type Entry = AnyRoute | Alias;

/**
 * A node of the path trie every route table of the process shares (a fleet has a table per
 * controller, all declaring the same paths): a table keeps only its entries, by the node's slot.
 * A path another table declared and this one did not has no entry here, so matching goes on.
 */
interface Node {
  /** Made for a node with literal children only: most nodes are leaves. */
  literal?: Map<string, Node>;
  /** One per parameter name some table declared here: one table uses one (checked as it declares). */
  params?: { name: string; node: Node }[];
  /** Set once some table has a route ending here. */
  slot?: number;
  template?: readonly string[];
  paramNames?: readonly string[];
}

const newNode = (): Node => ({});
const sharedRoot = newNode();
let slots = 0;

/** The {Param} names of a path template, in order. */
export function paramNamesOf(path: string): readonly string[] {
  return templateOf(path).paramNames;
}

const paramName = (seg: string): string | undefined => (seg.startsWith('{') && seg.endsWith('}') ? seg.slice(1, -1) : undefined);

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Where an action is invoked: vendor ones under Actions/Oem/<name>/ (iLO's target) or Actions/Oem/ (DMTF's). */
export function actionPath(
  route: Pick<AnyRoute, 'path'>,
  def: ActionDef,
  vendorPlace: 'oem-vendor' | 'actions-oem' = 'oem-vendor',
  naming: Pick<Naming, 'key'> = CANONICAL_NAMING,
): string {
  const oem = vendorPlace === 'oem-vendor' ? `Oem/${naming.key}/` : 'Oem/';
  return `${route.path}Actions/${def.oem ? oem : ''}${def.name}/`;
}

/** The URI of the resource an action URI acts on (what its `target` hangs under). */
export function resourceOfAction(actionUri: string): string {
  return actionUri.replace(/Actions\/.*$/, '');
}

/** A path template split, once per process: every route table of a fleet declares the same ones. */
interface Template {
  /** The path itself: the process's one copy of it. */
  path: string;
  template: readonly string[];
  paramNames: readonly string[];
}

const templates = new Map<string, Template>();

function templateOf(path: string): Template {
  let t = templates.get(path);
  if (!t) {
    const template = splitPath(path);
    const paramNames = template.map(paramName).filter((n) => n !== undefined);
    templates.set(path, (t = Object.freeze({ path, template: Object.freeze(template), paramNames: Object.freeze(paramNames) })));
  }
  return t;
}

/** Where a path ends in the shared trie, and the parameter nodes on the way: found once per process, not once per table. */
interface Placed {
  node: Node;
  params: readonly { at: Node; name: string }[];
}

const placed = new Map<string, Placed>();

function place(path: string): Placed {
  let p = placed.get(path);
  if (p) return p;
  const { template, paramNames } = templateOf(path);
  let node = sharedRoot;
  const params: Placed['params'][number][] = [];
  for (const seg of template) {
    const name = paramName(seg);
    if (name !== undefined) {
      params.push({ at: node, name });
      const children = (node.params ??= []);
      let next = children.find((c) => c.name === name);
      if (!next) children.push((next = { name, node: newNode() }));
      node = next.node;
    } else {
      const key = seg.toLowerCase();
      const literal = (node.literal ??= new Map());
      let next = literal.get(key);
      if (!next) literal.set(key, (next = newNode()));
      node = next;
    }
  }
  if (node.slot === undefined) Object.assign(node, { slot: slots++, template, paramNames });
  placed.set(path, (p = { node, params }));
  return p;
}

/** ActionInfo bodies that depend on nothing but the action and dialect: one per process, not per table. */
const actionInfos = new WeakMap<ActionDef, Map<DialectName, Readonly<Record<string, unknown>>>>();

function fixedActionInfo(def: ActionDef, dialect: DialectName): Readonly<Record<string, unknown>> {
  let byDialect = actionInfos.get(def);
  if (!byDialect) actionInfos.set(def, (byDialect = new Map()));
  let body = byDialect.get(dialect);
  if (!body) byDialect.set(dialect, (body = Object.freeze(actionInfoBody(def, dialect))));
  return body;
}

/** The GET of an ActionInfo whose body is fixed: one per body for the process, not a closure per table. */
const fixedActionInfoGets = new WeakMap<object, MethodSpec>();

function fixedActionInfoGet(def: ActionDef, dialect: DialectName): MethodSpec {
  const body = fixedActionInfo(def, dialect);
  let get = fixedActionInfoGets.get(body);
  if (!get) fixedActionInfoGets.set(body, (get = Object.freeze({ privilege: Priv.login, handler: () => body })));
  return get;
}

/** Paths remembered by match(); the table is fixed once built, so a path always matches the same way. */
const MATCH_CACHE_MAX = 2048;
const MATCH_CACHE_PATH_MAX = 512;

export class RouteTable {
  /**
   * dialect: whose parameters and allowable values the ActionInfo resources list; naming: the
   * vendor namespace its routes are held in (types, actions and their targets as served).
   */
  constructor(
    private readonly dialect: DialectName = 'spec',
    readonly naming: Naming = CANONICAL_NAMING,
  ) {}

  /** Entries by their node's slot in the shared trie (sized for the slots there are: a fleet's tables declare the same paths). */
  private readonly entries: (Entry | undefined)[] = new Array<Entry | undefined>(slots);
  /** The parameter name this table declared under each node that has one. */
  private readonly paramAt = new Map<Node, string>();
  private readonly all: AnyRoute[] = [];
  private readonly matched = new Map<string, Match | undefined>();
  private readonly resolvers = new Map<string, ParamResolver>();

  /** How a parameter name resolves wherever a route does not say otherwise ({SystemId}, {ManagerId}...). */
  param(name: string, resolve: ParamResolver): void {
    if (this.resolvers.has(name)) throw new Error(`parameter {${name}} has a resolver already`);
    this.resolvers.set(name, sometimesLate(resolve));
  }

  /** True when every parameter of the match names something that exists, outermost first. */
  resolves(m: Match): boolean | Promise<boolean> {
    const names = m.paramNames;
    for (let i = 0; i < names.length; i++) {
      const found = this.resolveOne(m, names[i] as string);
      // Only a resolver that must wait (state made on first use) makes the answer a promise.
      if (found instanceof Promise) return this.resolveRest(m, i, found);
      if (!found) return false;
    }
    return true;
  }

  private resolveOne(m: Match, name: string): boolean | Promise<boolean> {
    const resolve = m.route.params?.[name] ?? this.resolvers.get(name);
    return resolve ? resolve(m.params[name] as string, m.params) : false;
  }

  private async resolveRest(m: Match, from: number, pending: Promise<boolean>): Promise<boolean> {
    if (!(await pending)) return false;
    for (const name of m.paramNames.slice(from + 1)) if (!(await this.resolveOne(m, name))) return false;
    return true;
  }

  /** Fails when some parameter of some route has no resolver: called once every area is registered. */
  verify(): void {
    const missing: string[] = [];
    for (const r of this.all) {
      for (const name of templateOf(r.path).paramNames) {
        if (!r.params?.[name] && !this.resolvers.has(name)) missing.push(`{${name}} in ${r.path}`);
      }
    }
    if (missing.length) throw new Error(`path parameters without a resolver: ${missing.join(', ')}`);
  }

  add<
    const P extends string,
    T extends ResourceType | undefined = undefined,
    PB extends Props = PropsOf<T>,
    CB extends Props = MemberPropsOf<T>,
  >(declared: ResourceRoute<P, T, PB, CB>): void {
    const named = namedRoute(declared, this.naming);
    const route = selfChecking() ? answeringLate(named) : named;
    // Once per description (each table of a fleet declares the same): no array built per route for them.
    const compile = (props: Props | undefined) => props && compilePatterns(props);
    compile(route.type?.properties);
    compile(route.type?.memberType?.properties);
    compile(route.patch?.body);
    compile(route.post?.body);
    compile(route.put?.body);
    for (const a of route.actions ?? []) compile(a.def.parameters);
    if (!route.file && !route.path.endsWith('/')) throw new Error(`route ${route.path} must end in '/'`);
    // A path an area builds (a template literal) is a string per table: the table keeps the process's copy.
    (route as { path: string }).path = templateOf(route.path).path;
    this.insert(route.path, route);
    for (const action of route.actions ?? []) {
      const at = new Alias(route, action);
      this.insert(actionPath(route, action.def, 'oem-vendor', this.naming), at);
      // Either dialect's target of a vendor action is served, whichever the service shows.
      if (action.def.oem) this.insert(actionPath(route, action.def, 'actions-oem'), at);
    }
    if (route.post && route.type?.memberType) this.insert(`${route.path}Members/`, new Alias(route, undefined, true));
    this.all.push(route);
    this.matched.clear();
    if (route.type && !route.outside) for (const action of route.actions ?? []) this.addActionInfo(route, action);
  }

  /** The ActionInfo resource of a route's action that takes parameters, resolved like the route itself. */
  private addActionInfo(route: AnyRoute, action: ActionRoute<string, any>): void {
    const def: ActionDef = action.def;
    if (!hasParameters(def)) return;
    const allowable = action.allowable;
    this.add({
      path: actionInfoPath(route.path, def),
      type: ActionInfoType,
      ...(route.params ? { params: route.params } : {}),
      get: allowable
        ? { privilege: Priv.login, handler: (ctx) => actionInfoBody(def, this.dialect, allowable({ params: ctx.params })) }
        : fixedActionInfoGet(def, this.dialect),
    });
  }

  routes(): readonly AnyRoute[] {
    return this.all;
  }

  /** Every action declared, once each. */
  actionDefs(): ActionDef[] {
    const seen = new Map<string, ActionDef>();
    for (const r of this.all) for (const a of r.actions ?? []) seen.set(a.def.name, a.def);
    return [...seen.values()];
  }

  /** Every resource type served, members and collections alike. */
  types(): ResourceType[] {
    const seen = new Map<string, ResourceType>();
    const visit = (t?: ResourceType) => {
      if (!t || seen.has(t.name)) return;
      seen.set(t.name, t);
      visit(t.memberType);
    };
    for (const r of this.all) visit(r.type);
    return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Paths whose match is remembered now. */
  rememberedPathCount(): number {
    return this.matched.size;
  }

  /** Forget a path's remembered match: the resource it named is gone for good (an ended session's). */
  forget(path: string): void {
    this.matched.delete(path);
  }

  /** The route serving a path; the answer is shared and frozen, so callers must not change it. */
  match(path: string): Match | undefined {
    if (this.matched.has(path)) return this.matched.get(path);
    const m = this.matchUncached(path);
    if (path.length <= MATCH_CACHE_PATH_MAX) {
      if (this.matched.size >= MATCH_CACHE_MAX) this.matched.clear();
      this.matched.set(path, m);
    }
    return m;
  }

  private matchUncached(path: string): Match | undefined {
    let segments: string[];
    try {
      segments = splitPath(path).map(decodeURIComponent);
    } catch {
      return undefined;
    }
    const params: Record<string, string> = {};
    const node = this.walk(sharedRoot, segments, 0, params);
    const entry = node && this.entries[node.slot!];
    if (!entry) return undefined;
    const alias = entry instanceof Alias ? entry : undefined;
    const route = alias ? alias.route : (entry as AnyRoute);
    const canonical = node.template!.map((seg) => (seg.startsWith('{') ? encodeURIComponent(params[seg.slice(1, -1)] ?? '') : seg));
    const trailing = route.file && !alias ? '' : '/';
    return Object.freeze({
      route,
      params: Object.freeze(params),
      paramNames: node.paramNames!,
      uri: `/${canonical.join('/')}${trailing}`,
      action: alias?.action,
      membersAlias: alias?.membersAlias,
    });
  }

  private insert(path: string, entry: Entry): void {
    const { node, params } = place(path);
    // One parameter name per trie node within a table (another table may use another there).
    for (const { at, name } of params) {
      const declared = this.paramAt.get(at);
      if (declared !== undefined && declared !== name)
        throw new Error(`conflicting parameter names {${declared}} and {${name}} in ${path}`);
      this.paramAt.set(at, name);
    }
    if (this.entries[node.slot!]) throw new Error(`duplicate route ${path}`);
    this.entries[node.slot!] = entry;
  }

  private walk(node: Node, segs: string[], i: number, params: Record<string, string>): Node | undefined {
    if (i === segs.length) return node.slot !== undefined && this.entries[node.slot] ? node : undefined;
    const seg = segs[i] as string;
    const lit = node.literal?.get(seg.toLowerCase());
    if (lit) {
      const found = this.walk(lit, segs, i + 1, params);
      if (found) return found;
    }
    if (seg === '') return undefined;
    for (const p of node.params ?? []) {
      const found = this.walk(p.node, segs, i + 1, params);
      if (found) {
        params[p.name] = seg;
        return found;
      }
    }
    return undefined;
  }
}

/** What serves a method on a path: its declaration, with a write's options when it is a write. */
export type DeclaredMethod = MethodSpec & Partial<Pick<WriteSpec, 'body' | 'stream' | 'contentTypes' | 'respond'>>;

/** The declaration serving a method on a matched path. */
export function methodSpec(m: Match, method: string): DeclaredMethod | undefined {
  if (m.action) return method === 'POST' ? m.action : undefined;
  if (m.membersAlias) return method === 'POST' ? m.route.post : undefined;
  const r = m.route;
  switch (method) {
    case 'GET':
    case 'HEAD':
      return r.get;
    case 'POST':
      return r.post;
    case 'PATCH':
      return r.patch;
    case 'PUT':
      return r.put;
    case 'DELETE':
      return r.delete;
    default:
      return undefined;
  }
}

const allowedByMatch = new WeakMap<Match, readonly Method[]>();

/** Methods a matched path accepts, in a stable order, for Allow and 405s (asked at every request: matches are shared and fixed, so once each). */
export function allowedMethods(m: Match): readonly Method[] {
  let allowed = allowedByMatch.get(m);
  if (!allowed) allowedByMatch.set(m, (allowed = Object.freeze(methodsOf(m))));
  return allowed;
}

function methodsOf(m: Match): Method[] {
  if (m.action) return ['POST'];
  const r = m.route;
  const readOnly = r.readOnlyFor?.(m.params) ?? false;
  if (m.membersAlias) return readOnly ? [] : ['POST'];
  const out: Method[] = [];
  if (r.get) out.push('GET', 'HEAD');
  if (readOnly) return out;
  if (r.post) out.push('POST');
  if (r.patch) out.push('PATCH');
  if (r.put) out.push('PUT');
  if (r.delete) out.push('DELETE');
  return out;
}

/** A route with its types, bodies and actions named as the service serves them (naming.ts). */
function namedRoute<R extends AnyRoute>(route: R, naming: Naming): R {
  if (naming.identity) return route;
  const body = <S extends { body?: Props }>(spec: S | undefined): S | undefined => spec && { ...spec, body: naming.props(spec.body) };
  return {
    ...route,
    type: naming.type(route.type),
    patch: body(route.patch),
    put: body(route.put),
    post: body(route.post),
    actions: route.actions?.map((a) => ({ ...a, def: naming.action(a.def) })),
  };
}

/** A route whose handlers and resolvers answer every other call through a promise (self-checks, lib/self-check.ts). */
function answeringLate<R extends AnyRoute>(route: R): R {
  const late = <S extends { handler: (ctx: never) => unknown }>(spec: S | undefined): S | undefined =>
    spec && { ...spec, handler: sometimesLate(spec.handler) };
  return {
    ...route,
    params: route.params && Object.fromEntries(Object.entries(route.params).map(([name, resolve]) => [name, sometimesLate(resolve)])),
    get: late(route.get),
    patch: late(route.patch),
    put: late(route.put),
    post: late(route.post),
    delete: late(route.delete),
    actions: route.actions?.map(late),
  };
}
