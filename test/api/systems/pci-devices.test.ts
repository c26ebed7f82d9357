// Issue 28, item 3: iLO's PCIDevices and PCISlots views of the hardware profile's PCIe devices,
// by the same UEFI device paths the boot sources and the BIOS PCI mappings use.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('PCI devices and slots of the system', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const all = async (uri: string) =>
    Promise.all(((await svc.get(uri)).body.Members as { '@odata.id': string }[]).map(async (m) => (await svc.get(m['@odata.id'])).body));

  it('lists every PCIe device of the profile with its PCI ids, class and UEFI path', async () => {
    const links = (await svc.get(SYS)).body.Oem.Vendor.Links;
    const devices = await all(links.PCIDevices['@odata.id']);
    assert.deepEqual(
      devices.map((x: any) => [x.Name, x.DeviceType, x.DeviceLocation, x.StructuredName, x.ClassCode, x.SubclassCode]),
      [
        ['Smart Storage RAID P408i-a', 'Storage Controller', 'Embedded', 'Storage.Emb.1.1', 1, 4],
        ['Ethernet 1Gb 4-port BCM5719 Adapter', 'LOM/NIC', 'Embedded', 'NIC.LOM.1.1', 2, 0],
        ['Ethernet 10/25Gb 2-port SFP28 ConnectX-4 Lx Adapter', 'NIC', 'PCI-E Slot 1', 'NIC.Slot.1.1', 2, 0],
      ],
    );
    const slotNic = devices[2];
    assert.deepEqual([slotNic.VendorID, slotNic.DeviceID, slotNic.SubsystemVendorID], [0x15b3, 0x1015, 0x1590]);
    const boot = (await svc.get(`${SYS}Bios/Oem/Vendor/Boot/`)).body.BootSources;
    const pxe = boot.find((s: any) => s.StructuredBootString === 'NIC.Slot.1.1.IPv4');
    assert.ok(pxe.UEFIDevicePath.startsWith(`${slotNic.UEFIDevicePath}/`));
    const map = (await svc.get(`${SYS}Bios/Oem/Vendor/Mappings/`)).body.BiosPciSettingsMappings;
    // The NICs, by their enable and their ports' network boot; the RAID controller has no attribute of its own.
    assert.deepEqual(
      map.map((m: any) => [m.CorrelatableID, m.Associations[0]]),
      [
        [devices[1].UEFIDevicePath, 'EmbNicEnable'],
        [slotNic.UEFIDevicePath, 'PciSlot1Enable'],
      ],
    );
  });

  it('lists the slots the devices sit in', async () => {
    const slots = await all((await svc.get(SYS)).body.Oem.Vendor.Links.PCISlots['@odata.id']);
    assert.deepEqual(
      slots.map((s: any) => [s.Id, s.Name, s.Technology, s.LinkLanes, s.Status.OperationalStatus[0].Status]),
      [['1', 'PCI-E Slot 1', 'PCIExpressGen3', 'x8', 'InUse']],
    );
    const links = (await svc.get(SYS)).body.Oem.Vendor.Links;
    for (const uri of [links.PCIDevices['@odata.id'], links.PCISlots['@odata.id']])
      assert.match((await svc.get(uri)).body.Description, /^The PCI/, uri);
  });
});
