// The server configuration lock's digest covers the processors, DIMMs and PCIe slots, each
// unless the lock's settings exclude it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverConfigLockOptions, type LockedParts } from '../../../src/domain/bios/vendor-settings.js';

const digest = (parts: LockedParts, excluded: Record<string, boolean | string>) => {
  const o = serverConfigLockOptions('SN1', parts);
  const next = { ...o.defaults, ServerConfigLockStatus: 'Enabled', ...excluded };
  return o.derive?.(next, { bootCount: 3 } as never).ServerConfigLockDigest;
};

describe('server configuration lock digest', () => {
  const parts = { cpus: 'Proc 1=Xeon', dimms: 'PROC 1 DIMM 1=M1/S1', pciSlots: '1=NIC' };
  it('changes with each part it covers, and not with one it excludes', () => {
    const base = digest(parts, {});
    assert.match(String(base), /^[0-9a-f]{64}$/);
    for (const [key, exclude] of [
      ['cpus', 'ServerConfigLockExcludeCpus'],
      ['dimms', 'ServerConfigLockExcludeDimms'],
      ['pciSlots', 'ServerConfigLockExcludePciSlots'],
    ] as const) {
      const changed = { ...parts, [key]: `${parts[key]},more` };
      assert.notEqual(digest(changed, {}), base, key);
      assert.equal(digest(changed, { [exclude]: true }), digest(parts, { [exclude]: true }), exclude);
    }
    assert.equal(digest(parts, { ServerConfigLockStatus: 'Disabled' }), null);
  });
});
