// --dialect dmtf over HTTPS: URIs without trailing slashes (requests with one still
// served), JsonSchemas, the replacements of deprecated properties, vendor actions
// under Actions/Oem, links sent without slashes, and events spelled the same way.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConfig, ConfigError } from '../../src/config.js';
import { makePackage, multipart, UPLOAD_URI } from '../support/firmware.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';
import { SseStream } from '../support/sse.js';
import { waitUntil } from '../support/wait.js';

/** Every string in a body that is a Redfish URI whose path ends in '/'. */
function slashedUris(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && /^\/redfish\/v1(\/[^?#]*)?\/([?#].*)?$/.test(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) slashedUris(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) slashedUris(x, out);
  return out;
}

describe('dialect dmtf', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf' } });
  });
  after(() => svc.close());

  it('shows every URI without a trailing slash, and serves paths with and without one alike', async () => {
    for (const path of [
      '/redfish/v1',
      '/redfish/v1/Systems/1',
      '/redfish/v1/Chassis/1',
      '/redfish/v1/Managers/1',
      '/redfish/v1/UpdateService',
    ]) {
      const bare = await svc.get(path);
      assert.equal(bare.status, 200, path);
      assert.equal(bare.body['@odata.id'], path);
      assert.deepEqual(slashedUris(bare.body), [], path);
      // With a slash: the same resource, not a redirect.
      const slashed = await svc.get(`${path}/`);
      assert.equal(slashed.status, 200, `${path}/`);
      assert.equal(slashed.body['@odata.id'], path);
    }
    const sys = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.equal(sys.Actions['#ComputerSystem.Reset'].target, '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset');
    assert.equal(sys.Bios['@odata.id'], '/redfish/v1/Systems/1/Bios');
  });

  it('keeps /redfish as DSP0266 fixes it', async () => {
    assert.deepEqual((await svc.get('/redfish', { auth: 'none' })).body, { v1: '/redfish/v1/' });
  });

  it('expands and pages with the same spelling (nextLink included)', async () => {
    const r = await svc.get('/redfish/v1/JsonSchemas?$top=2');
    assert.equal(r.status, 200);
    assert.match(r.body['Members@odata.nextLink'], /^\/redfish\/v1\/JsonSchemas\?\$skip=2/);
    const e = await svc.get('/redfish/v1/Systems?$expand=.');
    assert.deepEqual(slashedUris(e.body), []);
    assert.equal(e.body.Members[0]['@odata.id'], '/redfish/v1/Systems/1');
  });

  it('answers a created resource with a Location without slash, which then works', async () => {
    const r = await svc.req('POST', '/redfish/v1/SessionService/Sessions', {
      body: { UserName: 'Administrator', Password: 'Test-Admin-Pass1' },
      auth: 'none',
    });
    assert.equal(r.status, 201);
    assert.match(r.headers.location!, /^\/redfish\/v1\/SessionService\/Sessions\/[^/]+$/);
    assert.equal(r.body['@odata.id'], r.headers.location);
    assert.equal((await svc.get(r.headers.location!)).status, 200);
    assert.equal((await svc.req('DELETE', r.headers.location!)).status, 200);
    assert.equal((await svc.get(r.headers.location!)).status, 404);
  });

  it('serves the JSON schemas at /redfish/v1/JsonSchemas, not /redfish/v1/schemas', async () => {
    const root = (await svc.get('/redfish/v1')).body;
    assert.equal(root.JsonSchemas['@odata.id'], '/redfish/v1/JsonSchemas');
    const list = await svc.get('/redfish/v1/JsonSchemas');
    assert.ok(list.body['Members@odata.count'] > 20);
    assert.ok(list.body.Members.some((m: { '@odata.id': string }) => m['@odata.id'] === '/redfish/v1/JsonSchemas/ComputerSystem.v1_27_0'));
    assert.equal((await svc.get('/redfish/v1/schemas/')).status, 404);
  });

  it('leaves deprecated properties out and shows their replacements, with the same state behind them', async () => {
    const sys = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.equal(sys.TrustedModules, undefined);
    assert.equal(sys.ProcessorSummary.Status, undefined);
    assert.equal(sys.MemorySummary.Status, undefined);
    assert.ok(sys.ProcessorSummary.Count >= 1);
    assert.deepEqual(sys.Links.TrustedComponents, [{ '@odata.id': '/redfish/v1/Chassis/1/TrustedComponents/TPM' }]);
    const tpm = (await svc.get('/redfish/v1/Chassis/1/TrustedComponents/TPM')).body;
    assert.equal(tpm.TrustedComponentType, 'Discrete');
    assert.deepEqual(tpm.Links.ComponentsProtected, [{ '@odata.id': '/redfish/v1/Systems/1' }]);

    const chassis = (await svc.get('/redfish/v1/Chassis/1')).body;
    assert.equal(chassis.IndicatorLED, undefined);
    assert.equal(chassis.Thermal, undefined);
    assert.equal(chassis.LocationIndicatorActive, false);
    // The replacement is writable and the deprecated property still accepted, as before.
    assert.equal((await svc.req('PATCH', '/redfish/v1/Chassis/1', { body: { LocationIndicatorActive: true } })).status, 200);
    assert.equal((await svc.get('/redfish/v1/Chassis/1')).body.LocationIndicatorActive, true);

    const ts = (await svc.get(chassis.ThermalSubsystem['@odata.id'])).body;
    const thermal = (await svc.get('/redfish/v1/Chassis/1/Thermal')).body;
    const fans = (await svc.get(ts.Fans['@odata.id'])).body;
    assert.equal(fans['Members@odata.count'], thermal.Fans.length);
    const fan = (await svc.get(fans.Members[0]['@odata.id'])).body;
    assert.equal(fan.Name, thermal.Fans[0].Name);
    assert.equal(typeof fan.SpeedPercent.SpeedRPM, 'number');
    const metrics = (await svc.get(ts.ThermalMetrics['@odata.id'])).body;
    assert.deepEqual(
      metrics.TemperatureReadingsCelsius.map((t: { DeviceName: string }) => t.DeviceName),
      thermal.Temperatures.map((t: { Name: string }) => t.Name),
    );

    const us = (await svc.get('/redfish/v1/UpdateService')).body;
    assert.equal(us.HttpPushUri, undefined);
    assert.equal(us.MultipartHttpPushUri, '/redfish/v1/UpdateService/upload');
    const es = (await svc.get('/redfish/v1/EventService')).body;
    assert.equal(es.SSEFilterPropertiesSupported.EventType, undefined);
    assert.equal(es.SSEFilterPropertiesSupported.RegistryPrefix, true);
  });

  it('shows drives under the chassis and virtual media under the system, as DMTF places them now', async () => {
    const storage = (await svc.get('/redfish/v1/Systems/1/Storage')).body;
    const first = (await svc.get(storage.Members[0]['@odata.id'])).body;
    const link: string = first.Drives[0]['@odata.id'];
    assert.match(link, /^\/redfish\/v1\/Chassis\/1\/Drives\/[^/]+\.[^/]+$/);
    const drive = await svc.get(link);
    assert.equal(drive.status, 200);
    assert.equal(drive.body['@odata.id'], link);
    assert.equal(drive.body.Id, link.slice(link.lastIndexOf('/') + 1));
    assert.equal(drive.body.IndicatorLED, undefined);
    assert.equal((await svc.req('PATCH', link, { body: { LocationIndicatorActive: true } })).status, 200);
    assert.equal((await svc.get(link)).body.LocationIndicatorActive, true);
    assert.equal((await svc.get('/redfish/v1/Chassis/1/Drives/nope.0')).status, 404);
    assert.equal(first.StorageControllers, undefined);

    const sys = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.equal(sys.VirtualMedia['@odata.id'], '/redfish/v1/Systems/1/VirtualMedia');
    assert.equal((await svc.get('/redfish/v1/Managers/1')).body.VirtualMedia, undefined);
    const media = (await svc.get(sys.VirtualMedia['@odata.id'])).body;
    assert.equal(media['Members@odata.count'], 2);
    const cd = (await svc.get(media.Members[1]['@odata.id'])).body;
    assert.equal(cd.Actions['#VirtualMedia.InsertMedia'].target, `${media.Members[1]['@odata.id']}/Actions/VirtualMedia.InsertMedia`);
    const memory = (await svc.get('/redfish/v1/Systems/1/Memory')).body;
    assert.equal((await svc.get(memory.Members[0]['@odata.id'])).body.DeviceLocator, undefined);
  });

  it('lists vendor actions under Actions/Oem with DMTF-style targets, and both targets work', async () => {
    const sys = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.equal(sys.Oem.Vendor.Actions, undefined);
    const pb = sys.Actions.Oem['#VendorComputerSystemExt.PowerButton'];
    assert.equal(pb.target, '/redfish/v1/Systems/1/Actions/Oem/VendorComputerSystemExt.PowerButton');
    let r = await svc.req('POST', pb.target, { body: { PushType: 'Press' } });
    assert.equal(r.status, 200, r.text);
    await svc.clock.advance(1000);
    assert.notEqual((await svc.get('/redfish/v1/Systems/1')).body.PowerState, 'Off');
    // iLO's target is served too.
    r = await svc.req('POST', '/redfish/v1/Systems/1/Actions/Oem/Vendor/VendorComputerSystemExt.PowerButton/', {
      body: { PushType: 'Bogus' },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    // The vendor CSDL declares them, so DMTF's validator and clients resolve "#Namespace.Name".
    const csdl = await svc.get('/redfish/v1/SchemaStore/en/VendorComputerSystemExt_v1.xml');
    assert.match(csdl.text, /<Action Name="PowerButton" IsBound="true">/);
  });

  it('takes links sent without a trailing slash, and shows them back the same way', async () => {
    const certificates = '/redfish/v1/Managers/1/NetworkProtocol/HTTPS/Certificates';
    const r = await svc.req('POST', '/redfish/v1/CertificateService/Actions/CertificateService.GenerateCSR', {
      body: { CertificateCollection: { '@odata.id': certificates }, CommonName: 'bmc.example' },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.CSRString, /BEGIN CERTIFICATE REQUEST/);
    assert.deepEqual(r.body.CertificateCollection, { '@odata.id': certificates });
  });

  it('spells URIs in events the same way', async () => {
    const sse = await SseStream.open(svc, { token: await svc.adminToken() });
    try {
      assert.equal(sse.status, 200);
      assert.equal((await svc.req('PATCH', '/redfish/v1/Systems/1', { body: { AssetTag: 'dialect-test' } })).status, 200);
      await waitUntil(() => sse.events.length > 0, 'an event');
      const origins = sse.events.flatMap((e) =>
        e.Events.map((x: { OriginOfCondition?: { '@odata.id': string } }) => x.OriginOfCondition?.['@odata.id']),
      );
      assert.ok(origins.includes('/redfish/v1/Systems/1'), JSON.stringify(origins));
      assert.deepEqual(slashedUris(sse.events), []);
    } finally {
      sse.close();
    }
  });

  it('takes DMTF multipart updates: UpdateParameters and UpdateFile parts', async () => {
    const pkg = await makePackage(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg' });
    const post = (params: unknown) => {
      const { body, contentType } = multipart([
        { name: 'UpdateParameters', contentType: 'application/json', data: JSON.stringify(params) },
        // Components that need a detached signature take it in the compsig part, as with HttpPushUri.
        { name: 'compsig', filename: `${pkg.name}.compsig`, contentType: 'application/octet-stream', data: pkg.compsig },
        { name: 'UpdateFile', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data },
      ]);
      return svc.req('POST', '/redfish/v1/UpdateService/upload', { rawBody: body, headers: { 'content-type': contentType } });
    };
    let r = await post({ Targets: [], '@Redfish.OperationApplyTime': 'OnReset' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    r = await post({ Targets: [], Bogus: 1 });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterUnknown']);
    r = await post({ Targets: ['/redfish/v1/Systems/1'] });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError']);
    assert.equal((await svc.get('/redfish/v1/UpdateService/ComponentRepository')).body['Members@odata.count'], 0);
    // The iLO parameters ride in Oem.Vendor: stored only, not flashed.
    r = await post({ Targets: [], '@Redfish.OperationApplyTime': 'Immediate', Oem: { Vendor: { UpdateTarget: false } } });
    assert.equal(r.status, 200, r.text);
    const repo = (await svc.get('/redfish/v1/UpdateService/ComponentRepository')).body;
    assert.deepEqual(
      repo.Members.map((m: { '@odata.id': string }) => m['@odata.id']),
      ['/redfish/v1/UpdateService/ComponentRepository/ie.fwpkg'],
    );
    assert.equal(UPLOAD_URI, '/redfish/v1/UpdateService/upload/');
  });
});

describe('dialect dmtf with --show-deprecated', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf', showDeprecated: true } });
  });
  after(() => svc.close());

  it('serves the deprecated properties next to their replacements (OCP Server 1.1.0 requires Thermal and Power)', async () => {
    const chassis = (await svc.get('/redfish/v1/Chassis/1')).body;
    assert.equal(chassis.Thermal['@odata.id'], '/redfish/v1/Chassis/1/Thermal');
    assert.equal(chassis.Power['@odata.id'], '/redfish/v1/Chassis/1/Power');
    assert.equal(chassis.ThermalSubsystem['@odata.id'], '/redfish/v1/Chassis/1/ThermalSubsystem');
    assert.equal(typeof chassis.IndicatorLED, 'string');
    const sys = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.ok(sys.TrustedModules);
    assert.ok(sys.Links.TrustedComponents);
    // Everything else stays the dmtf dialect's.
    assert.equal((await svc.get('/redfish/v1/Systems/1')).status, 200);
    assert.ok(sys.Actions.Oem);
  });
});

describe('dialect spec (the default)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it("keeps iLO's conventions: trailing slashes, redirects, /redfish/v1/schemas, vendor actions under Oem/Vendor/Actions", async () => {
    const r = await svc.get('/redfish/v1/Systems/1');
    assert.equal(r.status, 308);
    assert.equal(r.headers.location, '/redfish/v1/Systems/1/');
    const sys = (await svc.get('/redfish/v1/Systems/1/')).body;
    assert.equal(sys['@odata.id'], '/redfish/v1/Systems/1/');
    assert.ok(sys.TrustedModules);
    assert.ok(sys.Oem.Vendor.Actions['#VendorComputerSystemExt.PowerButton']);
    assert.equal(sys.Actions.Oem, undefined);
    assert.equal((await svc.get('/redfish/v1/')).body.JsonSchemas['@odata.id'], '/redfish/v1/schemas/');
    const us = (await svc.get('/redfish/v1/UpdateService/')).body;
    assert.equal(us.HttpPushUri, '/redfish/v1/UpdateService/upload/');
    assert.equal(us.MultipartHttpPushUri, '/redfish/v1/UpdateService/upload/');
    // Virtual media linked from the manager, as the vendor's controllers do; the system's view of the same devices is
    // served but not linked (its clients index every VirtualMedia resource they reach by Id).
    assert.equal((await svc.get('/redfish/v1/Managers/1/')).body.VirtualMedia['@odata.id'], '/redfish/v1/Managers/1/VirtualMedia/');
    assert.equal(sys.VirtualMedia, undefined);
    const eject = await svc.req('POST', '/redfish/v1/Systems/1/VirtualMedia/4/Actions/VirtualMedia.EjectMedia/', { body: {} });
    assert.equal(eject.status, 200, eject.text);
    // Undeclared here: DMTF's validator fails declared OEM actions outside Actions/Oem (docs/dialects.md).
    const csdl = await svc.get('/redfish/v1/SchemaStore/en/VendorComputerSystemExt_v1.xml');
    assert.doesNotMatch(csdl.text, /<Action Name="PowerButton"/);
  });

  it('refuses an unknown dialect (or durability) at start', () => {
    assert.throws(() => parseConfig(['--dialect', 'openbmc'], {}), ConfigError);
    assert.throws(() => parseConfig(['--durability', 'none'], {}), ConfigError);
    assert.equal(parseConfig([], {}).durability, 'crash');
    assert.equal(parseConfig([], { BMC_DURABILITY: 'power-loss' }).durability, 'power-loss');
    assert.equal(parseConfig(['--dialect', 'dmtf'], {}).dialect, 'dmtf');
    assert.equal(parseConfig([], {}).dialect, 'spec');
  });
});
