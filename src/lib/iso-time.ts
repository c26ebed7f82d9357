// ISO 8601 times as Redfish writes them (Edm.DateTimeOffset).

/**
 * True for a complete date and time with seconds and a zone (Z or ±hh:mm) that names a real
 * instant: RFC 3339, as the JSON Schema format date-time the published schemas use.
 */
export function isIsoDateTime(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v));
}
