// The vendor namespace as a setting (--oem-name, issue 28 item 1): with Hpe, every Oem key, vendor
// type and action, the controller's own types (HpeiLO…), the vendor registries and schemas, and
// what clients send under Oem follow it, in both dialects; the canonical name is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { ConfigError, parseConfig } from '../../src/config.js';
import { Naming } from '../../src/protocol/naming.js';
import { EventListener, waitFor } from '../support/event-listener.js';
import { insecureAgent, startTestService, type TestService } from '../support/service.js';

const SYSTEM = '/redfish/v1/Systems/1/';
const MANAGER = '/redfish/v1/Managers/1/';
const UPDATE = '/redfish/v1/UpdateService/';

const messageIds = (body: any): string[] => (body.error?.['@Message.ExtendedInfo'] ?? []).map((m: any) => m.MessageId);

describe('--oem-name', () => {
  it('is checked at start: a letter, then letters and digits', () => {
    assert.equal(parseConfig(['--oem-name', 'Hpe'], {}).oemName, 'Hpe');
    assert.equal(parseConfig([], {}).oemName, 'Vendor');
    for (const bad of ['9x', 'Hp-e', 'Hpe/1', 'A'.repeat(33)])
      assert.throws(
        () => parseConfig(['--oem-name', bad], {}),
        (e: Error) => e instanceof ConfigError && /--oem-name/.test(e.message),
        bad,
      );
  });

  it("names the controller's own types by iLO's pattern, and others by the prefix alone", () => {
    const hpe = new Naming('Hpe');
    assert.equal(hpe.name('VendorMCUpdateServiceExt.AddFromUri'), 'HpeiLOUpdateServiceExt.AddFromUri');
    assert.equal(hpe.name('VendorMC'), 'HpeiLO');
    assert.equal(hpe.name('VendorComponentInstallSet.Invoke'), 'HpeComponentInstallSet.Invoke');
    assert.equal(hpe.name('Vendors'), 'Vendors');
    assert.equal(hpe.canonical('HpeiLOUpdateServiceExt.AddFromUri'), 'VendorMCUpdateServiceExt.AddFromUri');
    assert.equal(hpe.canonical('Hpe.1.0.LastAdministrator'), 'Vendor.1.0.LastAdministrator');
    assert.equal(new Naming('Acme').name('VendorMCLicense'), 'AcmeMCLicense');
    // iLO's own names where they differ from the prefix: the type, its collection, its actions.
    assert.equal(hpe.name('VendorLicenseCollection'), 'HpeiLOLicenseCollection');
    assert.equal(hpe.name('VendorUpdateTask'), 'HpeComponentUpdateTask');
    assert.equal(hpe.canonical('HpeiLOAccount'), 'VendorManagerAccount');
    assert.equal(new Naming('Acme').name('VendorLicense'), 'AcmeLicense');
  });
});

describe('--oem-name Hpe, spec dialect', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  it('shows Oem/Hpe with Hpe and HpeiLO types on the system, the manager and the update service', async () => {
    const system = (await svc.get(SYSTEM)).body;
    assert.equal(system.Oem.Vendor, undefined);
    assert.equal(system.Oem.Hpe['@odata.type'], '#HpeComputerSystemExt.v1_0_0.HpeComputerSystemExt');
    assert.deepEqual(Object.keys(system.Oem.Hpe.Actions), [
      '#HpeComputerSystemExt.PowerButton',
      '#HpeComputerSystemExt.SystemReset',
      '#HpeComputerSystemExt.SecureSystemErase',
    ]);
    assert.equal(
      system.Oem.Hpe.Actions['#HpeComputerSystemExt.PowerButton'].target,
      `${SYSTEM}Actions/Oem/Hpe/HpeComputerSystemExt.PowerButton/`,
    );
    assert.equal(system.Oem.Hpe.Actions['#HpeComputerSystemExt.PowerButton']['@Redfish.ActionInfo'], `${SYSTEM}PowerButtonActionInfo/`);
    const manager = (await svc.get(MANAGER)).body;
    assert.equal(manager.Oem.Hpe['@odata.type'], '#HpeiLO.v1_0_0.HpeiLO');
    assert.ok(manager.Oem.Hpe.Actions['#HpeiLO.ClearRestApiState']);
    assert.equal(manager.Manufacturer, 'HPE');
    const update = (await svc.get(UPDATE)).body;
    assert.match(update.Oem.Hpe['@odata.type'], /^#HpeiLOUpdateServiceExt\.v\d+_\d+_\d+\.HpeiLOUpdateServiceExt$/);
    assert.deepEqual(Object.keys(update.Oem.Hpe.Actions).sort(), [
      '#HpeiLOUpdateServiceExt.AddFromUri',
      '#HpeiLOUpdateServiceExt.DeleteInstallSets',
      '#HpeiLOUpdateServiceExt.DeleteMaintenanceWindows',
      '#HpeiLOUpdateServiceExt.DeleteUnlockedComponents',
      '#HpeiLOUpdateServiceExt.DeleteUpdateTaskQueueItems',
      '#HpeiLOUpdateServiceExt.StartFirmwareIntegrityCheck',
    ]);
    assert.equal((await svc.get('/redfish/v1/')).body.Vendor, 'HPE');
    // Nothing of the canonical name is left in what the service shows.
    for (const uri of [SYSTEM, MANAGER, UPDATE, `${MANAGER}LicenseService/`, `${UPDATE}InstallSets/`])
      assert.doesNotMatch((await svc.get(uri)).text, /Vendor(?=[A-Z./])|\/Vendor\/|"Vendor":\{/, uri);
  });

  it('runs an action posted at its Hpe name and answers the Vendor name as a wrong action', async () => {
    const ok = await svc.req('POST', `${SYSTEM}Actions/Oem/Hpe/HpeComputerSystemExt.PowerButton/`, {
      body: { PushType: 'Press', Action: 'HpeComputerSystemExt.PowerButton' },
    });
    assert.ok(ok.status === 200 || ok.status === 204, ok.text);
    for (const wrong of [
      `${SYSTEM}Actions/Oem/Vendor/VendorComputerSystemExt.PowerButton/`,
      `${SYSTEM}Actions/Oem/Hpe/VendorComputerSystemExt.PowerButton/`,
      `${MANAGER}Actions/Oem/Vendor/VendorMC.ClearRestApiState/`,
    ]) {
      const r = await svc.req('POST', wrong, { body: { PushType: 'Press' } });
      assert.equal(r.status, 404, wrong);
    }
    const cleared = await svc.req('POST', `${MANAGER}Actions/Oem/Hpe/HpeiLO.ClearRestApiState/`, { body: {} });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal((await svc.get(MANAGER)).body.Oem.Hpe.ClearRestApiStatePending, true);
  });

  it('takes a PATCH of Oem/Hpe and refuses Oem/Vendor as an unknown property', async () => {
    const ok = await svc.req('PATCH', UPDATE, { body: { Oem: { Hpe: { ScanEveryDays: 3 } } } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await svc.get(UPDATE)).body.Oem.Hpe.ScanEveryDays, 3);
    const refused = await svc.req('PATCH', UPDATE, { body: { Oem: { Vendor: { ScanEveryDays: 4 } } } });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(messageIds(refused.body), ['Base.1.12.PropertyUnknown']);
    assert.equal((await svc.get(UPDATE)).body.Oem.Hpe.ScanEveryDays, 3);
  });

  it("answers the vendor registry's errors with Hpe MessageIds and serves that registry under its Hpe prefix", async () => {
    const accounts = (await svc.get('/redfish/v1/AccountService/Accounts/')).body.Members;
    const r = await svc.req('DELETE', accounts[0]['@odata.id']);
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(messageIds(r.body), ['Hpe.1.0.LastAdministrator']);
    assert.doesNotMatch(r.text, /Vendor/);
    const files = (await svc.get('/redfish/v1/Registries/')).body.Members.map((m: any) => m['@odata.id']);
    assert.ok(files.includes('/redfish/v1/Registries/Hpe/'), files.join());
    assert.ok(!files.some((f: string) => f.includes('Vendor')), files.join());
    const file = (await svc.get('/redfish/v1/Registries/Hpe/')).body;
    assert.equal(file.Registry, 'Hpe.1.0');
    const res = await request(`${svc.url}${file.Location[0].Uri}`, {
      dispatcher: insecureAgent,
      headers: { 'x-auth-token': await svc.adminToken() },
    });
    assert.equal(res.statusCode, 200);
    const registry = JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
    assert.equal(registry.RegistryPrefix, 'Hpe');
    assert.equal(registry.Id, 'Hpe.1.0.0');
    assert.equal(registry.OwningEntity, 'HPE');
    assert.ok(registry.Messages.LastAdministrator);
  });

  it('publishes the Hpe names in $metadata, the CSDL and the JSON Schemas of the vendor types', async () => {
    const metadata = (await svc.get('/redfish/v1/$metadata')).text;
    assert.match(metadata, /<edmx:Reference Uri="\/redfish\/v1\/SchemaStore\/en\/HpeiLOUpdateServiceExt_v1\.xml">/);
    assert.match(metadata, /Namespace="HpeComputerSystemExt"/);
    assert.doesNotMatch(metadata, /Vendor(?=[A-Z._])/);
    const csdl = await svc.get('/redfish/v1/SchemaStore/en/HpeComputerSystemExt_v1.xml');
    assert.equal(csdl.status, 200);
    assert.match(csdl.text, /<ComplexType Name="HpeComputerSystemExt" BaseType="HpeComputerSystemExt.HpeComputerSystemExt">/);
    const schema = await svc.get('/redfish/v1/SchemaStore/en/HpeiLOLicense.v1_0_0.json');
    assert.equal(schema.status, 200, schema.text);
    assert.equal(schema.body.title, '#HpeiLOLicense.v1_0_0.HpeiLOLicense');
    const system = await svc.get('/redfish/v1/SchemaStore/en/ComputerSystem.v1_27_0.json');
    assert.ok(
      system.body.definitions.Oem?.properties?.Hpe ?? JSON.stringify(system.body).includes('HpeComputerSystemExt'),
      'Oem/Hpe described',
    );
    assert.doesNotMatch(system.text, /VendorComputerSystemExt/);
    const collection = (await svc.get('/redfish/v1/schemas/')).body.Members.map((m: any) => m['@odata.id']);
    assert.ok(collection.includes('/redfish/v1/schemas/HpeiLOLicense.v1_0_0/'), collection.join());
  });

  it('delivers events with the Hpe MessageIds and filters subscriptions by the Hpe prefix', async () => {
    const l = await EventListener.start();
    try {
      const sub = await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
        body: { Destination: l.url, Protocol: 'Redfish', RegistryPrefixes: ['Hpe'] },
      });
      assert.equal(sub.status, 201, sub.text);
      assert.deepEqual((await svc.get(sub.headers.location as string)).body.RegistryPrefixes, ['Hpe']);
      const prefixes = (await svc.get('/redfish/v1/EventService/')).body.RegistryPrefixes as string[];
      assert.ok(prefixes.includes('Hpe') && prefixes.includes('HpeResourceEvents') && !prefixes.includes('Vendor'), prefixes.join());
      const sent = await svc.req('POST', '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/', {
        body: { MessageId: 'Hpe.1.0.AcPowerLost' },
      });
      assert.equal(sent.status, 200, sent.text);
      await waitFor(() => l.messageIds().length > 0, 'a delivery');
      assert.deepEqual(l.messageIds(), ['Hpe.1.0.AcPowerLost']);
      assert.equal(l.events()[0].Message, 'The server lost AC input power.');
    } finally {
      await l.close();
    }
  });
});

describe('--oem-name Hpe, dmtf dialect', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe', dialect: 'dmtf' } });
  });
  after(() => svc.close());

  it('shows vendor actions under Actions/Oem by their Hpe names, and runs them there', async () => {
    const manager = (await svc.get('/redfish/v1/Managers/1')).body;
    const entry = manager.Actions.Oem['#HpeiLO.ClearRestApiState'];
    assert.equal(entry.target, '/redfish/v1/Managers/1/Actions/Oem/HpeiLO.ClearRestApiState');
    assert.equal(manager.Oem.Hpe['@odata.type'], '#HpeiLO.v1_0_0.HpeiLO');
    const r = await svc.req('POST', entry.target, { body: {} });
    assert.equal(r.status, 200, r.text);
    const vendor = await svc.req('POST', '/redfish/v1/Managers/1/Actions/Oem/VendorMC.ClearRestApiState', { body: {} });
    assert.equal(vendor.status, 404);
    const schemas = (await svc.get('/redfish/v1/JsonSchemas')).body.Members.map((m: any) => m['@odata.id']);
    assert.ok(
      schemas.some((u: string) => u.endsWith('/HpeiLO.v1_0_0')),
      schemas.join(),
    );
  });
});
