// The simulated server's factory identity: model, serial number and UUID,
// derived from the service's own stable UUID so they survive restarts and
// differ between instances.
import { createHash } from 'node:crypto';

export interface ServerIdentity {
  Manufacturer: string;
  Model: string;
  SKU: string;
  SerialNumber: string;
  UUID: string;
}

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export function serverIdentity(seed: string): ServerIdentity {
  const h = createHash('sha256').update(`server:${seed}`).digest();
  const serial = Array.from(h.subarray(0, 7), (b) => SERIAL_ALPHABET[b % SERIAL_ALPHABET.length]).join('');
  // A name-based (version 5 style) UUID: stable for the same seed.
  const u = Buffer.from(h.subarray(8, 24));
  u[6] = (u[6]! & 0x0f) | 0x50;
  u[8] = (u[8]! & 0x3f) | 0x80;
  const hex = u.toString('hex');
  return {
    Manufacturer: 'Vendor',
    Model: 'VS380 Gen10',
    SKU: 'P19720-B21',
    SerialNumber: `CZJ${serial}`,
    UUID: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase(),
  };
}
