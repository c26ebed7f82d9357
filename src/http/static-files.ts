// Files served as they are, without credentials, under one path prefix (the web
// console): a fixed set of names, read from the directories handed in, with their
// content type, revalidation caching and a strict Content-Security-Policy. The
// data the files show is read by the browser through the Redfish API, with a session.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { RedfishError, baseError, vendorError } from '../protocol/errors.js';

export interface StaticSiteOptions {
  /** The path the site lives under, ending in '/' (e.g. '/console/'). */
  prefix: string;
  /** Directories searched in order for a file name (e.g. compiled scripts, then pages and styles). */
  dirs: readonly string[];
  /** The file answered for the prefix itself. */
  index: string;
  /** Names served from a file of their own (a library's, under node_modules), besides those in `dirs`. */
  files?: Readonly<Record<string, string>>;
}

/** What a static answer is made of (the listener adds HSTS and writes it). */
export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Scripts and styles only from this origin, no inline script or style, no plugins,
 * no framing; the page may only talk to this service.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** One path segment of a known type: no directories, no dot files, nothing to traverse with. */
const NAME = /^[a-z0-9][a-z0-9-]*\.[a-z]+$/;

export class StaticSite {
  /** The prefix without its slash. */
  private readonly bare: string;

  constructor(private readonly o: StaticSiteOptions) {
    this.bare = o.prefix.slice(0, -1);
  }

  /** Whether a request (path and query string) belongs to the site: its path is the prefix, with or without its slash, or below it. */
  owns(url: string): boolean {
    if (url.startsWith(this.o.prefix)) return true;
    const end = this.bare.length;
    return url.startsWith(this.bare) && (url.length === end || url[end] === '?');
  }

  /** The answer to a request for a path the site owns; errors in Redfish form are thrown. */
  async answer(method: string, url: string, ifNoneMatch: string | undefined): Promise<StaticAnswer> {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (method !== 'GET' && method !== 'HEAD') {
      throw new RedfishError(405, vendorError('MethodNotAllowed', method, path).infos, { Allow: 'GET, HEAD' });
    }
    if (path === this.o.prefix.slice(0, -1)) {
      return { status: 308, headers: { Location: this.o.prefix + (q < 0 ? '' : url.slice(q)), 'Content-Length': '0' } };
    }
    const name = path === this.o.prefix ? this.o.index : path.slice(this.o.prefix.length);
    const type = TYPES[extname(name)];
    if (!NAME.test(name) || !type) throw baseError('ResourceMissingAtURI', path);
    const body = await this.read(name);
    if (!body) throw baseError('ResourceMissingAtURI', path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    // Revalidated on every load: a new build is picked up at once, an unchanged file costs a 304.
    const headers = { 'Content-Type': type, 'Cache-Control': 'no-cache', ETag: etag, ...SECURITY_HEADERS };
    if (ifNoneMatch !== undefined && ifNoneMatch.split(/\s*,\s*/).includes(etag)) return { status: 304, headers };
    return { status: 200, headers: { ...headers, 'Content-Length': String(body.length) }, body: method === 'HEAD' ? undefined : body };
  }

  private async read(name: string): Promise<Buffer | undefined> {
    const own = this.o.files?.[name];
    if (own !== undefined) return readFile(own).catch(() => undefined);
    for (const dir of this.o.dirs) {
      try {
        return await readFile(join(dir, name));
      } catch {
        // Not in this directory: try the next.
      }
    }
    return undefined;
  }
}
