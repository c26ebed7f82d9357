import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const RESET = `${SYS}Actions/ComputerSystem.Reset/`;
const BUTTON = `${SYS}Actions/Oem/Vendor/VendorComputerSystemExt.PowerButton/`;
const AUX = `${SYS}Actions/Oem/Vendor/VendorComputerSystemExt.SystemReset/`;
const BOOT_TIME = 2000 + 5000; // power on + POST (fast timings)

describe('ComputerSystem', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const reset = (ResetType: unknown) => svc.req('POST', RESET, { body: { ResetType } });
  /** The server on and booted, whatever an earlier test left. */
  const powerOn = async () => {
    if ((await svc.get(SYS)).body.PowerState === 'Off') {
      assert.equal((await reset('On')).status, 200);
      await svc.clock.advance(BOOT_TIME);
    }
    assert.equal((await svc.get(SYS)).body.PowerState, 'On');
  };

  it('lists the one system in the collection', async () => {
    const r = await svc.get('/redfish/v1/Systems/');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.Members, [{ '@odata.id': SYS }]);
    assert.equal(r.body['Members@odata.count'], 1);
    assert.equal((await svc.get('/redfish/v1/Systems/2/')).status, 404);
  });

  it('describes the server with links, inventory and a stable UUID', async () => {
    const r = await svc.get(SYS);
    assert.equal(r.status, 200);
    const b = r.body;
    assert.equal(b['@odata.type'], '#ComputerSystem.v1_27_0.ComputerSystem');
    assert.equal(b.PowerState, 'Off');
    assert.equal(b.Bios['@odata.id'], `${SYS}Bios/`);
    assert.equal(b.SecureBoot['@odata.id'], `${SYS}SecureBoot/`);
    assert.equal(b.LogServices['@odata.id'], `${SYS}LogServices/`);
    assert.deepEqual(b.Links.Chassis, [{ '@odata.id': '/redfish/v1/Chassis/1/' }]);
    assert.deepEqual(b.Links.ManagedBy, [{ '@odata.id': '/redfish/v1/Managers/1/' }]);
    assert.equal(b.Manufacturer, 'Vendor');
    assert.match(b.SerialNumber, /^CZJ[A-Z0-9]{7}$/);
    assert.match(b.UUID, /^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    assert.equal(b.ProcessorSummary.Count, 2);
    assert.equal(b.MemorySummary.TotalSystemMemoryGiB, 384);
    assert.match(b.BiosVersion, /^U30 v/);
    assert.equal(b.TrustedModules[0].InterfaceType, 'TPM2_0');
    assert.equal(b.Oem.Vendor.PostState, 'PowerOff');
    assert.equal(b.Status.State, 'StandbyOffline');
    assert.match(r.headers.allow ?? '', /PATCH/);
  });

  it('advertises the reset types and the vendor actions, also under $select', async () => {
    const r = await svc.get(`${SYS}?$select=Actions,Oem/Vendor/Actions/`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      Object.keys(r.body)
        .filter((k) => !k.startsWith('@'))
        .sort(),
      ['Actions', 'Oem'],
    );
    const reset = r.body.Actions['#ComputerSystem.Reset'];
    assert.equal(reset.target, RESET);
    assert.deepEqual(reset['ResetType@Redfish.AllowableValues'], [
      'On',
      'ForceOff',
      'GracefulShutdown',
      'ForceRestart',
      'GracefulRestart',
      'Nmi',
      'PushPowerButton',
    ]);
    const vendor = r.body.Oem.Vendor.Actions;
    assert.equal(vendor['#VendorComputerSystemExt.PowerButton'].target, BUTTON);
    assert.deepEqual(vendor['#VendorComputerSystemExt.PowerButton']['PushType@Redfish.AllowableValues'], ['Press', 'PressAndHold']);
    assert.equal(vendor['#VendorComputerSystemExt.SystemReset'].target, AUX);
    assert.deepEqual(Object.keys(r.body.Oem.Vendor), ['Actions']);
  });

  it('powers on with ComputerSystem.Reset On and reports the phases', async () => {
    const r = await reset('On');
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    let b = (await svc.get(SYS)).body;
    assert.equal(b.PowerState, 'PoweringOn');
    assert.equal(b.Oem.Vendor.PostState, 'Reset');
    assert.equal(b.LastResetTime, '2026-11-22T08:00:00Z');
    await svc.clock.advance(2000);
    b = (await svc.get(SYS)).body;
    assert.equal(b.PowerState, 'On');
    assert.equal(b.Oem.Vendor.PostState, 'InPost');
    assert.equal(b.BootProgress.LastState, 'MemoryInitializationStarted');
    assert.equal(b.Status.State, 'Starting');
    await svc.clock.advance(5000);
    b = (await svc.get(SYS)).body;
    assert.equal(b.Oem.Vendor.PostState, 'FinishedPost');
    assert.equal(b.BootProgress.LastState, 'OSRunning');
    assert.equal(b.Status.State, 'Enabled');
    assert.equal(b.Oem.Vendor.BootCount, 1);
    assert.equal(b.Oem.Vendor.LastBootOption, 'HD.Emb.1.2');
  });

  it('answers 400 to a reset that does not apply in the current state', async () => {
    await powerOn();
    const r = await reset('On');
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.InvalidOperationForSystemState']);
    assert.equal(r.body.error.code, 'Vendor.1.0.InvalidOperationForSystemState');
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].MessageArgs, ['On', 'running its operating system']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/ResetType']);
  });

  it('answers 400 to bad action parameters', async () => {
    let r = await reset('Reboot');
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    r = await svc.req('POST', RESET, { body: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterMissing']);
    r = await reset(3);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueTypeError']);
    r = await svc.req('POST', BUTTON, { body: { PushType: 'Tap' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    r = await svc.req('POST', AUX, { body: { ResetType: 'ColdBoot' } });
    assert.equal(r.status, 400);
    r = await svc.req('POST', '/redfish/v1/Systems/9/Actions/ComputerSystem.Reset/', { body: { ResetType: 'On' } });
    assert.equal(r.status, 404);
    r = await svc.req('GET', RESET);
    assert.equal(r.status, 405);
  });

  it('GracefulShutdown powers off after the OS shutdown; ForceOff at once', async () => {
    await powerOn();
    assert.equal((await reset('GracefulShutdown')).status, 200);
    assert.equal((await svc.get(SYS)).body.PowerState, 'PoweringOff');
    await svc.clock.advance(5000);
    assert.equal((await svc.get(SYS)).body.PowerState, 'Off');
    assert.equal((await reset('ForceOff')).status, 400);
    await reset('On');
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await reset('ForceOff')).status, 200);
    assert.equal((await svc.get(SYS)).body.PowerState, 'Off');
  });

  it('ForceRestart, GracefulRestart and Nmi restart the server without powering it off', async () => {
    await reset('On');
    await svc.clock.advance(BOOT_TIME);
    const count = async () => (await svc.get(SYS)).body.Oem.Vendor.BootCount as number;
    const start = await count();
    assert.equal((await reset('ForceRestart')).status, 200);
    assert.equal((await svc.get(SYS)).body.PowerState, 'On');
    await svc.clock.advance(BOOT_TIME);
    assert.equal(await count(), start + 1);
    assert.equal((await reset('GracefulRestart')).status, 200);
    await svc.clock.advance(5000 + BOOT_TIME);
    assert.equal(await count(), start + 2);
    assert.equal((await reset('Nmi')).status, 200);
    await svc.clock.advance(5000 + BOOT_TIME);
    assert.equal(await count(), start + 3);
    assert.equal((await reset('PushPowerButton')).status, 200);
    assert.equal((await svc.get(SYS)).body.PowerState, 'PoweringOff');
    await svc.clock.advance(5000);
  });

  it('the vendor PowerButton presses and holds the button', async () => {
    let r = await svc.req('POST', BUTTON, { body: { PushType: 'PressAndHold' } });
    assert.equal(r.status, 400, 'nothing to hold off when off');
    r = await svc.req('POST', BUTTON, { body: { PushType: 'Press' } });
    assert.equal(r.status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await svc.get(SYS)).body.PowerState, 'On');
    r = await svc.req('POST', BUTTON, { body: { PushType: 'PressAndHold' } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(SYS)).body.PowerState, 'Off');
  });

  it('SystemReset arms an auxiliary power cycle while on and runs it at the next power off', async () => {
    await reset('On');
    await svc.clock.advance(BOOT_TIME);
    let r = await svc.req('POST', AUX, { body: {} });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success', 'Vendor.1.0.AuxPowerCycleArmed']);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.AuxPowerCycleArmed, true);
    await reset('ForceOff');
    // The controller restarted with the server: the session is gone.
    r = await svc.get(SYS);
    assert.equal(r.status, 401);
    r = await svc.get(SYS, { auth: 'basic' });
    assert.equal(r.body.Oem.Vendor.AuxPowerCycleArmed, false);
    // Off: immediate, with no body at all.
    r = await svc.req('POST', AUX, { auth: 'basic' });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
  });

  it('needs the power privilege for resets', async () => {
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: 'reader', Password: 'Reader-Pass-1', RoleId: 'ReadOnly' });
    const r = await svc.req('POST', RESET, { body: { ResetType: 'On' }, auth: { user: 'reader', password: 'Reader-Pass-1' } });
    assert.equal(r.status, 403);
  });
});

describe('ComputerSystem.Reset in the dmtf dialect (OpenBMC-style)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf' } });
  });
  after(() => svc.close());
  const reset = (ResetType: string) => svc.req('POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset', { body: { ResetType } });
  const power = async () => (await svc.get('/redfish/v1/Systems/1')).body.PowerState;

  it('ForceOff of an Off system succeeds doing nothing; a restart of it powers it on; On of an On one does nothing', async () => {
    assert.equal(await power(), 'Off');
    assert.equal((await reset('ForceOff')).status, 200);
    assert.equal((await reset('GracefulShutdown')).status, 200);
    assert.equal(await power(), 'Off');
    assert.equal((await reset('ForceRestart')).status, 200);
    assert.equal(await power(), 'PoweringOn');
    await svc.clock.advance(BOOT_TIME);
    assert.equal(await power(), 'On');
    const boots = (await svc.get('/redfish/v1/Systems/1')).body.Oem.Vendor.BootCount;
    assert.equal((await reset('On')).status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.equal((await svc.get('/redfish/v1/Systems/1')).body.Oem.Vendor.BootCount, boots, 'On of an On system does not boot it again');
    assert.equal((await reset('ForceOff')).status, 200);
    assert.equal(await power(), 'Off');
    assert.equal((await reset('GracefulRestart')).status, 200);
    assert.equal(await power(), 'PoweringOn');
  });

  it('still refuses what the state cannot do (Nmi of an Off system)', async () => {
    assert.equal((await reset('ForceOff')).status, 200);
    const r = await reset('Nmi');
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.InvalidOperationForSystemState']);
  });
});

describe('ComputerSystem.Reset in the spec dialect (iLO)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('refuses ForceOff, ForceRestart and GracefulRestart of an Off system', async () => {
    for (const ResetType of ['ForceOff', 'ForceRestart', 'GracefulRestart']) {
      const r = await svc.req('POST', RESET, { body: { ResetType } });
      assert.equal(r.status, 400, ResetType);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.InvalidOperationForSystemState']);
    }
    assert.equal((await svc.get(SYS)).body.PowerState, 'Off');
  });
});

describe('Boot', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  const patchBoot = (Boot: unknown) => svc.req('PATCH', SYS, { body: { Boot } });
  /** The server on and booted, whatever an earlier test left. */
  const powerOn = async () => {
    if ((await svc.get(SYS)).body.PowerState === 'Off') {
      assert.equal((await svc.req('POST', RESET, { body: { ResetType: 'On' } })).status, 200);
      await svc.clock.advance(BOOT_TIME);
    }
    assert.equal((await svc.get(SYS)).body.PowerState, 'On');
  };
  const bootNow = async () => (await svc.get(SYS)).body.Boot;

  it('shows the override settings with their allowable values and the boot options', async () => {
    const b = await bootNow();
    assert.equal(b.BootSourceOverrideTarget, 'None');
    assert.equal(b.BootSourceOverrideEnabled, 'Disabled');
    assert.equal(b.BootSourceOverrideMode, 'UEFI');
    assert.deepEqual(b['BootSourceOverrideTarget@Redfish.AllowableValues'], [
      'None',
      'Cd',
      'Hdd',
      'Usb',
      'SDCard',
      'Utilities',
      'Diags',
      'BiosSetup',
      'Pxe',
      'UefiShell',
      'UefiHttp',
      'UefiTarget',
    ]);
    assert.deepEqual(b['BootSourceOverrideEnabled@Redfish.AllowableValues'], ['Disabled', 'Once', 'Continuous']);
    assert.deepEqual(b['BootSourceOverrideMode@Redfish.AllowableValues'], ['UEFI', 'Legacy']);
    assert.equal(b.HttpBootUri, null);
    assert.equal(b.BootOptions['@odata.id'], `${SYS}BootOptions/`);
    // The default profile's: its RAID 1 logical drive, PXE/HTTP on two NICs, USB, virtual CD, UEFI shell.
    assert.equal(b.BootOrder.length, 8);
  });

  it('serves the boot options with their structured boot strings', async () => {
    const c = await svc.get(`${SYS}BootOptions/`);
    assert.equal(c.status, 200);
    assert.equal(c.body['Members@odata.count'], 8);
    const all = await Promise.all(c.body.Members.map((m: any) => svc.get(m['@odata.id'])));
    const strings = all.map((r) => r.body.Oem.Vendor.StructuredBootString);
    assert.ok(strings.includes('NIC.LOM.1.1.IPv4'));
    assert.ok(strings.includes('HD.Emb.1.2'));
    for (const r of all) {
      assert.equal(r.body['@odata.type'], '#BootOption.v1_0_6.BootOption');
      assert.match(r.body.BootOptionReference, /^Boot[0-9A-F]{4}$/);
      assert.ok(r.body.DisplayName && r.body.UefiDevicePath);
      assert.match(r.body.Oem.Vendor.StructuredBootString, /^[A-Za-z]+\.[A-Za-z]+\.\d+(\.\d+)?(\.[A-Za-z0-9]+)?$/);
    }
    assert.equal((await svc.get(`${SYS}BootOptions/Boot00FF/`)).status, 404);
  });

  it('a one-time override is used by the next boot and then cleared', async () => {
    const r = await patchBoot({ BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once' });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    let b = await bootNow();
    assert.equal(b.BootSourceOverrideTarget, 'Pxe');
    assert.equal(b.BootSourceOverrideEnabled, 'Once');
    await svc.req('POST', RESET, { body: { ResetType: 'On' } });
    await svc.clock.advance(BOOT_TIME);
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.Oem.Vendor.LastBootOption, 'NIC.LOM.1.1.IPv4');
    b = sys.Boot;
    assert.equal(b.BootSourceOverrideEnabled, 'Disabled');
    assert.equal(b.BootSourceOverrideTarget, 'None');
  });

  it('a UefiHttp override boots HttpBootUri over the NIC and the IML names the URI', async () => {
    const uri = 'https://deploy.example.com/images/installer.efi';
    let r = await patchBoot({ HttpBootUri: 'ftp://deploy.example.com/x.efi' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    r = await patchBoot({ BootSourceOverrideTarget: 'UefiHttp', BootSourceOverrideEnabled: 'Once', HttpBootUri: uri });
    assert.equal(r.status, 200);
    assert.equal((await bootNow()).HttpBootUri, uri);
    if ((await svc.get(SYS)).body.PowerState === 'On') await svc.req('POST', RESET, { body: { ResetType: 'ForceRestart' } });
    else await svc.req('POST', RESET, { body: { ResetType: 'On' } });
    await svc.clock.advance(BOOT_TIME);
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.Oem.Vendor.LastBootOption, 'NIC.LOM.1.1.Httpv4');
    assert.equal(sys.Boot.BootSourceOverrideTarget, 'None', 'the one-time override is used up');
    assert.equal(sys.Boot.HttpBootUri, uri, 'the URI stays for the next UefiHttp boot');
    const iml = await svc.get(`${SYS}LogServices/IML/Entries/`);
    const http = iml.body.Members.filter((e: any) => e.MessageId === 'Vendor.1.0.HttpBoot').at(-1);
    assert.ok(http, 'an HttpBoot record');
    assert.equal(http.MessageArgs[1], uri);
    assert.equal((await patchBoot({ HttpBootUri: null })).status, 200);
    assert.equal((await bootNow()).HttpBootUri, null);
  });

  it('a continuous override stays for every boot', async () => {
    await powerOn();
    assert.equal((await patchBoot({ BootSourceOverrideTarget: 'Cd', BootSourceOverrideEnabled: 'Continuous' })).status, 200);
    for (let i = 0; i < 2; i++) {
      await svc.req('POST', RESET, { body: { ResetType: 'ForceRestart' } });
      await svc.clock.advance(BOOT_TIME);
      const sys = (await svc.get(SYS)).body;
      // The virtual CD holds no media: the boot goes on with the boot order (test/api/managers/virtual-media.test.ts).
      assert.equal(sys.Oem.Vendor.LastBootOption, 'HD.Emb.1.2');
      assert.equal(sys.Boot.BootSourceOverrideEnabled, 'Continuous');
    }
    assert.equal((await patchBoot({ BootSourceOverrideEnabled: 'Disabled', BootSourceOverrideMode: 'Legacy' })).status, 200);
    assert.equal((await bootNow()).BootSourceOverrideMode, 'Legacy');
  });

  it('rejects values outside the allowable lists', async () => {
    let r = await patchBoot({ BootSourceOverrideTarget: 'Floppy' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].MessageArgs, ['Floppy', 'Boot/BootSourceOverrideTarget']);
    r = await patchBoot({ BootSourceOverrideEnabled: 'Twice' });
    assert.equal(r.status, 400);
    r = await patchBoot({ BootSourceOverrideMode: 'BIOS' });
    assert.equal(r.status, 400);
    r = await patchBoot({ BootSourceOverrideTarget: 'UefiTarget' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyMissing']);
    r = await patchBoot({ BootSourceOverrideTarget: 'UefiTarget', UefiTargetBootSourceOverride: 'PciRoot(0x9)/Nowhere' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueNotInList']);
    const path = (await bootNow())['UefiTargetBootSourceOverride@Redfish.AllowableValues'][0];
    r = await patchBoot({ BootSourceOverrideTarget: 'UefiTarget', UefiTargetBootSourceOverride: path, BootSourceOverrideEnabled: 'Once' });
    assert.equal(r.status, 200);
  });

  it('takes a new boot order only as a whole permutation of the boot options', async () => {
    const order: string[] = (await bootNow()).BootOrder;
    const reversed = [...order].reverse();
    for (const bad of [order.slice(1), [...order.slice(1), order[1]], [...order.slice(1), 'Boot00FF'], [...order, 'Boot0001']]) {
      const r = await patchBoot({ BootOrder: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueIncorrect']);
    }
    assert.deepEqual((await bootNow()).BootOrder, order, 'unchanged after refusals');
    const r = await patchBoot({ BootOrder: reversed });
    assert.equal(r.status, 200);
    assert.deepEqual((await bootNow()).BootOrder, reversed);
    const vendor = await svc.get(`${SYS}Bios/Oem/Vendor/Boot/`);
    assert.equal(vendor.body.PersistentBootConfigOrder[0], 'Shell.Emb.1.1');
  });

  it('keeps the boot settings across a restart', async () => {
    const before = await bootNow();
    svc = await svc.restart();
    assert.deepEqual(await bootNow(), before);
  });
});
