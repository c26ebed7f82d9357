// The HTTPS listener: node:https carries the bytes; every Redfish rule lives in
// the protocol layer's Dispatcher. This file only reads bodies and writes answers.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { MAX_JSON_DEPTH, parseClientJson } from '../lib/json.js';
import { baseError, redfishErrorBody, vendorError } from '../messages/errors.js';
import type { Dispatcher, Outgoing, Prepared } from '../protocol/dispatch.js';
import type { WriteSpec } from '../protocol/routes.js';

export interface HttpOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  bodyLimit: number;
  dispatcher: Dispatcher;
  log: Logger;
}

const JSON_CT = /^application\/json\s*(;.*)?$/i;

/** Node rejects unknown methods while parsing; answer them 501 in Redfish form. */
function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const isMethod = err.code === 'HPE_INVALID_METHOD';
  const status = isMethod ? 501 : 400;
  const e = isMethod ? vendorError(501, 'MethodNotAllowed', 'unknown', 'this service') : baseError('UnrecognizedRequestBody');
  const body = JSON.stringify(redfishErrorBody(e.infos));
  socket.end(
    `HTTP/1.1 ${status} ${isMethod ? 'Not Implemented' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `OData-Version: 4.0\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function writeSpec(p: Prepared): WriteSpec | undefined {
  if (p.match.action) return undefined;
  const r = p.match.route;
  return p.method === 'POST' ? r.post : p.method === 'PATCH' ? r.patch : p.method === 'PUT' ? r.put : undefined;
}

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Read a JSON body up to limit bytes: undefined when empty; 413 beyond the limit; 400 when malformed. */
async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw vendorError(413, 'RequestBodyTooLarge', limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw vendorError(413, 'RequestBodyTooLarge', limit);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  const parsed = parseClientJson(text);
  if (parsed.ok) return parsed.value;
  throw parsed.reason === 'depth' ? vendorError(400, 'JsonNestingTooDeep', MAX_JSON_DEPTH) : baseError('MalformedJSON');
}

function send(res: ServerResponse, out: Outgoing): void {
  if (res.headersSent || res.destroyed) return;
  if (out.stream) {
    // A long-lived body (server-sent events): the protocol layer writes to the response.
    res.writeHead(out.status, out.headers);
    res.flushHeaders();
    out.stream(res);
    return;
  }
  res.writeHead(out.status, out.headers);
  if (out.body instanceof Readable) {
    out.body.on('error', () => res.destroy());
    out.body.pipe(res);
  } else {
    res.end(out.body);
  }
}

export async function startHttpServer(o: HttpOptions) {
  const { dispatcher, log } = o;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const clientIp = req.socket.remoteAddress ?? '';
    let user: string | undefined;
    res.on('finish', () => {
      log.info(
        { method: req.method, path: req.url, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10, user, ip: clientIp },
        'request',
      );
    });
    try {
      const prepared = await dispatcher.preflight({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        clientIp,
        socket: req.socket as TLSSocket,
      });
      if ('status' in prepared) return send(res, prepared);
      user = prepared.principal.userName || undefined;
      const spec = writeSpec(prepared);
      const type = req.headers['content-type'];
      if (spec?.stream) {
        const allowed = spec.contentTypes ?? ['multipart/form-data'];
        if (!type || !allowed.some((t) => type.toLowerCase().startsWith(t))) {
          throw vendorError(415, 'UnsupportedMediaType', String(type ?? 'none'), allowed.join(', '));
        }
        return send(res, await dispatcher.execute(prepared, undefined, req));
      }
      let body: unknown;
      if (hasBody(req) && prepared.method !== 'GET' && prepared.method !== 'HEAD') {
        if (!type || !JSON_CT.test(type)) throw vendorError(415, 'UnsupportedMediaType', String(type ?? 'none'), 'application/json');
        body = await readJson(req, o.bodyLimit);
      }
      send(res, await dispatcher.execute(prepared, body));
    } catch (e) {
      const out = dispatcher.errorResult(e);
      // Whatever of a refused body is unread is not worth reading: close after answering.
      if (!req.complete) out.headers.Connection = 'close';
      send(res, out);
    }
  };

  const server: Server = createServer(
    {
      key: o.key,
      cert: o.cert,
      minVersion: 'TLSv1.2',
      // Ask for, but do not require, a client certificate (certificate login).
      requestCert: true,
      rejectUnauthorized: false,
      keepAliveTimeout: 72_000,
      // Uploads and event streams may take long; only the headers have a deadline.
      requestTimeout: 0,
    },
    (req, res) => void handle(req, res),
  );
  server.on('clientError', clientError);
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    server,
    port,
    /** Swap the server certificate without a restart. */
    setCertificate(cert: string, key: string, ca?: string[]) {
      server.setSecureContext({ cert, key, ca, minVersion: 'TLSv1.2' });
    },
    /** Stop listening and drop every connection, as a controller reset does. */
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

export type HttpServer = Awaited<ReturnType<typeof startHttpServer>>;
