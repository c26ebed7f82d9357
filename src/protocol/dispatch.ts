// How the pipeline's last phases (pipeline.ts) show a resource and answer a write:
// decoration, $select/$expand/only/$top/$skip, If-Match, a write's answer, and the one
// exit every error leaves by (errorResult).
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { isStorageFull } from '../lib/data-file-error.js';
import { resolveArrayMarkers } from '../lib/json-merge.js';
import { satisfies, type Privilege, type PrivilegeRule } from '../lib/privileges.js';
import { redfishErrorBody, successBody, type ExtendedInfo } from '../messages/errors.js';
import { Refusal } from '../messages/refusal.js';
import { answerOf, baseError, storageFull, vendorError, type RedfishError } from './errors.js';
import { allowHeader, decorate, linkHeader, type Decorated } from './decorate.js';
import type { ResourceType } from './description.js';
import type { Dialect } from './dialect.js';
import { etagMatches, withEtag } from './etag.js';
import type { Outgoing, Prepared } from './exchange.js';
import { ExpandBudget, ExpansionSlots, KeptExpansions } from './expansion.js';
import type { Principal } from './principal.js';
import type { Query } from './query.js';
import { RawReply, Reply, StreamReply } from './reply.js';
import type { Match, RequestContext, RouteTable } from './routes.js';
import { applyExpand, applyPaging, applySelect, isObject } from './shape.js';

type Json = Record<string, unknown>;

export interface DispatchLimits {
  /** Large $expand requests one account may have in progress at once (expansion.ts). */
  expansionsPerAccount: number;
}

export interface DispatchLogger {
  error(obj: object, msg: string): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BASE_HEADERS = { 'OData-Version': '4.0' };

export class Dispatcher {
  private readonly expansionSlots: ExpansionSlots;

  constructor(
    private readonly routes: RouteTable,
    private readonly log: DispatchLogger,
    private readonly dialect: Dialect,
    limits: DispatchLimits,
  ) {
    this.expansionSlots = new ExpansionSlots(() => limits.expansionsPerAccount);
  }

  errorResult(e: unknown): Outgoing {
    const err = this.answerTo(e);
    const headers: Record<string, string> = { ...BASE_HEADERS, 'Content-Type': JSON_TYPE, ...err.headers };
    if (err.status === 401) headers['WWW-Authenticate'] = 'Basic realm="Redfish", charset="UTF-8"';
    return {
      status: err.status,
      headers,
      body: this.dialect.json(JSON.stringify(this.routes.naming.outward(redfishErrorBody(err.infos)))),
    };
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
      if (!exists || !permits(match, get.privilege, principal)) return undefined;
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
  expected(e: unknown, during: string): undefined {
    if (!(e instanceof Refusal)) this.log.error({ err: e }, `unexpected error during ${during}`);
    return undefined;
  }

  /**
   * The resource as it now is, with messages: after a PATCH that applied only
   * some properties (one message per refused one), or for routes that answer so.
   */
  async representation(p: Prepared, infos: ExtendedInfo[]): Promise<Outgoing> {
    const got = p.match.route.get ? await this.getDecorated(p.match, p.principal, PLAIN_QUERY) : undefined;
    if (!got || 'passthrough' in got) return this.reply(new Reply(200, successBody(infos)));
    const body = { ...got.resource, '@Message.ExtendedInfo': this.routes.naming.outward(infos) };
    return {
      status: 200,
      headers: { ...BASE_HEADERS, 'Content-Type': JSON_TYPE, ETag: got.etag },
      body: this.dialect.json(JSON.stringify(body)),
    };
  }

  /** Resolve null/{} array elements of a PATCH against the resource as it is now. */
  async resolveArrays(p: Prepared, value: Record<string, unknown>): Promise<unknown> {
    const got = p.match.route.get ? await this.getDecorated(p.match, p.principal, PLAIN_QUERY) : undefined;
    return resolveArrayMarkers(value, got && !('passthrough' in got) ? got.resource : {});
  }

  /** A decorated GET as its answer: 304 for a matching If-None-Match, else shaped by the query options. */
  shape(p: Prepared, head: boolean, got: Got): Outgoing | Promise<Outgoing> {
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

  /** A GET handler's answer with its OData annotations, Actions, count and ETag; a page of it for $top/$skip. */
  decorated(match: Match, principal: Principal, query: Query, raw: unknown): Got | Promise<Got> {
    const route = match.route;
    if (raw instanceof RawReply || raw instanceof Reply || raw instanceof StreamReply) return { passthrough: raw };
    if (!isObject(raw)) throw baseError('ResourceMissingAtURI', match.uri);
    let shown: Json = raw;
    // $top/$skip cost the page: members outside it are neither expanded, serialized nor hashed.
    if ((query.top !== undefined || query.skip !== undefined) && route.type?.memberType && Array.isArray(shown.Members)) {
      shown = applyPaging(shown, match.uri, query.top, query.skip);
    }
    if (route.type?.autoExpand && Array.isArray(shown.Members))
      return this.expandMembers(shown, principal).then((body) =>
        decorate(route, match.uri, match.params, body, route.type, this.dialect, this.routes.naming),
      );
    return decorate(route, match.uri, match.params, shown, route.type, this.dialect, this.routes.naming);
  }

  /** Members shown whole, as their own GETs answer them (OData.AutoExpand). */
  private async expandMembers(raw: Json, principal: Principal): Promise<Json> {
    const links = raw.Members as { '@odata.id'?: unknown }[];
    const members = await Promise.all(
      links.map(async (m) => (typeof m['@odata.id'] === 'string' ? ((await this.fetchResource(m['@odata.id'], principal)) ?? m) : m)),
    );
    return { ...raw, Members: members };
  }

  /** If-Match against the ETag of the resource's own GET, before a write changes it. */
  async checkIfMatch(p: Prepared): Promise<void> {
    const header = p.req.headers['if-match'];
    if (!header) return;
    const got = await this.getDecorated(p.match, p.principal, PLAIN_QUERY);
    if ('passthrough' in got) return;
    if (!etagMatches(String(header), got.etag)) throw baseError('PreconditionFailed');
  }

  /** A write handler's result as its answer: Success, a reply of its own, or an object shown with 200. */
  write(result: unknown, uri: string): Outgoing {
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
      const decorated = decorate(
        match?.route,
        r.resource.uri,
        match?.params ?? {},
        r.resource.body,
        match?.route.type,
        this.dialect,
        this.routes.naming,
      );
      body = decorated.resource;
      headers.ETag = decorated.etag;
    }
    if (body === undefined) return { status: r.status, headers };
    headers['Content-Type'] = JSON_TYPE;
    const text = JSON.stringify(verbatim || r.resource ? body : this.routes.naming.outward(body));
    return { status: r.status, headers, body: verbatim ? text : this.dialect.json(text) };
  }

  /**
   * A body's links in the form handlers compare: a Redfish URI a client sent without its trailing
   * slash (as the DMTF dialect shows them, and as DMTF-minded clients write them) gets it back.
   */
  canonicalUris(value: unknown): unknown {
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

  redirect(location: string): Outgoing {
    return { status: 308, headers: { ...BASE_HEADERS, Location: this.dialect.uri(location), 'Content-Type': JSON_TYPE }, body: '{}' };
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

/** Whether a principal holds a privilege rule on a matched resource; ConfigureSelf only counts on resources it owns. */
export function permits(match: Match, rule: PrivilegeRule, principal: Principal): boolean {
  const owned = match.route.ownedBy?.(principal, match.params) ?? false;
  const held = owned ? principal.privileges : withoutConfigureSelf(principal.privileges);
  return satisfies(held, rule);
}

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

/** What a handler is given, with the connection it came on; the pipeline adds a write's body and stream. */
export function requestContext(
  match: Match,
  principal: Principal,
  query: Query,
  headers: IncomingHttpHeaders,
  clientIp: string,
  socket?: TLSSocket,
): RequestContext {
  // Every member a read's context has, in one literal: one added afterwards needs a property store of its own.
  return { params: match.params, uri: match.uri, principal, query, body: {}, problems: [], headers, clientIp, socket };
}
