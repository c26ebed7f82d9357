import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

describe('service root', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('is served without credentials and carries the OData annotations', async () => {
    const r = await svc.get('/redfish/v1/', { auth: 'none' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['odata-version'], '4.0');
    assert.equal(r.body['@odata.id'], '/redfish/v1/');
    assert.equal(r.body['@odata.type'], '#ServiceRoot.v1_20_0.ServiceRoot');
    assert.match(r.body['@odata.etag'], /^W\/"/);
    assert.equal(r.headers.etag, r.body['@odata.etag']);
    assert.match(r.body.UUID, /^[0-9a-f-]{36}$/);
  });

  it('links every service and top-level collection the route table serves, in a fixed order', async () => {
    const r = await svc.get('/redfish/v1/', { auth: 'none' });
    const links = Object.entries(r.body)
      .filter(([, v]) => typeof v === 'object' && v !== null && '@odata.id' in v)
      .map(([k, v]) => [k, (v as { '@odata.id': string })['@odata.id']]);
    assert.deepEqual(links, [
      ['Systems', '/redfish/v1/Systems/'],
      ['Chassis', '/redfish/v1/Chassis/'],
      ['Managers', '/redfish/v1/Managers/'],
      ['SessionService', '/redfish/v1/SessionService/'],
      ['AccountService', '/redfish/v1/AccountService/'],
      ['EventService', '/redfish/v1/EventService/'],
      ['UpdateService', '/redfish/v1/UpdateService/'],
      ['Tasks', '/redfish/v1/TaskService/'],
      ['TelemetryService', '/redfish/v1/TelemetryService/'],
      ['CertificateService', '/redfish/v1/CertificateService/'],
      ['Registries', '/redfish/v1/Registries/'],
      ['JsonSchemas', '/redfish/v1/schemas/'],
    ]);
    // The OData service document names the same ones.
    const odata = await svc.get('/redfish/v1/odata', { auth: 'none' });
    const named = (odata.body.value as { name: string; url: string }[]).map((x) => [x.name, x.url]);
    assert.deepEqual(
      links.filter(([k]) => !named.some(([n]) => n === k)),
      [],
    );
  });

  it('keeps its UUID across restarts', async () => {
    const before = (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID;
    svc = await svc.restart();
    const after = (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID;
    assert.equal(after, before);
  });
});
