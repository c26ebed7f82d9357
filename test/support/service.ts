// Starts a real service over HTTPS for a test: temporary data dir, port 0,
// a ManualClock the test moves, and a small client that speaks to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { Agent, request } from 'undici';
import { startService, type RunningService } from '../../src/app.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { enableSelfChecks } from '../../src/lib/self-check.js';
import { ManualClock } from '../../src/platform/clock.js';

export const ADMIN_USER = 'Administrator';
export const ADMIN_PASSWORD = 'Test-Admin-Pass1';

/** TLS without verification: the service's certificate is self-signed. */
export const insecureAgent = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 1000 });

export type Auth = 'none' | 'basic' | 'session' | { user: string; password: string } | { token: string };

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed JSON tests); overrides body. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  auth?: Auth;
}

export interface Response {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

export interface TestService {
  url: string;
  port: number;
  clock: ManualClock;
  dataDir: string;
  running: RunningService;
  /** A session token of the administrator, made on first use. */
  adminToken(): Promise<string>;
  req(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** Close this client's kept-alive connections (each Basic one holds a session slot). */
  dropConnections(): Promise<void>;
  get(path: string, opts?: RequestOptions): Promise<Response>;
  login(user: string, password: string): Promise<string>;
  /** Stop and start again on the same data dir (a service restart). */
  restart(config?: Partial<Config>): Promise<TestService>;
  close(): Promise<void>;
}

export interface StartOptions {
  config?: Partial<Config>;
  clock?: ManualClock;
  dataDir?: string;
  /** Keep the data dir on close (default: removed). */
  keepData?: boolean;
  /** The data dir was made by a service this one restarts: removed on close like its own. */
  ownsDataDir?: boolean;
  /** The service's logger (default: silent, or TEST_LOG_LEVEL). */
  logger?: Logger;
}

// Every service a test starts checks its memoized representations and runs each sync-or-async path both ways (lib/self-check.ts).
enableSelfChecks();

export async function startTestService(opts: StartOptions = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'bmc-test-'));
  const clock = opts.clock ?? new ManualClock('2026-11-22T08:00:00Z');
  const config = defaultConfig({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'silent',
    scryptLogN: 10,
    // Tests that discover the service pass a port of their own.
    ssdpPort: 0,
    // A reset is back at once unless a test gives its reboot a length (and moves the clock through it).
    controllerRebootSeconds: 0,
    ...opts.config,
  });
  let running: RunningService;
  try {
    running = await startService(config, { clock, logger: opts.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
  } catch (e) {
    // A start that fails (a test of a refused configuration) leaves no data dir of its own behind.
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const url = running.url;
  let token: string | undefined;
  let agent = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 1000 });

  const req = async (method: string, path: string, o: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...o.headers };
    const auth = o.auth ?? 'session';
    if (auth === 'basic') headers.authorization = basic(ADMIN_USER, ADMIN_PASSWORD);
    else if (auth === 'session') headers['x-auth-token'] = await svc.adminToken();
    else if (typeof auth === 'object' && 'token' in auth) headers['x-auth-token'] = auth.token;
    else if (typeof auth === 'object') headers.authorization = basic(auth.user, auth.password);
    let body: string | Buffer | undefined = o.rawBody;
    if (body === undefined && o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(url + path, { method: method as 'GET', headers, body, dispatcher: agent });
    const buf = Buffer.from(await res.body.arrayBuffer());
    const text = buf.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    return { status: res.statusCode, headers: flat, text, body: parsed };
  };

  const svc: TestService = {
    url,
    port: running.port,
    clock,
    dataDir,
    running,
    adminToken: async () => (token ??= await svc.login(ADMIN_USER, ADMIN_PASSWORD)),
    req,
    get: (path, o) => req('GET', path, o),
    dropConnections: async () => {
      const old = agent;
      agent = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 1000 });
      await old.close();
    },
    login: async (user, password) => {
      const r = await req('POST', '/redfish/v1/SessionService/Sessions', { body: { UserName: user, Password: password }, auth: 'none' });
      if (r.status !== 201) throw new Error(`login of ${user} failed: ${r.status} ${r.text}`);
      return r.headers['x-auth-token'] as string;
    },
    restart: async (config) => {
      await agent.close();
      await running.close();
      // The restarted service removes the data dir on close when this one would have.
      return startTestService({
        ...opts,
        config: { ...opts.config, ...config },
        clock,
        dataDir,
        ownsDataDir: !opts.dataDir || opts.ownsDataDir,
      });
    },
    close: async () => {
      await agent.close();
      await running.close();
      if (!opts.keepData && (!opts.dataDir || opts.ownsDataDir)) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return svc;
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** The MessageIds of an error or success body. */
export function messageIds(body: any): string[] {
  return (body?.error?.['@Message.ExtendedInfo'] ?? body?.['@Message.ExtendedInfo'] ?? []).map((m: any) => m.MessageId);
}
