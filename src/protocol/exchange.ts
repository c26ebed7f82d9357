// What the listener (src/http) and the protocol layer hand each other: a request going
// in (its head, and a source to pull its body from) and an answer to write coming out.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { Principal } from './principal.js';
import type { Query } from './query.js';
import type { DeclaredMethod, Match, Method } from './routes.js';

export interface IncomingRequest {
  method: string;
  /** Path and query string, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  clientIp: string;
  /** The connection, for certificate login. */
  socket?: TLSSocket;
  body: BodySource;
  /** Who made the request, once it is authorized: set by the pipeline, named by the listener's log line. */
  user?: string;
}

/** A request's body, pulled only when the protocol layer wants it (a 100 Continue goes out then). */
export interface BodySource {
  /** The request has a body: a Content-Length other than 0, or a chunked one. */
  readonly present: boolean;
  /**
   * The body as UTF-8 text, at once when it arrived with the headers. `undefined` when it is
   * longer than limit bytes, as declared or as received: what is left of it is not read.
   * Rejects when the body cannot be read to its end (the client went away).
   */
  text(limit: number): string | undefined | Promise<string | undefined>;
  /** The body as it arrives, for routes that read it themselves (uploads). */
  stream(): Readable;
}

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body?: Buffer | string | Readable;
  /** A streamed body (server-sent events): the listener hands it the raw response after the headers. */
  stream?: (res: ServerResponse) => void;
  /**
   * A fault rule's instruction to the listener (the control API): the connection ends after
   * the headers (or without them) and this many bytes of the body, whatever Content-Length says.
   */
  cut?: { headers: boolean; bodyBytes: number };
}

/** A request once routed, authenticated, resolved and authorized: what reading its body and handling it start from. */
export interface Prepared {
  req: IncomingRequest;
  method: Method;
  match: Match;
  /** The route's declaration for the method (an action's for a POST to it). */
  spec: DeclaredMethod;
  principal: Principal;
  query: Query;
}
