// Boot options follow the hardware: logical drives, NVMe drives and NIC ports
// of the profile, numbered Boot0001... in the ROM's default order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootOptionsFor } from '../../../src/domain/bios/boot.js';
import { resolveHardware } from '../../../src/platform/hardware/identity.js';
import { loadHardwareProfile } from '../../../src/platform/hardware/profile.js';

const hw = (name: string, seed = 'seed') => resolveHardware(loadHardwareProfile(name), seed);

describe('boot options from the hardware profile', () => {
  it('the default profile: the RAID 1 logical drive first, PXE on port 1 of each NIC, USB, virtual CD, shell', () => {
    const h = hw('default');
    const options = bootOptionsFor(h);
    assert.deepEqual(
      options.map((o) => [o.id, o.structured, o.alias]),
      [
        ['Boot0001', 'HD.Emb.1.2', 'Hdd'],
        ['Boot0002', 'NIC.LOM.1.1.IPv4', 'Pxe'],
        ['Boot0003', 'NIC.LOM.1.1.IPv6', 'Pxe'],
        ['Boot0004', 'NIC.LOM.1.1.Httpv4', 'UefiHttp'],
        ['Boot0005', 'NIC.Slot.1.1.IPv4', 'Pxe'],
        ['Boot0006', 'Generic.USB.1.1', 'Usb'],
        ['Boot0007', 'CD.Virtual.2.1', 'Cd'],
        ['Boot0008', 'Shell.Emb.1.1', 'UefiShell'],
      ],
    );
    // RAID 1 of two 480 GB SSDs: one drive's capacity.
    assert.match(
      options[0]!.displayName,
      /^Embedded RAID 1 : Smart Storage RAID P408i-a - 447\.1 GiB, RAID1 Logical Drive 1 \(Target:0, Lun:0\)$/,
    );
    const mac = h.nics[0]!.ports[0]!.mac.replace(/:/g, '').toUpperCase();
    assert.ok(options[1]!.uefiDevicePath.includes(`MAC(${mac},0x1)`), 'the PXE option names its port by MAC');
    assert.equal(new Set(options.map((o) => o.uefiDevicePath)).size, options.length, 'device paths unique');
  });

  it('the NVMe profile: the boot mirror, then each direct-attached NVMe drive', () => {
    const options = bootOptionsFor(hw('vs380-gen10-nvme'));
    assert.equal(options[0]!.structured, 'HD.Slot.3.2');
    assert.match(options[0]!.displayName, /NS204i-p NVMe Boot Device - 447\.1 GiB, RAID1 Boot Mirror/);
    const nvme = options.filter((o) => o.uefiDevicePath.includes('/NVMe(0x1,'));
    assert.equal(nvme.length, 8);
    assert.equal(nvme[0]!.structured, 'HD.Emb.1.1');
    assert.equal(new Set(options.map((o) => o.uefiDevicePath)).size, options.length);
  });

  it('a controller without logical drives offers none; the MACs follow the seed', () => {
    const a = bootOptionsFor(hw('vs360-gen10', 'a'));
    assert.ok(!a.some((o) => o.structured.startsWith('HD.')), 'S100i without logical drives: no disk option');
    const b = bootOptionsFor(hw('vs360-gen10', 'b'));
    assert.deepEqual(
      a.map((o) => o.structured),
      b.map((o) => o.structured),
    );
    assert.notEqual(a[0]!.uefiDevicePath, b[0]!.uefiDevicePath);
  });
});
