// The Activity view (the request inspector, /control/activity/): every request the
// controller answers, live from its event stream, filtered here; one request's
// headers and bodies (secrets masked by the service), and what it changed.
import { get, type Json } from './api.js';
import { asked, diff, type Change } from './diff.js';
import { fill, h, table, text } from './dom.js';
import { openEventStream } from './sse.js';
import type { View } from './views.js';

const ACTIVITY = '/control/activity/';
/** Rows kept here (the service keeps its own --activity-size). */
const KEEP = 500;
const WRITES = new Set(['PATCH', 'PUT']);

interface Summary {
  Id: string;
  Time: string;
  Method: string;
  Uri: string;
  User: string;
  Status: number;
  DurationMs: number;
}

let entries: Summary[] = [];
let stream: { stop(): void } | undefined;
let root: HTMLElement | undefined;
let rows: HTMLElement | undefined;
let detail: HTMLElement | undefined;
const filters = { method: '', status: '', user: '', uri: '' };

function matches(s: Summary): boolean {
  if (filters.method && s.Method !== filters.method) return false;
  if (filters.status && String(s.Status)[0] !== filters.status[0]) return false;
  if (filters.user && !s.User.toLowerCase().includes(filters.user.toLowerCase())) return false;
  return !filters.uri || s.Uri.toLowerCase().includes(filters.uri.toLowerCase());
}

function row(s: Summary): HTMLElement {
  const tr = h(
    'tr',
    { class: `status-${String(s.Status)[0]}xx`, data: { id: s.Id, method: s.Method, uri: s.Uri } },
    h('td', {}, s.Time),
    h('td', {}, s.Method),
    h('td', { class: 'uri' }, s.Uri),
    h('td', {}, s.User),
    h('td', { data: { status: String(s.Status) } }, String(s.Status)),
    h('td', {}, String(s.DurationMs)),
  );
  tr.addEventListener('click', () => void show(s.Id));
  return tr;
}

function redraw(): void {
  if (!rows) return;
  fill(rows, ...entries.filter(matches).map(row));
}

function add(s: Summary): void {
  if (entries.some((e) => e.Id === s.Id)) return;
  entries.unshift(s);
  if (entries.length > KEEP) entries.length = KEEP;
  if (rows && matches(s)) {
    rows.prepend(row(s));
    while (rows.childElementCount > KEEP) rows.lastElementChild?.remove();
  }
}

const samePath = (a: string, b: string) => a.split('?')[0]!.replace(/\/$/, '').toLowerCase() === b.replace(/\/$/, '').toLowerCase();
const isResource = (v: unknown): v is Json => typeof v === 'object' && v !== null && typeof (v as Json)['@odata.id'] === 'string';

/** A resource's body as a GET recorded here answered it (the inspector's record of that GET). */
async function recordedBody(id: string): Promise<unknown> {
  return ((await get(`${ACTIVITY}${id}/`)).Response as Json).Body;
}

/**
 * What a write changed: for a PATCH or PUT, the resource as the last GET before it saw it against
 * the resource after (the answer, a GET after it, or read now); for a create, what was sent
 * against what was made; else what the body asked for against the answer.
 */
async function changes(r: Json): Promise<{ title: string; rows: Change[] } | undefined> {
  const path = String(r.Uri).split('?')[0]!;
  const body = (r.Request as Json).Body;
  const answer = (r.Response as Json).Body;
  const ok = r.Status >= 200 && r.Status < 300;
  if (!ok || body === undefined) return undefined;
  if (r.Method === 'POST' && r.Status === 201 && isResource(answer)) return { title: 'Sent against created', rows: asked(body, answer) };
  if (!WRITES.has(String(r.Method))) return undefined;
  const id = Number(r.Id);
  const gets = entries.filter((e) => e.Method === 'GET' && e.Status === 200 && samePath(e.Uri, path));
  const before = gets.find((e) => Number(e.Id) < id);
  const later = [...gets].reverse().find((e) => Number(e.Id) > id);
  let after: unknown;
  let afterName: string;
  if (isResource(answer)) [after, afterName] = [answer, 'this answer'];
  else if (later) [after, afterName] = [await recordedBody(later.Id), `request ${later.Id}`];
  else [after, afterName] = [await get(path), 'read now'];
  if (!before) return { title: `Sent against the resource after (${afterName})`, rows: asked(body, after) };
  return { title: `The resource before (request ${before.Id}) and after (${afterName})`, rows: diff(await recordedBody(before.Id), after) };
}

function json(v: unknown): HTMLElement {
  return h('pre', { class: 'body' }, v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
}

function message(title: string, m: Json): HTMLElement {
  const headers = Object.entries((m.Headers ?? {}) as Record<string, string>);
  return h(
    'div',
    { class: 'message-part' },
    h('h3', {}, title),
    h(
      'details',
      {},
      h('summary', {}, `Headers (${headers.length})`),
      table(headers, [
        ['Header', ([k]) => k],
        ['Value', ([, v]) => v],
      ]),
    ),
    m.Streamed ? h('p', { class: 'empty' }, 'Streamed: not kept.') : json(m.Body),
    m.BodyTruncated ? h('p', { class: 'empty' }, 'Cut at the inspector’s byte cap.') : null,
  );
}

async function show(id: string): Promise<void> {
  if (!detail) return;
  for (const tr of rows?.querySelectorAll<HTMLElement>('tr') ?? []) tr.classList.toggle('selected', tr.dataset.id === id);
  fill(detail, h('p', { class: 'empty' }, 'Loading…'));
  try {
    const r = await get(`${ACTIVITY}${id}/`);
    const changed = await changes(r).catch((e: Error) => ({ title: `What changed: ${e.message}`, rows: [] as Change[] }));
    fill(
      detail,
      h('h2', { id: 'activity-detail-title' }, `${text(r.Method)} ${text(r.Uri)} → ${text(r.Status)}`),
      h('p', {}, `${text(r.User)} at ${text(r.Time)}, ${text(r.DurationMs)} ms (request ${text(r.Id)})`),
      changed
        ? h(
            'div',
            { id: 'activity-diff' },
            h('h3', {}, changed.title),
            table(
              changed.rows,
              [
                ['Property', (c) => c.path],
                ['Before', (c) => text(c.before)],
                ['After', (c) => text(c.after)],
              ],
              'Nothing changed',
              (c) => ({ class: `diff-${c.kind}`, data: { path: c.path, kind: c.kind } }),
            ),
          )
        : null,
      h('div', { class: 'exchange' }, message('Request', r.Request as Json), message('Response', r.Response as Json)),
    );
  } catch (e) {
    fill(detail, h('p', { class: 'error' }, (e as Error).message));
  }
}

function select(id: string, label: string, key: keyof typeof filters, options: readonly [string, string][]): HTMLSelectElement {
  const el = h('select', { id, title: label }, ...options.map(([value, name]) => h('option', { value }, name)));
  el.value = filters[key];
  el.addEventListener('change', () => {
    filters[key] = el.value;
    redraw();
  });
  return el;
}

function input(id: string, label: string, key: keyof typeof filters): HTMLInputElement {
  const el = h('input', { id, placeholder: label, autocomplete: 'off', value: filters[key] });
  el.addEventListener('input', () => {
    filters[key] = el.value;
    redraw();
  });
  return el;
}

function build(): HTMLElement {
  rows = h('tbody', { id: 'activity-rows' });
  detail = h('section', { class: 'card', id: 'activity-detail' }, h('p', { class: 'empty' }, 'Choose a request to see it whole.'));
  const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD'].map((m): [string, string] => [m, m]);
  return h(
    'div',
    { class: 'activity' },
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Requests'),
      h(
        'div',
        { class: 'inline filters' },
        select('activity-method', 'Method', 'method', [['', 'Any method'], ...methods]),
        select('activity-status', 'Status', 'status', [
          ['', 'Any status'],
          ['2xx', '2xx'],
          ['3xx', '3xx'],
          ['4xx', '4xx'],
          ['5xx', '5xx'],
        ]),
        input('activity-user', 'User', 'user'),
        input('activity-uri', 'URI contains', 'uri'),
      ),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { id: 'activity-table' },
          h('thead', {}, h('tr', {}, ...['Time', 'Method', 'URI', 'User', 'Status', 'ms'].map((t) => h('th', {}, t)))),
          rows,
        ),
      ),
    ),
    detail,
  );
}

export const activity: View = {
  id: 'activity',
  title: 'Activity',
  watch: [],
  async render(ctx) {
    if (root && stream) return root;
    root ??= build();
    const list = await get(`${ACTIVITY}?$top=${KEEP}`);
    entries = ((list.Members ?? []) as Summary[]).slice();
    redraw();
    stream?.stop();
    stream = openEventStream(
      {
        event: (e) => add(e as Summary),
        status: (live) => {
          if (!live) ctx.notify('The activity stream is reconnecting…', true);
        },
      },
      `${ACTIVITY}stream/`,
      entries[0]?.Id ?? '0',
    );
    return root;
  },
  leave() {
    stream?.stop();
    stream = undefined;
  },
};
