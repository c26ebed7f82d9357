// DSP0266 operation apply time: the `@Redfish.OperationApplyTime` a client sends with a
// create, delete or action, and the `@Redfish.OperationApplyTimeSupport` a resource shows.
import { baseError } from './errors.js';

export const APPLY_TIME = '@Redfish.OperationApplyTime';
export const APPLY_TIME_SUPPORT = '@Redfish.OperationApplyTimeSupport';

/** The OperationApplyTimeSupport object listing the apply times a request may ask for. */
export function applyTimeSupport(values: readonly string[]): Record<string, unknown> {
  return { '@odata.type': '#Settings.v1_4_0.OperationApplyTimeSupport', SupportedValues: [...values] };
}

/**
 * The apply time asked for (`asked`, the annotation's value; the first supported one when absent).
 * Any other is refused rather than ignored: a 400 naming the annotation, as an action
 * parameter when `action` is given.
 */
export function requestedApplyTime<V extends string>(asked: unknown, supported: readonly [V, ...V[]], action?: string): V {
  if (asked === undefined) return supported[0];
  const found = supported.find((v) => v === asked);
  if (found !== undefined) return found;
  const shown = typeof asked === 'string' ? asked : JSON.stringify(asked);
  const e = action
    ? baseError('ActionParameterValueNotInList', shown, APPLY_TIME, action)
    : baseError('PropertyValueNotInList', shown, APPLY_TIME);
  // Set by hand: about() reads dots as path separators.
  for (const i of e.infos) i.RelatedProperties = [`#/${APPLY_TIME}`];
  throw e;
}
