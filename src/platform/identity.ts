// The simulated server's factory identity: model, serial number and UUID,
// derived from the service's own stable UUID so they survive restarts and
// differ between instances.
import { createHash } from 'node:crypto';
import { OEM } from '../lib/oem-token.js';

export interface ServerIdentity {
  Manufacturer: string;
  Model: string;
  SKU: string;
  SerialNumber: string;
  UUID: string;
}

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** The model names come from the hardware profile's `system`; without one, the default profile's. */
export function serverIdentity(
  seed: string,
  system: { manufacturer: string; model: string; sku: string } = { manufacturer: OEM, model: 'VS380 Gen10', sku: 'P19720-B21' },
): ServerIdentity {
  const h = createHash('sha256').update(`server:${seed}`).digest();
  const serial = Array.from(h.subarray(0, 7), (b) => SERIAL_ALPHABET[b % SERIAL_ALPHABET.length]).join('');
  // A name-based (version 5 style) UUID: stable for the same seed.
  const u = Buffer.from(h.subarray(8, 24));
  u[6] = (u[6]! & 0x0f) | 0x50;
  u[8] = (u[8]! & 0x3f) | 0x80;
  const hex = u.toString('hex');
  return {
    Manufacturer: system.manufacturer,
    Model: system.model,
    SKU: system.sku,
    SerialNumber: `CZJ${serial}`,
    UUID: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase(),
  };
}

/**
 * The MAC address of the controller's own network interface `index` (0: the
 * dedicated management port, 1: the host interface's virtual USB NIC): stable
 * for the seed, different between controllers. Locally administered unicast
 * addresses, so they never collide with a real vendor's OUI.
 */
export function managerMacAddress(seed: string, index: number): string {
  const h = createHash('sha256').update(`manager-nic:${index}:${seed}`).digest();
  const bytes = Array.from(h.subarray(0, 6));
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}
