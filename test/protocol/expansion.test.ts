// Issue 24, item 2: $expand has a budget. An expansion past it is refused with
// a registry message instead of building tens of megabytes; large expansions
// give other requests their turn; one account runs at most
// --max-expansions-per-account large ones at once (503 with Retry-After beyond),
// and an unauthenticated GET of the service root stays fast meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXPAND_LIMITS, KeptExpansions } from '../../src/protocol/expansion.js';
import { MAX_EXPAND_LEVELS } from '../../src/protocol/query.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';

const READER = { user: 'expander', password: 'Expander-Pass-1' };

describe('$expand budget', () => {
  let svc: TestService;
  let token: string;
  before(async () => {
    svc = await startTestService();
    const r = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      auth: 'basic',
      body: { UserName: READER.user, Password: READER.password, RoleId: 'ReadOnly' },
    });
    assert.equal(r.status, 201, r.text);
    token = await svc.login(READER.user, READER.password);
  });
  after(() => svc.close());

  it("refuses the issue's *($levels=6) of a system, asked by a ReadOnly user, with ExpandLimitExceeded", async () => {
    const r = await svc.get('/redfish/v1/Systems/1/?$expand=*($levels=6)', { auth: { token } });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ExpandLimitExceeded']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].MessageArgs, [
      '/redfish/v1/Systems/1/',
      `${EXPAND_LIMITS.resources} resources`,
    ]);
    assert.ok(r.text.length < 2_000);
  });

  it('answers every subordinate expansion of the service root to the deepest level, and advertises that level', async () => {
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    assert.equal(root.body.ProtocolFeaturesSupported.ExpandQuery.MaxLevels, MAX_EXPAND_LEVELS);
    const deep = await svc.get(`/redfish/v1/?$expand=.($levels=${MAX_EXPAND_LEVELS})`, { auth: { token } });
    assert.equal(deep.status, 200);
    assert.equal(deep.body.Systems.Members[0].Bios['@odata.id'], '/redfish/v1/Systems/1/Bios/');
    const beyond = await svc.get(`/redfish/v1/?$expand=.($levels=${MAX_EXPAND_LEVELS + 1})`, { auth: { token } });
    assert.deepEqual(messageIds(beyond.body), ['Base.1.12.QueryParameterOutOfRange']);
  });

  it('runs at most two large expansions of one account at once (503 with Retry-After beyond) while the root stays fast', async () => {
    // *($levels=3) of a system: 600 kB, within the budget, built over many turns.
    const large = () => svc.get('/redfish/v1/Systems/1/?$expand=*($levels=3)', { auth: { token } });
    const parallel = Promise.all(Array.from({ length: 12 }, large));
    const started = performance.now();
    const root = await svc.get('/redfish/v1/', { auth: 'none' });
    const rootMs = performance.now() - started;
    const answers = await parallel;
    assert.equal(root.status, 200);
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    assert.equal(ok.length + refused.length, answers.length, answers.map((a) => a.status).join());
    assert.ok(ok.length >= 2, `${ok.length} answered`);
    assert.ok(refused.length >= 1, 'none refused');
    for (const r of refused) {
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ServiceTemporarilyUnavailable']);
      assert.equal(r.headers['retry-after'], '2');
    }
    assert.ok(ok[0]!.text.length > 500_000);
    // Generous for a loaded machine; without the turns given away the root waited for every expansion (50 s).
    assert.ok(rootMs < 5_000, `GET /redfish/v1/ took ${rootMs.toFixed(0)} ms`);
    // The slots come back, and another account (the administrator) has its own.
    assert.equal((await large()).status, 200);
    assert.equal((await svc.get('/redfish/v1/Systems/1/?$expand=*($levels=3)', { auth: 'basic' })).status, 200);
  });
});

describe('kept expansions', () => {
  it('keep no body over the size limit, and let all go once they total the limit', () => {
    const kept = new KeptExpansions<{ body: Buffer }>(10, 25);
    const [a, b, c] = [{}, {}, {}];
    kept.keep(a, '.1', { body: Buffer.alloc(11) });
    assert.equal(kept.get(a, '.1'), undefined);
    kept.keep(a, '.1', { body: Buffer.alloc(10) });
    kept.keep(b, '.1', { body: Buffer.alloc(10) });
    assert.ok(kept.get(a, '.1') && kept.get(b, '.1'));
    kept.keep(c, '.1', { body: Buffer.alloc(10) });
    assert.equal(kept.get(a, '.1'), undefined);
    assert.ok(kept.get(c, '.1'));
  });
});
