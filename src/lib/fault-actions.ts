// What a fault rule of the control API does to one answer, as the protocol layer
// carries it out (domain/control/fault-rules.ts decides when a rule fires). Plain
// data, shared by the layer that keeps the rules and the one that applies them.

export const DROP_POINTS = ['BeforeBody', 'MidBody'] as const;
export const ETAG_STYLES = ['Weak', 'Strong', 'Unquoted', 'Changed'] as const;
/** The statuses a rule may answer, each with its registry message (protocol/faults.ts). */
export const FAULT_STATUSES = [401, 429, 500, 502, 503, 504] as const;

export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** Exactly one of these is set. */
export interface FaultAction {
  /** Answer this status with its registry message instead of carrying the request out. */
  Status?: FaultStatus;
  /** Seconds in the Retry-After of a 503 or 429 (default 5). */
  RetryAfter?: number;
  /** Milliseconds (controller clock) before the request is carried out and answered. */
  Delay?: number;
  /** The request is carried out; its answer is lost: nothing, or the headers and half the body, then the connection ends. */
  Drop?: (typeof DROP_POINTS)[number];
  /** The answer's body cut after this many bytes, with the whole body's Content-Length; then the connection ends. */
  Truncate?: number;
  /** A JSON merge patch (RFC 7396) applied to the answer's JSON body. */
  Patch?: Record<string, unknown>;
  /** The answer's ETag spelled another way. */
  ETag?: (typeof ETAG_STYLES)[number];
  /** A request carrying If-Match (even `*`) is refused with 412. */
  RefuseIfMatch?: boolean;
}

/** A fired rule: its action, and how many times it has fired (a Changed ETag differs each time). */
export interface FiredFault {
  ruleId: string;
  action: FaultAction;
  fired: number;
}

/** A 401 rule answers as if the session had expired: the session it meets is ended first. */
export function endsSession(a: FaultAction): boolean {
  return a.Status === 401;
}

/** The statuses that tell a client when to come back (Retry-After). */
export function saysWhenToRetry(a: FaultAction): boolean {
  return a.Status === 503 || a.Status === 429;
}
