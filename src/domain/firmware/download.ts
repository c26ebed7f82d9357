// Outbound image downloads (SimpleUpdate, AddFromUri): HTTP or HTTPS, no
// redirects, streamed to disk, capped in size and in time (controller clock).
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { createHash } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { vendorError } from '../../messages/errors.js';
import { safeFilename } from './repository.js';
import type { Clock } from '../../platform/clock.js';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  clock: Clock;
  /** Extra trusted CAs (PEM file) for HTTPS image servers. */
  caFile?: string;
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
  private readonly agent: Agent;

  constructor(private readonly o: DownloadOptions) {
    const ca = o.caFile ? readFileSync(o.caFile, 'utf8') : undefined;
    // Extra CAs add to the system roots rather than replace them.
    this.agent = new Agent({ connect: ca ? { ca: [...rootCertificates, ca] } : {}, connections: 4 });
  }

  /** Fetch `uri` into `dest`; throws ImageDownloadFailed with the reason. */
  async fetch(uri: string, dest: string, maxBytes = this.o.maxBytes): Promise<Downloaded> {
    const abort = new AbortController();
    const timer = this.o.clock.setTimer(this.o.timeoutMs, () => abort.abort(new Error(`timed out after ${this.o.timeoutMs / 1000} s`)));
    const fail = (why: string) => vendorError(502, 'ImageDownloadFailed', uri, why);
    try {
      const res = await request(uri, { method: 'GET', dispatcher: this.agent, signal: abort.signal }).catch((e: Error) => {
        throw fail(reason(e, abort));
      });
      if (res.statusCode !== 200) {
        res.body.resume();
        throw fail(`the server answered HTTP ${res.statusCode}`);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.body.destroy();
        throw fail(`the image is ${declared} bytes; at most ${maxBytes} fit`);
      }
      let size = 0;
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (size > maxBytes) return cb(new Error(`the image exceeds ${maxBytes} bytes`));
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      try {
        await pipeline(res.body, counter, createWriteStream(dest, { mode: 0o600 }));
      } catch (e) {
        rmSync(dest, { force: true });
        throw fail(reason(e as Error, abort));
      }
      return { size, sha256: hash.digest() };
    } finally {
      timer.cancel();
    }
  }

  /** Abort downloads in flight (service shutdown). */
  close(): Promise<void> {
    return this.agent.destroy(new Error('the service is shutting down'));
  }
}

function reason(e: Error, abort: AbortController): string {
  if (abort.signal.aborted) return String((abort.signal.reason as Error)?.message ?? 'aborted');
  const cause = (e as Error & { cause?: Error }).cause;
  return cause?.message ?? e.message;
}
