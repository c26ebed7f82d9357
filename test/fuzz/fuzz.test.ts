// Property-based fuzzing of the whole API over real HTTPS: hostile bodies for
// every write and action in the route table, broken JSON, junk multipart on the
// upload URI, hostile query options and odd paths. For every answer: no 5xx
// (501 only where DSP0266 asks for it), every error a Redfish error object whose
// MessageIds come from a registry the service serves, no error logged, and the
// service still answering at the end.
//
// `npm test` runs a bounded, seeded default (FUZZ_RUNS=800 per property, about 4,200 cases);
// `npm run fuzz` runs 100,000+ cases. FUZZ_SEED picks another seed.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import pino from 'pino';
import { Pool } from 'undici';
import { ADMIN_PASSWORD, ADMIN_USER, basic, startTestService, type TestService } from '../support/service.js';
import { brokenJsonText, contentType, hostileBody, hostileQuery, junkMultipart, oddPath } from './arbitraries.js';
import { findTargets, servedMessages, type Target } from './targets.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const AUTH = basic(ADMIN_USER, ADMIN_PASSWORD);
const UPLOAD = '/redfish/v1/UpdateService/upload/';
/** Statuses DSP0266 itself asks for: 501 for unknown $ options and methods. */
const ALLOWED_5XX = new Set([501]);
/** Say what failed, and keep shrinking short: each step is a request. */
const OPTIONS = { includeErrorInReport: true, maxSkipsPerRun: 100, endOnFailure: false } as const;

interface Answer {
  status: number;
  text: string;
}

describe('fuzz', { timeout: 3_600_000 }, () => {
  let svc: TestService;
  let pool: Pool;
  let targets: Target[];
  let readable: string[];
  let messages: Set<string>;
  const logged: string[] = [];
  let cases = 0;

  before(async () => {
    // Every line at error level or above is a finding: client input must never log one.
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString('utf8').split('\n')) if (line && JSON.parse(line).level >= 50) logged.push(line.slice(0, 2000));
        cb();
      },
    });
    // The control API too: bad input to it must never be a 500 either.
    svc = await startTestService({ config: { enableControl: true }, logger: pino({ level: 'error' }, sink) });
    pool = new Pool(svc.url, { connect: { rejectUnauthorized: false }, connections: 4, headersTimeout: 15_000, bodyTimeout: 15_000 });
    // Members to write to, besides the ones a fresh service has.
    await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      body: { Destination: 'https://127.0.0.1:9/events', Protocol: 'Redfish' },
      auth: 'basic',
    });
    await svc.req('POST', '/redfish/v1/UpdateService/MaintenanceWindows/', {
      body: { Name: 'fuzz-window', StartAfter: '2026-11-22T09:00:00Z', Expire: '2026-11-23T09:00:00Z' },
      auth: 'basic',
    });
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'fuzz-target', Password: 'fuzz-password-1', RoleId: 'Operator' },
      auth: 'basic',
    });
    const routes = svc.running.services.routes;
    ({ targets, readable } = await findTargets(svc, routes));
    messages = await servedMessages(svc);
    const declared = routes.routes().reduce((n, r) => n + (r.post || r.patch || r.put ? 1 : 0) + (r.actions?.length ?? 0), 0);
    const covered = new Set(targets.map((t) => routes.match(t.uri)?.action ?? routes.match(t.uri)?.route));
    // Spared: the action that takes the controller off the network (nothing would answer the rest).
    const spared = routes
      .routes()
      .reduce((n, r) => n + (r.actions ?? []).filter((a) => a.def.name.endsWith('.DisableiLOFunctionality')).length, 0);
    assert.ok(covered.size >= declared - spared, `every declared write and action is a target: ${covered.size} of ${declared - spared}`);
  });

  after(async () => {
    process.stdout.write(`# fuzz: ${cases} cases, ${targets.length} write targets, seed ${SEED}\n`);
    await pool.close();
    await svc.close();
  });

  async function send(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
    cases++;
    // A logged error belongs to the case that caused it (and to the shrinker's smaller cases).
    logged.length = 0;
    const r = await pool.request({ method, path, headers: { authorization: AUTH, ...headers }, body });
    const answer = { status: r.statusCode, text: await r.body.text() };
    await undoControl();
    return answer;
  }

  /**
   * A case that made a fault rule or reset the controller (the control API takes valid bodies too)
   * must not decide the answers of the next ones: the rule goes, and the clock moves the
   * controller through its reboot (at most an hour away, then an hour booting). A valid host
   * body may also have switched the controller's functionality off: the host switches it on.
   */
  async function undoControl(): Promise<void> {
    const s = svc.running.services;
    for (const r of s.faultRules?.list() ?? []) s.faultRules?.delete(r.Id, 'fuzz');
    if (!s.managerFeatures.functionality.enabled()) s.managerFeatures.functionality.set(true);
    if (s.controller.phase() !== 'Up') await svc.clock.advance(2 * 3_600_000);
  }

  /** The checks every answer must pass. Returns a reason when one fails. */
  function problem(a: Answer, method: string): string | undefined {
    if (a.status >= 500 && !ALLOWED_5XX.has(a.status)) return `status ${a.status}: ${a.text.slice(0, 300)}`;
    if (a.status < 400 || method === 'HEAD') return undefined;
    let body: any;
    try {
      body = JSON.parse(a.text);
    } catch {
      return `status ${a.status} without a JSON body: ${a.text.slice(0, 100)}`;
    }
    const e = body?.error;
    const infos = e?.['@Message.ExtendedInfo'];
    if (typeof e?.code !== 'string' || typeof e?.message !== 'string' || !Array.isArray(infos) || infos.length === 0) {
      return `status ${a.status}: not a Redfish error object: ${a.text.slice(0, 300)}`;
    }
    for (const info of infos) {
      const m = /^([A-Za-z]+)\.\d+\.\d+\.([A-Za-z0-9]+)$/.exec(String(info?.MessageId));
      if (!m || !messages.has(`${m[1]}.${m[2]}`)) return `MessageId ${info?.MessageId} is not in a served registry`;
    }
    return undefined;
  }

  beforeEach(() => {
    logged.length = 0;
  });

  const check = (a: Answer, method: string, what: string) => {
    const p = problem(a, method);
    assert.equal(p, undefined, `${what}: ${p}`);
    assert.deepEqual(logged, [], `${what}: an error was logged`);
  };

  it('answers hostile bodies on every write and action with a Redfish error, never a 5xx', async () => {
    const arb = fc.constantFrom(...targets).chain((t) => fc.tuple(fc.constant(t), hostileBody(t.names)));
    await fc.assert(
      fc.asyncProperty(arb, async ([t, body]) => {
        const text = JSON.stringify(body) ?? 'null';
        check(
          await send(t.method, t.uri, { 'content-type': 'application/json' }, text),
          t.method,
          `${t.method} ${t.uri} ${text.slice(0, 300)}`,
        );
      }),
      { ...OPTIONS, numRuns: RUNS * 2, seed: SEED },
    );
  });

  it('answers broken JSON text and odd media types with a Redfish error', async () => {
    const arb = fc.tuple(fc.constantFrom(...targets), brokenJsonText, contentType);
    await fc.assert(
      fc.asyncProperty(arb, async ([t, text, type]) => {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        check(await send(t.method, t.uri, headers, text), t.method, `${t.method} ${t.uri} [${type}] ${String(text).slice(0, 200)}`);
      }),
      { ...OPTIONS, numRuns: RUNS, seed: SEED + 1 },
    );
  });

  it('answers junk multipart on the upload URI with a Redfish error, with and without credentials', async () => {
    const arb = fc.tuple(junkMultipart, fc.boolean(), fc.constantFrom('sessionKey=abc', 'sessionKey=%E0%A4%A', 'sessionKey=', ''));
    await fc.assert(
      fc.asyncProperty(arb, async ([{ boundary, body }, withAuth, cookie]) => {
        const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
        if (cookie) headers.cookie = cookie;
        cases++;
        logged.length = 0;
        const r = await pool.request({
          method: 'POST',
          path: UPLOAD,
          headers: withAuth ? { authorization: AUTH, ...headers } : headers,
          body,
        });
        const a = { status: r.statusCode, text: await r.body.text() };
        check(a, 'POST', `upload ${JSON.stringify(body.toString('latin1').slice(0, 300))}`);
      }),
      { ...OPTIONS, numRuns: Math.ceil(RUNS / 2), seed: SEED + 2 },
    );
  });

  it('answers hostile query options and odd paths with a Redfish error', async () => {
    const arb = fc.tuple(
      fc.constantFrom('GET', 'HEAD', 'GET', 'DELETE', 'PATCH', 'POST'),
      oddPath(readable),
      fc.option(hostileQuery, { nil: undefined }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([method, path, query]) => {
        // Writes only to paths no route serves: the point here is the path, not a body.
        if (method !== 'GET' && method !== 'HEAD' && svc.running.services.routes.match(path.split('?')[0] as string)) return;
        const url = query ? `${path}?${query}` : path;
        let a: Answer;
        try {
          a = await send(method, url, {});
        } catch (e) {
          // A path the HTTP client itself refuses to send (invalid characters) is not the service's answer.
          if (e instanceof Error && /invalid|unescaped/i.test(e.message)) return;
          throw e;
        }
        check(a, method, `${method} ${url.slice(0, 300)}`);
      }),
      { ...OPTIONS, numRuns: RUNS * 2, seed: SEED + 3 },
    );
  });

  it('still answers, and still knows its administrator, after all of it', async () => {
    const root = await send('GET', '/redfish/v1/', {});
    assert.equal(root.status, 200);
    const systems = await send('GET', '/redfish/v1/Systems/', {});
    assert.equal(systems.status, 200);
    assert.deepEqual(logged, []);
  });
});
