// Outbound image downloads (SimpleUpdate, AddFromUri, virtual media): HTTP or
// HTTPS, no redirects, streamed to disk or read through, capped in size and in
// time (controller clock).
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import { undici } from '../../lib/undici.js';
import { isStorageFull } from '../../lib/data-file-error.js';
import { carriesBody, headUnsupported } from '../../lib/http-client.js';
import { basicAuthorization, splitCredentials, withoutCredentials } from '../../lib/uri-credentials.js';
import { vendorRefusal } from '../../messages/refusal.js';
import { safeFilename } from './repository.js';
import type { Clock } from '../../platform/clock.js';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  clock: Clock;
  /** Extra trusted CAs (PEM file) for HTTPS image servers. */
  caFile?: string;
}

export interface ReadOptions {
  /** Defaults to the downloader's limit. */
  maxBytes?: number;
  /** Request headers (Authorization for an image server that asks for credentials). */
  headers?: Record<string, string>;
  /** Ask with HEAD before the GET. */
  head?: boolean;
  /** Where the bytes go; nowhere when left out. */
  sink?: () => Writable;
  /** Called when the body could not be read whole (to remove a partial file). */
  onFailure?: () => void;
  /** Bytes received so far, and the size the server declared (undefined without Content-Length). */
  onProgress?: (received: number, total: number | undefined) => void;
}

export interface Downloaded {
  size: number;
  sha256: Buffer;
}

/** The URL if it is an http(s) URL, else undefined. */
export function parseImageUri(uri: string): URL | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** The repository file name of a download: the last path segment, made safe. */
export function fileNameOf(u: URL): string {
  let last = u.pathname.split('/').pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // keep it encoded
  }
  return safeFilename(last);
}

export class Downloader {
  private readonly ca?: string;
  private made?: Agent;
  /** Set by the control API: why the download of `uri` fails now (an injected fault), else undefined. */
  failure?: (uri: string) => string | undefined;

  constructor(private readonly o: DownloadOptions) {
    this.ca = o.caFile ? readFileSync(o.caFile, 'utf8') : undefined;
  }

  /** Made on the first download. Extra CAs add to the system roots rather than replace them. */
  private get agent(): Agent {
    return (this.made ??= new (undici().Agent)({ connect: this.ca ? { ca: [...rootCertificates, this.ca] } : {}, connections: 4 }));
  }

  /** Fetch `uri` into `dest`; throws ImageDownloadFailed with the reason. */
  async fetch(uri: string, dest: string, maxBytes = this.o.maxBytes, onProgress?: ReadOptions['onProgress']): Promise<Downloaded> {
    return this.read(uri, {
      maxBytes,
      onProgress,
      sink: () => createWriteStream(dest, { mode: 0o600 }),
      onFailure: () => rmSync(dest, { force: true }),
    });
  }

  /**
   * Read `uri` through: a HEAD first when asked (a server that refuses HEAD is
   * then asked with GET alone), then GET, counting and hashing the bytes into
   * `sink` (discarded without one). Throws ImageDownloadFailed with the reason.
   * Credentials in the URI become the request's Basic authorization and appear
   * nowhere else: every message names the URI without them.
   */
  async read(target: string, o: ReadOptions = {}): Promise<Downloaded> {
    const { uri, headers } = withCredentialsMoved(target, o.headers);
    const maxBytes = o.maxBytes ?? this.o.maxBytes;
    const injected = this.failure?.(uri);
    if (injected) throw vendorRefusal('ImageDownloadFailed', uri, injected);
    const abort = new AbortController();
    const timer = this.o.clock.setTimer(this.o.timeoutMs, () => abort.abort(new Error(`timed out after ${this.o.timeoutMs / 1000} s`)));
    const fail = (why: string) => vendorRefusal('ImageDownloadFailed', uri, why);
    const send = (method: 'HEAD' | 'GET') =>
      undici()
        .request(uri, { method, headers, dispatcher: this.agent, signal: abort.signal })
        .catch((e: Error) => {
          throw fail(reason(e, abort));
        });
    const checkSize = (headers: Record<string, string | string[] | undefined>) => {
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw fail(`the image is ${declared} bytes; at most ${maxBytes} fit`);
    };
    try {
      if (o.head) {
        const head = await send('HEAD');
        head.body.resume();
        if (!headUnsupported(head.statusCode)) {
          if (!carriesBody(head.statusCode)) throw fail(`the server answered HTTP ${head.statusCode}`);
          checkSize(head.headers);
        }
      }
      const res = await send('GET');
      if (!carriesBody(res.statusCode)) {
        res.body.resume();
        throw fail(`the server answered HTTP ${res.statusCode}`);
      }
      try {
        checkSize(res.headers);
      } catch (e) {
        res.body.destroy();
        throw e;
      }
      let size = 0;
      const declared = Number(res.headers['content-length']);
      const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
      const progress = o.onProgress;
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (size > maxBytes) return cb(new Error(`the image exceeds ${maxBytes} bytes`));
          hash.update(chunk);
          progress?.(size, total);
          cb(null, chunk);
        },
      });
      try {
        await pipeline(res.body, counter, o.sink?.() ?? discard());
      } catch (e) {
        o.onFailure?.();
        // The image came, but the controller's disk could not hold it.
        if (isStorageFull(e)) throw vendorRefusal('StorageFull', 'the downloaded image');
        throw fail(reason(e as Error, abort));
      }
      return { size, sha256: hash.digest() };
    } finally {
      timer.cancel();
    }
  }

  /** Abort downloads in flight (service shutdown). */
  async close(): Promise<void> {
    await this.made?.destroy(new Error('the service is shutting down'));
  }
}

/** The URI without credentials, and the request headers with them as Basic authorization (unless given). */
function withCredentialsMoved(target: string, given: Record<string, string> = {}): { uri: string; headers: Record<string, string> } {
  const parsed = parseImageUri(target);
  if (!parsed) return { uri: withoutCredentials(target), headers: given };
  const { url, userName, password } = splitCredentials(parsed);
  if (userName === undefined) return { uri: target, headers: given };
  const authorization = Object.keys(given).some((k) => k.toLowerCase() === 'authorization');
  return { uri: url.href, headers: authorization ? given : { ...given, authorization: basicAuthorization(userName, password ?? '') } };
}

/** A sink that keeps nothing: reading the image through proves it is there. */
function discard(): Writable {
  return new Writable({ write: (_chunk, _enc, cb) => cb() });
}

function reason(e: Error, abort: AbortController): string {
  if (abort.signal.aborted) return String((abort.signal.reason as Error)?.message ?? 'aborted');
  const cause = (e as Error & { cause?: Error }).cause;
  return cause?.message ?? e.message;
}
