// Secrets in what the service shows of a request it received (the activity record):
// passwords, tokens, private keys, credentials in URIs. Written once here; whatever
// shows a client's body or headers back to anyone takes it through these.
import { withoutCredentials } from './uri-credentials.js';

export const MASK = '********';

/** Property and header names whose values are secrets (Password, OldPassword, ChapSecret, X-Auth-Token, HttpHeaders...). */
const SECRET_NAME = /pass(word|phrase)|secret|token|private.?key|credential|authorization|cookie|sessionkey|^httpheaders$/i;
/** A PEM private key, whole or cut off at the end. */
const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** A string without private keys or URI credentials. */
function maskString(s: string): string {
  const keyless = s.includes('PRIVATE KEY-----') ? s.replace(PRIVATE_KEY, MASK) : s;
  return keyless.includes('@') ? withoutCredentials(keyless) : keyless;
}

/** A JSON value with the strings under secret names masked, and every other string without keys or URI credentials. */
export function maskSecrets(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret ? MASK : maskString(value);
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, secret));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, secret || SECRET_NAME.test(k))]));
  }
  return value;
}

/**
 * A body as text: JSON is parsed and masked; text that is not JSON (cut off at a cap, or
 * malformed) has the string values of secret names masked where it reads `"Name": "value"`.
 * Answers the JSON value, or the masked text.
 */
export function maskBody(text: string): unknown {
  try {
    return maskSecrets(JSON.parse(text));
  } catch {
    return maskString(text).replace(/"([^"\\]*)"(\s*:\s*)"((?:[^"\\]|\\.)*)("?)/g, (all, name: string, colon: string, _v, end: string) =>
      SECRET_NAME.test(name) ? `"${name}"${colon}"${MASK}${end}` : all,
    );
  }
}

/** Headers with the values of credential headers (Authorization, X-Auth-Token, Cookie) masked. */
export function maskHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const text = Array.isArray(v) ? v.join(', ') : String(v);
    out[k] = SECRET_NAME.test(k) ? MASK : maskString(text);
  }
  return out;
}
