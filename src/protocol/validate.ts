// Validates request bodies against a resource description. Each bad property
// yields one registry message; good properties survive, so a PATCH can apply
// the good ones and report the bad ones (DSP0266 partial success).
import { baseError, type RedfishError } from './errors.js';
import { argText } from '../messages/args.js';
import { isPrototypeKey } from '../lib/json.js';
import { isEmptyObject, jsonTypeOf } from '../lib/json-merge.js';
import { isControllerLocalTime, isIsoDateTime } from '../lib/iso-time.js';
import { actionNames, enumIn, offeredIn, type ActionDef, type Prop, type Props, type StringProp } from './description.js';
import type { DialectName } from './dialect.js';

export type WriteMode = 'patch' | 'create' | { action: string };

export interface Validated {
  value: Record<string, unknown>;
  problems: RedfishError[];
}

function isAnnotation(key: string): boolean {
  return key.startsWith('@') || key.includes('@odata.') || key.includes('@Redfish.') || key.includes('@Message.');
}

interface Ctx {
  mode: WriteMode;
  problems: RedfishError[];
  /** What is offered depends on it (`onlyIn`, `enumOnlyIn`). */
  dialect: DialectName;
}

/**
 * Validate an action's body: its parameters, and the `Action` member iLO clients send, which must
 * name this action (actionNames) and is then dropped.
 */
export function validateActionBody(body: unknown, def: ActionDef, dialect: DialectName = 'spec'): Validated {
  if (jsonTypeOf(body) === 'object' && Object.hasOwn(body as object, 'Action')) {
    const { Action: named, ...rest } = body as Record<string, unknown>;
    const problem =
      typeof named === 'string' && actionNames(def).includes(named)
        ? undefined
        : baseError('ActionParameterValueError', 'Action', def.name).about('Action');
    const v = validateBody(rest, def.parameters, { action: def.name }, dialect);
    return problem ? { value: v.value, problems: [problem, ...v.problems] } : v;
  }
  return validateBody(body, def.parameters, { action: def.name }, dialect);
}

/** Validate a whole body against the writable properties of a type or the parameters of an action, as a dialect offers them. */
export function validateBody(body: unknown, props: Props, mode: WriteMode, dialect: DialectName = 'spec'): Validated {
  const ctx: Ctx = { mode, problems: [], dialect };
  if (jsonTypeOf(body) !== 'object') {
    return { value: {}, problems: [baseError('UnrecognizedRequestBody')] };
  }
  const value = validateObject(body as Record<string, unknown>, props, '', ctx, false) ?? {};
  return { value, problems: ctx.problems };
}

function validateObject(
  obj: Record<string, unknown>,
  props: Props,
  prefix: string,
  ctx: Ctx,
  additional: boolean | Prop,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (isAnnotation(key)) continue;
    const path = prefix + key;
    // Own members only: "constructor" or "__proto__" must not find Object.prototype's.
    const own = Object.hasOwn(props, key) ? props[key] : undefined;
    const declared = own && offeredIn(own, ctx.dialect) ? own : undefined;
    const prop = declared ?? (isPrototypeKey(key) ? undefined : additional === true ? { type: 'any' as const } : additional || undefined);
    if (!prop) {
      ctx.problems.push(unknownProperty(path, ctx.mode));
      continue;
    }
    if (prop.readOnly || (prop.createOnly && ctx.mode === 'patch')) {
      ctx.problems.push(baseError('PropertyNotWritable', path).about(path));
      continue;
    }
    const checked = validateValue(v, prop, path, ctx);
    if (checked.ok) out[key] = checked.value;
  }
  if (ctx.mode !== 'patch') {
    for (const [key, prop] of Object.entries(props)) {
      if (prop.required && offeredIn(prop, ctx.dialect) && !Object.hasOwn(obj, key))
        ctx.problems.push(missingProperty(prefix + key, ctx.mode));
    }
  }
  return out;
}

type Checked = { ok: true; value: unknown } | { ok: false };

/** What a message may quote of a value: nothing of secrets. */
const HIDDEN = '(hidden)';
function shown(v: unknown, prop: Prop): unknown {
  return prop.secret || prop.writeOnly ? HIDDEN : v;
}

function validateValue(v: unknown, prop: Prop, path: string, ctx: Ctx): Checked {
  if (v === null) {
    // A required property needs a value; its nullable only describes how it reads (Password: null).
    if ((prop.nullable && !prop.required) || prop.type === 'any') return { ok: true, value: null };
    return typeError(shown(v, prop), path, ctx);
  }
  switch (prop.type) {
    case 'any':
      return { ok: true, value: v };
    case 'boolean':
      return typeof v === 'boolean' ? { ok: true, value: v } : typeError(shown(v, prop), path, ctx);
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || (prop.type === 'integer' && !Number.isInteger(v))) return typeError(shown(v, prop), path, ctx);
      if ((prop.minimum !== undefined && v < prop.minimum) || (prop.maximum !== undefined && v > prop.maximum)) {
        return fail(ctx, valueError('range', shown(v, prop), path, ctx.mode));
      }
      return { ok: true, value: v };
    }
    case 'string': {
      if (typeof v !== 'string') return typeError(shown(v, prop), path, ctx);
      const values = enumIn(prop, ctx.dialect);
      if (values && !values.includes(v)) return fail(ctx, valueError('list', shown(v, prop), path, ctx.mode));
      const tooShort = prop.minLength !== undefined && v.length < prop.minLength;
      const tooLong = prop.maxLength !== undefined && v.length > prop.maxLength;
      const badPattern = prop.pattern !== undefined && !patternOf(prop).test(v);
      const badDate = prop.format === 'date-time' && !isIsoDateTime(v) && !(prop.offsetOptional && isControllerLocalTime(v));
      if (tooLong && ctx.mode === 'patch')
        return fail(ctx, baseError('StringValueTooLong', argText(shown(v, prop)), prop.maxLength ?? 0).about(path));
      if (tooShort || tooLong || badPattern || badDate) return fail(ctx, valueError('format', shown(v, prop), path, ctx.mode));
      return { ok: true, value: v };
    }
    case 'link': {
      // A reference is {"@odata.id": "<uri>"} and nothing else (DMTF's idRef).
      const ref = jsonTypeOf(v) === 'object' ? (v as Record<string, unknown>) : undefined;
      const id = ref?.['@odata.id'];
      if (typeof id !== 'string' || Object.keys(ref ?? {}).length !== 1) return typeError(shown(v, prop), path, ctx);
      return { ok: true, value: { '@odata.id': id } };
    }
    case 'object': {
      if (jsonTypeOf(v) !== 'object') return typeError(shown(v, prop), path, ctx);
      const before = ctx.problems.length;
      // Members of a secret object are secret too (event HttpHeaders).
      const members = prop.secret ? hideAll(prop.properties) : prop.properties;
      const more = prop.additionalProperties ?? false;
      const extra: boolean | Prop = prop.secret && more ? { ...(more === true ? { type: 'any' as const } : more), secret: true } : more;
      const inner = validateObject(v as Record<string, unknown>, members, `${path}/`, ctx, extra);
      if (ctx.mode !== 'patch' && ctx.problems.length > before) return { ok: false };
      if (inner && Object.keys(inner).length === 0 && Object.keys(v as object).length > 0) return { ok: false };
      return { ok: true, value: inner };
    }
    case 'array': {
      if (!Array.isArray(v)) return typeError(shown(v, prop), path, ctx);
      if (prop.maxItems !== undefined && v.length > prop.maxItems) return fail(ctx, valueError('range', shown(v, prop), path, ctx.mode));
      if (prop.minItems !== undefined && v.length < prop.minItems) return fail(ctx, valueError('range', shown(v, prop), path, ctx.mode));
      const before = ctx.problems.length;
      const items: unknown[] = [];
      v.forEach((item, i) => {
        // In a PATCH, null removes an element and {} leaves it unchanged (DSP0266 array rules).
        if (ctx.mode === 'patch' && (item === null || isEmptyObject(item))) {
          items.push(item);
          return;
        }
        const r = validateValue(item, prop.secret ? { ...prop.items, secret: true } : prop.items, `${path}/${i}`, ctx);
        if (r.ok) items.push(r.value);
      });
      return ctx.problems.length > before ? { ok: false } : { ok: true, value: items };
    }
  }
}

/** Compiled patterns of the descriptions, made when their routes are registered. */
const patterns = new WeakMap<StringProp, RegExp>();

function patternOf(prop: StringProp): RegExp {
  let re = patterns.get(prop);
  if (!re) patterns.set(prop, (re = new RegExp(prop.pattern as string)));
  return re;
}

const compiled = new WeakSet<Props>();

/** Compile every pattern of these properties, at any depth: a bad pattern fails at start, not per request. */
export function compilePatterns(props: Props): void {
  // Descriptions are constants: each is walked once per process, however many route tables use it.
  if (compiled.has(props)) return;
  const visit = (p: Prop | boolean | undefined): void => {
    if (!p || p === true) return;
    if (p.type === 'string' && p.pattern !== undefined) {
      try {
        patternOf(p);
      } catch (e) {
        throw new Error(`bad pattern ${JSON.stringify(p.pattern)}: ${(e as Error).message}`, { cause: e });
      }
    } else if (p.type === 'object') {
      for (const q of Object.values(p.properties)) visit(q);
      visit(p.additionalProperties);
    } else if (p.type === 'array') visit(p.items);
  };
  for (const p of Object.values(props)) visit(p);
  compiled.add(props);
}

function hideAll(props: Props): Props {
  return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, { ...p, secret: true }]));
}

function fail(ctx: Ctx, e: RedfishError): Checked {
  ctx.problems.push(e);
  return { ok: false };
}

function typeError(v: unknown, path: string, ctx: Ctx): Checked {
  const mode = ctx.mode;
  const e =
    typeof mode === 'object'
      ? baseError('ActionParameterValueTypeError', argText(v), path, mode.action)
      : baseError('PropertyValueTypeError', argText(v), path);
  return fail(ctx, e.about(path));
}

function valueError(kind: 'list' | 'format' | 'range', v: unknown, path: string, mode: WriteMode): RedfishError {
  const text = argText(v);
  if (typeof mode === 'object') {
    if (kind === 'list') return baseError('ActionParameterValueNotInList', text, path, mode.action).about(path);
    if (kind === 'format') return baseError('ActionParameterValueFormatError', text, path, mode.action).about(path);
    return baseError('ActionParameterValueError', path, mode.action).about(path);
  }
  if (kind === 'list') return baseError('PropertyValueNotInList', text, path).about(path);
  if (kind === 'format') return baseError('PropertyValueFormatError', text, path).about(path);
  return baseError('PropertyValueOutOfRange', text, path).about(path);
}

function unknownProperty(path: string, mode: WriteMode): RedfishError {
  return typeof mode === 'object'
    ? baseError('ActionParameterUnknown', mode.action, path).about(path)
    : baseError('PropertyUnknown', path).about(path);
}

function missingProperty(path: string, mode: WriteMode): RedfishError {
  return typeof mode === 'object'
    ? baseError('ActionParameterMissing', mode.action, path).about(path)
    : baseError('PropertyMissing', path).about(path);
}
