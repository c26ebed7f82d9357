// The fault rules of the control API as the pipeline carries them out: the phase that asks
// whether a rule fires for a request, what a fired rule answers instead (a status with its
// registry message, 412 for If-Match), how long it waits, and what it does to the answer
// (a merge patch on the body, the ETag spelled otherwise, and for the listener the bytes to
// cut: nothing sent, half the body, or the first N bytes). The rules themselves are kept
// and counted by domain/control/fault-rules.ts, handed in by the composition root.
import type { FaultAction, FiredFault } from '../lib/fault-actions.js';
import { unauthorized } from './auth.js';
import { baseError, retryLater, type RedfishError } from './errors.js';
import type { Outgoing } from './exchange.js';

/** What the pipeline asks of the fault rules. */
export interface FaultSource {
  /** Any rule exists: without one the phase costs a property read. */
  readonly armed: boolean;
  take(req: {
    method: string;
    path: string;
    user: string | undefined;
    sessionId: string | undefined;
    ifMatch: boolean;
  }): FiredFault | undefined;
  /** Wait this long on the controller clock. */
  delay(ms: number): Promise<void>;
}

const DEFAULT_RETRY_AFTER = 5;

/** The answer a Status or RefuseIfMatch rule gives instead of carrying the request out; undefined for the other actions. */
export function faultRefusal(a: FaultAction): RedfishError | undefined {
  if (a.RefuseIfMatch) return baseError('PreconditionFailed');
  const retry = a.RetryAfter ?? DEFAULT_RETRY_AFTER;
  switch (a.Status) {
    case undefined:
      return undefined;
    case 401:
      // The session was ended as an expired one is: the same answer as for any stale token.
      return unauthorized();
    case 503:
      return retryLater(retry);
    case 429:
      // Base has no message of its own for throttling: the one that says when to come back.
      return retryLater(retry).withStatus(429);
    case 500:
      return baseError('InternalError');
    case 502:
      return baseError('OperationFailed');
    case 504:
      return baseError('OperationTimeout');
  }
}

/** The answer as a fired rule leaves it: its body patched, its ETag respelled, or its bytes cut by the listener. */
export function faultedAnswer(f: FiredFault, out: Outgoing): Outgoing {
  const a = f.action;
  const headers = { ...out.headers };
  if (a.ETag !== undefined) {
    const etag = headers.ETag;
    if (etag !== undefined) headers.ETag = respell(etag, a.ETag, f.fired);
    return { ...out, headers };
  }
  if (a.Patch !== undefined) {
    const body = jsonOf(out.body);
    if (body === undefined) return out;
    delete headers['Content-Length'];
    return { ...out, headers, body: JSON.stringify(mergePatch(body, a.Patch)) };
  }
  if (a.Drop === 'BeforeBody') return { ...out, cut: { headers: false, bodyBytes: 0 } };
  const size = bodyLength(out.body);
  if (a.Drop === 'MidBody') return { ...out, cut: { headers: true, bodyBytes: Math.floor(size / 2) } };
  if (a.Truncate !== undefined) return { ...out, cut: { headers: true, bodyBytes: Math.min(a.Truncate, size) } };
  return out;
}

/** An ETag as a vendor might quote it; Changed: a new value at every firing. */
function respell(etag: string, style: NonNullable<FaultAction['ETag']>, fired: number): string {
  const bare = etag.replace(/^W\//, '').replace(/^"|"$/g, '');
  switch (style) {
    case 'Weak':
      return `W/"${bare}"`;
    case 'Strong':
      return `"${bare}"`;
    case 'Unquoted':
      return bare;
    case 'Changed':
      return `W/"${bare}-${fired}"`;
  }
}

function bodyLength(body: Outgoing['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  return Buffer.isBuffer(body) ? body.length : 0;
}

function jsonOf(body: Outgoing['body']): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  try {
    return JSON.parse(body.toString()) as unknown;
  } catch {
    return undefined;
  }
}

/** RFC 7396: null removes a member, an object merges, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
