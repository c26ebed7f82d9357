// Building the page: elements are made with createElement and text goes in as
// textContent, so nothing the service returns (user names, file names, log
// messages) is ever parsed as markup. There is no innerHTML in the console.

export type Child = Node | string | number | boolean | null | undefined | readonly Child[];

export interface Attrs {
  class?: string;
  id?: string;
  title?: string;
  type?: string;
  value?: string;
  placeholder?: string;
  /** data-* attributes, for styles and tests. */
  data?: Readonly<Record<string, string>>;
  onclick?: (e: Event) => void;
  onsubmit?: (e: Event) => void;
  oninput?: (e: Event) => void;
  disabled?: boolean;
  name?: string;
  autocomplete?: string;
  for?: string;
  /** Links (a): where, which window, and what the new page may reach of this one. */
  href?: string;
  target?: string;
  rel?: string;
}

/** An element with attributes and children; strings become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const { data, onclick, onsubmit, oninput, disabled, class: cls, for: htmlFor, ...plain } = attrs;
  if (cls) el.className = cls;
  for (const [k, v] of Object.entries(plain)) if (v !== undefined) el.setAttribute(k, v);
  if (htmlFor) el.setAttribute('for', htmlFor);
  for (const [k, v] of Object.entries(data ?? {})) el.dataset[k] = v;
  if (onclick) el.addEventListener('click', onclick);
  if (onsubmit) el.addEventListener('submit', onsubmit);
  if (oninput) el.addEventListener('input', oninput);
  if (disabled) el.setAttribute('disabled', '');
  append(el, children);
  return el;
}

function append(el: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replace an element's content. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A value as short text: objects are written as JSON (still as text). */
export function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A Health badge (OK, Warning, Critical); a dash where there is none (an empty slot). */
export function health(value: unknown, id?: string): HTMLElement {
  if (typeof value !== 'string') return h('span', { id, data: { health: '' } }, '—');
  return h('span', { class: `badge health-${value.toLowerCase()}`, id, data: { health: value } }, value);
}

/** A table of rows, one column per [heading, value getter]. */
export function table<T>(
  rows: readonly T[],
  columns: readonly [string, (row: T) => Child][],
  empty = 'None',
  rowAttrs: (row: T) => Attrs = () => ({}),
): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...columns.map(([title]) => h('th', {}, title)))),
    h('tbody', {}, ...rows.map((r) => h('tr', rowAttrs(r), ...columns.map(([, get]) => h('td', {}, cell(get(r))))))),
  );
}

/** Nodes as they are; anything else as text, with a dash for nothing. */
function cell(c: Child): Child {
  return c instanceof Node || Array.isArray(c) ? c : text(c);
}

/** Bytes in binary units. */
export function bytes(n: unknown): string {
  if (typeof n !== 'number') return text(n);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

/** A property by dotted path ("Status.Health", "BootProgress.LastState"). */
export function pick(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The key of the vendor's Oem objects, as the service names it (--oem-name): read once from the service root. */
let oemName = '';

/** The service's OEM name, from its root's Oem object (the one place the console learns it). */
export function useOemName(root: unknown): void {
  const oem = pick(root, 'Oem');
  oemName = (oem !== null && typeof oem === 'object' ? Object.keys(oem).find((k) => !k.startsWith('@')) : undefined) ?? '';
}

/** A property of a resource's vendor object (Oem/<name>.<path>; path '' for the object itself). */
export function vendorPick(obj: unknown, path = ''): unknown {
  return pick(obj, path ? `Oem.${oemName}.${path}` : `Oem.${oemName}`);
}
