// The CLI's faults tool: fault rules of the control API made, listed, shown and deleted
// from the command line against a started service (its own file: each CLI run is a process).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runToExit } from '../../support/child.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type TestService } from '../../support/service.js';

describe('CLI: faults', () => {
  let svc: TestService;
  const cli = (...args: string[]) =>
    runToExit([...args, '--url', svc.url, '--user', ADMIN_USER, '--password', ADMIN_PASSWORD, '--insecure']);
  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
  });
  after(() => svc.close());

  it('faults add / list / show / delete: a rule from the command line, seen by the next request', async () => {
    let r = await cli('faults', 'add', 'GET', '/redfish/v1/Systems/1/', 'Status=503', 'RetryAfter=7', 'Count=1');
    assert.equal(r.code, 0, r.stderr);
    const made = JSON.parse(r.stdout);
    assert.deepEqual(made.Match, { Uri: '/redfish/v1/Systems/1/', Method: 'GET' });
    assert.deepEqual(made.Action, { Status: 503, RetryAfter: 7 });
    const hit = await svc.get('/redfish/v1/Systems/1/', { auth: 'basic' });
    assert.equal(hit.status, 503);
    assert.equal(hit.headers['retry-after'], '7');
    r = await cli('faults', 'add', '*', '/redfish/v1/Chassis/*', 'Patch={"PowerState":null}', 'Probability=0.5', 'Seed=3');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).Action, { Patch: { PowerState: null } });
    r = await cli('faults', 'list');
    assert.deepEqual(
      JSON.parse(r.stdout).Rules.map((x: { Fired: number }) => x.Fired),
      [1, 0],
    );
    r = await cli('faults', 'show', made.Id);
    assert.equal(JSON.parse(r.stdout).State, 'Spent');
    r = await cli('faults', 'delete', made.Id);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await svc.get(`/control/faults/rules/${made.Id}/`, { auth: 'basic' })).status, 404);
    r = await cli('faults', 'add', 'GET', '/redfish/v1/', 'Count=2');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /an action is needed.*\n\nUsage: npm run cli -- faults/s);
  });
});
