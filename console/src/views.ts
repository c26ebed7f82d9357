// The console's views: each reads what it shows through the Redfish API and
// builds its DOM (dom.ts, text only). `watch` names the URI prefixes whose events
// make the view read again.
import { CHASSIS, SYSTEM, get, getOptional, members, send, type Json } from './api.js';
import { biosEditor } from './bios-editor.js';
import { sensorCharts } from './charts.js';
import { bytes, h, health, pick, table, text, vendorPick, type Child } from './dom.js';
import { firmwareUpload } from './firmware-upload.js';

export { CHASSIS, SYSTEM } from './api.js';

export interface View {
  id: string;
  title: string;
  watch: readonly string[];
  /** Read again this often while the view is open, for what no event reports (other controllers). */
  pollMs?: number;
  render(ctx: ViewContext): Promise<Node>;
  /** The view is left (another tab, or the session ends): stop what it keeps running. */
  leave?(): void;
}

export interface ViewContext {
  /** Show the outcome of an action in the status line. */
  notify(message: string, error?: boolean): void;
  /** Read the active view (and the header) again. */
  refresh(): void;
}

/** Run a write, report it, and refresh. */
async function act(ctx: ViewContext, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
    ctx.notify(`${what}: done`);
  } catch (e) {
    ctx.notify(`${what}: ${(e as Error).message}`, true);
  }
  ctx.refresh();
}

function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', {}, title), ...children);
}

/** Label/value pairs. */
function facts(pairs: readonly [string, Child, string?][]): HTMLElement {
  return h('dl', { class: 'facts' }, ...pairs.map(([k, v, id]) => [h('dt', {}, k), h('dd', { id }, v instanceof Node ? v : text(v))]));
}

const RESET_TYPES = ['On', 'GracefulShutdown', 'ForceRestart'] as const;

const power: View = {
  id: 'power',
  title: 'Power & POST',
  watch: [SYSTEM, CHASSIS],
  async render(ctx) {
    const [sys, chassis] = await Promise.all([get(SYSTEM), get(CHASSIS)]);
    const reset = sys.Actions?.['#ComputerSystem.Reset']?.target as string | undefined;
    const buttons = RESET_TYPES.map((t) =>
      h(
        'button',
        {
          data: { reset: t },
          disabled: !reset,
          onclick: () => void act(ctx, `Reset ${t}`, () => send('POST', reset ?? '', { ResetType: t })),
        },
        t,
      ),
    );
    return h(
      'div',
      {},
      section(
        'Server',
        facts([
          ['Power', h('span', { class: `power power-${String(sys.PowerState).toLowerCase()}` }, text(sys.PowerState)), 'power-state'],
          ['POST', text(vendorPick(sys, 'PostState')), 'post-state'],
          ['Boot progress', text(pick(sys, 'BootProgress.LastState')), 'boot-progress'],
          ['Since', text(pick(sys, 'BootProgress.LastStateTime'))],
          ['System health', health(pick(sys, 'Status.Health'))],
          ['Chassis health', health(pick(chassis, 'Status.Health'))],
          ['Model', text(sys.Model)],
          ['Serial number', text(sys.SerialNumber)],
          ['BIOS version', text(sys.BiosVersion)],
        ]),
        h('div', { class: 'buttons' }, ...buttons),
      ),
    );
  },
};

const bios: View = {
  id: 'bios',
  title: 'BIOS',
  watch: [`${SYSTEM}Bios/`],
  async render(ctx) {
    const [current, pending] = await Promise.all([get(`${SYSTEM}Bios/`), get(`${SYSTEM}Bios/Settings/`)]);
    const cur = (current.Attributes ?? {}) as Json;
    const pen = (pending.Attributes ?? {}) as Json;
    const names = [...new Set([...Object.keys(cur), ...Object.keys(pen)])].sort();
    const differs = (n: string) => n in pen && JSON.stringify(pen[n]) !== JSON.stringify(cur[n]);
    const changed = names.filter(differs);
    const rows = [...changed, ...names.filter((n) => !differs(n))];

    const nameInput = h('input', { id: 'bios-name', name: 'attribute', placeholder: 'Attribute', autocomplete: 'off' });
    nameInput.setAttribute('list', 'bios-names');
    const valueInput = h('input', { id: 'bios-value', name: 'value', placeholder: 'Pending value', autocomplete: 'off' });
    const form = h(
      'form',
      {
        class: 'inline',
        id: 'bios-form',
        onsubmit: (e) => {
          e.preventDefault();
          const name = nameInput.value.trim();
          const raw = valueInput.value;
          // Numbers and booleans keep the type of the current value.
          const was = cur[name];
          const value = typeof was === 'number' ? Number(raw) : typeof was === 'boolean' ? raw === 'true' : raw;
          void act(ctx, `Set ${name}`, () => send('PATCH', `${SYSTEM}Bios/Settings/`, { Attributes: { [name]: value } }));
        },
      },
      nameInput,
      h('datalist', { id: 'bios-names' }, ...names.map((n) => h('option', { value: n }))),
      valueInput,
      h('button', { type: 'submit' }, 'Save as pending'),
    );

    const settings = (current['@Redfish.Settings'] ?? {}) as Json;
    const applied = (Array.isArray(settings.Messages) ? settings.Messages : []) as Json[];
    const editor = await biosEditor(current, pen, `${SYSTEM}Bios/Settings/`, (what, error) => {
      if (what) ctx.notify(error ? `${what}: ${error}` : what, error !== undefined);
      ctx.refresh();
    }).catch((e: Error) => h('p', { class: 'error', id: 'bios-editor-error' }, `The BIOS editor: ${e.message}`));
    return h(
      'div',
      {},
      editor,
      settings.Time || applied.length
        ? section(
            'Last applied',
            h('p', {}, `Pending settings were last applied at ${text(settings.Time)}.`),
            table(
              applied,
              [
                ['MessageId', (m) => text(m.MessageId)],
                ['Message', (m) => h('span', { class: 'message' }, text(m.Message))],
                ['Property', (m) => text(Array.isArray(m.RelatedProperties) ? m.RelatedProperties.join(', ') : undefined)],
              ],
              'No messages',
            ),
          )
        : null,
      section(
        'Pending vs current',
        h('p', {}, `${changed.length} pending change(s), applied at the next server reset.`),
        form,
        table(
          rows,
          [
            ['Attribute', (n) => n],
            ['Current', (n) => text(cur[n])],
            ['Pending', (n) => text(pen[n])],
          ],
          'No attributes',
          (n) => ({ class: differs(n) ? 'pending' : undefined, data: { attribute: n, pending: String(differs(n)) } }),
        ),
      ),
    );
  },
};

const secureBoot: View = {
  id: 'secureboot',
  title: 'Secure Boot',
  watch: [`${SYSTEM}SecureBoot/`],
  async render() {
    const sb = await get(`${SYSTEM}SecureBoot/`);
    const dbs = sb.SecureBootDatabases ? await members(String(sb.SecureBootDatabases['@odata.id'])) : [];
    const counts = await Promise.all(
      dbs.map(async (db) => {
        const certs = db.Certificates ? await getOptional(String(db.Certificates['@odata.id'])) : undefined;
        const sigs = db.Signatures ? await getOptional(String(db.Signatures['@odata.id'])) : undefined;
        return { db, certs: certs?.['Members@odata.count'], sigs: sigs?.['Members@odata.count'] };
      }),
    );
    return h(
      'div',
      {},
      section(
        'Secure Boot',
        facts([
          ['Enabled', text(sb.SecureBootEnable)],
          ['Current boot', text(sb.SecureBootCurrentBoot)],
          ['Mode', text(sb.SecureBootMode)],
        ]),
      ),
      section(
        'Databases',
        table(counts, [
          ['Id', (r) => text(r.db.Id)],
          ['Name', (r) => text(r.db.Name)],
          ['Certificates', (r) => text(r.certs)],
          ['Signatures', (r) => text(r.sigs)],
        ]),
      ),
    );
  },
};

const UPDATE = '/redfish/v1/UpdateService/';

const updates: View = {
  id: 'updates',
  title: 'Updates',
  watch: [UPDATE, '/redfish/v1/TaskService/'],
  async render() {
    const [queue, tasks, sets, windows, repo, components] = await Promise.all([
      get(`${UPDATE}UpdateTaskQueue/`),
      members(`${UPDATE}UpdateTaskQueue/`),
      members(`${UPDATE}InstallSets/`),
      members(`${UPDATE}MaintenanceWindows/`),
      get(`${UPDATE}ComponentRepository/`),
      members(`${UPDATE}ComponentRepository/`),
    ]);
    const q = vendorPick(queue, 'QueueStatus') as Json | undefined;
    const free = vendorPick(repo, 'FreeSizeBytes');
    const total = vendorPick(repo, 'TotalSizeBytes');
    const used = typeof free === 'number' && typeof total === 'number' && total > 0 ? (total - free) / total : 0;
    const bar = h('div', { class: 'bar' }, h('div', { class: 'bar-fill' }));
    (bar.firstChild as HTMLElement).style.width = `${Math.round(used * 100)}%`;
    return h(
      'div',
      {},
      firmwareUpload(),
      section(
        'Update task queue',
        facts([
          ['Queue', text(q?.State), 'queue-state'],
          ['Reason', text(q?.Reason)],
          ['Message', text(q?.Message)],
        ]),
        table(tasks, [
          ['Id', (t) => text(t.Id)],
          ['Name', (t) => text(t.Name)],
          ['Command', (t) => text(t.Command)],
          ['Component', (t) => text(t.Component)],
          ['State', (t) => h('span', { class: `state state-${String(t.State).toLowerCase()}` }, text(t.State))],
          ['Start after', (t) => text(t.StartAfter)],
          ['Window', (t) => text(t.MaintenanceWindow)],
          ['Ended', (t) => text(t.EndTime)],
        ]),
      ),
      section(
        'Install sets',
        table(sets, [
          ['Id', (s) => text(s.Id)],
          ['Name', (s) => text(s.Name)],
          ['Recovery', (s) => text(s.IsRecovery)],
          ['Steps', (s) => text(Array.isArray(s.Sequence) ? s.Sequence.length : undefined)],
        ]),
      ),
      section(
        'Maintenance windows',
        table(windows, [
          ['Id', (w) => text(w.Id)],
          ['Name', (w) => text(w.Name)],
          ['Start after', (w) => text(w.StartAfter)],
          ['Expire', (w) => text(w.Expire)],
        ]),
      ),
      section(
        'Component repository',
        h('p', {}, `${bytes(free)} free of ${bytes(total)}`),
        bar,
        table(components, [
          ['Filename', (c) => text(c.Filename)],
          ['Name', (c) => text(c.Name)],
          ['Version', (c) => text(c.Version)],
          ['Size', (c) => bytes(c.SizeBytes)],
          ['Locked', (c) => text(c.Locked)],
        ]),
      ),
    );
  },
};

const subscriptions: View = {
  id: 'events',
  title: 'Subscriptions',
  watch: ['/redfish/v1/EventService/'],
  async render() {
    const subs = await members('/redfish/v1/EventService/Subscriptions/');
    return section(
      'Event subscriptions',
      table(subs, [
        ['Id', (s) => text(s.Id)],
        ['Destination', (s) => text(s.Destination)],
        ['Protocol', (s) => text(s.Protocol)],
        ['Context', (s) => text(s.Context)],
        ['State', (s) => text(pick(s, 'Status.State'))],
        ['Health', (s) => health(pick(s, 'Status.Health'))],
        ['Delivery', (s) => deliveryOf(s)],
      ]),
    );
  },
};

/** The vendor's delivery fields of a subscription, whatever they are. */
function deliveryOf(s: Json): string {
  const vendor = (vendorPick(s) ?? {}) as Json;
  const parts = Object.entries(vendor)
    .filter(([k, v]) => !k.startsWith('@') && (typeof v !== 'object' || v === null))
    .map(([k, v]) => `${k}: ${text(v)}`);
  return parts.length ? parts.join(', ') : '—';
}

const LOGS = [
  ['Integrated event log (IEL)', '/redfish/v1/Managers/1/LogServices/IEL/Entries/'],
  ['Integrated management log (IML)', `${SYSTEM}LogServices/IML/Entries/`],
] as const;

const logs: View = {
  id: 'logs',
  title: 'Logs',
  watch: ['/redfish/v1/Managers/1/LogServices/', `${SYSTEM}LogServices/`],
  async render() {
    const lists = await Promise.all(LOGS.map(([, uri]) => members(uri)));
    return h(
      'div',
      {},
      ...LOGS.map(([title], i) => {
        const entries = [...(lists[i] ?? [])].reverse().slice(0, 200);
        return section(
          title,
          table(entries, [
            ['Created', (e) => text(e.Created)],
            ['Severity', (e) => h('span', { class: `sev sev-${String(e.Severity).toLowerCase()}` }, text(e.Severity))],
            ['Message', (e) => h('span', { class: 'message' }, text(e.Message))],
            ['MessageId', (e) => text(e.MessageId)],
          ]),
        );
      }),
    );
  },
};

/** Links shown in views of their own, or not inventory. */
const NOT_INVENTORY = new Set(['Bios', 'SecureBoot', 'LogServices', 'BootOptions', 'Links', 'Actions', 'Oem', 'Certificates']);
/** Scalars worth a column when a resource has them. */
const KEY_FIELDS = [
  'Model',
  'Manufacturer',
  'PartNumber',
  'SerialNumber',
  'CapacityGiB',
  'CapacityMiB',
  'CapacityBytes',
  'TotalCores',
  'MaxSpeedMHz',
  'MemoryDeviceType',
  'MediaType',
  'MACAddress',
  'SpeedMbps',
  'FirmwareVersion',
  'Reading',
  'ReadingCelsius',
  'ReadingUnits',
  'PowerCapacityWatts',
  'LastPowerOutputWatts',
  'PowerConsumedWatts',
];

const inventory: View = {
  id: 'inventory',
  title: 'Inventory',
  watch: [SYSTEM, CHASSIS],
  async render() {
    const roots = await Promise.all([get(SYSTEM), get(CHASSIS)]);
    const groups: Node[] = [];
    for (const root of roots) {
      const links = Object.entries(root).filter(
        ([k, v]) => !NOT_INVENTORY.has(k) && v && typeof v === 'object' && !Array.isArray(v) && typeof v['@odata.id'] === 'string',
      );
      const cards = await Promise.all(links.map(([k, v]) => inventoryGroup(k, String((v as Json)['@odata.id']))));
      groups.push(section(`${text(root.Name)}`, h('p', {}, 'Health: ', health(pick(root, 'Status.Health'))), ...cards));
    }
    return h('div', {}, ...groups);
  },
};

/** One linked resource: a collection's members as a table, or one resource with its reading arrays. */
async function inventoryGroup(title: string, uri: string): Promise<Node> {
  try {
    const res = await get(uri);
    if (Array.isArray(res.Members)) {
      const list = await members(uri);
      return h('div', { class: 'group', data: { inventory: title } }, h('h3', {}, title), resourceTable(list));
    }
    const arrays = Object.entries(res).filter(
      ([, v]) => Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object' && ('Name' in x || 'MemberId' in x)),
    );
    return h(
      'div',
      { class: 'group', data: { inventory: title } },
      h('h3', {}, title, ' ', health(pick(res, 'Status.Health'))),
      arrays.length
        ? arrays.map(([k, v]) => [h('h4', {}, k), resourceTable(v as Json[])])
        : facts(scalars(res).map(([k, v]) => [k, text(v)])),
    );
  } catch (e) {
    return h('div', { class: 'group' }, h('h3', {}, title), h('p', { class: 'error' }, (e as Error).message));
  }
}

function scalars(res: Json): [string, unknown][] {
  return Object.entries(res).filter(([k, v]) => !k.startsWith('@') && (v === null || typeof v !== 'object') && k !== 'Description');
}

/** Where a part sits: a processor's Socket, or the service label of its location (a slot, a bay). */
function placeOf(r: Json): unknown {
  return r.Socket ?? pick(r, 'Location.PartLocation.ServiceLabel');
}

function resourceTable(list: readonly Json[]): HTMLElement {
  const keys = KEY_FIELDS.filter((k) => list.some((r) => r[k] !== undefined && r[k] !== null)).slice(0, 5);
  const placed = list.some((r) => placeOf(r) !== undefined);
  return table(list, [
    ...(placed
      ? [
          ['Socket / slot', (r: Json) => h('span', { class: 'place', data: { place: text(placeOf(r)) } }, text(placeOf(r)))] as [
            string,
            (r: Json) => Child,
          ],
        ]
      : []),
    ['Name', (r) => text(r.Name ?? r.Id ?? r.MemberId)],
    ['State', (r) => text(pick(r, 'Status.State'))],
    ['Health', (r) => health(pick(r, 'Status.Health'))],
    ...keys.map((k): [string, (r: Json) => Child] => [k, (r) => text(r[k])]),
  ]);
}

export const VIEWS: readonly View[] = [power, sensorCharts, bios, secureBoot, updates, subscriptions, logs, inventory];
