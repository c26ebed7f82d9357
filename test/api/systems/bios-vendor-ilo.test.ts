// Issue 28, item 3 and 5: the vendor BIOS resources where iLO 6 (and iLO 5 from v2) puts
// them, Bios/Oem/Vendor/<Name>/ with Settings/ and BaseConfigs/ (the earlier Bios/<Name>/
// stay as aliases), the boot order's pending area, the PCI settings map, and the
// Bios actions with the parameters iLO takes (what ilorest biosdefaults and setpassword send).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resetServer as resetHost } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const BIOS = `${SYS}Bios/`;
const OEM = `${BIOS}Oem/Vendor/`;

describe('vendor BIOS resources at the iLO place', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const resetServer = () => resetHost(svc);

  it('links each resource at Bios/Oem/Vendor/, each with a current, a pending and a defaults view', async () => {
    const links = (await svc.get(BIOS)).body.Oem.Vendor.Links;
    for (const name of ['Boot', 'iScsi', 'ServerConfigLock', 'KmsConfig', 'TlsConfig']) {
      assert.equal(links[name]['@odata.id'], `${OEM}${name}/`);
      const current = await svc.get(`${OEM}${name}/`);
      assert.equal(current.status, 200, name);
      assert.match(current.body.Name, / Current Settings$/);
      assert.equal(current.body['@Redfish.Settings'].SettingsObject['@odata.id'], `${OEM}${name}/Settings/`);
      assert.equal(current.body.Oem.Vendor.Links.BaseConfigs['@odata.id'], `${OEM}${name}/BaseConfigs/`);
      const pending = await svc.get(`${OEM}${name}/Settings/`);
      assert.match(pending.body.Name, / Pending Settings$/);
      assert.match(pending.headers.allow ?? '', /PATCH/);
      const defaults = await svc.get(`${OEM}${name}/BaseConfigs/`);
      assert.equal(defaults.status, 200);
      assert.equal(defaults.body.BaseConfigs.length, 1);
      assert.deepEqual(defaults.body.Capabilities, { BaseConfig: true, BaseConfigs: false });
    }
    // Not at the earlier place as well (--vendor-bios-place bios serves them there: bios-vendor.test.ts).
    assert.equal((await svc.get(`${BIOS}Boot/`)).status, 404);
    // The BIOS defaults are the ones of this hardware (two threads per core: Hyper-Threading on).
    const biosDefaults = (await svc.get(links.BaseConfigs['@odata.id'])).body.BaseConfigs[0].default;
    assert.equal(biosDefaults.ProcHyperthreading, 'Enabled');
    assert.equal(biosDefaults.EmbNicPort1Boot, 'NetworkBoot');
  });

  it('takes a boot order in the pending area by structured boot strings and applies it at the next server reset', async () => {
    const current = (await svc.get(`${OEM}Boot/`)).body;
    const order: string[] = current.PersistentBootConfigOrder;
    assert.equal(current.BootSources.length, order.length);
    const last = order.at(-1)!;
    let r = await svc.req('PATCH', `${OEM}Boot/Settings/`, { body: { PersistentBootConfigOrder: ['Bogus.Thing.1.1'] } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    r = await svc.req('PATCH', `${OEM}Boot/Settings/`, { body: { PersistentBootConfigOrder: [last, last] } });
    assert.equal(r.status, 400);
    const wwn = { CorrelatableID: 'PciRoot(0x3)/Pci(0x0,0x0)', Lun: '0', Wwn: '500143802426BAF4', iScsiTargetName: '' };
    // The order may name only what moves to the front; the rest keeps its order behind.
    r = await svc.req('PATCH', `${OEM}Boot/Settings/`, { body: { PersistentBootConfigOrder: [last], DesiredBootDevices: [wwn] } });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.SystemResetRequired']);
    const expected = [last, ...order.slice(0, -1)];
    assert.deepEqual((await svc.get(`${OEM}Boot/Settings/`)).body.PersistentBootConfigOrder, expected);
    assert.deepEqual((await svc.get(`${OEM}Boot/`)).body.PersistentBootConfigOrder, order, 'nothing changes before the reset');
    await resetServer();
    const after = (await svc.get(`${OEM}Boot/`)).body;
    assert.deepEqual(after.PersistentBootConfigOrder, expected);
    assert.deepEqual(after.DesiredBootDevices[0], wwn);
    assert.equal(after['@Redfish.Settings'].Messages[0].MessageId, 'Base.1.12.Success', 'the order was taken in at POST');
    assert.equal(after.DesiredBootDevices.length, 5);
    // One model: the standard boot order is the same order.
    const system = (await svc.get(SYS)).body;
    const byRef = new Map<string, string>(after.BootSources.map((s: any) => [s.BootOptionReference, s.StructuredBootString]));
    assert.deepEqual(
      system.Boot.BootOrder.map((ref: string) => byRef.get(ref)),
      expected,
    );
    svc = await svc.restart();
    assert.deepEqual((await svc.get(`${OEM}Boot/`)).body.PersistentBootConfigOrder, expected);
  });

  it('takes iSCSI settings in the pending area, lists the NIC sources of the hardware, and maps them to PCI devices', async () => {
    const current = (await svc.get(`${OEM}iScsi/`)).body;
    // Free attempts show instance 0 (ilorest's iscsiconfig --add takes the first of them).
    assert.deepEqual(
      current.iSCSISources.map((x: any) => x.iSCSIAttemptInstance),
      [0, 0, 0, 0],
    );
    assert.deepEqual(current.iSCSINicSources, [
      'EmbNicPort1',
      'EmbNicPort2',
      'EmbNicPort3',
      'EmbNicPort4',
      'Slot1NicPort1',
      'Slot1NicPort2',
    ]);
    const iqn = 'iqn.2021-04.com.example:node-3';
    const r = await svc.req('PATCH', `${OEM}iScsi/Settings/`, {
      body: {
        iSCSIInitiatorName: iqn,
        iSCSISources: [
          { iSCSIConnection: 'Enabled', iSCSINicSource: 'Slot1NicPort1', iSCSIAttemptInstance: 1, iSCSIAttemptName: '1' },
          {},
          {},
          {},
        ],
      },
    });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(`${OEM}iScsi/Settings/`)).body.iSCSIInitiatorName, iqn);
    assert.notEqual((await svc.get(`${OEM}iScsi/`)).body.iSCSIInitiatorName, iqn);
    await resetServer();
    const after = (await svc.get(`${OEM}iScsi/`)).body;
    assert.equal(after.iSCSIInitiatorName, iqn);
    assert.equal(after.iSCSISources[0].iSCSINicSource, 'Slot1NicPort1');
    assert.equal(after.iSCSISources[0].iSCSIAttemptInstance, 1);
    assert.equal(after.iSCSISources.length, 4);

    const map = (await svc.get(`${OEM}Mappings/`)).body.BiosPciSettingsMappings;
    const slotNic = map.find((m: any) => m.Associations.includes('Slot1NicPort1Boot'));
    assert.deepEqual(
      slotNic.Subinstances.map((s: any) => s.Associations[0]),
      ['Slot1NicPort1', 'Slot1NicPort2'],
    );
    // The same UEFI path the NIC's boot options start with.
    const boot = (await svc.get(`${OEM}Boot/`)).body.BootSources.find((s: any) => s.StructuredBootString === 'NIC.Slot.1.1.IPv4');
    assert.ok(boot.UEFIDevicePath.startsWith(`${slotNic.CorrelatableID}/`));
  });

  it('Bios.ResetBios takes ResetType default and Bios.ChangePassword iLO password names', async () => {
    let r = await svc.req('POST', `${BIOS}Actions/Bios.ResetBios/`, { body: { Action: 'Bios.ResetBios', ResetType: 'default.user' } });
    assert.equal(r.status, 400);
    r = await svc.req('POST', `${BIOS}Actions/Bios.ResetBios/`, { body: { Action: 'Bios.ResetBios', ResetType: 'default' } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(BIOS)).body.ResetBiosToDefaultsPending, true);

    const change = (body: object) => svc.req('POST', `${BIOS}Actions/Bios.ChangePassword/`, { body });
    assert.equal((await change({ PasswordName: 'Administrator', OldPassword: '', NewPassword: 'Setup-Pass-1' })).status, 200);
    // The same password as AdminPassword: its old value is now needed.
    assert.equal((await change({ PasswordName: 'AdminPassword', OldPassword: '', NewPassword: 'x' })).status, 400);
    assert.equal((await change({ PasswordName: 'AdminPassword', OldPassword: 'Setup-Pass-1', NewPassword: '' })).status, 200);
    assert.equal((await change({ PasswordName: 'User', OldPassword: '', NewPassword: 'Power-On-2' })).status, 200);
    assert.equal((await change({ PasswordName: 'PowerOnPassword', OldPassword: 'Power-On-2', NewPassword: '' })).status, 200);
  });
});
