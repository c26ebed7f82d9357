// RAID layouts as an array controller checks them: how many drives each level
// takes, what the drives must have in common, and the usable capacity.
import { baseRefusal, refusals, type Refusal } from '../../messages/refusal.js';
import { RAID_TYPES, type RaidType } from '../../platform/hardware/profile.js';

export { RAID_TYPES, type RaidType };

/** DMTF's deprecated VolumeType, which older clients (and Ironic) still send beside or instead of RAIDType. */
export const VOLUME_TYPES = [
  'RawDevice',
  'NonRedundant',
  'Mirrored',
  'StripedWithParity',
  'SpannedMirrors',
  'SpannedStripesWithParity',
] as const;
export type VolumeType = (typeof VOLUME_TYPES)[number];

export const VOLUME_TYPE_OF: Readonly<Record<RaidType, VolumeType>> = {
  RAID0: 'NonRedundant',
  RAID1: 'Mirrored',
  RAID5: 'StripedWithParity',
  RAID6: 'StripedWithParity',
  RAID10: 'SpannedMirrors',
  RAID50: 'SpannedStripesWithParity',
  RAID60: 'SpannedStripesWithParity',
  RAID1E: 'Mirrored',
  RAID6TP: 'StripedWithParity',
  RAID10Triple: 'SpannedMirrors',
};

/** The level a VolumeType alone asks for (the usual one of that kind). */
const RAID_OF_VOLUME_TYPE: Readonly<Partial<Record<VolumeType, RaidType>>> = {
  NonRedundant: 'RAID0',
  Mirrored: 'RAID1',
  StripedWithParity: 'RAID5',
  SpannedMirrors: 'RAID10',
  SpannedStripesWithParity: 'RAID50',
};

interface Level {
  /** Fewest drives. */
  min: number;
  /** Most drives (a mirror pair is exactly two). */
  max?: number;
  /** The drive count must be a multiple of this (mirrored pairs, two parity groups). */
  multiple?: number;
  /** Drives' worth of capacity that holds redundancy, given the drive count. */
  redundancy(n: number): number;
  /** The level survives a failed drive (degraded rather than failed). */
  tolerates: number;
}

// Striping uses the same extent on every drive: the smallest drive sets the extent.
// RAID50/60 are built from two parity groups (the controller's default span).
const LEVELS: Readonly<Record<RaidType, Level>> = {
  RAID0: { min: 1, redundancy: () => 0, tolerates: 0 },
  RAID1: { min: 2, max: 2, redundancy: () => 1, tolerates: 1 },
  RAID5: { min: 3, redundancy: () => 1, tolerates: 1 },
  RAID6: { min: 4, redundancy: () => 2, tolerates: 2 },
  RAID10: { min: 4, multiple: 2, redundancy: (n) => n / 2, tolerates: 1 },
  RAID50: { min: 6, multiple: 2, redundancy: () => 2, tolerates: 1 },
  RAID60: { min: 8, multiple: 2, redundancy: () => 4, tolerates: 2 },
  // Striped mirroring over an odd count too: every block twice.
  RAID1E: { min: 3, redundancy: (n) => n / 2, tolerates: 1 },
  // Triple parity, and triple mirrors striped (the vendor's "ADM" levels).
  RAID6TP: { min: 5, redundancy: () => 3, tolerates: 3 },
  RAID10Triple: { min: 6, multiple: 3, redundancy: (n) => (2 * n) / 3, tolerates: 2 },
};

/** What the rules need to know of a drive. */
export interface RaidDrive {
  /** Where the request named it, for messages: its @odata.id. */
  uri: string;
  capacityBytes: number;
  mediaType: string;
  protocol: string;
}

/** The usable capacity of `n` drives of which the smallest holds `smallest` bytes. */
export function raidCapacity(level: RaidType, capacities: readonly number[]): number {
  const n = capacities.length;
  const smallest = Math.min(...capacities);
  // Whole 512-byte blocks (RAID1E over an odd count holds half drives).
  return Math.floor(((n - LEVELS[level].redundancy(n)) * smallest) / 512) * 512;
}

/** How many failed drives the level survives (0 for RAID0: any failure fails the volume). */
export function faultTolerance(level: RaidType): number {
  return LEVELS[level].tolerates;
}

/** The RAID level a create asks for: RAIDType, else the one VolumeType implies; both must agree. */
export function requestedLevel(raidType: string | undefined, volumeType: string | undefined): RaidType {
  if (raidType !== undefined) {
    if (!isRaidType(raidType)) throw baseRefusal('PropertyValueNotInList', raidType, 'RAIDType').about('RAIDType');
    if (volumeType !== undefined && volumeType !== VOLUME_TYPE_OF[raidType]) {
      throw baseRefusal('PropertyValueConflict', 'VolumeType', 'RAIDType').about('VolumeType');
    }
    return raidType;
  }
  if (volumeType === undefined) throw baseRefusal('PropertyMissing', 'RAIDType').about('RAIDType');
  const implied = RAID_OF_VOLUME_TYPE[volumeType as VolumeType];
  if (!implied) throw baseRefusal('PropertyValueNotInList', volumeType, 'VolumeType').about('VolumeType');
  return implied;
}

function isRaidType(v: string): v is RaidType {
  return (RAID_TYPES as readonly string[]).includes(v);
}

/**
 * Checks a layout on drives that exist, belong to the controller and are free
 * (the caller checks those), and answers its capacity: the requested one if it
 * fits, else the whole. Every problem is reported, each about its property.
 */
export function planVolume(level: RaidType, supported: readonly string[], drives: readonly RaidDrive[], requestedBytes?: number): number {
  if (!supported.includes(level)) throw baseRefusal('PropertyValueNotInList', level, 'RAIDType').about('RAIDType');
  const errors: Refusal[] = [];
  const l = LEVELS[level];
  const n = drives.length;
  if (n < l.min || (l.max !== undefined && n > l.max) || (l.multiple !== undefined && n % l.multiple !== 0)) {
    errors.push(baseRefusal('PropertyValueConflict', 'Links/Drives', 'RAIDType').about('Links/Drives'));
  }
  const first = drives[0];
  drives.forEach((d, i) => {
    if (!first || i === 0) return;
    // A controller builds an array of one kind: no SSDs with HDDs, no SAS with SATA.
    if (d.mediaType !== first.mediaType || d.protocol !== first.protocol) {
      errors.push(baseRefusal('PropertyValueConflict', `Links/Drives/${i}`, 'Links/Drives/0').about(`Links/Drives/${i}`));
    }
  });
  if (errors.length) throw refusals(errors);
  const whole = raidCapacity(
    level,
    drives.map((d) => d.capacityBytes),
  );
  if (requestedBytes === undefined) return whole;
  if (requestedBytes <= 0 || requestedBytes > whole) {
    throw baseRefusal('PropertyValueOutOfRange', String(requestedBytes), 'CapacityBytes').about('CapacityBytes');
  }
  return requestedBytes;
}

/** The strip size the controllers build logical drives with (a Smart Array's default, 256 KiB). */
export const STRIP_SIZE_BYTES = 262144;
