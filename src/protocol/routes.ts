// The route table: each resource path declared once with its type, methods,
// privileges and actions. Matching is case-insensitive on literal segments;
// Allow, 405s, HEAD and the Actions object all derive from the declaration.
import type { PrivilegeRule } from '../lib/privileges.js';
import type { ActionDef, Props, ResourceType } from './description.js';
import type { Principal } from './principal.js';
import type { Query } from './query.js';
import { baseError, type RedfishError } from '../messages/errors.js';
import type { ExtendedInfo } from '../messages/messages.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestContext {
  /** Path parameters, as sent (percent-decoded). */
  params: Record<string, string>;
  /** Canonical URI of the addressed resource (or action). */
  uri: string;
  principal: Principal;
  query: Query;
  /** The validated body: only properties that passed validation. */
  body: Record<string, unknown>;
  /** Messages for properties that failed validation in a partially applied PATCH. */
  problems: ExtendedInfo[];
  headers: IncomingHttpHeaders;
  clientIp: string;
  socket?: TLSSocket;
  /** Unparsed request stream, for routes declared with `stream: true` (uploads). */
  stream?: Readable;
}

export type Handler = (ctx: RequestContext) => unknown;

/**
 * Whether a path parameter's value names something that exists (the other
 * parameters of the path are given too, for members of members). Every
 * parameter of every route has one, so the dispatcher answers 404 for a
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

export interface MethodSpec {
  privilege: PrivilegeRule;
  handler: Handler;
  /** This method needs no credentials (session login). */
  open?: boolean;
  /** The handler evaluates $filter itself (raw expression in `ctx.query.filter`). */
  filter?: boolean;
}

export interface WriteSpec extends MethodSpec {
  /** Properties a client may send; defaults to the resource type's (PATCH) or member type's (POST). */
  body?: Props;
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

export interface ActionRoute {
  def: ActionDef;
  privilege: PrivilegeRule;
  handler: Handler;
  /** Override of @Redfish.AllowableValues per parameter, when they depend on state. */
  allowable?: (ctx: { params: Record<string, string> }) => Record<string, readonly string[]>;
}

export interface ResourceRoute {
  /** Literal path template with {Params}, ending in '/' unless `file`. */
  path: string;
  type?: ResourceType;
  /** Reachable without credentials (service root, $metadata, odata). */
  open?: boolean;
  /** A file: its canonical form has no trailing slash and GET is not redirected. */
  file?: boolean;
  /** True when the principal owns the resource (grants ConfigureSelf). */
  ownedBy?: (principal: Principal, params: Record<string, string>) => boolean;
  /** Resolvers of this route's own parameters; the table's shared ones (RouteTable.param) cover the rest. */
  params?: Readonly<Record<string, ParamResolver>>;
  /** Let a route authenticate by other means than headers (upload sessionKey part). */
  deferAuth?: boolean;
  /**
   * True for instances that only allow reading (e.g. the read-only members of a writable collection):
   * writes get 405 and Allow shows GET, HEAD. Actions are unaffected. Depends on the params only.
   */
  readOnlyFor?: (params: Record<string, string>) => boolean;
  get?: MethodSpec;
  patch?: WriteSpec;
  put?: WriteSpec;
  post?: WriteSpec;
  delete?: MethodSpec;
  actions?: readonly ActionRoute[];
}

export interface Match {
  readonly route: ResourceRoute;
  readonly params: Readonly<Record<string, string>>;
  /** The parameter names, outermost first. */
  readonly paramNames: readonly string[];
  /** Canonical URI with the params substituted. */
  readonly uri: string;
  /** Set when the path addresses one of the route's actions. */
  readonly action?: ActionRoute;
  /** The path named <collection>/Members (POST alias of the collection). */
  readonly membersAlias?: boolean;
}

interface Node {
  literal: Map<string, Node>;
  param?: { name: string; node: Node };
  entry?: { route: ResourceRoute; template: string[]; paramNames: readonly string[]; action?: ActionRoute; membersAlias?: boolean };
}

const newNode = (): Node => ({ literal: new Map() });

/** The {Param} names of a path template, in order. */
export function paramNamesOf(path: string): string[] {
  return splitPath(path)
    .filter((seg) => seg.startsWith('{') && seg.endsWith('}'))
    .map((seg) => seg.slice(1, -1));
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

export function actionPath(route: ResourceRoute, def: ActionDef): string {
  return `${route.path}Actions/${def.oem ? 'Oem/Vendor/' : ''}${def.name}/`;
}

/** Paths remembered by match(); the table is fixed once built, so a path always matches the same way. */
const MATCH_CACHE_MAX = 2048;
const MATCH_CACHE_PATH_MAX = 512;

export class RouteTable {
  private readonly root = newNode();
  private readonly all: ResourceRoute[] = [];
  private readonly matched = new Map<string, Match | undefined>();
  private readonly resolvers = new Map<string, ParamResolver>();

  /** How a parameter name resolves wherever a route does not say otherwise ({SystemId}, {ManagerId}...). */
  param(name: string, resolve: ParamResolver): void {
    if (this.resolvers.has(name)) throw new Error(`parameter {${name}} has a resolver already`);
    this.resolvers.set(name, resolve);
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
      for (const name of paramNamesOf(r.path)) {
        if (!r.params?.[name] && !this.resolvers.has(name)) missing.push(`{${name}} in ${r.path}`);
      }
    }
    if (missing.length) throw new Error(`path parameters without a resolver: ${missing.join(', ')}`);
  }

  add(route: ResourceRoute): void {
    if (!route.file && !route.path.endsWith('/')) throw new Error(`route ${route.path} must end in '/'`);
    this.insert(route.path, { route });
    for (const action of route.actions ?? []) this.insert(actionPath(route, action.def), { route, action });
    if (route.post && route.type?.memberType) this.insert(`${route.path}Members/`, { route, membersAlias: true });
    this.all.push(route);
    this.matched.clear();
  }

  routes(): readonly ResourceRoute[] {
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
    const node = this.walk(this.root, segments, 0, params);
    const entry = node?.entry;
    if (!entry) return undefined;
    const canonical = entry.template.map((seg) =>
      seg.startsWith('{') ? encodeURIComponent(params[seg.slice(1, -1)] ?? '') : seg,
    );
    const trailing = entry.route.file && !entry.action && !entry.membersAlias ? '' : '/';
    return Object.freeze({
      route: entry.route,
      params: Object.freeze(params),
      paramNames: entry.paramNames,
      uri: `/${canonical.join('/')}${trailing}`,
      action: entry.action,
      membersAlias: entry.membersAlias,
    });
  }

  private insert(path: string, entry: Omit<NonNullable<Node['entry']>, 'template' | 'paramNames'>): void {
    const template = splitPath(path);
    let node = this.root;
    for (const seg of template) {
      if (seg.startsWith('{') && seg.endsWith('}')) {
        const name = seg.slice(1, -1);
        if (node.param && node.param.name !== name) {
          throw new Error(`conflicting parameter names {${node.param.name}} and {${name}} in ${path}`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        const key = seg.toLowerCase();
        let next = node.literal.get(key);
        if (!next) {
          next = newNode();
          node.literal.set(key, next);
        }
        node = next;
      }
    }
    if (node.entry) throw new Error(`duplicate route ${path}`);
    node.entry = { ...entry, template, paramNames: Object.freeze(paramNamesOf(path)) };
  }

  private walk(node: Node, segs: string[], i: number, params: Record<string, string>): Node | undefined {
    if (i === segs.length) return node.entry ? node : undefined;
    const seg = segs[i] as string;
    const lit = node.literal.get(seg.toLowerCase());
    if (lit) {
      const found = this.walk(lit, segs, i + 1, params);
      if (found) return found;
    }
    if (node.param && seg !== '') {
      const found = this.walk(node.param.node, segs, i + 1, params);
      if (found) {
        params[node.param.name] = seg;
        return found;
      }
    }
    return undefined;
  }
}

/** The declaration serving a method on a matched path. */
export function methodSpec(m: Match, method: string): MethodSpec | WriteSpec | undefined {
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

/** Methods a matched path accepts, in a stable order, for Allow and 405s. */
export function allowedMethods(m: Match): Method[] {
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
