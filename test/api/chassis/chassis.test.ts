import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost, powerOff } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const CHASSIS = '/redfish/v1/Chassis/1/';

describe('chassis', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('lists the one chassis and 404s other ids', async () => {
    const c = await svc.get('/redfish/v1/Chassis/');
    assert.equal(c.status, 200);
    assert.deepEqual(c.body.Members, [{ '@odata.id': CHASSIS }]);
    assert.equal(c.body['Members@odata.count'], 1);
    const miss = await svc.get('/redfish/v1/Chassis/2/');
    assert.equal(miss.status, 404);
    assert.deepEqual(messageIds(miss.body), ['Base.1.12.ResourceMissingAtURI']);
  });

  it('describes a rack-mount server with its links and the VendorServerChassis extension', async () => {
    const r = await svc.get(CHASSIS);
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.type'], '#Chassis.v1_28_0.Chassis');
    assert.equal(r.body.ChassisType, 'RackMount');
    assert.equal(r.body.Manufacturer, 'Vendor');
    assert.ok(r.body.Model);
    assert.match(r.body.SerialNumber, /^CZ[0-9A-F]{8}$/);
    assert.equal(r.body.PowerState, 'Off');
    assert.equal(r.body.Status.State, 'Enabled');
    assert.deepEqual(r.body.Links.ComputerSystems, [{ '@odata.id': '/redfish/v1/Systems/1/' }]);
    assert.deepEqual(r.body.Links.ManagedBy, [{ '@odata.id': '/redfish/v1/Managers/1/' }]);
    assert.deepEqual(r.body.Thermal, { '@odata.id': '/redfish/v1/Chassis/1/Thermal/' });
    assert.equal(r.body.Oem.Vendor['@odata.type'], '#VendorServerChassis.v1_0_0.VendorServerChassis');
    // Nothing reported before the host's first POST.
    assert.deepEqual(r.body.Oem.Vendor.Firmware, {});
    // The board's DIP switches: all off (Sw1 off: no security override), as the service root says.
    const switches = r.body.Oem.Vendor.SystemMaintenanceSwitches;
    assert.equal(Object.keys(switches).length, 12);
    assert.ok(Object.values(switches).every((v) => v === 'Off'));
    assert.equal(r.body.Oem.Vendor.ElConfigOverride, false);
    assert.match(r.headers.allow ?? '', /PATCH/);
    // Serial number is stable across restarts.
    const serial = r.body.SerialNumber;
    svc = await svc.restart();
    assert.equal((await svc.get(CHASSIS)).body.SerialNumber, serial);
  });

  it('mirrors the host power state', async () => {
    const server = svc.running.services.server;
    server.reset('On');
    await svc.clock.advance(1000);
    assert.equal((await svc.get(CHASSIS)).body.PowerState, 'PoweringOn');
    await svc.clock.advance(4000);
    await server.postSettled();
    assert.equal((await svc.get(CHASSIS)).body.PowerState, 'On');
    await powerOff(svc);
    assert.equal((await svc.get(CHASSIS)).body.PowerState, 'Off');
  });

  it('PATCH LocationIndicatorActive answers 200 with Success and lights the UID', async () => {
    const r = await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: true } });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    const got = await svc.get(CHASSIS);
    assert.equal(got.body.LocationIndicatorActive, true);
    assert.equal(got.body.IndicatorLED, 'Lit');
  });

  it('a string for LocationIndicatorActive gives 400 PropertyValueTypeError with [value, property]', async () => {
    // Off first, so that a string taken as true would show.
    assert.equal((await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: false } })).status, 200);
    const r = await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: 'true' } });
    assert.equal(r.status, 400);
    const info = r.body.error['@Message.ExtendedInfo'];
    assert.equal(info.length, 1);
    assert.equal(info[0].MessageId, 'Base.1.12.PropertyValueTypeError');
    assert.deepEqual(info[0].MessageArgs, ['true', 'LocationIndicatorActive']);
    // Nothing changed.
    assert.equal((await svc.get(CHASSIS)).body.LocationIndicatorActive, false);
  });

  it('IndicatorLED and LocationIndicatorActive stay in step; contradictions are refused', async () => {
    assert.equal((await svc.req('PATCH', CHASSIS, { body: { IndicatorLED: 'Blinking' } })).status, 200);
    let got = await svc.get(CHASSIS);
    assert.equal(got.body.LocationIndicatorActive, true);
    // Turning the locator "on" again keeps it blinking.
    await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: true } });
    assert.equal((await svc.get(CHASSIS)).body.IndicatorLED, 'Blinking');

    const bad = await svc.req('PATCH', CHASSIS, { body: { IndicatorLED: 'Off', LocationIndicatorActive: true } });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.PropertyValueConflict']);
    const notInList = await svc.req('PATCH', CHASSIS, { body: { IndicatorLED: 'Flashing' } });
    assert.equal(notInList.status, 400);
    assert.deepEqual(messageIds(notInList.body), ['Base.1.12.PropertyValueNotInList']);

    await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: false } });
    got = await svc.get(CHASSIS);
    assert.equal(got.body.IndicatorLED, 'Off');
    assert.equal(got.body.LocationIndicatorActive, false);
  });

  it('applies the good part of a mixed PATCH, reports the bad part, and keeps it across restarts', async () => {
    const r = await svc.req('PATCH', CHASSIS, { body: { AssetTag: 'RACK-12-U07', LocationIndicatorActive: 'yes', SerialNumber: 'X' } });
    assert.equal(r.status, 200);
    // The core answers a partial PATCH with the resource and one message per refused property.
    assert.equal(r.body.AssetTag, 'RACK-12-U07');
    const ids = messageIds(r.body);
    assert.ok(ids.includes('Base.1.12.PropertyValueTypeError'));
    assert.ok(ids.includes('Base.1.12.PropertyNotWritable'));
    await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: true } });
    svc = await svc.restart();
    const got = await svc.get(CHASSIS);
    assert.equal(got.body.AssetTag, 'RACK-12-U07');
    assert.equal(got.body.LocationIndicatorActive, true);
    const tooLong = await svc.req('PATCH', CHASSIS, { body: { AssetTag: 'x'.repeat(33) } });
    assert.equal(tooLong.status, 400);
  });

  it('needs HostBIOSConfigPriv to PATCH (the UID light and AssetTag, as on the system)', async () => {
    const a = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'reader', Password: 'Reader-Pass-123', RoleId: 'ReadOnly' },
    });
    assert.equal(a.status, 201, a.text);
    const r = await svc.req('PATCH', CHASSIS, {
      body: { LocationIndicatorActive: false },
      auth: { user: 'reader', password: 'Reader-Pass-123' },
    });
    assert.equal(r.status, 403);
    assert.equal((await svc.get(CHASSIS, { auth: { user: 'reader', password: 'Reader-Pass-123' } })).status, 200);
  });

  it('shows the platform firmware the host reports at POST', async () => {
    await bootHost(svc, 60_000);
    const fw = (await svc.get(CHASSIS)).body.Oem.Vendor.Firmware;
    assert.match(fw.PlatformDefinitionTable.Current.VersionString, /^\d/);
    // The versions installed at that POST, as the firmware inventory lists them.
    const inventory = (await svc.get('/redfish/v1/UpdateService/FirmwareInventory/?$expand=.')).body.Members;
    const installed = (deviceClass: string) => inventory.find((m: any) => m.Oem.Vendor.DeviceClass === deviceClass).Version;
    assert.equal(fw.SystemProgrammableLogicDevice.Current.VersionString, installed('CPLD'));
    assert.equal(fw.PowerManagementController.Current.VersionString, installed('PMC'));
    assert.equal(fw.SPSFirmwareVersionData.Current.VersionString, installed('SPS'));
    await powerOff(svc, 1000);
  });
});
