// Helpers with no dependencies, usable from every layer.

/** Freeze an object and everything in it, so a shared value cannot be changed by whoever holds it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A deeply frozen copy of a JSON-like value that shares whatever in it is frozen already (frozen
 * counts as frozen all the way down, as in deepFreeze): a default made of shared frozen parts is
 * not copied once per holder (a fleet's controllers each hold their settings' defaults).
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const copy = Array.isArray(value)
    ? value.map((v: unknown) => frozenCopy(v))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozenCopy(v)]));
  return Object.freeze(copy) as T;
}
