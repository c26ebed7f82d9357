// Per-component identity derived from the service's seed (its stable UUID): MAC
// addresses, serial numbers and UUIDs. The same seed gives the same values after
// a restart; another seed (another controller) gives others. A value the profile
// fixes wins. `resolveHardware` fills every one in, so the API only reads them.
import { createHash } from 'node:crypto';
import type { DimmSpec, DriveSpec, HardwareProfile, NicPortSpec, NicSpec, PowerSupplySpec, StorageControllerSpec } from './profile.js';

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function digest(seed: string, key: string): Buffer {
  return createHash('sha256').update(`${key}:${seed}`).digest();
}

/** A serial number: `prefix` then `length` characters from a hash of seed and key. */
export function componentSerial(seed: string, key: string, prefix: string, length: number, alphabet = SERIAL_ALPHABET): string {
  const h = digest(seed, `serial:${key}`);
  return prefix + Array.from(h.subarray(0, length), (b) => alphabet[b % alphabet.length]).join('');
}

/** A name-based (version 5 layout) UUID, upper case as the server's own. */
export function componentUuid(seed: string, key: string): string {
  const u = Buffer.from(digest(seed, `uuid:${key}`).subarray(0, 16));
  u[6] = (u[6]! & 0x0f) | 0x50;
  u[8] = (u[8]! & 0x3f) | 0x80;
  const hex = u.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase();
}

/**
 * The MAC of the `index`th NIC port of the server (0-based, across all NICs).
 * Locally administered unicast (second bit of the first octet set): 3 octets
 * from the seed, then a 24-bit base from the seed plus the index, so one
 * server's ports never collide.
 */
export function portMac(seed: string, index: number): string {
  const h = digest(seed, 'mac');
  const suffix = (h.readUIntBE(3, 3) + index) % 0x1000000;
  const bytes = [(h[0]! & 0xfc) | 0x02, h[1]!, h[2]!, (suffix >> 16) & 0xff, (suffix >> 8) & 0xff, suffix & 0xff];
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

/** A profile with every serial number and MAC filled in. */
export interface Hardware extends Omit<HardwareProfile, 'memory' | 'storage' | 'nics' | 'powerSupplies'> {
  memory: (DimmSpec & { serialNumber: string })[];
  storage: ResolvedController[];
  nics: ResolvedNic[];
  powerSupplies: (PowerSupplySpec & { serialNumber: string })[];
}

export interface ResolvedController extends Omit<StorageControllerSpec, 'drives'> {
  serialNumber: string;
  drives: (DriveSpec & { serialNumber: string; uuid: string })[];
}

export interface ResolvedNic extends Omit<NicSpec, 'ports'> {
  serialNumber: string;
  ports: (NicPortSpec & { mac: string })[];
}

export function resolveHardware(profile: HardwareProfile, seed: string): Hardware {
  let portIndex = 0;
  return {
    ...profile,
    // Empty slots have no serial: '' (the API leaves it out).
    memory: profile.memory.map((d) => ({
      ...d,
      serialNumber: d.serialNumber ?? (d.present ? componentSerial(seed, `dimm:${d.location}`, '', 8, '0123456789ABCDEF') : ''),
    })),
    storage: profile.storage.map((c) => ({
      ...c,
      serialNumber: c.serialNumber ?? componentSerial(seed, `controller:${c.id}`, 'PEYHN0', 8),
      drives: c.drives.map((d) => ({
        ...d,
        serialNumber: d.serialNumber ?? componentSerial(seed, `drive:${c.id}:${d.bay}`, d.protocol === 'NVMe' ? 'S4' : 'WFK', 10),
        uuid: componentUuid(seed, `drive:${c.id}:${d.bay}`),
      })),
    })),
    nics: profile.nics.map((n) => ({
      ...n,
      serialNumber: n.serialNumber ?? componentSerial(seed, `nic:${n.id}`, 'MXA', 7),
      ports: n.ports.map((p) => ({ ...p, mac: p.mac ?? portMac(seed, portIndex++) })),
    })),
    powerSupplies: profile.powerSupplies.map((p) => ({
      ...p,
      serialNumber: p.serialNumber ?? componentSerial(seed, `psu:${p.bay}`, '5WBXK0', 8),
    })),
  };
}
