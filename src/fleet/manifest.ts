// The fleet manifest (--fleet-manifest): the whole fleet as groups of alike
// controllers, in index order. Each group says what its controllers are
// (hardware profile) and how they leave the factory (firmware versions, power,
// license). A shard of the fleet takes the indexes it serves from it.
import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { FACTORY_DEVICE_CLASSES } from '../domain/firmware/inventory.js';
import type { FactoryState } from '../domain/fleet/fleet-view.js';
import { LICENSE_TIERS } from '../domain/licensing/tiers.js';
import { shippedProfileNames } from '../platform/hardware/profile.js';

export interface FleetGroup extends FactoryState {
  count: number;
  /** A shipped profile's name, or a file (relative to the manifest). */
  hardware: string;
}

export class FleetManifestError extends Error {}

const GROUP_FIELDS = ['count', 'hardware', 'firmware', 'power', 'license'];
const VERSION = /^[\x21-\x7e](?:[\x20-\x7e]{0,62}[\x21-\x7e])?$/;

/** Reads and checks a manifest; an error names the file, the group and the field. */
export function loadFleetManifest(file: string, defaultHardware: string): FleetGroup[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new FleetManifestError(`fleet manifest ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  try {
    return parseFleetManifest(text, extname(file).toLowerCase() === '.json', defaultHardware, dirname(resolve(file)));
  } catch (e) {
    if (e instanceof FleetManifestError) throw new FleetManifestError(`fleet manifest ${file}: ${e.message}`);
    throw e;
  }
}

export function parseFleetManifest(text: string, json: boolean, defaultHardware: string, baseDir: string): FleetGroup[] {
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new FleetManifestError(`not valid ${json ? 'JSON' : 'YAML'}: ${(e as Error).message.split('\n')[0]}`);
  }
  const groups = isObject(raw) ? raw.groups : undefined;
  if (!isObject(raw) || Object.keys(raw).some((k) => k !== 'groups'))
    throw new FleetManifestError('expected an object with one key, groups');
  if (!Array.isArray(groups) || groups.length === 0) throw new FleetManifestError('groups: expected a non-empty list');
  return groups.map((g, i) => parseGroup(g, `groups[${i}]`, defaultHardware, baseDir));
}

function parseGroup(g: unknown, at: string, defaultHardware: string, baseDir: string): FleetGroup {
  if (!isObject(g)) throw new FleetManifestError(`${at}: expected an object`);
  const unknown = Object.keys(g).find((k) => !GROUP_FIELDS.includes(k));
  if (unknown) throw new FleetManifestError(`${at}.${unknown}: not a group field (${GROUP_FIELDS.join(', ')})`);
  const { count, hardware, firmware, power, license } = g;
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 100_000) {
    throw new FleetManifestError(`${at}.count: expected a whole number from 1 to 100000, got ${JSON.stringify(count)}`);
  }
  const group: FleetGroup = { count: count as number, hardware: defaultHardware };
  if (hardware !== undefined) {
    if (typeof hardware !== 'string' || hardware === '') throw new FleetManifestError(`${at}.hardware: expected a profile name or file`);
    const shipped = shippedProfileNames().includes(hardware);
    group.hardware = shipped || isAbsolute(hardware) ? hardware : resolve(baseDir, hardware);
  }
  if (firmware !== undefined) {
    if (!isObject(firmware)) throw new FleetManifestError(`${at}.firmware: expected a map of device class to version`);
    for (const [cls, version] of Object.entries(firmware)) {
      if (!FACTORY_DEVICE_CLASSES.includes(cls)) {
        throw new FleetManifestError(`${at}.firmware.${cls}: not a device class (${FACTORY_DEVICE_CLASSES.join(', ')})`);
      }
      if (typeof version !== 'string' || !VERSION.test(version)) {
        throw new FleetManifestError(`${at}.firmware.${cls}: expected a version string of 1-64 printable characters`);
      }
    }
    group.firmware = firmware as Record<string, string>;
  }
  if (power !== undefined) {
    if (power !== 'On' && power !== 'Off') throw new FleetManifestError(`${at}.power: expected On or Off, got ${JSON.stringify(power)}`);
    group.power = power;
  }
  if (license !== undefined) {
    if (!LICENSE_TIERS.includes(license as never)) {
      throw new FleetManifestError(`${at}.license: expected one of ${LICENSE_TIERS.join(', ')}, got ${JSON.stringify(license)}`);
    }
    group.license = license as FleetGroup['license'];
  }
  return group;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
