// Issue 28 item 3 (iLO 6): each system EthernetInterface names its UEFI device path, the one the
// ROM's network boot options start with; under --oem-name Hpe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('system ethernet interfaces', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  it("names each port's UEFI device path: its adapter's PCI function for the port, then its MAC", async () => {
    const ifaces = (await svc.get(`${SYS}EthernetInterfaces/?$expand=.`)).body.Members;
    const boot = (await svc.get(`${SYS}BootOptions/?$expand=.`)).body.Members.map((o: { UefiDevicePath: string }) => o.UefiDevicePath);
    const nics = svc.running.services.hardware.nics;
    assert.equal(
      ifaces.length,
      nics.reduce((n, nic) => n + nic.ports.length, 0),
    );
    const paths = new Set<string>();
    for (const i of ifaces) {
      const port = Number(/port (\d+)$/.exec(i.Name)![1]);
      const m = /^(.*)\/Pci\(0x0,0x([0-9A-F]+)\)\/MAC\(([0-9A-F]{12}),0x1\)$/.exec(i.UefiDevicePath);
      assert.ok(m, i.UefiDevicePath);
      assert.equal(parseInt(m[2]!, 16), port - 1, 'one PCI function per port');
      assert.equal(m[3], i.MACAddress.replace(/:/g, '').toUpperCase());
      // The ROM boots from each adapter's first port: its PXE option starts with that port's path.
      if (port === 1) assert.ok(boot.includes(`${i.UefiDevicePath}/IPv4(0.0.0.0)`), i.UefiDevicePath);
      paths.add(i.UefiDevicePath);
    }
    assert.equal(paths.size, ifaces.length);
  });
});
