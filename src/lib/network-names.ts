// Network names and masks as the service checks them: DNS names (RFC 1123
// labels) and contiguous IPv4 masks. Shared by the controller's settings and
// the hardware profile's host network.
import { isIP } from 'node:net';

const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A DNS name made of RFC 1123 labels (no trailing dot), at most maxLength (253) characters. */
export function isHostName(v: string, maxLength = 253): boolean {
  return v.length > 0 && v.length <= maxLength && v.split('.').every((l) => LABEL.test(l));
}

/** A dotted IPv4 address (already checked) as an unsigned number. */
export const ipv4ToInt = (a: string): number => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/** A contiguous IPv4 network mask of 1 to 32 bits (0.0.0.0 is no mask). */
export function isSubnetMask(v: string): boolean {
  if (isIP(v) !== 4) return false;
  const n = ipv4ToInt(v);
  const inverted = ~n >>> 0;
  return n !== 0 && (inverted & (inverted + 1)) === 0;
}
