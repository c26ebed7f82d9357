// How values are quoted in the MessageArgs of registry messages.

/** How a value is quoted in MessageArgs: strings as they are, anything else as JSON. */
export function argText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined');
}
