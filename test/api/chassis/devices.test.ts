// Issue 28, item 3: the chassis' Devices (iLO's list of installed devices) and PCIeSlots, from
// the hardware profile, linked to the system's PCIDevices and PCISlots and to the chassis' PCIeDevices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { startTestService, type TestService } from '../../support/service.js';

const CHASSIS = '/redfish/v1/Chassis/1/';

describe('chassis devices and PCIe slots', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('lists each installed device with its identity and where it sits; a fault shows on it', async () => {
    const uri = (await svc.get(CHASSIS)).body.Oem.Vendor.Links.Devices['@odata.id'];
    const members = (await svc.get(uri)).body.Members as { '@odata.id': string }[];
    const devices = await Promise.all(members.map(async (m) => (await svc.get(m['@odata.id'])).body));
    assert.deepEqual(
      devices.map((x: any) => [x.Name, x.DeviceType, x.Location, x.FirmwareVersion.Current.VersionString]),
      [
        ['Smart Storage RAID P408i-a', 'SAS/SATA Storage Controller', 'Embedded Device', '3.53'],
        ['Ethernet 1Gb 4-port BCM5719 Adapter', 'LOM/NIC', 'Embedded Device', '20.14.62'],
        ['Ethernet 10/25Gb 2-port SFP28 ConnectX-4 Lx Adapter', 'LOM/NIC', 'PCI-E Slot 1', '14.28.1002'],
      ],
    );
    const slotNic = devices[2];
    assert.equal(slotNic.PartNumber, '817753-B21');
    const adapter = (await svc.get(`${CHASSIS}NetworkAdapters/DC080000/`)).body;
    assert.equal(slotNic.SerialNumber, adapter.SerialNumber);
    // The PCIeDevice of the same board names the same part and serial number.
    const pcie = (await svc.get(`${CHASSIS}PCIeDevices/3/`)).body;
    assert.equal(pcie.PartNumber, '817753-B21');
    assert.equal(pcie.SerialNumber, adapter.SerialNumber);
    assert.equal((await svc.get(slotNic.DeviceInstances[0]['@odata.id'])).body.Name, slotNic.Name);
    assert.equal((await svc.get(slotNic.Links.PCISlot['@odata.id'])).body.Name, 'PCI-E Slot 1');
    svc.running.services.health.set(componentKey.pcie('3'), { Health: 'Critical' });
    try {
      assert.equal((await svc.get(members[2]!['@odata.id'])).body.Status.Health, 'Critical');
    } finally {
      svc.running.services.health.clear(componentKey.pcie('3'));
    }
  });

  it('lists every network adapter with the host off, and says so (MemberContents)', async () => {
    const col = (await svc.get(`${CHASSIS}NetworkAdapters/`)).body;
    assert.equal((await svc.get(CHASSIS)).body.PowerState, 'Off');
    assert.equal(col.Members.length, svc.running.services.hardware.nics.length);
    assert.equal(col.Oem.Vendor.MemberContents, 'AllDevices');
    assert.equal(col.Oem.Vendor['@odata.type'], '#VendorNetworkAdapterStatus.v1_0_0.VendorNetworkAdapterStatus');
  });

  it('lists the occupied PCIe slots with the device in each', async () => {
    const slots = (await svc.get(`${CHASSIS}PCIeSlots/`)).body.Slots;
    assert.deepEqual(
      slots.map((s: any) => [s.PCIeType, s.Lanes, s.Location.PartLocation.ServiceLabel, s.Links.PCIeDevice[0]['@odata.id']]),
      [['Gen3', 8, 'PCI-E Slot 1', `${CHASSIS}PCIeDevices/3/`]],
    );
  });
});
