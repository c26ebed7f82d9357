// ISO 8601 times as Redfish writes them (Edm.DateTimeOffset).

/**
 * True for a complete date and time with seconds and a zone (Z or ±hh:mm) that names a real
 * instant: RFC 3339, as the JSON Schema format date-time the published schemas use.
 */
export function isIsoDateTime(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v));
}

/** The controller's UTC offset: its local time is UTC (Managers DateTimeLocalOffset "+00:00"). */
const CONTROLLER_OFFSET = 'Z';

/** A complete date and time with seconds and no zone, as iLO clients send schedule times: read on the controller's clock. */
export function isControllerLocalTime(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v) && !Number.isNaN(Date.parse(`${v}${CONTROLLER_OFFSET}`));
}

/** The instant (ms) of an ISO time; one without an offset is the controller's local time (never the process's zone). */
export function parseControllerTime(v: string): number {
  return Date.parse(isControllerLocalTime(v) ? `${v}${CONTROLLER_OFFSET}` : v);
}
