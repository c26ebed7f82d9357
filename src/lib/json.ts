// JSON from clients: nesting depth is checked on the text before parsing, so a
// body of 100,000 brackets costs one linear scan instead of a deep recursion in
// every later walk (validation, merge, freeze, serialization).

/** Deepest nesting a request body may have: far beyond any Redfish payload. */
export const MAX_JSON_DEPTH = 32;

/** Nesting depth of JSON text, counting brackets outside strings; stops early once past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: 'syntax' | 'depth' };

/** Parse client JSON, refusing text nested deeper than maxDepth. */
export function parseClientJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonParse {
  if (jsonDepth(text, maxDepth) > maxDepth) return { ok: false, reason: 'depth' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'syntax' };
  }
}

/** Names that reach Object.prototype when used as a plain object's key ("constructor", "__proto__"...). */
export function isPrototypeKey(key: string): boolean {
  return key === '__proto__' || Object.hasOwn(Object.prototype, key);
}
