// The Sensors view: power consumption, temperatures and fan speeds over time, charted
// with uPlot (served by the service itself). The console samples the chassis' Power and
// Thermal resources while it is open (the service keeps no history of them) and keeps
// the last samples across views.
import { CHASSIS, getOptional, type Json } from './api.js';
import { h } from './dom.js';
import uPlot from './uplot.js';
import type { View } from './views.js';

/** Samples kept: an hour at the view's pace. */
const KEEP = 1800;
const PACE_MS = 2_000;
const COLOURS = ['#01a982', '#2b6cb0', '#c05621', '#6b46c1', '#b83280', '#2c7a7b', '#975a16', '#4a5568'];

/** One series per sensor name, aligned with `times` (null where a sample lacked it). */
interface History {
  unit: string;
  series: Map<string, (number | null)[]>;
}

const times: number[] = [];
type ChartId = 'power' | 'temperature' | 'fans';
const charts: Record<ChartId, History> = {
  power: { unit: 'W', series: new Map() },
  temperature: { unit: '°C', series: new Map() },
  fans: { unit: '', series: new Map() },
};
const TITLES: Record<ChartId, string> = { power: 'Power consumption', temperature: 'Temperatures', fans: 'Fan speeds' };

let root: HTMLElement | undefined;
const plots = new Map<ChartId, { plot: uPlot; names: string }>();

function record(history: History, readings: readonly [string, unknown][]): void {
  const n = times.length;
  for (const [name, value] of readings) {
    if (typeof value !== 'number') continue;
    let s = history.series.get(name);
    if (!s) history.series.set(name, (s = new Array<number | null>(n - 1).fill(null)));
    s.push(value);
  }
  for (const s of history.series.values()) {
    while (s.length < n) s.push(null);
    while (s.length > n) s.shift();
  }
}

/** Read the sensors once, unless the last sample is newer than the pace. */
async function sample(): Promise<void> {
  const now = Date.now() / 1000;
  if (times.length && now - times[times.length - 1]! < PACE_MS / 1000 / 2) return;
  const [power, thermal] = await Promise.all([getOptional(`${CHASSIS}Power/`), getOptional(`${CHASSIS}Thermal/`)]);
  times.push(now);
  const list = (v: unknown) => (Array.isArray(v) ? (v as Json[]) : []);
  record(
    charts.power,
    list(power?.PowerControl).map((c, i) => [String(c.Name ?? `Power ${i + 1}`), c.PowerConsumedWatts]),
  );
  record(
    charts.temperature,
    list(thermal?.Temperatures).map((t) => [String(t.Name), t.ReadingCelsius]),
  );
  const fans = list(thermal?.Fans);
  charts.fans.unit = String(fans[0]?.ReadingUnits ?? 'RPM');
  record(
    charts.fans,
    fans.map((f) => [String(f.Name ?? f.FanName), f.Reading ?? f.CurrentReading]),
  );
  if (times.length > KEEP) {
    times.shift();
    for (const c of Object.values(charts)) for (const s of c.series.values()) s.shift();
  }
}

function draw(id: ChartId, box: HTMLElement, width: number): void {
  const history = charts[id];
  const names = [...history.series.keys()];
  const data = [times.slice(), ...names.map((n) => history.series.get(n)!.slice())] as uPlot.AlignedData;
  const last = history.series.get(names[0] ?? '')?.at(-1);
  box.dataset.points = String(times.length);
  box.dataset.series = String(names.length);
  box.dataset.last = last === undefined || last === null ? '' : String(last);
  const known = plots.get(id);
  if (known && known.names === names.join('\n')) {
    known.plot.setData(data);
    return;
  }
  known?.plot.destroy();
  const plot = new uPlot(
    {
      width,
      height: 220,
      scales: { x: { time: true } },
      axes: [{}, { label: history.unit, size: 60 }],
      series: [{}, ...names.map((label, i) => ({ label, stroke: COLOURS[i % COLOURS.length], width: 1.5, spanGaps: true }))],
    },
    data,
    box,
  );
  plots.set(id, { plot, names: names.join('\n') });
}

export const sensorCharts: View = {
  id: 'sensors',
  title: 'Sensors',
  watch: [],
  pollMs: PACE_MS,
  async render() {
    await sample();
    if (!root) {
      root = h(
        'div',
        { class: 'charts' },
        ...(Object.keys(charts) as ChartId[]).map((id) =>
          h('section', { class: 'card' }, h('h2', {}, TITLES[id]), h('div', { class: 'chart', id: `chart-${id}`, data: { chart: id } })),
        ),
      );
    }
    const width = Math.max(480, (document.getElementById('view')?.clientWidth ?? 1200) - 60);
    for (const box of root.querySelectorAll<HTMLElement>('.chart')) draw(box.dataset.chart as ChartId, box, width);
    return root;
  },
};
