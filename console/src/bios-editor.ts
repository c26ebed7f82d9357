// The BIOS editor, built from the attribute registry the Bios resource names
// (AttributeRegistry → Registries → its file): menus, enums as choices, numeric and
// string limits, help text, and the registry's Dependencies evaluated here on the
// values being edited (a dependent attribute is greyed out, or shows the value it is
// forced to). Changes are staged here and PATCHed to Bios/Settings together.
import { get, getOptional, send, type Json } from './api.js';
import { fill, h, text } from './dom.js';

type Value = string | number | boolean | null;

interface Attribute {
  AttributeName: string;
  Type: 'Enumeration' | 'String' | 'Integer' | 'Boolean' | 'Password';
  DisplayName?: string;
  HelpText?: string;
  WarningText?: string;
  MenuPath?: string;
  DisplayOrder?: number;
  ReadOnly?: boolean;
  Value?: { ValueName: string; ValueDisplayName?: string }[];
  MinLength?: number;
  MaxLength?: number;
  ValueExpression?: string;
  LowerBound?: number;
  UpperBound?: number;
  ScalarIncrement?: number;
}

interface Menu {
  DisplayName: string;
  MenuPath: string;
  DisplayOrder?: number;
  Hidden?: boolean;
}

interface MapFrom {
  MapFromAttribute: string;
  MapFromCondition: 'EQU' | 'NEQ' | 'GTR' | 'GEQ' | 'LSS' | 'LEQ';
  MapFromValue: Value;
  MapTerms?: 'AND' | 'OR';
}

interface Dependency {
  Type?: string;
  Dependency: { MapFrom: MapFrom[]; MapToAttribute: string; MapToProperty: string; MapToValue: Value };
}

interface Registry {
  attributes: Attribute[];
  menus: Menu[];
  dependencies: Dependency[];
}

/** The registry, read once per console (it is the ROM family's, constant). */
let registry: Promise<Registry> | undefined;
/** Staged edits, kept across the view's redraws until saved or discarded. */
const staged = new Map<string, Value>();
const openMenus = new Set<string>();
let search = '';

async function loadRegistry(id: string): Promise<Registry> {
  let file = await getOptional(`/redfish/v1/Registries/${encodeURIComponent(id)}/`);
  if (!file) {
    const list = ((await get('/redfish/v1/Registries/?$expand=.')).Members ?? []) as Json[];
    file = list.find((m) => m.Registry === id || m.Id === id);
  }
  const uri = (file?.Location as Json[] | undefined)?.[0]?.Uri;
  if (typeof uri !== 'string') throw new Error(`the attribute registry ${id} is not offered`);
  const doc = await get(uri);
  const entries = (doc.RegistryEntries ?? {}) as Json;
  return {
    attributes: (entries.Attributes ?? []) as Attribute[],
    menus: (entries.Menus ?? []) as Menu[],
    dependencies: ((entries.Dependencies ?? []) as Dependency[]).filter((d) => (d.Type ?? 'Map') === 'Map'),
  };
}

function holds(condition: MapFrom['MapFromCondition'], a: Value, b: Value): boolean {
  switch (condition) {
    case 'EQU':
      return a === b;
    case 'NEQ':
      return a !== b;
    case 'GTR':
      return Number(a) > Number(b);
    case 'GEQ':
      return Number(a) >= Number(b);
    case 'LSS':
      return Number(a) < Number(b);
    case 'LEQ':
      return Number(a) <= Number(b);
  }
}

/** What the dependencies make of each attribute now: greyed out, and/or a value it is forced to. */
export function dependencyEffects(
  deps: readonly Dependency[],
  value: (name: string) => Value,
): Map<string, { readOnly?: boolean; forced?: Value }> {
  const out = new Map<string, { readOnly?: boolean; forced?: Value }>();
  for (const { Dependency: d } of deps) {
    let on = false;
    d.MapFrom.forEach((f, i) => {
      const c = holds(f.MapFromCondition, value(f.MapFromAttribute), f.MapFromValue);
      on = i === 0 ? c : f.MapTerms === 'OR' ? on || c : on && c;
    });
    if (!on) continue;
    const e = out.get(d.MapToAttribute) ?? {};
    if ((d.MapToProperty === 'ReadOnly' || d.MapToProperty === 'GrayOut') && d.MapToValue === true) e.readOnly = true;
    if (d.MapToProperty === 'CurrentValue') e.forced = d.MapToValue;
    out.set(d.MapToAttribute, e);
  }
  return out;
}

/** Why a value breaks the attribute's limits, or ''. */
function problem(a: Attribute, v: Value): string {
  if (a.Type === 'Integer') {
    if (typeof v !== 'number' || !Number.isInteger(v)) return 'a whole number';
    if (a.LowerBound !== undefined && v < a.LowerBound) return `at least ${a.LowerBound}`;
    if (a.UpperBound !== undefined && v > a.UpperBound) return `at most ${a.UpperBound}`;
    if (a.ScalarIncrement && (v - (a.LowerBound ?? 0)) % a.ScalarIncrement !== 0) return `in steps of ${a.ScalarIncrement}`;
  }
  if ((a.Type === 'String' || a.Type === 'Password') && typeof v === 'string') {
    if (a.MinLength !== undefined && v.length < a.MinLength) return `at least ${a.MinLength} characters`;
    if (a.MaxLength !== undefined && v.length > a.MaxLength) return `at most ${a.MaxLength} characters`;
    if (a.ValueExpression) {
      try {
        if (!new RegExp(`^(?:${a.ValueExpression})$`).test(v)) return `of the form ${a.ValueExpression}`;
      } catch {
        // An expression this browser cannot read is not checked here; the service checks it.
      }
    }
  }
  return '';
}

interface Row {
  attr: Attribute;
  el: HTMLElement;
  control: HTMLInputElement | HTMLSelectElement;
  note: HTMLElement;
}

/**
 * The editor's section for the Bios resource (current values) and its Settings (pending ones);
 * `done` reports what happened (nothing to say: '') and has the view read again.
 */
export async function biosEditor(
  bios: Json,
  pending: Json,
  settingsUri: string,
  done: (what: string, error?: string) => void,
): Promise<HTMLElement> {
  const current = (bios.Attributes ?? {}) as Json;
  const id = String(bios.AttributeRegistry ?? '');
  if (!id) return h('p', { class: 'empty' }, 'This Bios resource names no attribute registry.');
  const reg = await (registry ??= loadRegistry(id).catch((e: Error) => {
    registry = undefined;
    throw e;
  }));
  const effective = (name: string): Value =>
    (staged.has(name) ? staged.get(name)! : name in pending ? pending[name] : current[name]) as Value;
  const rows = new Map<string, Row>();
  const save = h('button', { type: 'button', id: 'bios-save', disabled: true }, 'Save as pending');
  const discard = h('button', { type: 'button', id: 'bios-discard', disabled: true }, 'Discard');
  const count = h('span', { id: 'bios-staged' });

  const update = (): void => {
    const effects = dependencyEffects(reg.dependencies, effective);
    let invalid = 0;
    for (const r of rows.values()) {
      const e = effects.get(r.attr.AttributeName);
      const greyed = r.attr.ReadOnly === true || e?.readOnly === true || e?.forced !== undefined;
      r.control.disabled = greyed;
      r.el.dataset.greyed = String(greyed);
      const v = effective(r.attr.AttributeName);
      const why = staged.has(r.attr.AttributeName) ? problem(r.attr, v) : '';
      if (why) invalid++;
      r.el.dataset.invalid = String(why !== '');
      r.el.dataset.staged = String(staged.has(r.attr.AttributeName));
      fill(
        r.note,
        why
          ? `Must be ${why}.`
          : e?.forced !== undefined
            ? `Set to ${text(e.forced)} by another setting.`
            : greyed
              ? 'Not changeable now.'
              : '',
      );
    }
    fill(count, staged.size ? `${staged.size} change(s) not saved` : '');
    save.disabled = staged.size === 0 || invalid > 0;
    discard.disabled = staged.size === 0;
  };

  const stage = (a: Attribute, raw: string | boolean): void => {
    const v: Value = a.Type === 'Integer' ? (raw === '' ? null : Number(raw)) : raw;
    const base = (a.AttributeName in pending ? pending[a.AttributeName] : current[a.AttributeName]) as Value;
    if (v === base) staged.delete(a.AttributeName);
    else staged.set(a.AttributeName, v);
    update();
  };

  const controlFor = (a: Attribute): HTMLInputElement | HTMLSelectElement => {
    const v = effective(a.AttributeName);
    const cid = `bios-attr-${a.AttributeName}`;
    if (a.Type === 'Enumeration') {
      const el = h(
        'select',
        { id: cid, name: a.AttributeName },
        ...(a.Value ?? []).map((o) => h('option', { value: o.ValueName }, o.ValueDisplayName ?? o.ValueName)),
      );
      el.value = String(v ?? '');
      el.addEventListener('change', () => stage(a, el.value));
      return el;
    }
    if (a.Type === 'Boolean') {
      const el = h('input', { id: cid, type: 'checkbox', name: a.AttributeName });
      el.checked = v === true;
      el.addEventListener('change', () => stage(a, el.checked));
      return el;
    }
    const type = a.Type === 'Integer' ? 'number' : a.Type === 'Password' ? 'password' : 'text';
    const el = h('input', { id: cid, type, name: a.AttributeName, autocomplete: 'off' });
    if (a.Type === 'Integer') {
      if (a.LowerBound !== undefined) el.min = String(a.LowerBound);
      if (a.UpperBound !== undefined) el.max = String(a.UpperBound);
      if (a.ScalarIncrement) el.step = String(a.ScalarIncrement);
    } else {
      if (a.MaxLength !== undefined) el.maxLength = a.MaxLength;
      if (a.MinLength !== undefined) el.minLength = a.MinLength;
    }
    if (a.Type !== 'Password') el.value = v === null || v === undefined ? '' : String(v);
    el.addEventListener('change', () => stage(a, el.value));
    return el;
  };

  const limits = (a: Attribute): string => {
    if (a.Type === 'Integer')
      return [a.LowerBound, a.UpperBound].some((x) => x !== undefined)
        ? `${text(a.LowerBound)}–${text(a.UpperBound)}${a.ScalarIncrement ? `, step ${a.ScalarIncrement}` : ''}`
        : '';
    if (a.Type === 'String' || a.Type === 'Password')
      return a.MaxLength !== undefined ? `${a.MinLength ?? 0}–${a.MaxLength} characters` : '';
    return '';
  };

  const attrRow = (a: Attribute): HTMLElement => {
    const control = controlFor(a);
    const note = h('span', { class: 'note' });
    const name = a.AttributeName;
    const pend = name in pending && JSON.stringify(pending[name]) !== JSON.stringify(current[name]);
    const el = h(
      'div',
      { class: 'bios-attr', data: { biosAttr: name, pending: String(pend) } },
      h('label', { for: control.id, title: a.HelpText ?? '' }, a.DisplayName ?? name, h('small', {}, ` ${name}`)),
      h('div', { class: 'bios-control' }, control, h('small', { class: 'limits' }, limits(a)), note),
      h(
        'div',
        { class: 'bios-values' },
        h('span', {}, 'Current ', h('strong', { class: 'current' }, a.Type === 'Password' ? '••••' : text(current[name]))),
        pend ? h('span', { class: 'pending-value' }, ' → pending ', h('strong', {}, text(pending[name]))) : null,
      ),
      a.HelpText ? h('p', { class: 'help' }, a.HelpText, a.WarningText ? h('em', {}, ` ${a.WarningText}`) : null) : null,
    );
    rows.set(name, { attr: a, el, control, note });
    return el;
  };

  const menus = [...reg.menus].filter((m) => !m.Hidden).sort((a, b) => (a.DisplayOrder ?? 0) - (b.DisplayOrder ?? 0));
  const byMenu = new Map<string, Attribute[]>();
  const known = new Set(menus.map((m) => m.MenuPath));
  for (const a of reg.attributes) {
    const path = a.MenuPath && known.has(a.MenuPath) ? a.MenuPath : '';
    byMenu.set(path, [...(byMenu.get(path) ?? []), a]);
  }
  const q = search.toLowerCase();
  const wanted = (a: Attribute) => !q || a.AttributeName.toLowerCase().includes(q) || (a.DisplayName ?? '').toLowerCase().includes(q);
  const groups = [...menus, { DisplayName: 'Other', MenuPath: '' }]
    .map((m) => {
      const attrs = (byMenu.get(m.MenuPath) ?? []).filter(wanted).sort((a, b) => (a.DisplayOrder ?? 0) - (b.DisplayOrder ?? 0));
      if (!attrs.length) return null;
      const depth = m.MenuPath.split('/').length - 2;
      const details = h(
        'details',
        { class: 'bios-menu', data: { menu: m.MenuPath } },
        h('summary', {}, m.DisplayName, h('small', {}, ` (${attrs.length})`)),
        ...attrs.map(attrRow),
      );
      details.style.marginLeft = `${Math.max(0, depth)}rem`;
      details.open = q !== '' || openMenus.has(m.MenuPath);
      details.addEventListener('toggle', () => (details.open ? openMenus.add(m.MenuPath) : openMenus.delete(m.MenuPath)));
      return details;
    })
    .filter((x) => x !== null);

  const finder = h('input', { id: 'bios-search', placeholder: 'Find an attribute', autocomplete: 'off', value: search });
  const list = h('div', { class: 'bios-menus' }, ...groups);
  finder.addEventListener('change', () => {
    search = finder.value.trim();
    done('');
  });
  save.addEventListener('click', () => {
    const body = { Attributes: Object.fromEntries(staged) };
    save.disabled = true;
    send('PATCH', settingsUri, body).then(
      () => {
        const n = staged.size;
        staged.clear();
        done(`Saved ${n} BIOS change(s) as pending`);
      },
      (e: Error) => done('Saving BIOS changes', e.message),
    );
  });
  discard.addEventListener('click', () => {
    staged.clear();
    done('Discarded the unsaved BIOS changes');
  });
  update();
  return h(
    'section',
    { class: 'card', id: 'bios-editor' },
    h('h2', {}, 'BIOS settings'),
    h('p', {}, 'Built from the attribute registry ', h('code', {}, id), '. Saved changes are pending until the next server reset.'),
    h('div', { class: 'inline' }, finder, save, discard, count),
    list,
  );
}
