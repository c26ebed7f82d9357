// The HTTPS listener: node:https carries the bytes. It accepts connections (TLS, timeouts,
// connection caps, the minimum body rate), hands each request to the protocol layer's
// pipeline with a source for its body, and writes back the answer it is given. Every
// Redfish rule, body rules included, lives in the pipeline (src/protocol/pipeline.ts).
import { Server } from 'node:https';
import { STATUS_CODES, ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import type { SecureContextOptions, TLSSocket } from 'node:tls';
import pino, { type Logger } from 'pino';
import type { Clock, TimerHandle } from '../platform/clock.js';
import { redfishErrorBody } from '../messages/errors.js';
import { Refusal } from '../messages/refusal.js';
import { vendorError, type RedfishError } from '../protocol/errors.js';
import type { BodySource, IncomingRequest, Outgoing } from '../protocol/exchange.js';
import { HSTS, headersToSend, type Pipeline } from '../protocol/pipeline.js';
import type { ConnectionBudget, SharedPorts } from './shared-ports.js';
import { shareConnectionChecks, type ConnectionChecks } from './connection-checks.js';
import type { StaticSite } from './static-files.js';
import type { LineStream } from '../logging.js';
import { TLS_POLICY } from '../lib/tls-policy.js';

export interface HttpOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  pipeline: Pipeline;
  log: Logger;
  limits: ConnectionLimits;
  /** The controller clock: how long a request body has been arriving (its minimum rate). */
  clock: Clock;
  /** Files served without credentials beside the API (the web console). */
  site?: StaticSite;
  /**
   * Make the certificate's TLS context at the first connection rather than at start (a fleet:
   * a thousand controllers start without parsing a thousand keys). The identity must have been
   * checked already: a context that cannot be made then drops that connection.
   */
  lazyTls?: boolean;
  /** Requests left unanswered, their connection closed (a controller whose network functionality is off). */
  unanswered?(url: string): boolean;
  /** Listen through a socket shared with other controllers on the same port (each on its own address). */
  shared?: SharedPorts;
  /** Connections shared with the other controllers of the process (a fleet's share of the descriptor limit). */
  budget?: ConnectionBudget;
}

/**
 * What a connection may cost, named as in the service configuration: the timeouts in
 * seconds (TLS handshake, request headers, idle keep-alive, a request body without
 * progress), the rate a body must keep up (bytes per second, averaged from its start once
 * it has had bodyTimeout seconds), and the number of connections open at once, in all and
 * from one client address.
 */
export interface ConnectionLimits {
  tlsHandshakeTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  bodyTimeout: number;
  bodyMinRate: number;
  maxConnections: number;
  maxConnectionsPerSource: number;
}

/** Errors that only say the client went away: worth a debug line, not an error. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

/** TLS-level failures (no shared suite, old protocol, handshake timeout, renegotiation): no HTTP answer is possible. */
function isTlsError(err: Error & { code?: string; library?: string }, socket: Duplex): boolean {
  if (/^ERR_(SSL|TLS)_/.test(err.code ?? '') || err.library !== undefined) return true;
  return (socket as Duplex & { _secureEstablished?: boolean })._secureEstablished === false;
}

/** The answer to a request node's HTTP parser refused, in Redfish form. */
function parseErrorAnswer(err: Error & { code?: string; reason?: string }, limits: ConnectionLimits): RedfishError {
  switch (err.code) {
    case 'HPE_INVALID_METHOD':
      // A method no server implements (not one this resource lacks): 501, not the table's 405.
      return vendorError('MethodNotAllowed', 'unknown', 'this service').withStatus(501);
    case 'HPE_HEADER_OVERFLOW':
      return vendorError('HttpRequestInvalid', 'the request line and headers are larger than the service accepts').withStatus(431);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return vendorError('HttpRequestTimeout', `the request line and headers did not arrive within ${limits.headersTimeout} s`);
    default: {
      // llhttp's reason is a fixed phrase ("Invalid character in chunk size"); keep it printable and short.
      const why = (err.reason ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 120);
      return vendorError('HttpRequestInvalid', why ? `malformed HTTP (${why})` : 'malformed HTTP');
    }
  }
}

/**
 * A Redfish error written straight to a socket that has no response object
 * (the request could not be parsed, CONNECT), then the connection closes.
 * A client that never closes its side is dropped a little later.
 */
function answerRaw(socket: Duplex, e: RedfishError): void {
  const body = JSON.stringify(redfishErrorBody(e.infos));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'OData-Version': '4.0',
    'Strict-Transport-Security': HSTS,
    ...e.headers,
    Connection: 'close',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\n${head}\r\n${body}`);
  (socket as Socket).setTimeout?.(5_000, () => socket.destroy());
}

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** A request's body, pulled by the pipeline when it wants it: a client waiting for 100 Continue gets it then. */
class IncomingBody implements BodySource {
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly expectsContinue: boolean,
  ) {}

  get present(): boolean {
    return hasBody(this.req);
  }

  text(limit: number): string | undefined | Promise<string | undefined> {
    this.wanted();
    const declared = Number(this.req.headers['content-length'] ?? 0);
    if (declared > limit) return undefined;
    // A body that arrived with its headers is taken as it is.
    return this.req.complete ? bufferedText(this.req, limit) : arrivingText(this.req, limit);
  }

  stream(): Readable {
    this.wanted();
    return this.req;
  }

  private wanted(): void {
    if (this.expectsContinue && !this.res.headersSent) this.res.writeContinue();
  }
}

function utf8(chunks: Buffer[]): string {
  return chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

/** The whole body, already received and buffered by the stream; undefined beyond limit bytes. */
function bufferedText(req: IncomingMessage, limit: number): string | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return utf8(chunks);
}

/**
 * The body as it arrives, up to limit bytes (undefined beyond: the rest is not read). Events, not
 * an async iterator: the iterator's machinery cost more than a small body's parse.
 */
function arrivingText(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(utf8(chunks));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    // A request that ends without its whole body (the client went away) settles too.
    const onClose = () => {
      done();
      reject(Object.assign(new Error('the request ended before its body'), { code: 'ECONNRESET' }));
    };
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // What is left of a refused body is not read: the answer closes the connection.
      req.pause();
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** Write an answer, completed by the protocol layer (headersToSend) after any connection header added here. */
function write(log: Logger, res: ServerResponse, out: Outgoing): void {
  if (res.headersSent || res.destroyed) return;
  if (out.cut) return cut(res, out, out.cut);
  // Passed whole to writeHead (not setHeader): node then formats them without merging.
  res.writeHead(out.status, headersToSend(out));
  if (out.stream) {
    // A long-lived body (server-sent events): the protocol layer writes to the response.
    res.flushHeaders();
    out.stream(res);
    return;
  }
  const body = out.body;
  if (body instanceof Readable) {
    // A body that fails midway (a file read error) cannot be answered any more: the connection is cut.
    body.on('error', (err) => {
      log.warn({ err, method: res.req.method, path: res.req.url }, 'response body failed; connection closed');
      res.destroy();
    });
    body.pipe(res);
  } else {
    res.end(body);
  }
}

/**
 * An answer cut short as a fault rule asked (the control API): the connection ends without
 * the answer, or after its headers (whole Content-Length) and the first bytes of its body.
 */
function cut(res: ServerResponse, out: Outgoing, how: NonNullable<Outgoing['cut']>): void {
  const socket = res.socket;
  if (!how.headers || !socket) {
    socket?.destroy();
    return;
  }
  res.writeHead(out.status, headersToSend(out));
  const body = typeof out.body === 'string' ? Buffer.from(out.body) : Buffer.isBuffer(out.body) ? out.body : Buffer.alloc(0);
  res.write(body.subarray(0, how.bodyBytes), () => socket.end());
}

/** A response that carries its request's start and what the pipeline learnt of it (the user), for its log line. */
class Answer<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  started = 0;
  request: IncomingRequest | undefined = undefined;
}

type LoggerInternals = Logger & Record<symbol, unknown>;

/**
 * The line of each answered request: what `log.info({ method, path, status, ms, user, ip }, 'request')`
 * writes, byte for byte, made without pino's generic serializer (which cost a tenth of a cached GET).
 * It writes to the logger's own stream, with its time and bindings (pino's exported symbols).
 */
export function requestLogger(log: Logger) {
  const l = log as LoggerInternals;
  const stream = l[pino.symbols.streamSym] as LineStream | undefined;
  const time = l[pino.symbols.timeSym] as (() => string) | undefined;
  const bindings = l[pino.symbols.chindingsSym];
  if (!stream || !time || typeof bindings !== 'string')
    return (method: string, path: string, status: number, ms: number, user: string | undefined, ip: string) =>
      log.info({ method, path, status, ms, user, ip }, 'request');
  // The line's pieces, the variable ones set at each request: the service's log stream encodes them
  // one after the other (writeParts), so no string is made to join them.
  const parts = [
    '{"level":30',
    '',
    bindings,
    ',"method":',
    '',
    ',"path":',
    '',
    ',"status":',
    '',
    ',"ms":',
    '',
    '',
    '',
    ',"ip":',
    '',
    ',"msg":"request"}\n',
  ];
  return (method: string, path: string, status: number, ms: number, user: string | undefined, ip: string): void => {
    if (!log.isLevelEnabled('info')) return;
    parts[1] = time();
    parts[4] = JSON.stringify(method);
    parts[6] = JSON.stringify(path);
    parts[8] = String(status);
    parts[10] = String(ms);
    parts[11] = user === undefined ? '' : ',"user":';
    parts[12] = user === undefined ? '' : JSON.stringify(user);
    parts[14] = JSON.stringify(ip);
    if (stream.writeParts) stream.writeParts(parts);
    else stream.write(parts.join(''));
  };
}

/**
 * An HTTPS server whose identity is set at its first connection (lazyTls). Node's makes a TLS
 * context as it is constructed, one without a key that the first connection replaces anyway:
 * 0.25 ms and a hash of the command line per server, ten thousand times in a fleet's start.
 */
class LateIdentityServer extends Server {
  override setSecureContext(options: SecureContextOptions): void {
    if (options.key === undefined && options.pfx === undefined) return;
    super.setSecureContext(options);
  }
}

export async function startHttpServer(o: HttpOptions) {
  const { pipeline, log, limits, clock } = o;

  /** An error answer that ends the connection: what is left of the request is not read. */
  const closingAnswer = (e: unknown): Outgoing => {
    const out = pipeline.errorResult(e);
    out.headers.Connection = 'close';
    return out;
  };

  /**
   * A request body must keep coming: it is cut after bodyTimeout seconds without a byte and,
   * once it has had bodyTimeout seconds, as soon as its average since the start falls below
   * bodyMinRate bytes per second (else a byte every few seconds would hold a connection for
   * as long as its client likes). Cut means 408 while the answer has not started, else a
   * close. Only while the body is read: long answers (SSE) are not limited.
   */
  const watchBody = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.complete || !hasBody(req)) return;
    const socket = req.socket;
    const cut = (why: string) => {
      if (req.complete) return;
      log.debug({ method: req.method, path: req.url, ip: socket.remoteAddress, why }, 'request body cut');
      if (res.headersSent || res.destroyed) {
        socket.destroy();
        return;
      }
      write(log, res, closingAnswer(vendorError('HttpRequestTimeout', why)));
      res.once('finish', () => socket.destroy());
    };
    const stalled = () => cut(`the request body made no progress for ${limits.bodyTimeout} s`);
    req.setTimeout(limits.bodyTimeout * 1000, stalled);
    // bytesRead counts what TLS handed the HTTP parser, read by the handler yet or not; what came
    // with the headers is not counted (the minimum is a floor against trickling, not a meter).
    const started = clock.now();
    const before = socket.bytesRead;
    const checkRate = () => {
      if (req.complete) return;
      const seconds = (clock.now() - started) / 1000;
      const received = socket.bytesRead - before;
      if (received < limits.bodyMinRate * seconds) {
        const rate = Math.floor(received / seconds);
        cut(`the request body arrived at ${rate} bytes/s, below the minimum of ${limits.bodyMinRate} bytes/s`);
        return;
      }
      // Look again when the average would fall below the minimum if nothing more came.
      rateCheck = clock.setTimer(Math.max(1000, (received / limits.bodyMinRate - seconds) * 1000), checkRate);
    };
    let rateCheck: TimerHandle = clock.setTimer(limits.bodyTimeout * 1000, checkRate);
    const done = () => {
      req.off('timeout', stalled);
      rateCheck.cancel();
    };
    req.once('close', done);
    req.once('end', () => {
      done();
      // Once answered, the connection's idle (keep-alive) timeout is node's again.
      if (!res.writableEnded) socket.setTimeout(0);
    });
  };

  const requestLine = requestLogger(log);
  /** Once an answer is done with ('close' follows 'finish' when it was sent whole): its log line. One function for every answer. */
  function answerClosed(this: Answer): void {
    const { req, request } = this;
    if (!request) return;
    if (this.writableFinished)
      requestLine(
        req.method ?? '',
        req.url ?? '',
        this.statusCode,
        Math.round((performance.now() - this.started) * 10) / 10,
        request.user,
        request.clientIp,
      );
    else
      log.debug(
        { method: req.method, path: req.url, user: request.user, ip: request.clientIp },
        'request ended by the client before its answer',
      );
  }

  /**
   * An answer given before the whole body arrived (a 401, a refused upload) ends the connection:
   * the rest is not read, so a client cannot keep it busy by trickling a body nobody wants.
   */
  const reply = (res: Answer, out: Outgoing): void => {
    const req = res.req;
    // The controller went away while this request ran: its answer is the connection's last.
    if (!listening) out.headers.Connection = 'close';
    if (!hasBody(req) || req.complete) return write(log, res, out);
    // An answer made at once comes before the parser has taken a body that came with the
    // headers: one turn later it has, and only a body still on its way closes the connection.
    setImmediate(() => {
      if (!req.complete) out.headers.Connection = 'close';
      write(log, res, out);
    });
  };

  /** A request the pipeline (or the site) could not answer: answered already (a stalled body, a framing error) or the client left, nothing to say. */
  const unanswered = (res: Answer, e: unknown): void => {
    if (res.headersSent || res.destroyed) {
      const req = res.req;
      if (!(e instanceof Refusal))
        log.debug({ err: e, method: req.method, path: req.url, ip: res.request?.clientIp }, 'request not completed');
      return;
    }
    reply(res, pipeline.errorResult(e));
  };

  /**
   * expectsContinue: the client waits for 100 Continue before it sends the body (sent only once the
   * body is wanted). Written without an async frame or a closure per request: an answer the
   * pipeline makes at once is written at once (issue 30: the heap a GET allocates).
   */
  const handle = (req: IncomingMessage, res: Answer, expectsContinue = false): void => {
    res.started = performance.now();
    const request: IncomingRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      clientIp: req.socket.remoteAddress ?? '',
      socket: req.socket as TLSSocket,
      body: new IncomingBody(req, res, expectsContinue),
      user: undefined,
    };
    res.request = request;
    res.on('close', answerClosed);
    // HTTP/1.1 requires Host (RFC 9112 3.2); node's own check would answer without a Redfish body.
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      write(log, res, closingAnswer(vendorError('HttpRequestInvalid', 'the Host header is missing')));
      return;
    }
    if (o.unanswered?.(request.url)) {
      req.socket.destroy();
      return;
    }
    watchBody(req, res);
    let out: Outgoing | Promise<Outgoing>;
    try {
      const site = o.site;
      out =
        site && site.owns(request.url) ? site.answer(request.method, request.url, req.headers['if-none-match']) : pipeline.answer(request);
    } catch (e) {
      return unanswered(res, e);
    }
    if (out instanceof Promise)
      out.then(
        (answer) => reply(res, answer),
        (e: unknown) => unanswered(res, e),
      );
    else reply(res, out);
  };

  /** The parser refused the request, the TLS handshake failed, or the client went away. */
  const clientError = (err: Error & { code?: string }, socket: Duplex): void => {
    const code = err.code ?? '';
    if (isTlsError(err, socket) || CLIENT_GONE.has(code) || !socket.writable) {
      log.debug({ code, ip: (socket as Socket).remoteAddress }, 'connection closed: client or TLS error');
      socket.destroy();
      return;
    }
    log.debug({ code, ip: (socket as Socket).remoteAddress }, 'request refused by the HTTP parser');
    const answer = parseErrorAnswer(err, limits);
    // A request in progress (its body was malformed): answer through its response, unless that has begun.
    const res = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (res) {
      if (res.headersSent) socket.destroy();
      else {
        write(log, res, closingAnswer(answer));
        res.once('finish', () => socket.destroy());
      }
      return;
    }
    answerRaw(socket, answer);
  };

  const headersMs = limits.headersTimeout * 1000;
  const checkEveryMs = Math.max(100, Math.min(1000, headersMs / 4));
  const identity = { key: o.key, cert: o.cert, ...TLS_POLICY };
  let lazyIdentity: (typeof identity & { ca?: string[] }) | undefined = o.lazyTls ? identity : undefined;
  const server: Server<typeof IncomingMessage, typeof Answer> = new (o.lazyTls ? LateIdentityServer : Server)(
    {
      ...(o.lazyTls ? {} : identity),
      ...TLS_POLICY,
      // Ask for, but do not require, a client certificate (certificate login).
      requestCert: true,
      rejectUnauthorized: false,
      // A connection that sends no ClientHello, or stalls in the handshake, is closed.
      handshakeTimeout: limits.tlsHandshakeTimeout * 1000,
      keepAliveTimeout: limits.keepAliveTimeout * 1000,
      // Uploads and event streams may take long: no deadline for a whole request; the
      // headers have one (408) and a body must keep making progress (watchBody).
      requestTimeout: 0,
      headersTimeout: headersMs,
      // How often node looks for requests past the headers deadline (one timer for the process: connection-checks.ts).
      connectionsCheckingInterval: checkEveryMs,
      // Checked here (answered in Redfish form), not by node.
      requireHostHeader: false,
      ServerResponse: Answer,
    },
    (req, res) => handle(req, res),
  );
  // Connections beyond the cap are closed as soon as they are accepted.
  server.maxConnections = limits.maxConnections;
  let full = false;
  const dropped = () => {
    if (!full) log.warn({ maxConnections: limits.maxConnections }, 'connection limit reached: new connections are closed at once');
    full = true;
  };
  server.on('drop', dropped);
  server.on('clientError', clientError);
  // TLS 1.2 renegotiation started by a client ends the connection (TLS 1.3 has none).
  server.on('secureConnection', (s: TLSSocket) => s.disableRenegotiation());
  // 100-continue: the continue is sent only once the body is wanted, so a request refused before
  // (401, 403, 415...) is answered without its body ever being sent.
  server.on('checkContinue', (req: IncomingMessage, res: Answer) => handle(req, res, true));
  // An empty Expect is no expectation (RFC 9110 10.1.1; iLO-style uploads send one); any other: 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const expect = String(req.headers.expect ?? '')
      .replace(/[^\x20-\x7e]/g, '')
      .slice(0, 64);
    if (expect.trim() === '') return handle(req, res as Answer);
    write(
      log,
      res,
      closingAnswer(
        vendorError('HttpRequestInvalid', `the expectation "${expect}" is not supported; only 100-continue is`).withStatus(417),
      ),
    );
  });
  // CONNECT (a proxy tunnel) is no method of this service.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    answerRaw(socket, vendorError('MethodNotAllowed', 'CONNECT', String(req.url ?? '').slice(0, 256)).withStatus(501));
  });
  // Before the TLS layer takes the connection: its socket is made with the context set here.
  if (lazyIdentity) {
    server.prependListener('connection', (s: Socket) => {
      if (!lazyIdentity) return;
      try {
        server.setSecureContext(lazyIdentity);
        lazyIdentity = undefined;
      } catch (err) {
        log.error({ err }, 'the HTTPS identity cannot be used; connection dropped');
        s.destroy();
      }
    });
  }
  // One client address may hold maxConnectionsPerSource connections: a flood from one source
  // leaves the others room. Checked first, before TLS costs anything.
  const perSource = new Map<string, number>();
  /** Sources refused since their last connection closed: their flood is logged once. */
  const crowded = new Set<string>();
  const { budget } = o;
  server.prependListener('connection', (s: Socket) => {
    if (budget) {
      if (budget.held >= budget.max) {
        if (!budget.full)
          log.warn(
            { connections: budget.max },
            "the process's connections (its share of the descriptor limit) are all taken: new ones are closed at once",
          );
        budget.full = true;
        s.destroy();
        return;
      }
      budget.held++;
      s.once('close', () => {
        budget.held--;
        budget.full &&= budget.held >= budget.max;
      });
    }
    const source = s.remoteAddress ?? '';
    const held = perSource.get(source) ?? 0;
    if (held >= limits.maxConnectionsPerSource) {
      if (!crowded.has(source)) {
        crowded.add(source);
        log.warn(
          { ip: source, maxConnectionsPerSource: limits.maxConnectionsPerSource },
          'connection limit per client address reached: its new connections are closed at once',
        );
      }
      s.destroy();
      return;
    }
    perSource.set(source, held + 1);
    s.once('close', () => {
      const left = (perSource.get(source) ?? 1) - 1;
      if (left > 0) perSource.set(source, left);
      else {
        perSource.delete(source);
        crowded.delete(source);
      }
    });
  });
  const sockets = new Set<Socket>();
  // Node's headers deadline is checked only while this server has connections (after node's own
  // 'listening' listener has made its timer, at every listen).
  let checks: ConnectionChecks | undefined;
  server.on('listening', () => {
    checks?.closed();
    checks = shareConnectionChecks(server, checkEveryMs);
    if (sockets.size > 0) checks.opened();
  });
  server.on('connection', (s: Socket) => {
    if (s.destroyed) return;
    sockets.add(s);
    checks?.opened();
    s.once('close', () => {
      sockets.delete(s);
      if (sockets.size === 0) checks?.closed();
      if (full && sockets.size < limits.maxConnections) full = false;
    });
  });

  let port = o.port;
  let detach: (() => Promise<void>) | undefined;
  // Ours, not server.listening: a controller on a shared socket never listens itself.
  let listening = false;
  let hold: ReturnType<typeof setInterval> | undefined;
  const accept = (s: Socket) => {
    // node counts only the connections it accepts itself against maxConnections.
    if (sockets.size >= limits.maxConnections) {
      dropped();
      s.destroy();
    } else server.emit('connection', s);
  };
  const listen = async (wanted: number): Promise<void> => {
    if (o.shared) {
      ({ port, detach } = await o.shared.attach(o.host, wanted, accept));
    } else {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(wanted, o.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : wanted;
    }
    listening = true;
  };
  await listen(o.port);
  // What listen() starts: node's check of the headers deadline on open connections.
  if (o.shared) server.emit('listening');
  return {
    server,
    port,
    /**
     * A controller reset: nothing listens any more (a connect is refused), idle connections
     * close, and a request in progress gets its answer with the connection's close.
     */
    stopListening() {
      listening = false;
      // Every timer of the service is unref'd: with the listener closed, the process would end
      // before the controller comes back. A ref'd handle keeps it until it listens again.
      hold ??= setInterval(() => undefined, 1 << 30);
      // On a shared socket: connections to this controller's address are closed as they come.
      if (detach) void detach().catch(() => undefined);
      else server.close();
      detach = undefined;
      server.closeIdleConnections();
    },
    /** Back on the same port after a reset. */
    listenAgain: () =>
      listen(port).then(() => {
        clearInterval(hold);
        hold = undefined;
      }),
    /** Whether connections are taken (false from a controller reset until it listens again). */
    get listening() {
      return listening;
    },
    /** Swap the server certificate without a restart. */
    setCertificate(cert: string, key: string, ca?: string[]) {
      if (lazyIdentity) lazyIdentity = { cert, key, ca, ...TLS_POLICY };
      else server.setSecureContext({ cert, key, ca, ...TLS_POLICY });
    },
    /** Stop listening and drop every connection, as a controller reset does. */
    close: async () => {
      clearInterval(hold);
      await detach?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

export type HttpServer = Awaited<ReturnType<typeof startHttpServer>>;
