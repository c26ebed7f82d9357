import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LOG_RECORDS } from '../../../src/domain/logs/logs.js';
import { vendorMessage } from '../../../src/messages/errors.js';
import { bootHost, powerOff } from '../../support/host.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS_LOGS = '/redfish/v1/Systems/1/LogServices/';
const MGR_LOGS = '/redfish/v1/Managers/1/LogServices/';
const IML = `${SYS_LOGS}IML/`;
const IEL = `${MGR_LOGS}IEL/`;

describe('log services', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('pages a full log at the cost of the page: only the entries shown are read', async () => {
    const logs = svc.running.services.logs;
    for (let i = 0; i < MAX_LOG_RECORDS; i++) logs.write('IEL', vendorMessage('LogCleared', 'Integrated Event Log', `filler-${i}`));
    const reads = { n: 0 };
    const get = logs.get.bind(logs);
    logs.get = (log, id) => (reads.n++, get(log, id));
    try {
      const page = await svc.get(`${IEL}Entries/?$skip=10&$top=5`);
      assert.equal(page.status, 200);
      assert.equal(page.body.Members.length, 5);
      assert.equal(page.body['Members@odata.count'], MAX_LOG_RECORDS);
      assert.equal(page.body['Members@odata.nextLink'], `${IEL}Entries/?$skip=15&$top=5`);
      assert.ok(
        page.body.Members.every((m: { MessageId?: string }) => m.MessageId !== undefined),
        'members shown whole (AutoExpand)',
      );
      // Each entry shown is read twice (its id resolved, then shown); none outside the page.
      assert.equal(reads.n, 2 * 5);
      reads.n = 0;
      const all = await svc.get(`${IEL}Entries/`);
      assert.equal(all.body.Members.length, MAX_LOG_RECORDS);
      assert.equal(reads.n, 2 * MAX_LOG_RECORDS);
    } finally {
      logs.get = get;
    }
  });

  it('serves the IML under the system and the IEL under the manager', async () => {
    const sys = await svc.get(SYS_LOGS);
    assert.equal(sys.status, 200);
    assert.deepEqual(sys.body.Members, [{ '@odata.id': IML }]);
    const mgr = await svc.get(MGR_LOGS);
    assert.deepEqual(mgr.body.Members, [{ '@odata.id': IEL }]);

    const iml = await svc.get(IML);
    assert.equal(iml.body['@odata.type'], '#LogService.v1_9_0.LogService');
    assert.equal(iml.body.Id, 'IML');
    assert.equal(iml.body.Name, 'Integrated Management Log');
    assert.equal(iml.body.OverWritePolicy, 'WrapsWhenFull');
    assert.equal(iml.body.MaxNumberOfRecords, MAX_LOG_RECORDS);
    assert.deepEqual(iml.body.Entries, { '@odata.id': `${IML}Entries/` });
    assert.equal(iml.body.Actions['#LogService.ClearLog'].target, `${IML}Actions/LogService.ClearLog/`);
    assert.equal((await svc.get(IEL)).body.Id, 'IEL');

    for (const p of [
      `${SYS_LOGS}IEL/`,
      `${MGR_LOGS}IML/`,
      '/redfish/v1/Systems/2/LogServices/',
      '/redfish/v1/Managers/2/LogServices/IEL/',
      `${IML}Entries/999/`,
    ]) {
      const r = await svc.get(p);
      assert.equal(r.status, 404, p);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI'], p);
    }
  });

  it('records real events as LogEntry members: power changes in the IML, controller resets in the IEL', async () => {
    await bootHost(svc, 60_000);
    const list = await svc.get(`${IML}Entries/`);
    assert.ok(list.body['Members@odata.count'] >= 1);
    const first = await svc.get(list.body.Members[0]['@odata.id']);
    assert.equal(first.status, 200);
    assert.equal(first.body['@odata.type'], '#LogEntry.v1_21_0.LogEntry');
    assert.equal(first.body.EntryType, 'Oem');
    assert.equal(first.body.OemRecordFormat, 'Vendor-IML');
    assert.match(first.body.Created, /^2026-11-22T08:0\d:\d\dZ$/);
    assert.ok(['OK', 'Warning', 'Critical'].includes(first.body.Severity));
    assert.ok(first.body.Message.length > 0);
    assert.match(first.body.MessageId, /^[A-Za-z]+\.\d+\.\d+\.[A-Za-z]+$/);
    assert.ok(Array.isArray(first.body.MessageArgs));
    // LogEntryCollection's Members are OData.AutoExpand: the collection shows each entry whole.
    assert.deepEqual(list.body.Members[0], first.body);

    await svc.req('POST', '/redfish/v1/Managers/1/Actions/Manager.Reset/', { body: {} });
    const iel = await svc.get(`${IEL}Entries/?$expand=.`, { auth: 'basic' });
    const reset = iel.body.Members.find((m: any) => m.MessageId === 'Vendor.1.0.ControllerReset');
    assert.ok(reset, JSON.stringify(iel.body.Members.map((m: any) => m.MessageId)));
    assert.equal(reset.EntryType, 'Event');
    assert.equal(reset.Created, '2026-11-22T08:01:05Z');
    assert.deepEqual(reset.Links.OriginOfCondition, { '@odata.id': '/redfish/v1/Managers/1/' });
    await powerOff(svc, 1000);
  });

  it('keeps records across restarts and pages with $top/$skip', async () => {
    // Records of a power cycle (and of whatever ran before).
    await bootHost(svc, 1_000);
    await powerOff(svc);
    const before = (await svc.get(`${IML}Entries/`, { auth: 'basic' })).body.Members;
    svc = await svc.restart();
    const after = await svc.get(`${IML}Entries/`, { auth: 'basic' });
    assert.deepEqual(after.body.Members, before);
    assert.ok(before.length >= 2);
    const page = await svc.get(`${IML}Entries/?$top=1&$skip=1`, { auth: 'basic' });
    assert.equal(page.body.Members.length, 1);
    assert.deepEqual(page.body.Members[0], before[1]);
    assert.equal(page.body['Members@odata.count'], before.length);
  });

  it('ClearLog empties one log, leaves a record of who cleared it, and needs ManagerConfigPriv', async () => {
    // Records in both logs: a power cycle in the IML, a controller reset in the IEL.
    await bootHost(svc, 1_000);
    await powerOff(svc);
    assert.equal((await svc.req('POST', '/redfish/v1/Managers/1/Actions/Manager.Reset/', { body: {}, auth: 'basic' })).status, 200);
    const ielCount = (await svc.get(`${IEL}Entries/`, { auth: 'basic' })).body['Members@odata.count'];
    assert.ok(ielCount > 0);
    const op = { user: 'log-operator', password: 'Operator-Pass-1' };
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: op.user, Password: op.password, RoleId: 'Operator' },
      auth: 'basic',
    });
    assert.equal((await svc.req('POST', `${IML}Actions/LogService.ClearLog/`, { body: {}, auth: op })).status, 403);
    const bad = await svc.req('POST', `${IML}Actions/LogService.ClearLog/`, { body: { Everything: true }, auth: 'basic' });
    assert.equal(bad.status, 400);

    const r = await svc.req('POST', `${IML}Actions/LogService.ClearLog/`, { body: {}, auth: 'basic' });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
    const left = await svc.get(`${IML}Entries/?$expand=.`, { auth: 'basic' });
    assert.equal(left.body['Members@odata.count'], 1);
    assert.equal(left.body.Members[0].MessageId, 'Vendor.1.0.LogCleared');
    assert.deepEqual(left.body.Members[0].MessageArgs, ['Integrated Management Log', 'Administrator']);
    // Ids keep counting: a cleared record's id is never reused.
    assert.ok(Number(left.body.Members[0].Id) > 1);
    // The other log is untouched.
    assert.ok((await svc.get(`${IEL}Entries/`, { auth: 'basic' })).body['Members@odata.count'] >= ielCount);
    // Cleared for good.
    svc = await svc.restart();
    assert.equal((await svc.get(`${IML}Entries/`, { auth: 'basic' })).body['Members@odata.count'], 1);
    // ClearLog also works without a body.
    assert.equal((await svc.req('POST', `${IEL}Actions/LogService.ClearLog/`, { auth: 'basic' })).status, 200);
    assert.equal((await svc.get(`${IEL}Entries/`, { auth: 'basic' })).body['Members@odata.count'], 1);
  });

  it('wraps when full: the oldest records are overwritten', () => {
    const logs = svc.running.services.logs;
    const msg = vendorMessage('ControllerReset');
    for (let i = 0; i < MAX_LOG_RECORDS + 5; i++) logs.write('IEL', msg);
    const all = logs.list('IEL');
    assert.equal(all.length, MAX_LOG_RECORDS);
    assert.ok(!all.some((r) => r.MessageId === 'Vendor.1.0.LogCleared'), 'the oldest record went first');
  });
});

describe('IML maintenance notes (ilorest serverlogs --selectlog=IML -m)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('a note POSTed to the IML entries is a record of the IML; the IEL takes none', async () => {
    const ENTRIES = '/redfish/v1/Systems/1/LogServices/IML/Entries/';
    const r = await svc.req('POST', ENTRIES, { body: { EntryCode: 'Maintenance', Message: 'replaced fan 3' } });
    assert.equal(r.status, 201, r.text);
    const entry = (await svc.get(r.headers.location!)).body;
    assert.equal(entry.Message, 'replaced fan 3');
    assert.equal(entry.MessageId, 'Vendor.1.0.MaintenanceNote');
    assert.equal((await svc.req('POST', ENTRIES, { body: { EntryCode: 'Other', Message: 'x' } })).status, 400);
    assert.equal(
      (await svc.req('POST', '/redfish/v1/Managers/1/LogServices/IEL/Entries/', { body: { EntryCode: 'Maintenance', Message: 'x' } }))
        .status,
      405,
    );
  });
});
