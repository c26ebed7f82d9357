// Ids of tasks, maintenance windows and install sets derive from their Names,
// so the same object created on several controllers has the same URI:
//  - a Name made only of URI-unreserved characters (A-Z a-z 0-9 . _ ~ -),
//    other than ".", ".." and the path words "Members" and "Actions", is its own Id;
//  - any other Name maps to itself with every other character replaced by
//    "_", followed by "-" and the first 8 hex digits of SHA-256(Name, UTF-8).
// The mapping is a pure function of the Name (docs/update-queue.md).
import { createHash } from 'node:crypto';

export const NAME_MAX_LENGTH = 64;
/** Printable text: no control characters. */
export const NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f]+$';

const UNRESERVED = /^[A-Za-z0-9._~-]+$/;
/** Path segments with a meaning of their own under a collection. */
const RESERVED = new Set(['.', '..', 'members', 'actions']);

export function idFromName(name: string): string {
  if (UNRESERVED.test(name) && !RESERVED.has(name.toLowerCase())) return name;
  const safe = name.replace(/[^A-Za-z0-9._~-]/g, '_');
  return `${safe}-${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 8)}`;
}
