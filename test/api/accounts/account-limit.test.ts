// Issue 12, item 12: the number of accounts is bounded (--max-accounts,
// default 64); a POST beyond it gets 400 Base CreateLimitReachedForResource.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultConfig } from '../../../src/config.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';

describe('account limit', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxAccounts: 4 } });
  });
  after(() => svc.close());

  const create = (UserName: string) => svc.req('POST', ACCOUNTS, { body: { UserName, Password: 'Limit-Pass-1', RoleId: 'ReadOnly' } });

  it('defaults to 64 accounts', () => {
    assert.equal(defaultConfig().maxAccounts, 64);
  });

  it('refuses an account beyond the limit with 400 CreateLimitReachedForResource, concurrent POSTs included', async () => {
    // The first administrator is one of the four.
    const made = await Promise.all(['u1', 'u2', 'u3', 'u4', 'u5'].map(create));
    assert.deepEqual(made.map((r) => r.status).sort(), [201, 201, 201, 400, 400]);
    for (const r of made.filter((x) => x.status === 400)) assert.deepEqual(messageIds(r.body), ['Base.1.12.CreateLimitReachedForResource']);
    assert.equal((await svc.get(ACCOUNTS)).body['Members@odata.count'], 4);
    const again = await create('u6');
    assert.equal(again.status, 400);
    assert.deepEqual(messageIds(again.body), ['Base.1.12.CreateLimitReachedForResource']);
  });

  it('lets a new account in once one is deleted', async () => {
    // At the limit, whatever the other tests left.
    for (let i = 0; (await create(`fill${i}`)).status === 201; i++) assert.ok(i < 4, 'the limit is 4');
    const members = (await svc.get(ACCOUNTS)).body.Members as { '@odata.id': string }[];
    assert.equal(members.length, 4);
    assert.equal((await svc.req('DELETE', members.at(-1)!['@odata.id'])).status, 200);
    assert.equal((await create('u7')).status, 201);
    assert.equal((await create('u8')).status, 400);
  });
});
