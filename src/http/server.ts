// The HTTPS listener. Fastify carries the bytes; every Redfish rule lives in
// the protocol layer's Dispatcher, reached through one catch-all route.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { RedfishError, baseError, redfishErrorBody, vendorError } from '../messages/errors.js';
import type { Dispatcher, Outgoing, Prepared } from '../protocol/dispatch.js';

export interface HttpOptions {
  host: string;
  port: number;
  cert: string;
  key: string;
  bodyLimit: number;
  dispatcher: Dispatcher;
  log: Logger;
}

declare module 'fastify' {
  interface FastifyRequest {
    prepared?: Prepared;
  }
}

const JSON_CT = /^application\/json\s*(;.*)?$/i;

function send(reply: FastifyReply, out: Outgoing): FastifyReply {
  if (out.stream) {
    // A long-lived body (server-sent events): the protocol layer writes to the raw response.
    reply.hijack();
    reply.raw.writeHead(out.status, out.headers);
    reply.raw.flushHeaders();
    out.stream(reply.raw);
    return reply;
  }
  return reply.code(out.status).headers(out.headers).send(out.body);
}

/** Node rejects unknown methods while parsing; answer them 501 in Redfish form. */
function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const isMethod = err.code === 'HPE_INVALID_METHOD';
  const status = isMethod ? 501 : 400;
  const e = isMethod ? vendorError(501, 'MethodNotAllowed', 'unknown', 'this service') : baseError('UnrecognizedRequestBody');
  const body = JSON.stringify(redfishErrorBody(e.infos));
  socket.end(
    `HTTP/1.1 ${status} ${isMethod ? 'Not Implemented' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `OData-Version: 4.0\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export async function startHttpServer(o: HttpOptions) {
  const app = Fastify({
    https: {
      key: o.key,
      cert: o.cert,
      minVersion: 'TLSv1.2',
      // Ask for, but do not require, a client certificate (certificate login).
      requestCert: true,
      rejectUnauthorized: false,
    },
    bodyLimit: o.bodyLimit,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    // Closing the listener drops every connection, as a controller reset does; nothing waits on idle clients.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false },
    clientErrorHandler: clientError,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, buf, done) => {
    const text = (buf as Buffer).toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(baseError('MalformedJSON'), undefined);
    }
  });
  // Uploads are streamed by their handler; leave the body unread here.
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));

  app.addHook('onRequest', async (request, reply) => {
    const prepared = await o.dispatcher.preflight({
      method: request.method,
      url: request.url,
      headers: request.headers,
      clientIp: request.ip,
      socket: request.raw.socket as TLSSocket,
    });
    if ('status' in prepared) return send(reply, prepared);
    request.prepared = prepared;
    const spec = writeSpec(prepared);
    const type = request.headers['content-type'];
    if (spec?.stream) {
      const allowed = spec.contentTypes ?? ['multipart/form-data'];
      if (!type || !allowed.some((t) => type.toLowerCase().startsWith(t))) {
        return send(reply, o.dispatcher.errorResult(vendorError(415, 'UnsupportedMediaType', String(type ?? 'none'), allowed.join(', '))));
      }
    } else if (type && hasBody(request) && !JSON_CT.test(type)) {
      return send(reply, o.dispatcher.errorResult(vendorError(415, 'UnsupportedMediaType', type, 'application/json')));
    }
    return undefined;
  });

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '*',
    handler: async (request, reply) => {
      const prepared = request.prepared;
      if (!prepared) return send(reply, o.dispatcher.errorResult(baseError('InternalError')));
      const stream = writeSpec(prepared)?.stream ? request.raw : undefined;
      return send(reply, await o.dispatcher.execute(prepared, request.body, stream));
    },
  });

  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, _request, reply) => {
    let e: unknown = err;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e = vendorError(413, 'RequestBodyTooLarge', o.bodyLimit);
    else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') e = vendorError(415, 'UnsupportedMediaType', 'given', 'application/json');
    else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') e = baseError('MalformedJSON');
    else if (!(err instanceof RedfishError) && err.statusCode && err.statusCode < 500) e = baseError('UnrecognizedRequestBody');
    return send(reply, o.dispatcher.errorResult(e));
  });

  app.addHook('onResponse', async (request, reply) => {
    o.log.info(
      {
        method: request.method,
        path: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.prepared?.principal.userName || undefined,
        ip: request.ip,
      },
      'request',
    );
  });

  await app.listen({ host: o.host, port: o.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    app,
    port,
    /** Swap the server certificate without a restart. */
    setCertificate(cert: string, key: string, ca?: string[]) {
      (app.server as unknown as { setSecureContext(o: object): void }).setSecureContext({ cert, key, ca, minVersion: 'TLSv1.2' });
    },
    close: () => app.close(),
  };
}

function writeSpec(p: Prepared) {
  if (p.match.action) return undefined;
  const r = p.match.route;
  return p.method === 'POST' ? r.post : p.method === 'PATCH' ? r.patch : p.method === 'PUT' ? r.put : undefined;
}

function hasBody(request: FastifyRequest): boolean {
  const len = request.headers['content-length'];
  return (len !== undefined && len !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export type HttpServer = Awaited<ReturnType<typeof startHttpServer>>;
