// Validation of pending BIOS attributes against the attribute registry, as the
// system ROM does it during POST: each attribute on its own (name, type, value,
// length, pattern, range, step), then the registry's Dependencies evaluated on
// the resulting values (forced values, attributes made read-only).
import { baseMessage, type ExtendedInfo } from '../../messages/errors.js';
import {
  BIOS_ATTRIBUTES,
  BIOS_DEPENDENCIES,
  type AttrValue,
  type AttributeDef,
  type DependencyDef,
  type MapFrom,
} from '../../platform/bios-attributes.js';

/** How a value is quoted in MessageArgs (as the request validator does). */
function argText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
}

const BY_NAME = new Map(BIOS_ATTRIBUTES.map((a) => [a.AttributeName, a]));

export function attributeDef(name: string): AttributeDef | undefined {
  return BY_NAME.get(name);
}

export interface PendingOutcome {
  /** The complete new set of values. */
  values: Record<string, AttrValue>;
  /** Names of the pending attributes that were applied. */
  applied: string[];
  /** One message per rejected attribute, naming it. */
  faults: ExtendedInfo[];
}

function about(info: ExtendedInfo, name: string): ExtendedInfo {
  return { ...info, RelatedProperties: [`#/Attributes/${name}`] };
}

/** Why a single value is not acceptable for its attribute, or undefined when it is. */
export function checkValue(def: AttributeDef, value: unknown): ExtendedInfo | undefined {
  const name = def.AttributeName;
  const text = argText(value);
  if (def.ReadOnly || def.Type === 'Password') return baseMessage('PropertyNotWritable', name);
  switch (def.Type) {
    case 'Enumeration':
      if (typeof value !== 'string') return baseMessage('PropertyValueTypeError', text, name);
      if (!def.Value?.some((v) => v.ValueName === value)) return baseMessage('PropertyValueNotInList', text, name);
      return undefined;
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : baseMessage('PropertyValueTypeError', text, name);
    case 'Integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return baseMessage('PropertyValueTypeError', text, name);
      const lower = def.LowerBound ?? Number.MIN_SAFE_INTEGER;
      if (value < lower || value > (def.UpperBound ?? Number.MAX_SAFE_INTEGER)) return baseMessage('PropertyValueOutOfRange', text, name);
      if (def.ScalarIncrement && (value - lower) % def.ScalarIncrement !== 0) return baseMessage('PropertyValueIncorrect', name, text);
      return undefined;
    }
    case 'String': {
      if (typeof value !== 'string') return baseMessage('PropertyValueTypeError', text, name);
      const badLength =
        (def.MinLength !== undefined && value.length < def.MinLength) || (def.MaxLength !== undefined && value.length > def.MaxLength);
      const badPattern = def.ValueExpression !== undefined && !new RegExp(def.ValueExpression).test(value);
      return badLength || badPattern ? baseMessage('PropertyValueFormatError', text, name) : undefined;
    }
  }
}

/** JSON type a registry attribute type takes; values of other types never reach the pending area. */
const JSON_TYPE_OF: Record<AttributeDef['Type'], 'string' | 'number' | 'boolean'> = {
  Enumeration: 'string',
  String: 'string',
  Password: 'string',
  Integer: 'number',
  Boolean: 'boolean',
};

/**
 * The check made when a client PATCHes the pending area: the value has the JSON type the
 * registry gives the attribute (any scalar for names the registry lacks, which POST reports).
 * Values, ranges and names are left to POST, as the system ROM does.
 */
export function pendingTypeFits(name: string, value: unknown): boolean {
  const def = BY_NAME.get(name);
  const type = typeof value;
  if (!def) return type === 'string' || type === 'number' || type === 'boolean';
  return type === JSON_TYPE_OF[def.Type] && (def.Type !== 'Integer' || Number.isInteger(value));
}

function holds(m: MapFrom, values: Record<string, AttrValue>): boolean {
  const v = values[m.MapFromAttribute];
  const w = m.MapFromValue;
  switch (m.MapFromCondition) {
    case 'EQU':
      return v === w;
    case 'NEQ':
      return v !== w;
    case 'GTR':
      return Number(v) > Number(w);
    case 'GEQ':
      return Number(v) >= Number(w);
    case 'LSS':
      return Number(v) < Number(w);
    case 'LEQ':
      return Number(v) <= Number(w);
  }
}

/** A dependency's MapFrom terms, combined left to right; each later term names its operator. */
export function dependencyHolds(d: DependencyDef, values: Record<string, AttrValue>): boolean {
  let result: boolean | undefined;
  for (const m of d.Dependency.MapFrom) {
    const h = holds(m, values);
    result = result === undefined ? h : m.MapTerms === 'OR' ? result || h : result && h;
  }
  return result ?? false;
}

/** Attributes that dependencies make read-only given these values. */
export function readOnlyByDependency(values: Record<string, AttrValue>): Set<string> {
  const out = new Set<string>();
  for (const d of BIOS_DEPENDENCIES) {
    if (d.Dependency.MapToProperty === 'ReadOnly' && d.Dependency.MapToValue === true && dependencyHolds(d, values)) {
      out.add(d.Dependency.MapToAttribute);
    }
  }
  return out;
}

/** Validate pending attributes on top of `base` and compute the values POST ends with. */
export function resolvePending(base: Record<string, AttrValue>, pending: Record<string, unknown>): PendingOutcome {
  const faults: ExtendedInfo[] = [];
  const accepted = new Map<string, AttrValue>();
  for (const [name, value] of Object.entries(pending)) {
    const def = BY_NAME.get(name);
    const fault = def ? checkValue(def, value) : baseMessage('PropertyUnknown', name);
    if (fault) faults.push(about(fault, name));
    else accepted.set(name, value as AttrValue);
  }
  const values: Record<string, AttrValue> = { ...base, ...Object.fromEntries(accepted) };

  // Dependencies see the values as they would be with every acceptable change.
  const locked = readOnlyByDependency(values);
  for (const name of locked) {
    if (accepted.has(name) && accepted.get(name) !== base[name]) {
      accepted.delete(name);
      values[name] = base[name] ?? null;
      faults.push(about(baseMessage('PropertyNotWritable', name), name));
    }
  }
  for (const d of BIOS_DEPENDENCIES) {
    const { MapToAttribute: target, MapToProperty: prop, MapToValue: forced } = d.Dependency;
    if (prop !== 'CurrentValue' || !dependencyHolds(d, values)) continue;
    if (accepted.has(target) && accepted.get(target) !== forced) {
      accepted.delete(target);
      const source = d.Dependency.MapFrom[0]?.MapFromAttribute ?? target;
      faults.push(about(baseMessage('PropertyValueConflict', target, source), target));
    }
    values[target] = forced;
  }
  return { values, applied: [...accepted.keys()], faults };
}
