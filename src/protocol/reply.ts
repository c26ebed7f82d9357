// What a handler may return besides a plain resource body.
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { messagesBody, successBody, type ExtendedInfo } from '../messages/errors.js';

export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** A resource body to decorate with @odata annotations as a member at `headers.Location`. */
    readonly resource?: { uri: string; body: Record<string, unknown> },
  ) {}
}

/** A raw payload (registry files, $metadata, stored binaries as a stream): sent as is, with the given type. */
export class RawReply {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly payload: Buffer | string | Readable,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A long-lived response (server-sent events): the status and headers are sent,
 * then `start` owns the raw response until it ends. `start` runs only when the
 * response is really streamed (not for HEAD or $expand), so it holds the side effects.
 */
export class StreamReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly start: (res: ServerResponse) => void,
  ) {}
}

/** 200 with a Success message, plus any warnings. */
export function success(...extra: ExtendedInfo[]): Reply {
  return new Reply(200, successBody(extra));
}

/** 200 with the given messages in an error object (e.g. SystemResetRequired), coded as the first. */
export function messages(first: ExtendedInfo, ...rest: ExtendedInfo[]): Reply {
  return new Reply(200, messagesBody(first, ...rest));
}

/** 201 Created with Location; the body is the new member, decorated like a GET of it. */
export function created(uri: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Reply {
  return new Reply(201, undefined, { Location: uri, ...headers }, { uri, body });
}

/** 200 with a resource that was there already (a create that changed nothing), decorated like a GET of it. */
export function existing(uri: string, body: Record<string, unknown>): Reply {
  return new Reply(200, undefined, {}, { uri, body });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return new Reply(status, body, headers);
}

/** A collection body from member URIs. */
export function collection(name: string, members: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { Name: name, ...extra, Members: members.map((m) => ({ '@odata.id': m })) };
}
