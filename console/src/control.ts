// The scenario controls (/control/, when the service runs with them enabled and
// the user may use them): clock, power events, faults and sensor readings.
import { getOptional, send, type Json } from './api.js';
import { h, table, text } from './dom.js';
import type { View } from './views.js';

export const CONTROL = '/control/';

const POWER_EVENTS = ['PullPower', 'RestorePower', 'StallPost', 'ResumePost', 'OsCrash'];
const FAULTS = ['FlashFailure', 'ImageCorruption', 'DownloadFailure', 'FanFailure', 'PsuFailure', 'DriveFailure', 'ListenerUnreachable'];
const ADVANCE: readonly [string, number][] = [
  ['+1 min', 60],
  ['+1 h', 3600],
  ['+24 h', 86400],
];

/** Whether the controls answer for this user (404: not enabled; 401/403: not for this user). */
export async function controlsAvailable(): Promise<boolean> {
  try {
    return (await getOptional(CONTROL)) !== undefined;
  } catch {
    return false;
  }
}

/** Values a control lists for a field, when GET /control/ describes them; else the known ones. */
function allowed(state: Json, field: string, fallback: readonly string[]): readonly string[] {
  const controls = (Array.isArray(state.Controls) ? state.Controls : []) as Json[];
  for (const c of controls) {
    const v = c?.[`${field}@Redfish.AllowableValues`] ?? c?.Parameters?.[field]?.AllowableValues;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  }
  return fallback;
}

export const control: View = {
  id: 'control',
  title: 'Control',
  watch: [],
  async render(ctx) {
    const body = await getOptional(CONTROL);
    if (!body) return h('p', { class: 'empty' }, 'The scenario controls are not enabled on this service.');
    const state = (body.State ?? {}) as Json;
    const faults = (Array.isArray(state.Faults) ? state.Faults : []) as Json[];
    const run = (what: string, uri: string, payload?: unknown, method: 'POST' | 'DELETE' = 'POST') => {
      void (async () => {
        try {
          await send(method, uri, payload);
          ctx.notify(`${what}: done`);
        } catch (e) {
          ctx.notify(`${what}: ${(e as Error).message}`, true);
        }
        ctx.refresh();
      })();
    };
    const sensor = h('input', { id: 'sensor-name', placeholder: 'Sensor name', autocomplete: 'off' });
    const reading = h('input', { id: 'sensor-reading', placeholder: '°C', type: 'number' });
    return h(
      'div',
      {},
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Simulated state'),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Clock'),
          h('dd', { id: 'control-clock' }, text(state.Clock)),
          h('dt', {}, 'Power'),
          h('dd', {}, text(state.PowerState)),
        ),
        h('h3', {}, 'Clock'),
        h(
          'div',
          { class: 'buttons' },
          ...ADVANCE.map(([label, s]) =>
            h(
              'button',
              { data: { advance: String(s) }, onclick: () => run(`Clock ${label}`, `${CONTROL}clock`, { AdvanceSeconds: s }) },
              label,
            ),
          ),
        ),
        h('h3', {}, 'Power events'),
        h(
          'div',
          { class: 'buttons' },
          ...allowed(body, 'Event', POWER_EVENTS).map((ev) =>
            h('button', { data: { event: ev }, onclick: () => run(ev, `${CONTROL}power`, { Event: ev }) }, ev),
          ),
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Faults'),
        h(
          'div',
          { class: 'buttons' },
          ...allowed(body, 'Fault', FAULTS).map((f) =>
            h('button', { data: { fault: f }, onclick: () => run(`Inject ${f}`, `${CONTROL}faults`, { Fault: f }) }, `Inject ${f}`),
          ),
        ),
        table(
          faults,
          [
            ['Id', (f) => text(f.Id)],
            ['Fault', (f) => text(f.Fault)],
            ['Details', (f) => text(Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'Id' && k !== 'Fault')))],
            [
              '',
              (f) =>
                h(
                  'button',
                  {
                    data: { clear: String(f.Id) },
                    onclick: () =>
                      run(`Clear ${text(f.Fault)}`, `${CONTROL}faults/${encodeURIComponent(String(f.Id))}`, undefined, 'DELETE'),
                  },
                  'Clear',
                ),
            ],
          ],
          'No fault injected',
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Sensor reading'),
        h(
          'form',
          {
            class: 'inline',
            id: 'sensor-form',
            onsubmit: (e) => {
              e.preventDefault();
              run(`Sensor ${sensor.value}`, `${CONTROL}sensors`, { Sensor: sensor.value, ReadingCelsius: Number(reading.value) });
            },
          },
          sensor,
          reading,
          h('button', { type: 'submit' }, 'Hold reading'),
        ),
      ),
    );
  },
};
