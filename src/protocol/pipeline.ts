// The request pipeline: every request the listener (src/http) hands over goes through
// these phases, in this order, and `phases` with the steps it continues with (admitted,
// resolved, permitted, respond, carriedOut, handled: each starts where a phase may
// answer with a promise) is the one place that says so.
// Each phase is a small function further down; an error any of them throws is the
// answer (errorResult). The listener moves bytes only: it hands over the request's
// head and a source for its body, and writes back the answer it is given.
//
//   1. parse         OData-Version; path and query string; the legacy /rest/v1 tree: 308
//   2. route         the route serving the path (literals case-insensitive), and whether it is open;
//                    503 while the controller boots after a reset
//   3. authenticate  the principal the credentials name; 401 (later for the multipart upload)
//   3b. faults       a fault rule of the control API that fires: its status, or a delay; what it
//                    does to the answer is done after phase 9
//   4. resolve ids   404 for no route or a wrong id in any position; a GET without its slash: 308
//   5. authorize     405 with Allow, the privilege the route declares; then the query options
//   6. read body     415, 413, nesting depth, MalformedJSON; a streamed route's bytes as they come
//   7. validate      a write joins the store's batch; its If-Match, then its body against the description
//   8. handle        the route's handler (the action's, for a POST to an action)
//   9. decorate      OData annotations, Actions, ETag, $select/$expand/only; a write's answer, once committed
//  10. send          HSTS and Content-Length, added as the listener writes (headersToSend)
import type { Readable } from 'node:stream';
import { isStorageFull } from '../lib/data-file-error.js';
import { hasArrayMarkers } from '../lib/json-merge.js';
import { MAX_JSON_DEPTH, parseClientJson } from '../lib/json.js';
import { baseMessage } from '../messages/errors.js';
import { unauthorized, type Authentication } from './auth.js';
import { RedfishError, baseError, combinedError, retryLater, storageFull, vendorError } from './errors.js';
import type { Dialect } from './dialect.js';
import { Dispatcher, permits, requestContext, type DispatchLimits, type DispatchLogger } from './dispatch.js';
import type { IncomingRequest, Outgoing, Prepared } from './exchange.js';
import { faultRefusal, faultedAnswer, type FaultSource } from './faults.js';
import type { FiredFault } from '../lib/fault-actions.js';
import { ANONYMOUS, type Principal } from './principal.js';
import { parseQuery } from './query.js';
import {
  allowedMethods,
  methodSpec,
  type DeclaredMethod,
  type Match,
  type Method,
  type RequestContext,
  type RouteTable,
} from './routes.js';
import { validateActionBody, validateBody } from './validate.js';

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

export interface PipelineHooks {
  /** Called after each successful create (201), PATCH/PUT or DELETE on a resource; never for actions. */
  onWrite?(notice: WriteNotice): void;
  /** Paths answered 404 before authentication when no route serves them (the control API while it is off). */
  missingBeforeAuth?(path: string): boolean;
  /**
   * Group commit (store/group-commit.ts): a write request opens or joins the store's batch
   * before its handler runs, and is answered only once everything written is committed.
   */
  durable?: { begin(): void; settled(): Promise<void> };
  /**
   * The request inspector (control API): told of a request as it comes in, it answers what to
   * call with the answer once made, or undefined when it does not keep this one.
   */
  onRequest?(req: IncomingRequest): ((out: Outgoing) => void) | undefined;
  /** The control API's fault rules (--enable-control). */
  faults?: FaultSource;
  /** While the controller boots after a reset: the Retry-After seconds of the 503 every Redfish request gets. */
  booting?(): number | undefined;
}

export interface PipelineLimits extends DispatchLimits {
  /** The largest JSON body, in bytes (413 beyond). */
  bodyLimit: number;
}

/** The request line and headers as parse (phase 1) reads them, and what route (phase 2) finds. */
interface Head {
  req: IncomingRequest;
  method: string;
  path: string;
  /** The query string with its '?', or ''. */
  search: string;
  /** The route serving the path: none is a 404 once the credentials are checked. */
  match: Match | undefined;
  /** Its declaration for the method. */
  spec: DeclaredMethod | undefined;
  /** Served without credentials (the service root, $metadata, session login). */
  open: boolean;
}

/** A request's body, as phase 6 read it: parsed JSON, or the bytes as they come for a streamed route. */
interface Body {
  json?: unknown;
  stream?: Readable;
}

const NO_BODY: Body = Object.freeze({});
const JSON_CT = /^application\/json\s*(;.*)?$/i;
const KNOWN = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE']);

/** Sent on every answer, errors written straight to the socket included. */
export const HSTS = 'max-age=31536000';

export class Pipeline {
  private readonly dispatcher: Dispatcher;

  constructor(
    private readonly routes: RouteTable,
    private readonly auth: Authentication,
    private readonly log: DispatchLogger,
    private readonly hooks: PipelineHooks,
    private readonly dialect: Dialect,
    private readonly limits: PipelineLimits,
  ) {
    this.dispatcher = new Dispatcher(routes, log, dialect, limits);
  }

  /** A request's answer, shown to the request inspector when one watches; at once when no phase waits (phases). */
  answer(req: IncomingRequest): Outgoing | Promise<Outgoing> {
    const answered = this.hooks.onRequest?.(req);
    const out = this.phases(req);
    if (!answered) return out;
    return Promise.resolve(out).then((o) => {
      answered(o);
      return o;
    });
  }

  /** A resource as a GET by `principal` shows it (ResourceReader): what the ResourceDirectory lists. */
  read(uri: string, principal: Principal): Promise<Record<string, unknown> | undefined> {
    return this.dispatcher.fetchResource(uri, principal);
  }

  /**
   * A request, phase by phase. A phase answers at once or with a promise (a password to hash, ids
   * to look up, a body to read, a handler that waits, a write to commit), and the next starts as
   * soon as it has answered: a GET whose resolvers and handler answer at once is answered with no
   * promise, async frame or microtask made for it (heap each GET would allocate: issue 30).
   */
  private phases(req: IncomingRequest): Outgoing | Promise<Outgoing> {
    try {
      // 1-3: the request line, its route, the credentials.
      const head = this.parse(req);
      if (isAnswer(head)) return head;
      this.route(head);
      const principal = this.authenticate(head);
      const out = principal instanceof Promise ? principal.then((p) => this.admitted(head, p)) : this.admitted(head, principal);
      return out instanceof Promise ? out.catch((e: unknown) => this.failed(e)) : out;
    } catch (e) {
      return this.failed(e);
    }
  }

  /** The answer to an error of phases 1-6 (7-9 answer their own); a body that could not be read to its end has none. */
  private failed(e: unknown): Outgoing {
    // The listener knows whether anyone is left to answer.
    if (e instanceof BodyLost) throw e.lost;
    return this.errorResult(e);
  }

  /** 3b-6, once the credentials are known: everything decided before the body is read, then the body. */
  private admitted(head: Head, principal: Principal | undefined): Outgoing | Promise<Outgoing> {
    const faults = this.hooks.faults;
    const fault = faults?.armed ? this.fault(faults, head, principal) : undefined;
    const delay = fault?.action.Delay;
    if (faults && delay !== undefined) return faults.delay(delay).then(() => this.resolved(head, principal, fault));
    return this.resolved(head, principal, fault);
  }

  private resolved(head: Head, principal: Principal | undefined, fault: FiredFault | undefined): Outgoing | Promise<Outgoing> {
    const match = this.resolveIds(head);
    if (match instanceof Promise) return match.then((m) => this.permitted(head, m, principal, fault));
    return isAnswer(match) ? match : this.permitted(head, match, principal, fault);
  }

  private permitted(
    head: Head,
    match: Match,
    principal: Principal | undefined,
    fault: FiredFault | undefined,
  ): Outgoing | Promise<Outgoing> {
    const who = this.authorize(head, match, principal);
    const p = this.queryOptions(head, match, who);
    head.req.user = who.userName || undefined;
    // 6: the body, only now.
    const body = this.readBody(p);
    return body instanceof Promise ? body.then((b) => this.respond(p, b, fault)) : this.respond(p, body, fault);
  }

  /**
   * 7-9, then 10: a write runs in the store's batch, and is answered once the batch is committed,
   * refused or not. The listener writes the answer, completed by headersToSend (and cut as a fault rule says).
   */
  private respond(p: Prepared, body: Body, fault: FiredFault | undefined): Outgoing | Promise<Outgoing> {
    const batch = this.joinBatch(p);
    let out = this.carriedOut(p, body);
    if (batch) out = Promise.resolve(out).then((o) => this.committed(batch, o));
    if (!fault) return out;
    return out instanceof Promise ? out.then((o) => faultedAnswer(fault, o)) : faultedAnswer(fault, out);
  }

  /** 7-9: validate, handle, decorate; an error of theirs is the answer. */
  private carriedOut(p: Prepared, body: Body): Outgoing | Promise<Outgoing> {
    try {
      const ctx = this.validate(p, body);
      const out = ctx instanceof Promise ? ctx.then((c) => this.handled(p, c)) : this.handled(p, ctx);
      return out instanceof Promise ? out.catch((e: unknown) => this.errorResult(e)) : out;
    } catch (e) {
      return this.errorResult(e);
    }
  }

  private handled(p: Prepared, ctx: RequestContext): Outgoing | Promise<Outgoing> {
    const result = this.handle(p, ctx);
    const out = result instanceof Promise ? result.then((r) => this.decorate(p, ctx, r)) : this.decorate(p, ctx, result);
    if (out instanceof Promise)
      return out.then((o) => {
        this.notifyWrite(p, o);
        return o;
      });
    this.notifyWrite(p, out);
    return out;
  }

  /** The answer to an error, whichever phase (or the listener) met it: the one exit every error leaves by. */
  errorResult(e: unknown): Outgoing {
    return this.dispatcher.errorResult(e);
  }

  /** 1. parse: the OData version asked for, the path and the query string; the legacy /rest/v1 tree is redirected. */
  private parse(req: IncomingRequest): Head | Outgoing {
    const version = req.headers['odata-version'];
    if (version !== undefined && String(version).trim() !== '4.0') throw vendorError('ODataVersionNotSupported', String(version));
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    const search = q < 0 ? '' : req.url.slice(q);
    const legacy = /^\/rest\/v1(\/.*)?$/i.exec(path);
    if (legacy) return this.dispatcher.redirect(`/redfish/v1${(legacy[1] ?? '/').replace(/\/+$/, '')}/${search}`);
    return { req, method: req.method.toUpperCase(), path, search, match: undefined, spec: undefined, open: false };
  }

  /** 2. route: the route serving the path, its declaration for the method, and whether it needs credentials. */
  private route(head: Head): void {
    const match = this.routes.match(head.path);
    if (!match && this.hooks.missingBeforeAuth?.(head.path)) throw baseError('ResourceMissingAtURI', head.path);
    const spec = match && methodSpec(match, head.method);
    const booting = this.hooks.booting?.();
    if (booting !== undefined && !match?.route.outside) throw retryLater(booting);
    head.match = match;
    head.spec = spec;
    head.open = match !== undefined && (match.route.open === true || spec?.open === true);
  }

  /**
   * 3. authenticate: the principal the credentials name, 401 without them. Only the streamed POST
   * of a route that defers it may go on without (the upload's sessionKey cookie or form part).
   * Open resources use credentials only to expand links they need them for, and never fail on them.
   */
  private authenticate(head: Head): Principal | undefined | Promise<Principal | undefined> {
    const { req, match, open } = head;
    if (!open || match?.route.deferAuth) {
      const found = this.auth.authenticate(req);
      return found instanceof Promise ? found.then((f) => required(f, head, match)) : required(found, head, match);
    }
    if ((req.headers.authorization || req.headers['x-auth-token']) && /[?&](\$expand|only)\b/.test(head.search)) {
      return Promise.resolve()
        .then(() => this.auth.authenticate(req))
        .catch((e: unknown) => this.dispatcher.expected(e, 'authentication for an open resource'));
    }
    return undefined;
  }

  /**
   * 3b. faults: the first fault rule that fires for this request (never for the control API itself).
   * A status it answers is thrown here, before the request is carried out.
   */
  private fault(faults: FaultSource, head: Head, principal: Principal | undefined): FiredFault | undefined {
    if (head.match?.route.outside) return undefined;
    const req = head.req;
    const fired = faults.take({
      method: head.method,
      path: head.path,
      user: principal?.userName,
      sessionId: principal?.sessionId,
      ifMatch: req.headers['if-match'] !== undefined,
    });
    const refusal = fired && faultRefusal(fired.action);
    if (refusal) throw refusal;
    return fired;
  }

  /**
   * 4. resolve ids: the path names something that exists, 404 for no route or a wrong id in any
   * position, for every method, before any handler runs. A GET without its trailing slash is
   * redirected first (in the dialects that show the slash).
   */
  private resolveIds(head: Head): Match | Outgoing | Promise<Match> {
    const { path, search, match } = head;
    if (!match) throw baseError('ResourceMissingAtURI', path);
    const read = head.method === 'GET' || head.method === 'HEAD';
    if (read && this.dialect.redirectsToSlash && !path.endsWith('/') && !match.route.file && !match.action) {
      return this.dispatcher.redirect(`${path}/${search}`);
    }
    const exists = this.routes.resolves(match);
    return exists instanceof Promise ? exists.then((e) => existing(e, match, path)) : existing(exists, match, path);
  }

  /**
   * 5. authorize: the method is one the resource allows (405 with Allow), and the principal holds
   * the privilege the route declares for it. A request whose authentication is deferred is
   * authorized by its handler.
   */
  private authorize(head: Head, match: Match, principal: Principal | undefined): Principal {
    const { method, spec, open } = head;
    const allowed = allowedMethods(match);
    if (!KNOWN.has(method) || !allowed.includes(method as Method)) {
      const e = method === 'DELETE' ? baseError('ResourceCannotBeDeleted') : vendorError('MethodNotAllowed', method, match.uri);
      throw new RedfishError(405, e.infos, { Allow: allowed.join(', ') });
    }
    const who = principal ?? ANONYMOUS;
    if (open || who.method === 'none') return who;
    if (!spec?.privilege) throw baseError('InsufficientPrivilege');
    if (who.passwordChangeRequired && !(match.route.ownedBy?.(who, match.params) ?? false)) {
      throw baseError('PasswordChangeRequired', `/redfish/v1/AccountService/Accounts/${who.accountId}/`);
    }
    if (!permits(match, spec.privilege, who)) throw baseError('InsufficientPrivilege');
    return who;
  }

  /** The query options (phase 1 for the query string), parsed once the route says whether its handler filters itself. */
  private queryOptions(head: Head, match: Match, principal: Principal): Prepared {
    const spec = head.spec;
    const query = parseQuery(head.search.slice(1), { filter: spec?.filter === true });
    if (query instanceof RedfishError) throw query;
    // Every method authorize let through has a declaration (allowedMethods is derived from them).
    return { req: head.req, method: head.method as Method, match, spec: spec as DeclaredMethod, principal, query };
  }

  /**
   * 6. read body: a streamed route (the upload) takes the bytes as they come, in the media types it
   * declares; any other request with a body, but a GET or HEAD, is JSON of at most bodyLimit bytes.
   */
  private readBody(p: Prepared): Body | Promise<Body> {
    const { req, spec } = p;
    const type = req.headers['content-type'];
    if (spec.stream) {
      const allowed = spec.contentTypes ?? ['multipart/form-data'];
      if (!type || !allowed.some((t) => type.toLowerCase().startsWith(t))) {
        // Without credentials nothing else is said: a body of another type cannot carry them.
        if (p.principal.method === 'none' && req.headers.cookie === undefined) throw unauthorized();
        throw vendorError('UnsupportedMediaType', String(type ?? 'none'), allowed.join(', '));
      }
      return { stream: req.body.stream() };
    }
    if (!req.body.present || p.method === 'GET' || p.method === 'HEAD') return NO_BODY;
    if (!type || !JSON_CT.test(type)) throw vendorError('UnsupportedMediaType', String(type ?? 'none'), 'application/json');
    const text = req.body.text(this.limits.bodyLimit);
    return text instanceof Promise
      ? text.then(
          (t) => this.json(t),
          (e: unknown) => {
            throw new BodyLost(e);
          },
        )
      : this.json(text);
  }

  /** A JSON body's text as its value: 413 beyond the limit, nothing when empty, 400 when too deep or malformed. */
  private json(text: string | undefined): Body {
    if (text === undefined) throw vendorError('RequestBodyTooLarge', this.limits.bodyLimit);
    if (text.trim() === '') return NO_BODY;
    const parsed = parseClientJson(text);
    if (parsed.ok) return { json: parsed.value };
    throw parsed.reason === 'depth' ? vendorError('JsonNestingTooDeep', MAX_JSON_DEPTH) : baseError('MalformedJSON');
  }

  /** A write opens or joins the store's batch before it is validated and handled (group commit). */
  private joinBatch(p: Prepared): PipelineHooks['durable'] {
    if (p.method === 'GET' || p.method === 'HEAD') return undefined;
    this.hooks.durable?.begin();
    return this.hooks.durable;
  }

  /**
   * 7. validate: the handler's context. A read has nothing to validate (its query options are
   * parsed); a write checks If-Match, then its body against the description: an action's
   * parameters, a create's properties, or a PATCH's (partly applied when some are refused).
   */
  private validate(p: Prepared, body: Body): RequestContext | Promise<RequestContext> {
    // Reads too: a resource may show the connection's TLS state (SecurityService CurrentCipher).
    const ctx = requestContext(p.match, p.principal, p.query, p.req.headers, p.req.clientIp, p.req.socket);
    return p.method === 'GET' || p.method === 'HEAD' ? ctx : this.validateWrite(p, body, ctx);
  }

  private async validateWrite(p: Prepared, body: Body, ctx: RequestContext): Promise<RequestContext> {
    const { match, method, spec } = p;
    const json = body.json === undefined ? undefined : this.dispatcher.canonicalUris(body.json);
    ctx.stream = body.stream;
    ctx.annotations = redfishAnnotations(json);
    if (match.route.get && !match.action && !match.membersAlias) await this.dispatcher.checkIfMatch(p);
    if (match.action) {
      const v = validateActionBody(json ?? {}, match.action.def, this.dialect.name);
      if (v.problems.length) throw combinedError(v.problems);
      ctx.body = this.routes.naming.inward(v.value);
      return ctx;
    }
    if (method === 'DELETE' || spec.stream) return ctx;
    const route = match.route;
    const props = spec.body ?? (method === 'POST' ? route.type?.memberType?.properties : route.type?.properties) ?? {};
    if (json === undefined) throw baseError(method === 'PATCH' ? 'EmptyJSON' : 'UnrecognizedRequestBody');
    // A PUT replaces what it names: like a PATCH, what it cannot write (read-only properties of
    // the representation sent back whole, as iLO clients do) is reported and the rest applies.
    const replace = method === 'PATCH' || method === 'PUT';
    const v = validateBody(json, props, replace ? 'patch' : 'create', this.dialect.name);
    if (replace) {
      if (v.problems.length && Object.keys(v.value).length === 0) throw combinedError(v.problems);
      // Nothing but annotations (or an empty object): there is nothing to do (DSP0266).
      if (!v.problems.length && Object.keys(v.value).length === 0) throw baseError('NoOperation');
      ctx.problems = v.problems.flatMap((e) => e.infos);
      if (hasArrayMarkers(v.value)) v.value = (await this.dispatcher.resolveArrays(p, v.value)) as Record<string, unknown>;
    } else if (v.problems.length) {
      throw combinedError(v.problems);
    }
    // Validated against the description as served; the area reads the canonical vendor names.
    ctx.body = this.routes.naming.inward(v.value);
    return ctx;
  }

  /** 8. handle: the route's handler for the method (the action's, for a POST to an action). */
  private handle(p: Prepared, ctx: RequestContext): unknown {
    return p.spec.handler(ctx);
  }

  /**
   * 9. decorate: a read's resource with its OData annotations, Actions and ETag, shaped by the
   * query options; a write's answer (Success, what the handler replied, or the resource as it
   * now is with messages).
   */
  private decorate(p: Prepared, ctx: RequestContext, result: unknown): Outgoing | Promise<Outgoing> {
    if (p.method === 'GET' || p.method === 'HEAD') {
      const head = p.method === 'HEAD';
      const got = this.dispatcher.decorated(p.match, p.principal, p.query, result);
      return got instanceof Promise ? got.then((g) => this.dispatcher.shape(p, head, g)) : this.dispatcher.shape(p, head, got);
    }
    if (result === undefined && (ctx.problems.length || p.spec.respond === 'representation')) {
      return this.dispatcher.representation(p, ctx.problems.length ? ctx.problems : [baseMessage('Success')]);
    }
    return this.dispatcher.write(result, p.match.uri);
  }

  /** After a successful write to a resource (not an action): the resource event hook. */
  private notifyWrite(p: Prepared, out: Outgoing): void {
    const method = p.method;
    if (!this.hooks.onWrite || method === 'GET' || method === 'HEAD' || p.match.action || out.status >= 300) return;
    const location = out.status === 201 ? out.headers.Location : undefined;
    // Events name resources in the canonical form, whatever the dialect shows.
    const created = location === undefined ? undefined : (this.routes.match(location)?.uri ?? location);
    if (method === 'POST' && !created) return;
    try {
      this.hooks.onWrite({
        method,
        uri: created ?? p.match.uri,
        accepted: out.status === 202,
        outside: p.match.route.outside === true,
        principal: p.principal,
      });
    } catch (e) {
      this.log.error({ err: e }, 'write hook failed');
    }
  }

  /** A write is answered once what it wrote is committed; a refused one may have written some of its parts too. */
  private async committed(batch: NonNullable<PipelineHooks['durable']>, out: Outgoing): Promise<Outgoing> {
    try {
      await batch.settled();
    } catch (e) {
      this.log.error({ err: e }, 'commit failed: the writes of this turn were rolled back');
      return this.errorResult(isStorageFull(e) ? storageFull() : baseError('InternalError'));
    }
    return out;
  }
}

/**
 * 10. send: what every answer carries besides its own headers (HSTS), and the length of a body
 * of known size, so that it goes out with Content-Length rather than chunked, through one
 * writeHead. The listener calls this as it writes, after any connection header of its own;
 * the headers object is the answer's own, so it is completed in place.
 */
export function headersToSend(out: Outgoing): Record<string, string> {
  const headers = out.headers;
  headers['Strict-Transport-Security'] = HSTS;
  const body = out.body;
  if (headers['Content-Length'] === undefined) {
    if (typeof body === 'string') headers['Content-Length'] = String(Buffer.byteLength(body));
    else if (Buffer.isBuffer(body)) headers['Content-Length'] = String(body.length);
  }
  return headers;
}

/** A body that could not be read to its end (the client went away): no answer is owed. */
class BodyLost extends Error {
  constructor(readonly lost: unknown) {
    super('the request body was not read to its end');
  }
}

/** A principal, or the 401: only the streamed POST of a route that defers authentication goes on without. */
function required(found: Principal | undefined, head: Head, match: Match | undefined): Principal | undefined {
  if (!found && !(match?.route.deferAuth === true && head.method === 'POST')) throw unauthorized();
  return found;
}

/** The match of a path whose ids all resolved, or the 404. */
function existing(exists: boolean, match: Match, path: string): Match {
  if (!exists) throw baseError('ResourceMissingAtURI', path);
  return match;
}

function isAnswer(x: object): x is Outgoing {
  return 'status' in x;
}

/** The top-level `@Redfish.*` members of a JSON object body. */
function redfishAnnotations(body: unknown): Readonly<Record<string, unknown>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).filter(([k]) => k.startsWith('@Redfish.')));
}
