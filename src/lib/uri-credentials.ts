// Credentials in a URI a client gives (https://user:secret@host/image.bin):
// used for the one download they came with, then gone. Whatever keeps, logs or
// quotes such a URI (a task's payload, a message, an error) takes it from
// withoutCredentials(); whatever downloads it takes them from splitCredentials().

/** Text that may hold a user:password@ after a scheme, where no URL parser agrees there is one. */
const LOOKS_LIKE_USERINFO = /([a-z][a-z0-9+.-]*:[\\/]*)\S*@/gi;

/**
 * The text with any credentials of the URI in it removed: a URL the parser reads is shown as it
 * reads it, without user and password; anything else loses everything from its scheme's `://` to
 * the last `@` of the word (more than the credentials, never less).
 */
export function withoutCredentials(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    return text.replace(LOOKS_LIKE_USERINFO, '$1');
  }
  if (!url.username && !url.password) return text;
  url.username = '';
  url.password = '';
  return url.href;
}

/** Every string in a JSON value (a request body kept as a record) without credentials. */
export function jsonWithoutCredentials(value: unknown): unknown {
  if (typeof value === 'string') return withoutCredentials(value);
  if (Array.isArray(value)) return value.map(jsonWithoutCredentials);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonWithoutCredentials(v)]));
  }
  return value;
}

export interface SplitUrl {
  /** The URL without user and password. */
  url: URL;
  userName?: string;
  password?: string;
}

/** A URL's user name and password (decoded), and the URL without them. */
export function splitCredentials(url: URL): SplitUrl {
  if (!url.username && !url.password) return { url };
  const clean = new URL(url.href);
  clean.username = '';
  clean.password = '';
  return { url: clean, userName: safeDecode(url.username), password: safeDecode(url.password) };
}

/** The Authorization header of HTTP Basic for a user name and password. */
export function basicAuthorization(userName: string, password: string): string {
  return `Basic ${Buffer.from(`${userName}:${password}`).toString('base64')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
