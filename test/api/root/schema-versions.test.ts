// Every DMTF schema version the service serves, against a hand-kept table of the
// newest version of each in DMTF's 2025.4 bundle (DSP8010). A bump of a type is a
// decision (what changed between the versions, and does the service still fill it
// right?): this test makes it one, in one place.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { REDFISH_VERSION } from '../../../src/api/root/service-root.js';
import { EVENT_ODATA_TYPE, METRIC_REPORT_ODATA_TYPE } from '../../../src/domain/events/format.js';
import { startTestService, type TestService } from '../../support/service.js';

/** The newest 2025.4 version of each DMTF resource type the service serves. */
const RESOURCE_TYPES: Readonly<Record<string, string>> = {
  AccountService: '1.18.1',
  ActionInfo: '1.5.0',
  Bios: '1.2.3',
  BootOption: '1.0.6',
  Certificate: '1.11.0',
  CertificateLocations: '1.0.4',
  CertificateService: '1.2.1',
  Chassis: '1.28.0',
  ComputerSystem: '1.27.0',
  Control: '1.7.0',
  Drive: '1.22.0',
  EnvironmentMetrics: '1.5.0',
  EthernetInterface: '1.12.4',
  EventDestination: '1.16.0',
  EventService: '1.12.0',
  Fan: '1.6.0',
  HostInterface: '1.3.3',
  JsonSchemaFile: '1.1.5',
  LogEntry: '1.21.0',
  LogService: '1.9.0',
  Manager: '1.24.0',
  ManagerAccount: '1.14.1',
  ManagerNetworkProtocol: '1.12.0',
  Memory: '1.23.0',
  MemoryMetrics: '1.8.0',
  MessageRegistryFile: '1.1.5',
  MetricDefinition: '1.3.5',
  MetricReport: '1.5.2',
  MetricReportDefinition: '1.4.7',
  NetworkAdapter: '1.14.0',
  NetworkDeviceFunction: '1.11.1',
  NetworkInterface: '1.2.3',
  PCIeDevice: '1.21.0',
  PCIeFunction: '1.7.0',
  PCIeSlots: '1.6.1',
  Port: '1.18.0',
  Power: '1.7.3',
  PowerSubsystem: '1.1.3',
  PowerSupply: '1.6.0',
  PowerSupplyMetrics: '1.2.0',
  Processor: '1.22.0',
  Role: '1.3.3',
  SecureBoot: '1.1.2',
  SecureBootDatabase: '1.0.3',
  Sensor: '1.12.0',
  SerialInterface: '1.3.0',
  ServiceRoot: '1.20.0',
  Session: '1.8.0',
  SessionService: '1.2.0',
  Signature: '1.0.3',
  SimpleStorage: '1.3.2',
  SoftwareInventory: '1.13.0',
  Storage: '1.21.0',
  StorageController: '1.11.0',
  Task: '1.7.4',
  TaskService: '1.3.0',
  TelemetryService: '1.4.1',
  Thermal: '1.7.3',
  ThermalMetrics: '1.3.2',
  ThermalSubsystem: '1.5.0',
  Triggers: '1.4.0',
  TrustedComponent: '1.4.0',
  UpdateService: '1.17.0',
  VirtualMedia: '1.6.5',
  Volume: '1.10.2',
};

/** Types only found inside other payloads (events, messages, registries, settings annotations). */
const EMBEDDED = {
  Event: '1.13.0',
  MetricReport: '1.5.2',
  Message: '1.3.0',
  MessageRegistry: '1.7.0',
  AttributeRegistry: '1.4.0',
  Settings: '1.4.0',
};

/** DSP0266 published with the 2025.4 bundle. */
const PROTOCOL_VERSION = '1.23.1';

const odataType = (name: string, version: string) => `#${name}.v${version.replace(/\./g, '_')}.${name}`;

describe('DMTF schema versions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { dialect: 'dmtf' } });
  });
  after(() => svc.close());

  it('$metadata references exactly the 2025.4 versions of the resource types served', async () => {
    const xml = (await svc.get('/redfish/v1/$metadata', { auth: 'none' })).text;
    const served: Record<string, string> = {};
    for (const [, name, v] of xml.matchAll(/<edmx:Include Namespace="([A-Za-z]+)\.v(\d+_\d+_\d+)"/g)) {
      if (!name!.startsWith('Vendor') && !['RedfishExtensions', 'Resource', 'Message', 'Settings'].includes(name!))
        served[name!] = v!.replace(/_/g, '.');
    }
    assert.deepEqual(served, RESOURCE_TYPES);
  });

  it('the schema store serves the same versions, and resources carry them in @odata.type', async () => {
    const files = (await svc.get('/redfish/v1/JsonSchemas')).body.Members.map((m: { '@odata.id': string }) =>
      m['@odata.id'].split('/').pop(),
    );
    for (const [name, version] of Object.entries(RESOURCE_TYPES))
      assert.ok(files.includes(`${name}.v${version.replace(/\./g, '_')}`), name);
    const system = (await svc.get('/redfish/v1/Systems/1')).body;
    assert.equal(system['@odata.type'], odataType('ComputerSystem', RESOURCE_TYPES.ComputerSystem!));
  });

  it('embedded payloads carry the 2025.4 versions too', async () => {
    assert.equal(EVENT_ODATA_TYPE, odataType('Event', EMBEDDED.Event));
    assert.equal(METRIC_REPORT_ODATA_TYPE, odataType('MetricReport', EMBEDDED.MetricReport));
    const refused = await svc.req('PATCH', '/redfish/v1/Systems/1', { body: { Nope: 1 } });
    assert.equal(refused.body.error['@Message.ExtendedInfo'][0]['@odata.type'], odataType('Message', EMBEDDED.Message));
    const bios = (await svc.get('/redfish/v1/Systems/1/Bios')).body;
    assert.equal(bios['@Redfish.Settings']['@odata.type'], odataType('Settings', EMBEDDED.Settings));
    const registry = async (file: string) => {
      const res = await request(`${svc.url}/redfish/v1/RegistryStore/registries/en/${file}`, {
        headers: { 'x-auth-token': await svc.adminToken() },
        dispatcher: new Agent({ connect: { rejectUnauthorized: false } }),
      });
      return JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
    };
    assert.equal((await registry('Base.json'))['@odata.type'], odataType('MessageRegistry', EMBEDDED.MessageRegistry));
    assert.equal(
      (await registry(`${bios.AttributeRegistry}.json`))['@odata.type'],
      odataType('AttributeRegistry', EMBEDDED.AttributeRegistry),
    );
  });

  it('RedfishVersion is the DSP0266 of that bundle', async () => {
    assert.equal(REDFISH_VERSION, PROTOCOL_VERSION);
    assert.equal((await svc.get('/redfish/v1/', { auth: 'none' })).body.RedfishVersion, PROTOCOL_VERSION);
  });
});
