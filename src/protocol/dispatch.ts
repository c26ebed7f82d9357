// The request pipeline every route goes through, written once:
// redirects, OData-Version, authentication, Allow/405, privileges, query
// options, conditional requests, validation, and response decoration.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { isStorageFull } from '../lib/data-file-error.js';
import { hasArrayMarkers, resolveArrayMarkers } from '../lib/json-merge.js';
import { satisfies, type Privilege, type PrivilegeRule } from '../lib/privileges.js';
import { baseMessage, redfishErrorBody, successBody, type ExtendedInfo } from '../messages/errors.js';
import { Refusal } from '../messages/refusal.js';
import { RedfishError, answerOf, baseError, combinedError, storageFull, vendorError } from './errors.js';
import type { Authentication } from './auth.js';
import { unauthorized } from './auth.js';
import { allowHeader, decorate, linkHeader, type Decorated } from './decorate.js';
import type { ResourceType } from './description.js';
import { dialect as dialectNamed, type Dialect } from './dialect.js';
import { etagMatches, withEtag } from './etag.js';
import { ExpandBudget, ExpansionSlots, KeptExpansions } from './expansion.js';
import type { Principal } from './principal.js';
import { parseQuery, type Query } from './query.js';
import { RawReply, Reply, StreamReply } from './reply.js';
import { allowedMethods, methodSpec, type Match, type Method, type RequestContext, type RouteTable } from './routes.js';
import { applyExpand, applyPaging, applySelect, isObject } from './shape.js';
import { validateActionBody, validateBody } from './validate.js';

type Json = Record<string, unknown>;

export interface IncomingRequest {
  method: string;
  /** Path and query string, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  clientIp: string;
  socket?: TLSSocket;
}

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body?: Buffer | string | Readable;
  /** A streamed body (server-sent events): the server hands it the raw response after the headers. */
  stream?: (res: ServerResponse) => void;
}

/** A successful write through the API: what changed and how (for resource events). */
export interface WriteNotice {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The created resource (POST 201) or the addressed one. */
  uri: string;
  /** 202: the work goes on in a task, nothing has changed yet. */
  accepted: boolean;
  /** A route outside the Redfish tree (the control API). */
  outside: boolean;
  principal: Principal;
}

export interface DispatchHooks {
  /** Called after each successful create (201), PATCH/PUT or DELETE on a resource; never for actions. */
  onWrite?(notice: WriteNotice): void;
  /** Paths answered 404 before authentication when no route serves them (the control API while it is off). */
  missingBeforeAuth?(path: string): boolean;
  /**
   * Group commit (store/group-commit.ts): a write request opens or joins the store's batch
   * before its handler runs, and is answered only once everything written is committed.
   */
  durable?: { begin(): void; settled(): Promise<void> };
}

export interface Prepared {
  req: IncomingRequest;
  method: Method;
  match: Match;
  principal: Principal;
  query: Query;
}

export interface DispatchLimits {
  /** Large $expand requests one account may have in progress at once (expansion.ts). */
  expansionsPerAccount: number;
}

export interface DispatchLogger {
  error(obj: object, msg: string): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BASE_HEADERS = { 'OData-Version': '4.0' };

/** Methods that change state; the others (GET, HEAD) only read. */
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const KNOWN = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE']);

export class Dispatcher {
  private readonly expansionSlots: ExpansionSlots;

  constructor(
    private readonly routes: RouteTable,
    private readonly auth: Authentication,
    private readonly log: DispatchLogger,
    private readonly hooks: DispatchHooks = {},
    private readonly dialect: Dialect = dialectNamed('spec'),
    limits: DispatchLimits = { expansionsPerAccount: 2 },
  ) {
    this.expansionSlots = new ExpansionSlots(() => limits.expansionsPerAccount);
  }

  /** Everything that can be decided before the body is read. */
  async preflight(req: IncomingRequest): Promise<Prepared | Outgoing> {
    try {
      const version = req.headers['odata-version'];
      if (version !== undefined && String(version).trim() !== '4.0') {
        throw vendorError('ODataVersionNotSupported', String(version));
      }
      const q = req.url.indexOf('?');
      const path = q < 0 ? req.url : req.url.slice(0, q);
      const search = q < 0 ? '' : req.url.slice(q);

      const legacy = /^\/rest\/v1(\/.*)?$/i.exec(path);
      if (legacy) {
        const rest = (legacy[1] ?? '/').replace(/\/+$/, '');
        return this.redirect(`/redfish/v1${rest}/${search}`);
      }

      const match = this.routes.match(path);
      if (!match && this.hooks.missingBeforeAuth?.(path)) throw baseError('ResourceMissingAtURI', path);
      const method = req.method.toUpperCase();
      const open = match !== undefined && (match.route.open === true || methodSpec(match, method)?.open === true);
      const authReq = { headers: req.headers, clientIp: req.clientIp, socket: req.socket };
      let principal: Principal | undefined;
      if (!open || match?.route.deferAuth) {
        const found = this.auth.authenticate(authReq);
        principal = found instanceof Promise ? await found : found;
        // Only the streamed POST may authenticate later (the upload's sessionKey cookie or form part);
        // every other method, and a POST with a cookie or body it cannot carry that in, is 401 first.
        if (!principal && !(match?.route.deferAuth && method === 'POST')) throw unauthorized();
      } else if ((req.headers.authorization || req.headers['x-auth-token']) && /[?&](\$expand|only)\b/.test(search)) {
        // Open resources use credentials when expanding links they need them for, and never fail on them.
        principal = await Promise.resolve()
          .then(() => this.auth.authenticate(authReq))
          .catch((e: unknown) => this.expected(e, 'authentication for an open resource'));
      }
      if (!match) throw baseError('ResourceMissingAtURI', path);

      const isRead = method === 'GET' || method === 'HEAD';
      if (isRead && this.dialect.redirectsToSlash && !path.endsWith('/') && !match.route.file && !match.action) {
        return this.redirect(`${path}/${search}`);
      }
      // A wrong id in any position is a 404 for every method, before any handler runs.
      let exists = this.routes.resolves(match);
      if (exists instanceof Promise) exists = await exists;
      if (!exists) throw baseError('ResourceMissingAtURI', path);
      const allowed = allowedMethods(match);
      if (!KNOWN.has(method) || !allowed.includes(method as Method)) {
        const e = method === 'DELETE' ? baseError('ResourceCannotBeDeleted') : vendorError('MethodNotAllowed', method, match.uri);
        return this.errorResult(new RedfishError(405, e.infos, { Allow: allowed.join(', ') }));
      }
      const who = principal ?? anonymous();
      if (!open) this.authorize(match, method as Method, who);
      const query = parseQuery(search.slice(1), { filter: methodSpec(match, method)?.filter === true });
      if (query instanceof RedfishError) throw query;
      return { req, method: method as Method, match, principal: who, query };
    } catch (e) {
      return this.errorResult(e);
    }
  }

  /** Run the handler with the parsed body, and shape its answer. */
  execute(p: Prepared, body: unknown, stream?: Readable): Outgoing | Promise<Outgoing> {
    if (p.method === 'GET' || p.method === 'HEAD') {
      try {
        const out = this.read(p, p.method === 'HEAD');
        return out instanceof Promise ? out.catch((e: unknown) => this.errorResult(e)) : out;
      } catch (e) {
        return this.errorResult(e);
      }
    }
    return this.change(p, body, stream);
  }

  /** A write or an action: answered once what it wrote is committed. */
  private async change(p: Prepared, body: unknown, stream?: Readable): Promise<Outgoing> {
    const durable = WRITES.has(p.method) ? this.hooks.durable : undefined;
    durable?.begin();
    let out: Outgoing;
    try {
      out = await this.run(p, body, stream);
      if (this.hooks.onWrite && WRITES.has(p.method) && !p.match.action && out.status < 300) this.notifyWrite(p, out);
    } catch (e) {
      out = this.errorResult(e);
    }
    // A refused write may have written some of its parts too: those are committed before any answer.
    if (durable) {
      try {
        await durable.settled();
      } catch (e) {
        this.log.error({ err: e }, 'commit failed: the writes of this turn were rolled back');
        return this.errorResult(isStorageFull(e) ? storageFull() : baseError('InternalError'));
      }
    }
    return out;
  }

  private notifyWrite(p: Prepared, out: Outgoing): void {
    const location = out.status === 201 ? out.headers.Location : undefined;
    // Events name resources in the canonical form, whatever the dialect shows.
    const created = location === undefined ? undefined : (this.routes.match(location)?.uri ?? location);
    if (p.method === 'POST' && !created) return;
    try {
      this.hooks.onWrite?.({
        method: p.method as WriteNotice['method'],
        uri: created ?? p.match.uri,
        accepted: out.status === 202,
        outside: p.match.route.outside === true,
        principal: p.principal,
      });
    } catch (e) {
      this.log.error({ err: e }, 'write hook failed');
    }
  }

  errorResult(e: unknown): Outgoing {
    const err = this.answerTo(e);
    const headers: Record<string, string> = { ...BASE_HEADERS, 'Content-Type': JSON_TYPE, ...err.headers };
    if (err.status === 401) headers['WWW-Authenticate'] = 'Basic realm="Redfish", charset="UTF-8"';
    return { status: err.status, headers, body: this.dialect.json(JSON.stringify(redfishErrorBody(err.infos))) };
  }

  /** The Redfish error that answers `e`: a refusal (the domain's or the api's) by the status table, anything else as a fault. */
  private answerTo(e: unknown): RedfishError {
    if (isStorageFull(e)) {
      this.log.error({ err: e }, 'storage full: the request could not be written');
      return storageFull();
    }
    const answer = e instanceof Refusal ? answerOf(e) : undefined;
    if (answer) return answer;
    this.log.error({ err: e }, 'unexpected error');
    return baseError('InternalError');
  }

  /** GET a resource on behalf of a principal, decorated, as $expand and `only` need it. */
  async fetchResource(uri: string, principal: Principal): Promise<Json | undefined> {
    return this.lookUp(uri, principal);
  }

  /** fetchResource, at once when the resource's resolvers and GET answer at once (an $expand asks it per member). */
  private lookUp(uri: string, principal: Principal): Json | undefined | Promise<Json | undefined> {
    const match = this.routes.match(uri);
    if (!match?.route.get || match.action || match.membersAlias) return undefined;
    const get = match.route.get;
    const shown = (g: Got) => ('passthrough' in g ? undefined : g.resource);
    // A member that cannot be shown is left out of an $expand, as DSP0266 allows; only a fault is logged.
    const refused = (e: unknown) => this.expected(e, `expanding ${uri}`);
    const found = (exists: boolean): Json | undefined | Promise<Json | undefined> => {
      if (!exists || !this.permits(match, get.privilege, principal)) return undefined;
      try {
        const got = this.getDecorated(match, principal, PLAIN_QUERY);
        return got instanceof Promise ? got.then(shown, refused) : shown(got);
      } catch (e) {
        return refused(e);
      }
    };
    const exists = this.routes.resolves(match);
    return exists instanceof Promise ? exists.then(found) : found(exists);
  }

  /** Nothing, for a Redfish refusal (401, 404...); a fault is logged first, never hidden. */
  private expected(e: unknown, during: string): undefined {
    if (!(e instanceof Refusal)) this.log.error({ err: e }, `unexpected error during ${during}`);
    return undefined;
  }

  private async run(p: Prepared, body: unknown, stream?: Readable): Promise<Outgoing> {
    const { match, method, principal, query } = p;
    if (body !== undefined) body = this.canonicalUris(body);
    const route = match.route;
    const ctx = requestContext(match, principal, query, p.req.headers, p.req.clientIp);
    ctx.socket = p.req.socket;
    ctx.stream = stream;
    ctx.annotations = redfishAnnotations(body);

    if (WRITES.has(method) && route.get && !match.action && !match.membersAlias) {
      await this.checkIfMatch(p);
    }

    if (match.action) {
      const action = match.action;
      const v = validateActionBody(body ?? {}, action.def, this.dialect.name);
      if (v.problems.length) throw combinedError(v.problems);
      ctx.body = v.value;
      return this.write(await action.handler(ctx), match.uri);
    }

    if (method === 'DELETE') return this.write(await route.delete?.handler(ctx), match.uri);

    const spec = method === 'POST' ? route.post : method === 'PATCH' ? route.patch : route.put;
    if (!spec) throw vendorError('MethodNotAllowed', method, match.uri);
    if (!spec.stream) {
      const mode = method === 'PATCH' ? 'patch' : 'create';
      const props = spec.body ?? (method === 'POST' ? route.type?.memberType?.properties : route.type?.properties) ?? {};
      if (body === undefined) throw baseError(method === 'PATCH' ? 'EmptyJSON' : 'UnrecognizedRequestBody');
      const v = validateBody(body, props, mode, this.dialect.name);
      if (mode === 'patch') {
        if (v.problems.length && Object.keys(v.value).length === 0) throw combinedError(v.problems);
        // Nothing but annotations (or an empty object): there is nothing to do (DSP0266).
        if (!v.problems.length && Object.keys(v.value).length === 0) throw baseError('NoOperation');
        ctx.problems = v.problems.flatMap((e) => e.infos);
        if (hasArrayMarkers(v.value)) v.value = (await this.resolveArrays(p, v.value)) as Record<string, unknown>;
      } else if (v.problems.length) {
        throw combinedError(v.problems);
      }
      ctx.body = v.value;
    }
    const result = await spec.handler(ctx);
    if (result === undefined && (ctx.problems.length || spec.respond === 'representation')) {
      return this.representation(p, ctx.problems.length ? ctx.problems : [baseMessage('Success')]);
    }
    return this.write(result, match.uri);
  }

  /**
   * The resource as it now is, with messages: after a PATCH that applied only
   * some properties (one message per refused one), or for routes that answer so.
   */
  private async representation(p: Prepared, infos: ExtendedInfo[]): Promise<Outgoing> {
    const got = p.match.route.get ? await this.getDecorated(p.match, p.principal, PLAIN_QUERY) : undefined;
    if (!got || 'passthrough' in got) return this.reply(new Reply(200, successBody(infos)));
    const body = { ...got.resource, '@Message.ExtendedInfo': infos };
    return {
      status: 200,
      headers: { ...BASE_HEADERS, 'Content-Type': JSON_TYPE, ETag: got.etag },
      body: this.dialect.json(JSON.stringify(body)),
    };
  }

  /** Resolve null/{} array elements of a PATCH against the resource as it is now. */
  private async resolveArrays(p: Prepared, value: Record<string, unknown>): Promise<unknown> {
    const got = p.match.route.get ? await this.getDecorated(p.match, p.principal, PLAIN_QUERY) : undefined;
    return resolveArrayMarkers(value, got && !('passthrough' in got) ? got.resource : {});
  }

  /** A GET or HEAD: without a microtask when the handler answers at once and no $expand or `only` asks for more. */
  private read(p: Prepared, head: boolean): Outgoing | Promise<Outgoing> {
    const got = this.getDecorated(p.match, p.principal, p.query, p.req.headers);
    return got instanceof Promise ? got.then((g) => this.shape(p, head, g)) : this.shape(p, head, got);
  }

  private shape(p: Prepared, head: boolean, got: Got): Outgoing | Promise<Outgoing> {
    if ('passthrough' in got) {
      // Files and other answers of their own ($metadata, registries, schemas, component binaries) say what they allow too.
      const out = this.reply(got.passthrough, head, p.match.route.verbatim);
      out.headers.Allow ??= allowHeader(p.match);
      return out;
    }
    const inm = p.req.headers['if-none-match'];
    if (inm && etagMatches(String(inm), got.etag)) {
      return { status: 304, headers: { ...BASE_HEADERS, ETag: got.etag } };
    }
    if (p.query.only || p.query.expand) return this.shapeFurther(p, head, got);
    return this.answer(p, head, got, this.selected(p.query, got.type, got.resource), got.etag);
  }

  /** `only` and $expand: the resources they add are fetched. */
  private async shapeFurther(p: Prepared, head: boolean, got: Decorated): Promise<Outgoing> {
    const { principal, query } = p;
    let { resource, etag } = got;
    const { type } = got;
    if (query.only) {
      if (!type?.memberType) throw baseError('QueryNotSupportedOnResource');
      const members = resource.Members as { '@odata.id': string }[];
      const single = members.length === 1 && members[0] ? await this.fetchResource(members[0]['@odata.id'], principal) : undefined;
      if (single) {
        resource = single;
        etag = String(single['@odata.etag']);
      }
    }
    resource = this.selected(query, type, resource);
    let expanded: Buffer | undefined;
    if (query.expand) {
      const { mode, levels } = query.expand;
      // Only the whole representation's expansion is kept ($select makes another).
      const whole = resource === got.resource;
      const reused = whole ? await this.reusedExpansion(got, `${mode}${levels}`, principal) : undefined;
      if (reused) expanded = reused;
      else {
        const fetched: Fetched[] = [];
        const budget = new ExpandBudget(p.match.uri, () => this.expansionSlots.take(principal.accountId));
        try {
          resource = await applyExpand(resource, mode, levels, async (uri) => {
            await budget.admit();
            const entry: Fetched = { uri, value: await this.fetchResource(uri, principal) };
            fetched.push(entry);
            if (entry.value) budget.count(entry.value);
            return entry.value;
          });
        } finally {
          budget.done();
        }
        if (whole) expanded = this.rememberExpansion(got, `${mode}${levels}`, fetched, resource);
      }
    }
    return this.answer(p, head, got, resource, etag, expanded);
  }

  /** $select, after $top/$skip were refused where there is no collection (a page was cut before decoration: getDecorated). */
  private selected(query: Query, type: ResourceType | undefined, resource: Json): Json {
    if ((query.top !== undefined || query.skip !== undefined) && !type?.memberType) throw baseError('QueryNotSupportedOnResource');
    return query.select ? applySelect(resource, query.select) : resource;
  }

  private answer(p: Prepared, head: boolean, got: Decorated, resource: Json, etag: string, expanded?: Buffer): Outgoing {
    // A literal of fixed shape: the hottest object of a GET.
    const headers: Record<string, string> = {
      'OData-Version': '4.0',
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'no-cache',
      Allow: allowHeader(p.match),
      ETag: etag,
    };
    if (got.type) headers.Link = linkHeader(got.type);
    let body: Buffer | string;
    // The dialect's spelling is part of the representation kept for reuse, encoded once.
    if (expanded) body = expanded;
    else if (resource === got.resource)
      body = got.body ??= Buffer.from(
        this.dialect.json(got.json && got.json !== '{}' ? withEtag(got.json, etag) : JSON.stringify(resource)),
      );
    else body = this.dialect.json(JSON.stringify(resource));
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    return { status: 200, headers, body: head ? undefined : body };
  }

  /**
   * The body of an $expand made before, when the resource and everything it expanded are the
   * same memoized objects as then (each member's own GET still runs, and says so).
   */
  private async reusedExpansion(got: Decorated, how: string, principal: Principal): Promise<Buffer | undefined> {
    const known = expansions.get(got, how);
    if (!known) return undefined;
    for (const f of known.fetched) {
      let now = this.lookUp(f.uri, principal);
      if (now instanceof Promise) now = await now;
      if (now !== f.value) return undefined;
    }
    return known.body;
  }

  /** Keep an expansion's body when everything in it is a memoized (frozen) representation. */
  private rememberExpansion(got: Decorated, how: string, fetched: Fetched[], expanded: Json): Buffer | undefined {
    if (!Object.isFrozen(got.resource) || !fetched.every((f) => f.value === undefined || Object.isFrozen(f.value))) return undefined;
    const body = Buffer.from(this.dialect.json(JSON.stringify(expanded)));
    expansions.keep(got, how, { fetched, body });
    return body;
  }

  /** Run a route's GET and add the OData annotations, Actions, count and ETag (at once when the handler answers at once). */
  private getDecorated(match: Match, principal: Principal, query: Query, headers: IncomingHttpHeaders = {}): Got | Promise<Got> {
    const route = match.route;
    if (!route.get) throw vendorError('MethodNotAllowed', 'GET', match.uri);
    const ctx = requestContext(match, principal, query, headers, '');
    const raw = route.get.handler(ctx);
    return raw instanceof Promise
      ? raw.then((r) => this.decorated(match, principal, query, r))
      : this.decorated(match, principal, query, raw);
  }

  private decorated(match: Match, principal: Principal, query: Query, raw: unknown): Got | Promise<Got> {
    const route = match.route;
    if (raw instanceof RawReply || raw instanceof Reply || raw instanceof StreamReply) return { passthrough: raw };
    if (!isObject(raw)) throw baseError('ResourceMissingAtURI', match.uri);
    let shown: Json = raw;
    // $top/$skip cost the page: members outside it are neither expanded, serialized nor hashed.
    if ((query.top !== undefined || query.skip !== undefined) && route.type?.memberType && Array.isArray(shown.Members)) {
      shown = applyPaging(shown, match.uri, query.top, query.skip);
    }
    if (route.type?.autoExpand && Array.isArray(shown.Members))
      return this.expandMembers(shown, principal).then((body) => decorate(route, match.uri, match.params, body, route.type, this.dialect));
    return decorate(route, match.uri, match.params, shown, route.type, this.dialect);
  }

  /** Members shown whole, as their own GETs answer them (OData.AutoExpand). */
  private async expandMembers(raw: Json, principal: Principal): Promise<Json> {
    const links = raw.Members as { '@odata.id'?: unknown }[];
    const members = await Promise.all(
      links.map(async (m) => (typeof m['@odata.id'] === 'string' ? ((await this.fetchResource(m['@odata.id'], principal)) ?? m) : m)),
    );
    return { ...raw, Members: members };
  }

  private async checkIfMatch(p: Prepared): Promise<void> {
    const header = p.req.headers['if-match'];
    if (!header) return;
    const got = await this.getDecorated(p.match, p.principal, PLAIN_QUERY);
    if ('passthrough' in got) return;
    if (!etagMatches(String(header), got.etag)) throw baseError('PreconditionFailed');
  }

  private write(result: unknown, uri: string): Outgoing {
    if (result === undefined) return this.success();
    if (result instanceof Reply || result instanceof RawReply) return this.reply(result);
    if (isObject(result)) return this.reply(new Reply(200, result));
    throw new Error(`handler for ${uri} returned ${typeof result}`);
  }

  private successBytes: Buffer | undefined;

  /** The plain Success answer of most writes: the same bytes every time, encoded once. */
  private success(): Outgoing {
    const body = (this.successBytes ??= Buffer.from(this.dialect.json(JSON.stringify(successBody()))));
    return { status: 200, headers: { 'OData-Version': '4.0', 'Content-Type': JSON_TYPE }, body };
  }

  private reply(r: Reply | RawReply | StreamReply, head = false, verbatim = false): Outgoing {
    if (r instanceof StreamReply) {
      const headers = { ...BASE_HEADERS, 'Cache-Control': 'no-cache', ...r.headers };
      return { status: r.status, headers, stream: head ? undefined : r.start };
    }
    if (r instanceof RawReply) {
      const headers = { ...BASE_HEADERS, 'Content-Type': r.contentType, 'Cache-Control': 'no-cache', ...r.headers };
      if (head && typeof r.payload === 'object' && !Buffer.isBuffer(r.payload)) r.payload.destroy();
      return { status: r.status, headers, body: head ? undefined : r.payload };
    }
    let body = r.body;
    const headers: Record<string, string> = { ...BASE_HEADERS, ...r.headers };
    if (headers.Location !== undefined) headers.Location = this.dialect.uri(headers.Location);
    if (r.resource) {
      const match = this.routes.match(r.resource.uri);
      const decorated = decorate(match?.route, r.resource.uri, match?.params ?? {}, r.resource.body, match?.route.type, this.dialect);
      body = decorated.resource;
      headers.ETag = decorated.etag;
    }
    if (body === undefined) return { status: r.status, headers };
    headers['Content-Type'] = JSON_TYPE;
    const text = JSON.stringify(body);
    return { status: r.status, headers, body: verbatim ? text : this.dialect.json(text) };
  }

  /**
   * A body's links in the form handlers compare: a Redfish URI a client sent without its trailing
   * slash (as the DMTF dialect shows them, and as DMTF-minded clients write them) gets it back.
   */
  private canonicalUris(value: unknown): unknown {
    if (typeof value === 'string') {
      if (!value.startsWith('/redfish/v1') || value.endsWith('/') || /[?#]/.test(value)) return value;
      const m = this.routes.match(value);
      return m && !m.route.file && !m.membersAlias && m.uri.endsWith('/') ? m.uri : value;
    }
    // In place (the body was parsed for this request); only changed strings are written back.
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const c = this.canonicalUris(value[i]);
        if (c !== value[i]) value[i] = c;
      }
    } else if (isObject(value)) {
      for (const k of Object.keys(value)) {
        const c = this.canonicalUris(value[k]);
        if (c !== value[k]) value[k] = c;
      }
    }
    return value;
  }

  private redirect(location: string): Outgoing {
    return { status: 308, headers: { ...BASE_HEADERS, Location: this.dialect.uri(location), 'Content-Type': JSON_TYPE }, body: '{}' };
  }

  private authorize(match: Match, method: Method, principal: Principal): void {
    if (principal.method === 'none') return; // deferred authentication: the handler decides
    const route = match.route;
    const rule: PrivilegeRule | undefined = methodSpec(match, method)?.privilege;
    if (!rule) throw baseError('InsufficientPrivilege');
    const owned = route.ownedBy?.(principal, match.params) ?? false;
    if (principal.passwordChangeRequired && !owned) {
      throw baseError('PasswordChangeRequired', `/redfish/v1/AccountService/Accounts/${principal.accountId}/`);
    }
    if (!this.permits(match, rule, principal)) throw baseError('InsufficientPrivilege');
  }

  private permits(match: Match, rule: PrivilegeRule, principal: Principal): boolean {
    // ConfigureSelf only counts on resources the principal owns.
    const owned = match.route.ownedBy?.(principal, match.params) ?? false;
    const held = owned ? principal.privileges : withoutConfigureSelf(principal.privileges);
    return satisfies(held, rule);
  }
}

/** The query of a GET made on the service's own behalf ($expand, `only`, If-Match). */
const PLAIN_QUERY: Query = Object.freeze({ only: false, any: false });

/** A route's GET: decorated, or an answer of its own (a file, a stream, a reply). */
type Got = Decorated | { passthrough: Reply | RawReply | StreamReply };

/** A link an $expand followed, and what it found. */
interface Fetched {
  uri: string;
  value: Json | undefined;
}

/** Expanded bodies by the memoized representation they expand, and by mode and depth (bounded: expansion.ts). */
const expansions = new KeptExpansions<{ fetched: Fetched[]; body: Buffer }>();

const notSelf = new WeakMap<ReadonlySet<Privilege>, ReadonlySet<Privilege>>();

/** A privilege set minus ConfigureSelf (principals are cached, so their sets are too). */
function withoutConfigureSelf(held: ReadonlySet<Privilege>): ReadonlySet<Privilege> {
  if (!held.has('ConfigureSelf')) return held;
  let copy = notSelf.get(held);
  if (!copy) {
    const rest = new Set(held);
    rest.delete('ConfigureSelf');
    notSelf.set(held, (copy = rest));
  }
  return copy;
}

function requestContext(match: Match, principal: Principal, query: Query, headers: IncomingHttpHeaders, clientIp: string): RequestContext {
  return { params: match.params, uri: match.uri, principal, query, body: {}, problems: [], headers, clientIp };
}

/** The top-level `@Redfish.*` members of a JSON object body. */
function redfishAnnotations(body: unknown): Readonly<Record<string, unknown>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter(([k]) => k.startsWith('@Redfish.')));
}

function anonymous(): Principal {
  return { userName: '', accountId: '', roleId: 'ReadOnly', privileges: new Set(), method: 'none' };
}
