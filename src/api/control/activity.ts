// The request inspector (--enable-control): GET /control/activity/ lists the last
// requests the controller answered, newest first ($top, $skip, and a $filter of
// Method, Status, User and Uri); /control/activity/{Id}/ is one whole, its bodies
// with secrets masked; /control/activity/stream/ (or Accept: text/event-stream on
// the list) streams each new one as a server-sent event.
import type { ServerResponse } from 'node:http';
import type { PrivilegeRule } from '../../lib/privileges.js';
import type { ActivityLog, ActivitySummary } from '../../domain/control/activity.js';
import { baseError } from '../../protocol/errors.js';
import { Reply, StreamReply } from '../../protocol/reply.js';
import { present, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const ACTIVITY_URI = '/control/activity/';

/** What an administrator holds and no other role does (as the rest of /control/). */
const ADMIN: PrivilegeRule = [['ConfigureManager', 'ConfigureUsers', 'ConfigureComponents']];

type Filter = (s: ActivitySummary) => boolean;

/**
 * The $filter the list takes: comparisons joined by `and`. Method, User and Uri with eq/ne,
 * Status with eq/ne/lt/le/gt/ge, and contains(Uri,'text'): `Method eq 'PATCH' and Status ge 400`.
 */
export function activityFilter(src: string): Filter {
  const terms = src.split(/\s+and\s+/i).map((term): Filter => {
    const contains = /^\s*contains\(\s*(Uri|User)\s*,\s*'((?:[^']|'')*)'\s*\)\s*$/i.exec(term);
    if (contains) {
      const key = contains[1]!.toLowerCase() === 'uri' ? 'Uri' : 'User';
      const text = contains[2]!.replace(/''/g, "'").toLowerCase();
      return (s) => s[key].toLowerCase().includes(text);
    }
    const m = /^\s*(Method|User|Uri|Status)\s+(eq|ne|lt|le|gt|ge)\s+(?:'((?:[^']|'')*)'|(\d+))\s*$/i.exec(term);
    if (!m) throw baseError('QueryParameterValueFormatError', src, '$filter');
    const key = (['Method', 'User', 'Uri', 'Status'] as const).find((k) => k.toLowerCase() === m[1]!.toLowerCase())!;
    const op = m[2]!.toLowerCase();
    if (key === 'Status') {
      if (m[4] === undefined) throw baseError('QueryParameterValueFormatError', src, '$filter');
      const n = Number(m[4]);
      const cmp: Record<string, (a: number) => boolean> = {
        eq: (a) => a === n,
        ne: (a) => a !== n,
        lt: (a) => a < n,
        le: (a) => a <= n,
        gt: (a) => a > n,
        ge: (a) => a >= n,
      };
      return (s) => cmp[op]!(s.Status);
    }
    if (m[3] === undefined || (op !== 'eq' && op !== 'ne')) throw baseError('QueryParameterValueFormatError', src, '$filter');
    const want = m[3].replace(/''/g, "'");
    // Methods are compared as HTTP compares them: case-sensitively, but clients write them in capitals.
    const same = key === 'Method' ? (a: string) => a.toUpperCase() === want.toUpperCase() : (a: string) => a === want;
    return op === 'eq' ? (s) => same(s[key]) : (s) => !same(s[key]);
  });
  return (s) => terms.every((t) => t(s));
}

function link(s: ActivitySummary): ActivitySummary & { '@odata.id': string } {
  return { '@odata.id': `${ACTIVITY_URI}${s.Id}`, ...s };
}

type ActivityDeps = Pick<Services, 'activity' | 'sessions'>;

function handlers(d: ActivityDeps & { activity: ActivityLog }) {
  const { activity, sessions } = d;
  return { list, one, stream };

  /** Newest first: a page of those the $filter keeps; with Accept: text/event-stream, the stream. */
  function list(ctx: Context<'/control/activity/'>) {
    if (/text\/event-stream/i.test(String(ctx.headers.accept ?? ''))) return stream(ctx);
    const { top, skip = 0, filter } = ctx.query;
    const all = filter === undefined ? activity.list() : activity.list().filter(activityFilter(filter));
    const page = all.slice(skip, top === undefined ? undefined : skip + top);
    const { entries, bodyBytes, totalBytes } = activity.limits;
    return new Reply(200, {
      Name: 'Request activity',
      Capacity: { Requests: entries, BodyBytes: bodyBytes, TotalBytes: totalBytes },
      'Members@odata.count': all.length,
      Members: page.map(link),
    });
  }

  function one(ctx: Context<'/control/activity/{ActivityId}/'>) {
    return new Reply(200, present(activity.get(ctx.params.ActivityId), ctx));
  }

  /**
   * A server-sent event stream of each request recorded from now on (after Last-Event-ID, if given).
   * One opened with a session ends with it (logout, timeout), as the event service's streams do.
   */
  function stream(ctx: Context<string>): StreamReply {
    const lastEventId = String(ctx.headers['last-event-id'] ?? '').trim();
    const session = ctx.principal.sessionId;
    return new StreamReply(
      200,
      { 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' },
      (res: ServerResponse) => {
        const send = (s: ActivitySummary) => {
          if (session !== undefined && !sessions.get(session)) res.end();
          else res.write(`id: ${s.Id}\ndata: ${JSON.stringify(link(s))}\n\n`);
        };
        res.write(': the requests this controller answers, as it answers them\n\n');
        if (/^\d+$/.test(lastEventId)) for (const s of activity.since(Number(lastEventId))) send(s);
        const stop = activity.watch({ record: send, end: () => res.end() });
        res.once('close', stop);
      },
    );
  }
}

/** Registered with the rest of the control API (--enable-control) only. */
export function registerActivityRoutes(routes: RouteTable, d: ActivityDeps): void {
  const activity = d.activity;
  if (!activity) return;
  const h = handlers({ ...d, activity });
  routes.add({ path: ACTIVITY_URI, outside: true, get: { privilege: ADMIN, filter: true, handler: h.list } });
  routes.add({ path: `${ACTIVITY_URI}stream/`, outside: true, get: { privilege: ADMIN, handler: h.stream } });
  routes.add({
    path: `${ACTIVITY_URI}{ActivityId}/`,
    outside: true,
    params: { ActivityId: (id) => activity.has(id) },
    get: { privilege: ADMIN, handler: h.one },
  });
}
