// The Redfish client of the console: a session (its token kept in sessionStorage,
// so it ends with the tab), JSON reads and writes with X-Auth-Token, and the
// error messages of Redfish error bodies.

const TOKEN = 'bmc-console-token';
const SESSION = 'bmc-console-session';
const USER = 'bmc-console-user';

export type Json = Record<string, any>;

export const SYSTEM = '/redfish/v1/Systems/1/';
export const CHASSIS = '/redfish/v1/Chassis/1/';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Session {
  token: string;
  uri: string;
  user: string;
}

export function currentSession(): Session | undefined {
  const token = sessionStorage.getItem(TOKEN);
  const uri = sessionStorage.getItem(SESSION);
  return token && uri ? { token, uri, user: sessionStorage.getItem(USER) ?? '' } : undefined;
}

/** What a login leads to: the console, or first a new password for the account at `mustChange` (PasswordChangeRequired). */
export interface LoginResult extends Session {
  mustChange?: string;
}

export async function login(user: string, password: string): Promise<LoginResult> {
  const res = await fetch('/redfish/v1/SessionService/Sessions/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ UserName: user, Password: password }),
  });
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  const token = res.headers.get('X-Auth-Token');
  const uri = res.headers.get('Location');
  if (!token || !uri) throw new ApiError(res.status, 'the service answered without a session token');
  sessionStorage.setItem(TOKEN, token);
  sessionStorage.setItem(SESSION, new URL(uri, location.href).pathname);
  sessionStorage.setItem(USER, user);
  const body = (await res.json().catch(() => ({}))) as Json;
  const infos = (Array.isArray(body['@Message.ExtendedInfo']) ? body['@Message.ExtendedInfo'] : []) as Json[];
  const change = infos.find((i) => String(i.MessageId).endsWith('.PasswordChangeRequired'));
  const account = Array.isArray(change?.MessageArgs) ? change.MessageArgs[0] : undefined;
  return { token, uri, user, mustChange: typeof account === 'string' ? account : undefined };
}

/** End the session on the service (best effort) and forget it here. */
export async function logout(): Promise<void> {
  const s = currentSession();
  forget();
  if (s) await fetch(s.uri, { method: 'DELETE', headers: { 'X-Auth-Token': s.token } }).catch(() => undefined);
}

export function forget(): void {
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(SESSION);
  sessionStorage.removeItem(USER);
}

/** Called when the service no longer knows the session (401). */
let onExpired: () => void = () => undefined;
export function whenExpired(fn: () => void): void {
  onExpired = fn;
}

export function authHeaders(): Record<string, string> {
  const s = currentSession();
  return s ? { 'X-Auth-Token': s.token } : {};
}

async function call(method: string, uri: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(uri, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401) {
    forget();
    onExpired();
  }
  return res;
}

export async function get(uri: string): Promise<Json> {
  const res = await call('GET', uri);
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  return (await res.json()) as Json;
}

/** GET that answers undefined for a 404 (optional resources). */
export async function getOptional(uri: string): Promise<Json | undefined> {
  const res = await call('GET', uri);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  return (await res.json()) as Json;
}

/** A collection with its members read whole ($expand), or member by member where that is refused. */
export async function members(uri: string): Promise<Json[]> {
  const res = await call('GET', `${uri}?$expand=.`);
  if (res.ok) {
    const body = (await res.json()) as Json;
    const list = (body.Members ?? []) as Json[];
    if (list.every((m) => Object.keys(m).length > 1)) return list;
    return Promise.all(list.map((m) => get(String(m['@odata.id']))));
  }
  const body = await get(uri);
  return Promise.all(((body.Members ?? []) as Json[]).map((m) => get(String(m['@odata.id']))));
}

/** A write; answers the response body (if JSON) and Location. */
export async function send(
  method: 'POST' | 'PATCH' | 'DELETE',
  uri: string,
  body?: unknown,
): Promise<{ status: number; location?: string; body?: Json }> {
  const res = await call(method, uri, body);
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  const type = res.headers.get('Content-Type') ?? '';
  const json = type.includes('json') ? ((await res.json()) as Json) : undefined;
  return { status: res.status, location: res.headers.get('Location') ?? undefined, body: json };
}

/** The messages of a Redfish error body, or the status line. */
async function errorText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as Json;
    const infos = (body.error?.['@Message.ExtendedInfo'] ?? []) as Json[];
    const msgs = infos.map((i) => String(i.Message ?? i.MessageId)).filter(Boolean);
    if (msgs.length) return msgs.join(' ');
    if (body.error?.message) return String(body.error.message);
  } catch {
    // not JSON
  }
  return `${res.status} ${res.statusText}`;
}
