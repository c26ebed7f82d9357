// What iLO's clients read first (issue 28 item 2) and the requests of ilorest's commands that
// depend only on it, with --oem-name Hpe: the root's Oem/Hpe (Manager[0], Moniker, Sessions, Time,
// Links/ResourceDirectory), the ResourceDirectory, $expand=. on collections, the vendor
// SystemReset's ColdBoot, and accounts' Oem/Hpe LoginName and privilege switches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const ROOT = '/redfish/v1/';
const RD = '/redfish/v1/ResourceDirectory/';
const SYSTEM = '/redfish/v1/Systems/1/';
const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';

describe('iLO clients, --oem-name Hpe', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  it("shows the root's Oem/Hpe as iLO 5 does: the controller, its firmware, clock, product names and the ResourceDirectory", async () => {
    const root = await svc.get(ROOT, { auth: 'none' });
    assert.equal(root.status, 200);
    const oem = root.body.Oem.Hpe;
    assert.equal(oem['@odata.type'], '#HpeiLOServiceExt.v1_0_0.HpeiLOServiceExt');
    const bmc = (await svc.get('/redfish/v1/UpdateService/FirmwareInventory/?$expand=.')).body.Members.find(
      (m: any) => m.Oem.Hpe.DeviceClass === 'BMC',
    );
    assert.equal(oem.Manager.length, 1);
    assert.equal(oem.Manager[0].ManagerType, 'iLO 5');
    assert.equal(oem.Manager[0].ManagerFirmwareVersion, bmc.Version);
    assert.equal(oem.Manager[0].HostName, (await svc.get('/redfish/v1/Managers/1/NetworkProtocol/')).body.HostName);
    assert.equal(oem.Moniker.PRODGEN, 'iLO 5');
    assert.equal(oem.Moniker.VENDABR, 'HPE');
    assert.equal(oem.Moniker.WWWSUP, 'www.hpe.com/support/ilo5');
    assert.equal(oem.Moniker.WWWGLIS, 'www.hpe.com/glis');
    assert.equal(oem.Moniker.WWWINFOSIGHT, 'infosight.hpe.com');
    assert.equal(oem.Sessions.LocalLoginEnabled, true);
    assert.equal(oem.Sessions.CertificateLoginEnabled, false);
    assert.equal(oem.Time, new Date(svc.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // ilorest stops its crawl only at this exact string.
    assert.equal(oem.Links.ResourceDirectory['@odata.id'], RD);
    assert.equal((await svc.get('/redfish/v1/Managers/1/')).body.Model, 'iLO 5');
    // The clock moves the root's Time; the ETag stays (Time is volatile).
    await svc.clock.advance(5_000);
    const later = await svc.get(ROOT, { auth: 'none' });
    assert.notEqual(later.body.Oem.Hpe.Time, oem.Time);
    assert.equal(later.headers.etag, root.headers.etag);
  });

  it('lists every resource in the ResourceDirectory with its type, current ETag and methods', async () => {
    const rd = await svc.get(RD);
    assert.equal(rd.status, 200);
    assert.equal(rd.body['@odata.type'], '#HpeiLOResourceDirectory.v1_0_0.HpeiLOResourceDirectory');
    const byUri = new Map<string, any>(rd.body.Instances.map((i: any) => [i['@odata.id'], i]));
    for (const [uri, methods] of [
      [ROOT, ['GET', 'HEAD']],
      [SYSTEM, ['GET', 'HEAD', 'PATCH']],
      [ACCOUNTS, ['GET', 'HEAD', 'POST']],
      ['/redfish/v1/UpdateService/UpdateTaskQueue/', ['GET', 'HEAD', 'POST']],
    ] as const) {
      const entry = byUri.get(uri);
      assert.ok(entry, uri);
      const now = await svc.get(uri);
      assert.equal(entry['@odata.type'], now.body['@odata.type'], uri);
      assert.equal(entry.ETag, now.headers.etag, uri);
      assert.deepEqual(entry.HttpMethods, methods, uri);
    }
    // Settings objects in lower case, as iLO lists them (ilorest's `pending` looks for "/settings").
    assert.ok(byUri.has('/redfish/v1/Systems/1/Bios/settings/'), [...byUri.keys()].filter((u) => /settings/i.test(u)).join());
    for (const i of rd.body.Instances) assert.ok(i.ETag && i['@odata.type'] && i.HttpMethods.length, JSON.stringify(i));
    assert.ok(!byUri.has(RD));
    assert.ok(![...byUri.keys()].some((u) => /\/Entries\/.|SchemaStore|ActionInfo|\/schemas\/|\/Registries\//.test(u)));
    // A new resource is listed at once, with the ETag its GET answers.
    const made = await svc.req('POST', ACCOUNTS, { body: { UserName: 'listed', Password: 'listed-pass-1', RoleId: 'ReadOnly' } });
    assert.equal(made.status, 201, made.text);
    const again = (await svc.get(RD)).body.Instances.find((i: any) => i['@odata.id'] === made.headers.location);
    assert.equal(again?.ETag, (await svc.get(made.headers.location as string)).headers.etag);
  });

  it('expands the members of the collections ilorest reads with $expand=.', async () => {
    for (const uri of [ACCOUNTS, '/redfish/v1/UpdateService/FirmwareInventory/', `${SYSTEM}Memory/`, '/redfish/v1/Registries/']) {
      const r = await svc.get(`${uri}?$expand=.`);
      assert.equal(r.status, 200, uri);
      assert.ok(r.body.Members.length > 0, uri);
      for (const m of r.body.Members) assert.ok(m.Id && m['@odata.type'], `${uri}: ${JSON.stringify(m).slice(0, 100)}`);
    }
  });

  it('describes every DIMM slot as iLO does, an empty one too (ilorest serverinfo --all prints each)', async () => {
    const members = (await svc.get(`${SYSTEM}Memory/?$expand=.`)).body.Members;
    const empty = members.find((m: any) => m.Status.State === 'Absent');
    assert.deepEqual(
      [empty.MemoryType, empty.CapacityMiB, empty.Oem.Hpe.DIMMStatus, empty.Oem.Hpe.MinimumVoltageVoltsX10],
      ['DRAM', 0, 'NotPresent', 0],
    );
    // The default profile's filled slots: Samsung 32 GiB DDR4 RDIMMs, 1.2 V.
    const dimm = members.find((m: any) => m.Status.State === 'Enabled');
    assert.deepEqual(
      [dimm.MemoryType, dimm.MemoryDeviceType, dimm.CapacityMiB, dimm.Oem.Hpe.DIMMStatus],
      ['DRAM', 'DDR4', 32768, 'GoodInUse'],
    );
    assert.deepEqual([dimm.Oem.Hpe.BaseModuleType, dimm.Oem.Hpe.MinimumVoltageVoltsX10, dimm.Oem.Hpe.VendorName], ['RDIMM', 12, 'Samsung']);
  });

  it("spells each settings object …/settings/ wherever it shows, as iLO does, so ilorest holds one copy and PATCHes it once (bootorder's 412)", async () => {
    const listed = new Set(((await svc.get(RD)).body.Instances as any[]).map((i) => i['@odata.id']));
    for (const current of [`${SYSTEM}Bios/`, ...['Boot', 'iScsi', 'ServerConfigLock'].map((n) => `${SYSTEM}Bios/Oem/Hpe/${n}/`)]) {
      const link = (await svc.get(current)).body['@Redfish.Settings'].SettingsObject['@odata.id'];
      assert.equal(link, `${current}settings/`);
      assert.ok(listed.has(link), link);
      assert.equal((await svc.get(link)).body['@odata.id'], link);
    }
    // ilorest bootorder [2] --commit: the pending order PATCHed with the ETag it read, twice in a row.
    const pending = `${SYSTEM}Bios/Oem/Hpe/Boot/settings/`;
    for (let i = 0; i < 2; i++) {
      const now = await svc.get(pending);
      const [first, second, ...rest] = now.body.PersistentBootConfigOrder;
      const r = await svc.req('PATCH', pending, {
        body: { PersistentBootConfigOrder: [second, first, ...rest] },
        headers: { 'If-Match': now.headers.etag as string },
      });
      assert.equal(r.status, 200, r.text);
    }
  });

  it('serves settings objects and their current resources as iLO does: no member only one has, no @Redfish.WriteableProperties (ilorest pending diffs the two)', async () => {
    await svc.req('PATCH', `${SYSTEM}Bios/settings/`, { body: { Attributes: { ServerName: 'pending-name' } } });
    const areas = [
      'Bios/',
      ...['Boot', 'iScsi', 'ServerConfigLock', 'KmsConfig', 'TlsConfig'].map((n) => `Bios/Oem/Hpe/${n}/`),
      'SmartStorageConfig/',
    ];
    for (const area of areas) {
      const current = (await svc.get(`${SYSTEM}${area}`)).body;
      const settings = (await svc.get(`${SYSTEM}${area}settings/`)).body;
      assert.equal(JSON.stringify(current).includes('@Redfish.WriteableProperties'), false, area);
      assert.deepEqual(
        Object.keys(settings).filter((k) => !(k in current)),
        [],
        area,
      );
    }
    assert.equal((await svc.get(`${SYSTEM}Bios/settings/`)).body.Attributes.ServerName, 'pending-name');
  });

  it('cold-boots the server through HpeComputerSystemExt.SystemReset, as ilorest reboot ColdBoot asks', async () => {
    const target = `${SYSTEM}Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset/`;
    assert.deepEqual(
      (await svc.get(SYSTEM)).body.Oem.Hpe.Actions['#HpeComputerSystemExt.SystemReset']['ResetType@Redfish.AllowableValues'],
      ['AuxCycle', 'ColdBoot'],
    );
    assert.equal((await svc.req('POST', `${SYSTEM}Actions/ComputerSystem.Reset/`, { body: { ResetType: 'On' } })).status, 200);
    await svc.clock.advance(600_000);
    const bootsBefore = (await svc.get(SYSTEM)).body.Oem.Hpe.BootCount;
    const r = await svc.req('POST', target, { body: { Action: 'HpeComputerSystemExt.SystemReset', ResetType: 'ColdBoot' } });
    assert.equal(r.status, 200, r.text);
    await svc.clock.advance(600_000);
    const system = (await svc.get(SYSTEM)).body;
    assert.equal(system.PowerState, 'On');
    assert.equal(system.Oem.Hpe.BootCount, bootsBefore + 1);
  });

  it("takes accounts with iLO's Oem/Hpe LoginName and privilege switches, the role following from them", async () => {
    assert.equal((await svc.get('/redfish/v1/AccountService/')).body.Oem.Hpe.MinPasswordLength, 8);
    const r = await svc.req('POST', ACCOUNTS, {
      body: {
        UserName: 'r28user',
        Password: 'Matrix-Pass-1',
        Oem: { Hpe: { LoginName: 'r28login', Privileges: { LoginPriv: true, VirtualPowerAndResetPriv: true } } },
      },
    });
    assert.equal(r.status, 201, r.text);
    const uri = r.headers.location as string;
    const account = (await svc.get(uri)).body;
    assert.equal(account.RoleId, 'Operator');
    assert.equal(account.Oem.Hpe.LoginName, 'r28login');
    assert.equal(account.Oem.Hpe.Privileges.VirtualPowerAndResetPriv, true);
    assert.equal(account.Oem.Hpe.Privileges.iLOConfigPriv, false);
    assert.equal(account.Oem.Hpe.Privileges.ManagerConfigPriv, undefined);
    const patched = await svc.req('PATCH', uri, {
      body: { Oem: { Hpe: { LoginName: 'renamed', Privileges: { iLOConfigPriv: true, UserConfigPriv: true } } } },
    });
    assert.equal(patched.status, 200, patched.text);
    const now = (await svc.get(uri)).body;
    assert.equal(now.Oem.Hpe.LoginName, 'renamed');
    assert.equal(now.Oem.Hpe.Privileges.iLOConfigPriv, true);
    assert.equal(now.RoleId, 'Administrator');
    const canonical = await svc.req('PATCH', uri, { body: { Oem: { Hpe: { Privileges: { ManagerConfigPriv: false } } } } });
    assert.equal(canonical.status, 400, canonical.text);
    assert.ok((await svc.get('/redfish/v1/AccountService/Roles/Administrator/')).body.OemPrivileges.includes('iLOConfigPriv'));
  });
});

describe('iLO clients, default naming', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it("shows the same root object and ResourceDirectory under the product's own name", async () => {
    const oem = (await svc.get(ROOT, { auth: 'none' })).body.Oem.Vendor;
    assert.equal(oem['@odata.type'], '#VendorMCServiceExt.v1_0_0.VendorMCServiceExt');
    assert.equal(oem.Manager[0].ManagerType, 'MC 6');
    assert.equal((await svc.get('/redfish/v1/Managers/1/')).body.Model, 'Vendor MC 6');
    const rd = (await svc.get(RD)).body;
    assert.equal(rd['@odata.type'], '#VendorMCResourceDirectory.v1_0_0.VendorMCResourceDirectory');
    assert.ok(rd.Instances.some((i: any) => i['@odata.id'] === SYSTEM));
  });
});
