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

  it('keeps its UUID across restarts', async () => {
    const before = (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID;
    svc = await svc.restart();
    const after = (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID;
    assert.equal(after, before);
  });
});
