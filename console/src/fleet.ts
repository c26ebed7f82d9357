// The fleet page (fleet mode with the scenario controls, for administrators):
// every controller this process serves with its power, health and firmware, a
// filter, pages of rows, and a link to each controller's own console. No event
// reports another controller's change, so the page polls while it is open.
import { getOptional, type Json } from './api.js';
import { fill, h, health, table, text, type Child } from './dom.js';
import { CHASSIS, SYSTEM, type View } from './views.js';

export const FLEET = '/control/fleet/';

/** Rows on one page: a fleet can hold a thousand controllers. */
const PAGE_ROWS = 200;
const HEALTHS = ['OK', 'Warning', 'Critical'] as const;

/** Whether this controller lists a fleet for this user (404: no fleet or no controls; 403: not an administrator). */
export async function fleetAvailable(): Promise<boolean> {
  // Asked once per login: the page starts again unfiltered.
  shown = undefined;
  try {
    return (await getOptional(FLEET)) !== undefined;
  } catch {
    return false;
  }
}

interface FleetPage {
  root: HTMLElement;
  update(body: Json): void;
}

/**
 * The page is built once and its data parts are redrawn on each poll, so the filter
 * keeps its focus, caret and open list while the rows change under it.
 */
function fleetPage(): FleetPage {
  let body: Json = {};
  let members: Json[] = [];
  let page = 0;
  const summary = h('p', { class: 'fleet-summary', id: 'fleet-summary' });
  const rows = h('div', { id: 'fleet-rows' });
  const search = h('input', {
    id: 'fleet-filter',
    type: 'search',
    placeholder: 'Address or hardware',
    autocomplete: 'off',
    oninput: () => {
      page = 0;
      draw();
    },
  });
  const healthFilter = h(
    'select',
    {
      id: 'fleet-health',
      oninput: () => {
        page = 0;
        draw();
      },
    },
    h('option', { value: '' }, 'Any health'),
    ...HEALTHS.map((v) => h('option', { value: v }, v)),
  );

  const matching = (): Json[] => {
    const q = search.value.trim().toLowerCase();
    const want = healthFilter.value;
    return members.filter(
      (m) =>
        (!want || m.Health === want) &&
        (!q || [`${text(m.Address)}:${text(m.Port)}`, text(m.Hardware)].some((s) => s.toLowerCase().includes(q))),
    );
  };

  const draw = (): void => {
    fill(summary, ...summaryOf(body, members));
    const matched = matching();
    const pages = Math.max(1, Math.ceil(matched.length / PAGE_ROWS));
    page = Math.min(page, pages - 1);
    const first = page * PAGE_ROWS;
    const shown = matched.slice(first, first + PAGE_ROWS);
    const of = matched.length < members.length ? `${matched.length} matching (${members.length} in all)` : String(members.length);
    const go = (to: number) => () => {
      page = to;
      draw();
    };
    fill(
      rows,
      h(
        'div',
        { class: 'pager' },
        h('span', { id: 'fleet-shown' }, shown.length ? `Showing ${first + 1}–${first + shown.length} of ${of}` : `Showing 0 of ${of}`),
        pages > 1 ? h('button', { id: 'fleet-prev', disabled: page === 0, onclick: go(page - 1) }, 'Previous') : null,
        pages > 1 ? h('button', { id: 'fleet-next', disabled: page === pages - 1, onclick: go(page + 1) }, 'Next') : null,
      ),
      table(
        shown,
        [
          ['Index', (m) => text(m.Index)],
          ['Address', (m) => `${text(m.Address)}:${text(m.Port)}`],
          ['Hardware', (m) => text(m.Hardware)],
          ['Power', (m) => h('span', { class: `power power-${text(m.PowerState).toLowerCase()}` }, text(m.PowerState))],
          ['Health', (m) => health(m.Health)],
          ['BMC firmware', (m) => text(m.FirmwareVersion)],
          ['Console', (m) => consoleLink(m)],
        ],
        members.length ? 'No controller matches the filter' : 'No controller in this fleet',
        (m) => ({ data: { index: text(m.Index) } }),
      ),
    );
  };

  const root = h('section', { class: 'card' }, h('h2', {}, 'Fleet'), summary, h('div', { class: 'filters' }, search, healthFilter), rows);
  return {
    root,
    update(next) {
      body = next;
      members = (Array.isArray(next.Members) ? next.Members : []) as Json[];
      draw();
    },
  };
}

/** Controllers, and how many are On/Off and OK/Warning/Critical. */
function summaryOf(body: Json, members: readonly Json[]): Child[] {
  const count = (field: string, value: string) => members.filter((m) => m[field] === value).length;
  const controllers = typeof body.Controllers === 'number' ? body.Controllers : members.length;
  const started = typeof body.Started === 'number' && body.Started < controllers ? `, ${body.Started} started` : '';
  const first = typeof body.FirstIndex === 'number' && body.FirstIndex > 0 ? ` from index ${body.FirstIndex}` : '';
  return [
    h('span', { id: 'fleet-controllers' }, `${controllers} controllers${first}${started}`),
    h(
      'span',
      {},
      'Power ',
      h('strong', { id: 'fleet-on' }, `${count('PowerState', 'On')} On`),
      ', ',
      h('strong', { id: 'fleet-off' }, `${count('PowerState', 'Off')} Off`),
    ),
    h(
      'span',
      {},
      'Health ',
      ...HEALTHS.map((v) =>
        h('span', { class: `badge health-${v.toLowerCase()}`, id: `fleet-${v.toLowerCase()}` }, `${count('Health', v)} ${v}`),
      ),
    ),
  ];
}

/** A link to the member's own console, in a new tab that cannot reach this one. */
function consoleLink(m: Json): Child {
  try {
    const url = new URL('/console/', String(m.ServiceRoot));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return h('a', { href: url.href, target: '_blank', rel: 'noopener', data: { open: text(m.Index) } }, 'open');
  } catch {
    return undefined;
  }
}

let shown: FleetPage | undefined;

export const fleet: View = {
  id: 'fleet',
  title: 'Fleet',
  // This controller's own changes come as events; the others' only by the poll.
  watch: [SYSTEM, CHASSIS],
  pollMs: 3_000,
  async render() {
    const body = await getOptional(FLEET);
    if (!body) return h('p', { class: 'empty' }, 'This controller is not part of a fleet.');
    shown ??= fleetPage();
    shown.update(body);
    return shown.root;
  },
};
