// Helpers with no dependencies, usable from every layer.

/** Freeze an object and everything in it, so a shared value cannot be changed by whoever holds it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
