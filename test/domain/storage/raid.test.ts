// RAID layout rules (src/domain/storage/raid.ts): drive counts per level, the
// usable capacity, mixed drives, the requested size, RAIDType against VolumeType.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planVolume, raidCapacity, requestedLevel, RAID_TYPES, type RaidDrive, type RaidType } from '../../../src/domain/storage/raid.js';
import { Refusal } from '../../../src/messages/refusal.js';

const TB = 1_000_000_000_000;
const hdd = (capacityBytes = TB, protocol = 'SAS'): RaidDrive => ({ uri: 'd', capacityBytes, mediaType: 'HDD', protocol });
const drives = (n: number, size = TB) => Array.from({ length: n }, () => hdd(size));

/** What planVolume answers: the capacity, or the MessageIds (without the registry version) and related properties. */
function outcome(level: RaidType, list: RaidDrive[], requested?: number, supported: readonly string[] = RAID_TYPES): string {
  try {
    return String(planVolume(level, supported, list, requested));
  } catch (e) {
    assert.ok(e instanceof Refusal, String(e));
    return e.infos.map((i) => `${i.MessageId.replace(/^Base\.1\.\d+\./, '')}@${(i.RelatedProperties ?? []).join(',')}`).join(' ');
  }
}

describe('RAID capacity', () => {
  const cases: [RaidType, number, number][] = [
    ['RAID0', 1, 1],
    ['RAID0', 4, 4],
    ['RAID1', 2, 1],
    ['RAID5', 3, 2],
    ['RAID5', 4, 3],
    ['RAID6', 4, 2],
    ['RAID6', 6, 4],
    ['RAID10', 4, 2],
    ['RAID10', 8, 4],
    ['RAID50', 6, 4],
    ['RAID60', 8, 4],
    ['RAID1E', 4, 2],
    ['RAID6TP', 5, 2],
    ['RAID10Triple', 6, 2],
  ];
  for (const [level, n, dataDrives] of cases) {
    it(`${level} over ${n} drives holds ${dataDrives} drives' worth`, () => {
      assert.equal(outcome(level, drives(n)), String(dataDrives * TB));
    });
  }

  it('stripes over the smallest drive', () => {
    assert.equal(raidCapacity('RAID0', [TB, 2 * TB]), 2 * TB);
    assert.equal(raidCapacity('RAID1', [TB, 2 * TB]), TB);
    assert.equal(raidCapacity('RAID5', [3 * TB, 2 * TB, TB]), 2 * TB);
    assert.equal(raidCapacity('RAID6', [TB, TB, TB, TB / 2]), TB);
  });

  it('rounds to whole 512-byte blocks (RAID1E over an odd count)', () => {
    const c = raidCapacity('RAID1E', [1000, 1000, 1000]);
    assert.equal(c % 512, 0);
    assert.equal(c, 1024);
  });
});

describe('RAID layouts refused', () => {
  const counts: [RaidType, number][] = [
    ['RAID1', 1],
    ['RAID1', 3],
    ['RAID5', 2],
    ['RAID6', 3],
    ['RAID10', 2],
    ['RAID10', 5],
    ['RAID50', 4],
    ['RAID50', 7],
    ['RAID60', 6],
    ['RAID1E', 2],
    ['RAID10Triple', 4],
  ];
  for (const [level, n] of counts) {
    it(`${level} with ${n} drives: the drive count conflicts with RAIDType`, () => {
      assert.equal(outcome(level, drives(n)), 'PropertyValueConflict@#/Links/Drives');
    });
  }

  it('mixed media or protocols: each odd drive named', () => {
    const ssd: RaidDrive = { uri: 's', capacityBytes: TB, mediaType: 'SSD', protocol: 'SAS' };
    assert.equal(
      outcome('RAID5', [hdd(), ssd, hdd(TB, 'SATA')]),
      'PropertyValueConflict@#/Links/Drives/1 PropertyValueConflict@#/Links/Drives/2',
    );
  });

  it('a level the controller cannot build', () => {
    assert.equal(outcome('RAID6', drives(4), undefined, ['RAID0', 'RAID1']), 'PropertyValueNotInList@#/RAIDType');
  });

  it('a requested size: up to the whole layout, not beyond', () => {
    assert.equal(outcome('RAID1', drives(2), 100 * 1024 ** 3), String(100 * 1024 ** 3));
    assert.equal(outcome('RAID1', drives(2), TB), String(TB));
    assert.equal(outcome('RAID1', drives(2), TB + 1), 'PropertyValueOutOfRange@#/CapacityBytes');
  });
});

describe('requested level', () => {
  it('RAIDType wins; VolumeType alone implies the usual level; they must agree', () => {
    assert.equal(requestedLevel('RAID6', undefined), 'RAID6');
    assert.equal(requestedLevel('RAID10', 'SpannedMirrors'), 'RAID10');
    assert.equal(requestedLevel(undefined, 'Mirrored'), 'RAID1');
    assert.equal(requestedLevel(undefined, 'StripedWithParity'), 'RAID5');
    assert.equal(requestedLevel(undefined, 'NonRedundant'), 'RAID0');
    const ids = (f: () => unknown) => {
      try {
        f();
        return 'ok';
      } catch (e) {
        return (e as Refusal).infos.map((i) => i.MessageId.replace(/^Base\.1\.\d+\./, '')).join(' ');
      }
    };
    assert.equal(
      ids(() => requestedLevel('RAID1', 'StripedWithParity')),
      'PropertyValueConflict',
    );
    assert.equal(
      ids(() => requestedLevel(undefined, undefined)),
      'PropertyMissing',
    );
    assert.equal(
      ids(() => requestedLevel(undefined, 'RawDevice')),
      'PropertyValueNotInList',
    );
  });
});
