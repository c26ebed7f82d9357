// A wrong id in any position of any route is a 404 for every method, decided
// by the dispatcher before a handler runs. The walk takes every route of the
// table, finds a URI of it that exists (by crawling, after making members),
// and puts a wrong value in each parameter position in turn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { paramNamesOf, splitPath, type Match } from '../../src/protocol/routes.js';
import { issueCertificate } from '../../src/platform/x509.js';
import { installLicense } from '../support/licenses.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';
import { addComponent, advance, resetHost, SETS } from '../support/update-queue.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
const WRONG = 'no-such-id';

function links(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) return v.forEach((x) => links(x, out));
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    const linking = ['@odata.id', 'target', 'Uri', 'ComponentUri', 'TaskMonitor', '@Redfish.ActionInfo'];
    if (linking.includes(k) && typeof x === 'string' && x.startsWith('/redfish/v1/')) out.add(x.split('#')[0] as string);
    else links(x, out);
  }
}

/** The URI with the parameter at `position` (counted among parameters) replaced. */
function withWrong(match: Match, template: string, position: number): string {
  let n = 0;
  const uriSegs = splitPath(match.uri);
  const tplSegs = splitPath(template);
  const out = tplSegs.map((seg, i) => (seg.startsWith('{') ? (n++ === position ? WRONG : uriSegs[i]) : uriSegs[i]));
  return `/${out.join('/')}${match.uri.endsWith('/') ? '/' : ''}`;
}

describe('wrong ids', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    // Members of the collections a fresh service leaves empty.
    const made = [
      await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
        body: { Destination: 'https://127.0.0.1:9/e', Protocol: 'Redfish' },
      }),
      await svc.req('POST', '/redfish/v1/UpdateService/MaintenanceWindows/', { body: { Name: 'w1', StartAfter: '2030-01-01T00:00:00Z' } }),
      await svc.req('POST', '/redfish/v1/UpdateService/UpdateTaskQueue/', {
        body: { Name: 'wait1', Command: 'Wait', UpdatableBy: ['Uefi'], WaitTimeSeconds: 5 },
      }),
    ];
    for (const r of made) assert.equal(r.status, 201, r.text);
    await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie.fwpkg' });
    const sets = await svc.req('POST', SETS, {
      body: { Name: 's1', Sequence: [{ Name: 's1 IE', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }] },
    });
    assert.equal(sets.status, 201, sets.text);
    await installLicense(svc, 'Advanced');
    const ca = await issueCertificate({ subject: 'CN=Walk CA', ca: true, notBefore: new Date(svc.clock.now() - 86_400_000) });
    const auth = '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/';
    const imported = await svc.req('POST', `${auth}Actions/VendorCertAuth.ImportCACertificate/`, { body: { Certificate: ca.certPem } });
    assert.equal(imported.status, 200, imported.text);
    const mapping = await svc.req('POST', '/redfish/v1/AccountService/UserCertificateMapping/', {
      body: { UserName: 'Administrator', Fingerprint: 'ab'.repeat(32) },
    });
    assert.equal(mapping.status, 201, mapping.text);
    // Log entries (a power on, a REST API state clear armed), a metric report, a task of the TaskService.
    await resetHost(svc, 'On');
    const armed = await svc.req('POST', '/redfish/v1/Managers/1/Actions/Oem/Vendor/VendorMC.ClearRestApiState/', { body: {} });
    assert.equal(armed.status, 200, armed.text);
    await advance(svc, 600_000, 10_000);
    const task = await svc.req('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/', {
      body: { ImageURI: 'https://127.0.0.1:9/rom.bin' },
    });
    assert.ok(task.status === 202, task.text);
  });
  after(() => svc.close());

  it('answers 404 ResourceMissingAtURI for a wrong id in every position of every route, for every method', async () => {
    const routes = svc.running.services.routes;
    // Crawl: a URI that exists, per route.
    const known = new Map<object, Match>();
    const seen = new Set<string>();
    const queue = ['/redfish/v1/'];
    while (queue.length && seen.size < 3000) {
      const uri = queue.shift() as string;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const m = routes.match(uri);
      if (m && !known.has(m.route)) known.set(m.route, m);
      const r = await svc.get(uri);
      if (r.status !== 200 || !r.body) continue;
      const found = new Set<string>();
      links(r.body, found);
      for (const l of found) if (!seen.has(l) && !l.includes('/Actions/')) queue.push(l);
    }

    const failures: string[] = [];
    const unreached: string[] = [];
    let checked = 0;
    for (const route of routes.routes()) {
      const names = paramNamesOf(route.path);
      if (names.length === 0) continue;
      const match = known.get(route);
      if (!match) {
        unreached.push(route.path);
        continue;
      }
      const uris: string[] = [];
      for (let i = 0; i < names.length; i++) {
        const uri = withWrong(match, route.path, i);
        uris.push(uri);
        // The actions of the resource too: a wrong id before /Actions/ is the same 404.
        for (const a of route.actions ?? []) uris.push(`${uri}Actions/${a.def.oem ? 'Oem/Vendor/' : ''}${a.def.name}/`);
      }
      for (const uri of uris) {
        for (const method of uri.includes('/Actions/') ? (['POST'] as const) : METHODS) {
          checked++;
          const r = await svc.req(method, uri, method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { body: {} });
          const ok = r.status === 404 && (method === 'HEAD' || messageIds(r.body).includes('Base.1.12.ResourceMissingAtURI'));
          if (!ok) failures.push(`${method} ${uri} -> ${r.status} ${messageIds(r.body).join(',')}`);
        }
      }
    }
    process.stdout.write(`# wrong ids: ${checked} requests; routes with parameters not reached by the crawl: ${unreached.length}\n`);
    assert.deepEqual(failures, []);
    // Every route with parameters is walked: the setup made a member of every collection.
    assert.ok(unreached.length <= 0, `unreached: ${unreached.join(', ')}`);
  });

  it('answers 404 for an id of another system, manager or chassis even where the handler never looks', async () => {
    for (const uri of [
      '/redfish/v1/Systems/999/SecureBoot/SecureBootDatabases/',
      '/redfish/v1/Managers/2/LogServices/',
      '/redfish/v1/Chassis/X/Thermal/',
    ]) {
      const r = await svc.get(uri);
      assert.equal(r.status, 404, uri);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI']);
    }
  });
});
