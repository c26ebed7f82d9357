// One event per change (issue 25, point 3): the resource events of a write are
// published once, by one source, and each copy reaches an SSE stream and an
// HTTPS listener once. Every write of the list is followed by a test event (a
// fence); what arrived between two fences is the write's whole event sequence,
// compared exactly.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../../src/platform/x509.js';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { installLicense, issueTestLicense } from '../../support/licenses.js';
import { ADMIN_PASSWORD, startTestService, type Response, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';
import { addComponent, advance, resetHost } from '../../support/update-queue.js';

const FENCE = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';
const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';
const MAPPINGS = '/redfish/v1/AccountService/UserCertificateMapping/';
const CERT_AUTH = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
const MANAGER_CD = '/redfish/v1/Managers/1/VirtualMedia/2/';
// The system's view numbers the CD/DVD device 4 (the manager's 2).
const SYSTEM_CD = '/redfish/v1/Systems/1/VirtualMedia/4/';
const SUBSCRIPTIONS = '/redfish/v1/EventService/Subscriptions/';
const WINDOWS = '/redfish/v1/UpdateService/MaintenanceWindows/';
const QUEUE = '/redfish/v1/UpdateService/UpdateTaskQueue/';
const SETS = '/redfish/v1/UpdateService/InstallSets/';
const DB_CERTIFICATES = '/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/db/Certificates/';
const LICENSES = '/redfish/v1/Managers/1/LicenseService/';

/** An event as the sequences show it: the message key (no version) and what it is about. */
function shown(e: any): string {
  return `${String(e.MessageId).replace(/\.\d+\.\d+\./, '.')} ${e.OriginOfCondition?.['@odata.id'] ?? '-'}`;
}

describe('one event per change', () => {
  let svc: TestService;
  let listener: EventListener;
  let sse: SseStream;
  let images: Server;
  let imageUrl = '';
  let fences = 0;

  before(async () => {
    svc = await startTestService();
    await installLicense(svc, 'Advanced');
    listener = await EventListener.start();
    const sub = await svc.req('POST', SUBSCRIPTIONS, {
      body: { Destination: listener.url, Protocol: 'Redfish', RegistryPrefixes: ['ResourceEvent', 'VendorResourceEvents'] },
    });
    assert.equal(sub.status, 201, sub.text);
    sse = await SseStream.open(svc, { token: await svc.adminToken() });
    assert.equal(sse.status, 200);
    // An image server for virtual media (plain HTTP on loopback).
    images = createServer((req, res) => {
      res.writeHead(200, { 'content-length': '4096' });
      res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(4096));
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/boot.iso`;
    await fence(); // the stream's own subscription and the setup are behind us
  });
  after(async () => {
    sse.close();
    await listener.close();
    await new Promise((resolve) => images.close(resolve));
    await svc.close();
  });

  /** What the stream got of the registries the listener subscribed to (a stream takes them all). */
  const sseEvents = () =>
    sse.events.flatMap((e) => e.Events ?? []).filter((e: any) => /^(ResourceEvent|VendorResourceEvents)\./.test(e.MessageId));

  /** Submit a test event and wait for it on both; returns the events each got since the last fence. */
  async function fence(): Promise<{ listener: string[]; sse: string[] }> {
    const origin = `/redfish/v1/fence/${++fences}/`;
    const r = await svc.req('POST', FENCE, { body: { MessageId: 'ResourceEvent.1.4.ResourceChanged', OriginOfCondition: origin } });
    assert.equal(r.status, 200, r.text);
    const since = (events: any[]) => {
      const at = events.findIndex((e) => e.OriginOfCondition?.['@odata.id'] === origin);
      const previous = events.findIndex((e) => e.OriginOfCondition?.['@odata.id'] === `/redfish/v1/fence/${fences - 1}/`);
      return events.slice(previous + 1, at).map(shown);
    };
    const arrived = (events: any[]) => events.some((e) => e.OriginOfCondition?.['@odata.id'] === origin);
    await waitFor(() => arrived(listener.events()) && arrived(sseEvents()), `fence ${fences}`);
    return { listener: since(listener.events()), sse: since(sseEvents()) };
  }

  /** The write's answer, and the exact event sequence it caused, the same on the stream and at the listener. */
  async function eventsOf(write: () => Promise<Response>): Promise<{ r: Response; events: string[] }> {
    const r = await write();
    assert.ok(r.status < 300, `${r.status} ${r.text}`);
    const got = await fence();
    assert.deepEqual(got.sse, got.listener, 'the stream and the listener get the same events');
    return { r, events: got.listener };
  }

  it('accounts, the account service and certificate mappings: one ResourceEvent per change', async () => {
    const created = await eventsOf(() =>
      svc.req('POST', ACCOUNTS, { body: { UserName: 'evt', Password: 'Evt-Password-1', RoleId: 'Operator' } }),
    );
    const uri = created.r.headers.location as string;
    assert.deepEqual(created.events, [`VendorResourceEvents.AccountCreated ${uri}`, `ResourceEvent.ResourceCreated ${uri}`]);
    const changed = await eventsOf(() => svc.req('PATCH', uri, { body: { RoleId: 'ReadOnly' } }));
    assert.deepEqual(changed.events, [`VendorResourceEvents.AccountModified ${uri}`, `ResourceEvent.ResourceChanged ${uri}`]);
    const service = await eventsOf(() => svc.req('PATCH', '/redfish/v1/AccountService/', { body: { MinPasswordLength: 9 } }));
    assert.deepEqual(service.events, ['ResourceEvent.ResourceChanged /redfish/v1/AccountService/']);
    const mapped = await eventsOf(() => svc.req('POST', MAPPINGS, { body: { UserName: 'evt', Fingerprint: 'cd'.repeat(32) } }));
    const mapping = mapped.r.headers.location as string;
    assert.deepEqual(mapped.events, [`ResourceEvent.ResourceCreated ${mapping}`]);
    const unmapped = await eventsOf(() => svc.req('DELETE', mapping));
    assert.deepEqual(unmapped.events, [`ResourceEvent.ResourceRemoved ${mapping}`]);
    const removed = await eventsOf(() => svc.req('DELETE', uri));
    assert.deepEqual(removed.events, [`VendorResourceEvents.AccountRemoved ${uri}`, `ResourceEvent.ResourceRemoved ${uri}`]);
  });

  it('the security service: certificate login and its trusted CAs', async () => {
    const patched = await eventsOf(() => svc.req('PATCH', CERT_AUTH, { body: { CertificateLoginEnabled: true } }));
    assert.deepEqual(patched.events, [`ResourceEvent.ResourceChanged ${CERT_AUTH}`]);
    const ca = await issueCertificate({ subject: 'CN=Events CA', ca: true, notBefore: new Date(svc.clock.now() - 86_400_000) });
    const imported = await eventsOf(() =>
      svc.req('POST', `${CERT_AUTH}Actions/VendorCertAuth.ImportCACertificate/`, { body: { Certificate: ca.certPem } }),
    );
    const caUri = imported.r.body['@odata.id'] as string;
    assert.deepEqual(imported.events, [`ResourceEvent.ResourceCreated ${caUri}`]);
    const deleted = await eventsOf(() => svc.req('DELETE', caUri));
    assert.deepEqual(deleted.events, [`ResourceEvent.ResourceRemoved ${caUri}`]);
  });

  it('virtual media: a PATCH or an action, under the manager or the system, is one change of the device it names', async () => {
    const inserted = await eventsOf(() => svc.req('PATCH', MANAGER_CD, { body: { Image: imageUrl } }));
    assert.deepEqual(inserted.events, [`ResourceEvent.ResourceChanged ${MANAGER_CD}`]);
    const patched = await eventsOf(() => svc.req('PATCH', SYSTEM_CD, { body: { WriteProtected: false } }));
    assert.deepEqual(patched.events, [`ResourceEvent.ResourceChanged ${SYSTEM_CD}`]);
    const ejected = await eventsOf(() => svc.req('POST', `${SYSTEM_CD}Actions/VirtualMedia.EjectMedia/`, { body: {} }));
    assert.deepEqual(ejected.events, [`ResourceEvent.ResourceChanged ${SYSTEM_CD}`]);
    const again = await eventsOf(() => svc.req('POST', `${MANAGER_CD}Actions/VirtualMedia.InsertMedia/`, { body: { Image: imageUrl } }));
    assert.deepEqual(again.events, [`ResourceEvent.ResourceChanged ${MANAGER_CD}`]);
  });

  it('every other area: one ResourceEvent for the resource a write names', async () => {
    await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie.fwpkg' });
    const component = '/redfish/v1/UpdateService/ComponentRepository/ie.fwpkg/';
    const pem = (await issueCertificate({ subject: 'CN=Events db', ca: true, notBefore: new Date(Date.now() - 60_000) })).certPem;
    const created: [string, unknown, string[]][] = [
      [SUBSCRIPTIONS, { Destination: 'https://127.0.0.1:9/quiet', Protocol: 'Redfish', RegistryPrefixes: ['Base'] }, []],
      [WINDOWS, { Name: 'evt-window', StartAfter: '2030-01-01T00:00:00Z' }, []],
      [QUEUE, { Name: 'evt-wait', Command: 'Wait', UpdatableBy: ['Uefi'], WaitTimeSeconds: 5 }, []],
      [SETS, { Name: 'evt-set', Sequence: [{ Name: 'evt IE', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }] }, []],
      [DB_CERTIFICATES, { CertificateString: pem, CertificateType: 'PEM' }, []],
      [LICENSES, { LicenseKey: issueTestLicense(svc, 'Advanced') }, ['ResourceEvent.LicenseAdded']],
      ['/redfish/v1/SessionService/Sessions/', { UserName: 'Administrator', Password: ADMIN_PASSWORD }, []],
    ];
    // The license installed for the security service goes first, so the one POSTed here is new.
    for (const m of (await svc.get(LICENSES)).body.Members) assert.equal((await svc.req('DELETE', m['@odata.id'])).status, 200);
    await fence();
    const members: string[] = [];
    for (const [collection, body, alsoAnnounced] of created) {
      const got = await eventsOf(() => svc.req('POST', collection, { body }));
      const uri = got.r.headers.location as string;
      assert.deepEqual(
        got.events,
        [...alsoAnnounced.map((m) => `${m} ${uri}`), `ResourceEvent.ResourceCreated ${uri}`],
        `POST ${collection}`,
      );
      members.push(uri);
    }
    const patches: [string, unknown][] = [
      [members[0] as string, { Context: 'changed' }],
      [members[1] as string, { StartAfter: '2030-02-01T00:00:00Z' }],
      [members[3] as string, { Description: 'changed' }],
      [component, { Criticality: 'Critical' }],
      ['/redfish/v1/Chassis/1/', { AssetTag: 'evt' }],
      ['/redfish/v1/Chassis/1/Power/', { PowerControl: [{ PowerLimit: { LimitInWatts: 800 } }] }],
      ['/redfish/v1/Systems/1/', { AssetTag: 'evt' }],
      ['/redfish/v1/Systems/1/Bios/Settings/', { Attributes: { ServerAssetTag: 'evt' } }],
      ['/redfish/v1/Systems/1/SecureBoot/', { SecureBootEnable: false }],
      ['/redfish/v1/Systems/1/Storage/DE00A000/Drives/1/', { LocationIndicatorActive: true }],
      ['/redfish/v1/SessionService/', { SessionTimeout: 600 }],
      ['/redfish/v1/EventService/', { DeliveryRetryAttempts: 4 }],
      ['/redfish/v1/UpdateService/', { Oem: { Vendor: { ScanEveryDays: 7 } } }],
      ['/redfish/v1/TelemetryService/MetricReportDefinitions/SensorReadings/', { Schedule: { RecurrenceInterval: 'PT2M' } }],
      ['/redfish/v1/Managers/1/NetworkProtocol/', { HostName: 'evt-host' }],
      ['/redfish/v1/Managers/1/SerialInterfaces/1/', { BitRate: '9600' }],
    ];
    for (const [uri, body] of patches) {
      const got = await eventsOf(() => svc.req('PATCH', uri, { body }));
      assert.deepEqual(got.events, [`ResourceEvent.ResourceChanged ${uri}`], `PATCH ${uri}`);
    }
    const alsoRemoved: Record<string, string> = {
      [members[5] as string]: 'ResourceEvent.LicenseChanged',
      [members[6] as string]: 'VendorResourceEvents.SessionEnded',
    };
    for (const uri of [...members, component]) {
      const got = await eventsOf(() => svc.req('DELETE', uri));
      const also = alsoRemoved[uri];
      assert.deepEqual(got.events, [...(also ? [`${also} ${uri}`] : []), `ResourceEvent.ResourceRemoved ${uri}`], `DELETE ${uri}`);
    }
  });

  it('storage: a volume deleted for the next reset is removed once, when the reset applies it', async () => {
    const volume = '/redfish/v1/Systems/1/Storage/DE00A000/Volumes/1/';
    const deleted = await eventsOf(() => svc.req('DELETE', volume));
    assert.equal(deleted.r.status, 202, 'accepted: the volume goes at the next reset');
    assert.deepEqual(deleted.events, [], 'nothing is removed yet');
    await resetHost(svc, 'On');
    await advance(svc, 600_000, 10_000);
    const booted = await fence();
    for (const got of [booted.listener, booted.sse]) {
      assert.deepEqual(
        got.filter((e) => e.endsWith(` ${volume}`)),
        [`ResourceEvent.ResourceRemoved ${volume}`],
      );
    }
    assert.equal((await svc.get(volume)).status, 404);
  });
});
