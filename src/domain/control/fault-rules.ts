// Fault rules of the control API (/control/faults/rules): the controller misbehaves
// at the protocol level the way real ones do (unavailable now and then, an answer cut off,
// an ETag quoted another way). A rule matches a method, a URI pattern and optionally a
// user, and fires by count, every Nth match, with a seeded probability, until it
// expires on the controller clock. Rules are stored, with their counters, so a restart
// keeps them. What an action does to an answer is the protocol layer's (protocol/faults.ts).
import { randomBytes } from 'node:crypto';
import { FAULT_STATUSES, endsSession, saysWhenToRetry, type FaultAction, type FiredFault } from '../../lib/fault-actions.js';
import { baseRefusal, refusals, type Refusal } from '../../messages/refusal.js';
import { isoNow, toIso, type Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../store/documents.js';

export interface FaultMatch {
  /** An HTTP method, or absent (or `*`) for any. */
  Method?: string;
  /** An exact path, or a pattern whose `*` or `{name}` segments stand for any one segment; trailing slash and case do not matter. */
  Uri: string;
  /** Only requests made as this account. */
  User?: string;
}

export interface FaultRuleInput {
  Match: FaultMatch;
  Action: FaultAction;
  /** Fire this many times, then stay listed as Spent. */
  Count?: number;
  /** Fire on every Nth matching request only. */
  Every?: number;
  /** Fire on a matching request with this probability (0..1), drawn from Seed. */
  Probability?: number;
  Seed?: number;
  /** Controller time after which the rule no longer fires. */
  Expires?: string;
  /** Fleet mode: the controllers the rule was made for ("All" or indexes), as asked. */
  Controllers?: unknown;
}

export interface FaultRuleRecord extends FaultRuleInput {
  Id: string;
  Created: string;
  /** Matching requests seen (the Every and Probability draws count them). */
  Matched: number;
  Fired: number;
  /** Set when the rule was made: the order rules are tried in. */
  Order: number;
}

export interface FaultRuleView extends FaultRuleRecord {
  State: 'Active' | 'Spent' | 'Expired';
}

/** A request as fault rules see it. */
export interface FaultCandidate {
  method: string;
  path: string;
  user: string | undefined;
  sessionId: string | undefined;
  ifMatch: boolean;
}

export interface FaultRuleDeps {
  store: DocumentStore;
  clock: Clock;
  /** A rule that answers as for an expired session ends the session the request used, as its expiry would. */
  endSession(sessionId: string): void;
  /** The service log and the IEL: who changed which rule. */
  record(by: string, what: string): void;
}

const ACTIONS = ['Status', 'Delay', 'Drop', 'Truncate', 'Patch', 'ETag', 'RefuseIfMatch'] as const;

export class FaultRules {
  private readonly rules;
  /** The compiled URI pattern of each rule, in the order rules are tried. */
  private compiled = new Map<string, RegExp>();
  private order = 0;

  constructor(private readonly d: FaultRuleDeps) {
    this.rules = d.store.collection<FaultRuleRecord>('control.faultRule');
    this.recompile();
  }

  /** Whether any rule exists: without one, requests are not looked at. */
  get armed(): boolean {
    return this.compiled.size > 0;
  }

  list(): FaultRuleView[] {
    return this.sorted().map((r) => this.view(r));
  }

  get(id: string): FaultRuleView | undefined {
    const r = this.rules.get(id);
    return r && this.view(r);
  }

  add(input: FaultRuleInput, by: string, id = this.newId()): FaultRuleView {
    checkRule(input);
    const rule: FaultRuleRecord = { ...input, Id: id, Created: isoNow(this.d.clock), Matched: 0, Fired: 0, Order: ++this.order };
    this.rules.put(id, rule);
    this.compiled.set(id, uriPattern(input.Match.Uri));
    this.d.record(by, `fault rule ${id} added: ${describe(input)}`);
    return this.view(rule);
  }

  delete(id: string, by: string): FaultRuleView | undefined {
    const r = this.get(id);
    if (!r) return undefined;
    this.rules.delete(id);
    this.compiled.delete(id);
    this.d.record(by, `fault rule ${id} deleted (fired ${r.Fired} times)`);
    return r;
  }

  /**
   * The first rule that fires for this request, counted; undefined when none does. A rule that
   * answers as for an expired session ends the request's session first: its token is gone too.
   */
  take(req: FaultCandidate): FiredFault | undefined {
    if (this.compiled.size !== this.rules.count()) this.recompile();
    const now = this.d.clock.now();
    for (const [id, pattern] of this.compiled) {
      const r = this.rules.peek(id);
      if (!r || !matches(r, pattern, req) || (r.Expires !== undefined && Date.parse(r.Expires) <= now)) continue;
      if (r.Count !== undefined && r.Fired >= r.Count) continue;
      const matched = r.Matched + 1;
      const fires =
        (r.Every === undefined || matched % r.Every === 0) && (r.Probability === undefined || draw(r.Seed ?? 0, matched) < r.Probability);
      this.rules.put(id, { ...r, Matched: matched, Fired: r.Fired + (fires ? 1 : 0) });
      if (!fires) continue;
      if (endsSession(r.Action) && req.sessionId !== undefined) this.d.endSession(req.sessionId);
      return { ruleId: id, action: r.Action, fired: r.Fired + 1 };
    }
    return undefined;
  }

  /** A Delay rule's wait, on the controller clock. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => this.d.clock.setTimer(ms, resolve));
  }

  private view(r: FaultRuleRecord): FaultRuleView {
    const expired = r.Expires !== undefined && Date.parse(r.Expires) <= this.d.clock.now();
    const spent = r.Count !== undefined && r.Fired >= r.Count;
    return { ...r, State: spent ? 'Spent' : expired ? 'Expired' : 'Active' };
  }

  private sorted(): FaultRuleRecord[] {
    return this.rules.list().sort((a, b) => a.Order - b.Order);
  }

  /** The patterns again from the store (at start, or after a rolled-back write changed what it holds). */
  private recompile(): void {
    const rules = this.sorted();
    this.compiled = new Map(rules.map((r) => [r.Id, uriPattern(r.Match.Uri)]));
    this.order = Math.max(this.order, ...rules.map((r) => r.Order));
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(3).toString('hex');
      if (!this.rules.has(id)) return id;
    }
  }
}

function matches(r: FaultRuleRecord, pattern: RegExp, req: FaultCandidate): boolean {
  const m = r.Match;
  if (m.Method !== undefined && m.Method !== '*' && m.Method.toUpperCase() !== req.method) return false;
  if (m.User !== undefined && m.User !== req.user) return false;
  if (r.Action.RefuseIfMatch && !req.ifMatch) return false;
  return pattern.test(req.path);
}

/** A URI pattern as a regular expression: `*` and `{name}` segments match any one segment. */
export function uriPattern(uri: string): RegExp {
  const path = uri.split('?', 1)[0]!.replace(/\/+$/, '');
  const segments = path.split('/').map((s) => (s === '*' || /^\{[^/{}]*\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
}

/**
 * The nth draw of a rule's seeded generator, in [0, 1): a counter-based hash (splitmix32's
 * finalizer), so the sequence is the same on every run and goes on where it was after a restart.
 */
export function draw(seed: number, n: number): number {
  let x = (seed ^ Math.imul(n, 0x9e3779b9)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  x ^= x >>> 15;
  return (x >>> 0) / 2 ** 32;
}

/** One action, with values that make sense; a pattern for what /control/ is not: rules never apply there. */
function checkRule(input: FaultRuleInput): void {
  const problems: Refusal[] = [];
  const set = ACTIONS.filter((k) => input.Action[k] !== undefined);
  if (set.length !== 1)
    problems.push(baseRefusal('PropertyValueConflict', 'Action', `exactly one of ${ACTIONS.join(', ')}`).about('Action'));
  const a = input.Action;
  if (a.Status !== undefined && !(FAULT_STATUSES as readonly number[]).includes(a.Status)) {
    problems.push(baseRefusal('PropertyValueNotInList', String(a.Status), 'Action/Status').about('Action/Status'));
  }
  if (a.RetryAfter !== undefined && !saysWhenToRetry(a)) {
    problems.push(baseRefusal('PropertyValueConflict', 'Action/RetryAfter', 'Action/Status').about('Action/RetryAfter'));
  }
  if (a.RefuseIfMatch === false)
    problems.push(baseRefusal('PropertyValueNotInList', 'false', 'Action/RefuseIfMatch').about('Action/RefuseIfMatch'));
  if (!input.Match.Uri.startsWith('/') || /^\/control(\/|$)/i.test(input.Match.Uri)) {
    problems.push(baseRefusal('PropertyValueFormatError', input.Match.Uri, 'Match/Uri').about('Match/Uri'));
  }
  if (input.Expires !== undefined && !Number.isFinite(Date.parse(input.Expires))) {
    problems.push(baseRefusal('PropertyValueFormatError', input.Expires, 'Expires').about('Expires'));
  }
  if (problems.length) throw refusals(problems);
}

function describe(r: FaultRuleInput): string {
  const [k] = ACTIONS.filter((x) => r.Action[x] !== undefined);
  const what = k === 'Patch' ? 'Patch' : `${k} ${JSON.stringify(k === undefined ? '' : r.Action[k])}`;
  const limits = [
    r.Count !== undefined ? `${r.Count} times` : '',
    r.Every !== undefined ? `every ${r.Every}` : '',
    r.Probability !== undefined ? `p=${r.Probability}` : '',
    r.Expires !== undefined ? `until ${toIso(Date.parse(r.Expires))}` : '',
  ].filter(Boolean);
  return `${r.Match.Method ?? '*'} ${r.Match.Uri}${r.Match.User ? ` as ${r.Match.User}` : ''}: ${what}${limits.length ? ` (${limits.join(', ')})` : ''}`;
}
