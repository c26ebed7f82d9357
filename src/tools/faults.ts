// `npm run cli -- faults add|list|show|delete ... --url ... --user ... --password ...`:
// the fault rules of a running service's control API (--enable-control).
import { DROP_POINTS, ETAG_STYLES, FAULT_STATUSES } from '../lib/fault-actions.js';
import { CONNECTION_USAGE, UsageError, apiTool, call, type Answer, type Connection } from './client.js';
import type { Tool } from './tool.js';

const RULES = '/control/faults/rules/';

const USAGE = `Usage: npm run cli -- faults <command> ${CONNECTION_USAGE}

Commands:
  add <method|*> <uri> <action> [Field=value...]
                    a rule: requests with this method to this URI (a path, or * and {name}
                    for any one segment) get the action, one of
                      Status=${FAULT_STATUSES.join('|')} [RetryAfter=<s>]   Delay=<ms>
                      Drop=${DROP_POINTS.join('|')}   Truncate=<bytes>   Patch=<JSON merge patch>
                      ETag=${ETAG_STYLES.join('|')}   RefuseIfMatch=true
                    fields: Count=<n> Every=<n> Probability=<0..1> Seed=<n>
                      Expires=<ISO 8601> User=<account> Controllers=All|<index,index...>
  list              the rules, with how often each has fired
  show <id>         one rule
  delete <id>       remove a rule

The connection may also come from BMC_URL, BMC_USER and BMC_PASSWORD.
`;

const ACTION_FIELDS = new Set(['Status', 'RetryAfter', 'Delay', 'Drop', 'Truncate', 'Patch', 'ETag', 'RefuseIfMatch']);
const NUMBERS = new Set(['Status', 'RetryAfter', 'Delay', 'Truncate', 'Count', 'Every', 'Probability', 'Seed']);

/** A rule's body from the command line: Action fields under Action, the others beside it. */
function ruleBody(method: string, uri: string, args: string[]): Record<string, unknown> {
  const action: Record<string, unknown> = {};
  const rule: Record<string, unknown> = {};
  const match: Record<string, unknown> = { Uri: uri, ...(method === '*' ? {} : { Method: method.toUpperCase() }) };
  for (const a of args) {
    const i = a.indexOf('=');
    if (i <= 0) throw new UsageError(`expected Field=value, got "${a}"`);
    const key = a.slice(0, i);
    const raw = a.slice(i + 1);
    const value = valueOf(key, raw);
    if (key === 'User') match.User = value;
    else if (ACTION_FIELDS.has(key)) action[key] = value;
    else rule[key] = value;
  }
  if (Object.keys(action).length === 0) throw new UsageError('an action is needed (Status=503, Delay=2000, Drop=MidBody...)');
  return { Match: match, Action: action, ...rule };
}

function valueOf(key: string, raw: string): unknown {
  if (NUMBERS.has(key)) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${key} is a number, got "${raw}"`);
    return n;
  }
  if (key === 'Patch') {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw new UsageError(`Patch is a JSON object, got "${raw}"`);
    }
  }
  if (key === 'RefuseIfMatch') return raw === 'true';
  if (key === 'Controllers') return raw === 'All' ? raw : raw.split(',').map(Number);
  return raw;
}

async function command(c: Connection, cmd: string, args: string[]): Promise<Answer> {
  const need = (n: number) => {
    if (args.length < n) throw new UsageError(`faults ${cmd} needs ${n} argument${n > 1 ? 's' : ''}`);
  };
  switch (cmd) {
    case 'add':
      need(3);
      return call(c, 'POST', RULES, ruleBody(args[0] as string, args[1] as string, args.slice(2)));
    case 'list':
      return call(c, 'GET', RULES);
    case 'show':
      need(1);
      return call(c, 'GET', `${RULES}${encodeURIComponent(args[0] as string)}/`);
    case 'delete':
      need(1);
      return call(c, 'DELETE', `${RULES}${encodeURIComponent(args[0] as string)}/`);
    default:
      throw new UsageError(`unknown faults command "${cmd}"`);
  }
}

export const faultsTool: Tool = apiTool(
  'faults',
  'fault rules of a running service: answers it gets wrong on purpose (control API)',
  USAGE,
  command,
);
