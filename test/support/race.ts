// Conflicting requests in parallel, in a seeded order: the concurrency suite
// (test/concurrency/) fires them with fire() inside rounds(), which fast-check
// runs RACE_RUNS times from RACE_SEED. Each round's scheduler releases the
// requests' starts one by one in an order drawn from the seed, so a failure is
// replayed by the same seed (fast-check reports it, with the order it used).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { messageIds, type Response, type TestService } from './service.js';

export const RACE_SEED = Number(process.env.RACE_SEED ?? 20261124);
export const RACE_RUNS = Number(process.env.RACE_RUNS ?? 8);

export type Send = () => Promise<Response>;
export type Fire = (sends: readonly Send[]) => Promise<Response[]>;

/**
 * Start every request in the scheduler's order, then wait for every answer; none may be a 5xx.
 * Connections are opened first, one per request: a request that had to wait for a TLS handshake
 * would arrive after the others were done, and race nothing.
 */
async function fire(svc: TestService, s: fc.Scheduler, sends: readonly Send[]): Promise<Response[]> {
  await Promise.all(sends.map(() => svc.req('GET', '/redfish/v1/', { auth: 'none' })));
  const started = sends.map((send, i) => s.schedule(Promise.resolve(), `request ${i}`).then(send));
  await s.waitAll();
  const answers = await Promise.all(started);
  for (const r of answers) assert.ok(r.status < 500 || refusedAtLimit(r), `no 5xx: ${r.status} ${r.text}`);
  return answers;
}

/**
 * Run `round` RACE_RUNS times with a value drawn from `arb` (which requests, which targets), a
 * round number (for names no earlier round used) and `fire`. Rounds share one service: each leaves
 * it as the next one expects. No shrinking: every step is real requests against changed state.
 */
export async function rounds<T>(
  svc: TestService,
  arb: fc.Arbitrary<T>,
  round: (drawn: T, fire: Fire, n: number) => Promise<void>,
  runs = RACE_RUNS,
): Promise<void> {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), arb, async (s, drawn) => {
      await round(drawn, (sends) => fire(svc, s, sends), n++);
    }),
    { seed: RACE_SEED, numRuns: runs, endOnFailure: true, includeErrorInReport: true },
  );
}

/**
 * The 5xx answers that are refusals, not failures: 503 for the session limit (SessionLimitExceeded)
 * and for a busy update service (one upload or update at a time, UpdateServiceBusy).
 */
const REFUSALS_503 = new Set(['Base.1.12.SessionLimitExceeded', 'Vendor.1.0.UpdateServiceBusy']);
function refusedAtLimit(r: Response): boolean {
  return r.status === 503 && REFUSALS_503.has(r.body?.error?.['@Message.ExtendedInfo']?.[0]?.MessageId);
}

/** The statuses of answers, for messages. */
export function statuses(answers: readonly Response[]): string {
  return answers.map((r) => r.status).join(' ');
}

export const ok = (r: Response): boolean => r.status >= 200 && r.status < 300;

/** A refused write names one of the messages expected of its refusal. */
export function refusedAs(r: Response, ids: readonly string[]): void {
  assert.ok(
    messageIds(r.body).some((m) => ids.includes(m)),
    `${r.status} ${r.text}`,
  );
}
