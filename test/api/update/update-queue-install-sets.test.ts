// Issue 7 point 5: install sets, the recovery set and its privilege, Invoke.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCAN_DURATION_MS } from '../../../src/domain/firmware/integrity.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';
import {
  FW,
  NO_RECOVERY,
  QUEUE,
  REPO,
  SETS,
  WINDOWS,
  addComponent,
  addNoRecoveryAccount,
  advance,
  get,
  isoIn,
  post,
  taskState,
} from '../../support/update-queue.js';

describe('install sets', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg', criticality: 'Critical' });
    await addComponent(svc, { targets: ['CPLD'], version: '0x2B', file: 'cpld.fwpkg' });
    await addComponent(svc, { targets: ['NIC'], version: '20.15.0', file: 'nic.fwpkg', type: 'B', criticality: 'Critical' });
    await addNoRecoveryAccount(svc);
  });
  after(() => svc.close());

  const set = (name: string, extra: Record<string, unknown> = {}) => ({
    Name: name,
    Sequence: [
      { Name: `${name} IE`, UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg', WaitTimeSeconds: 0 },
      { Name: `${name} pause`, UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 30 },
      { Name: `${name} NIC`, UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Filename: 'nic.fwpkg' },
    ],
    ...extra,
  });
  const RECOVERY = {
    Name: 'System Recovery Set',
    IsRecovery: true,
    Sequence: [{ Name: 'IE recovery', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }],
  };
  const sets = async () => (await get(svc, `${SETS}?$expand=.`)).body.Members as { Id: string; Name: string; IsRecovery: boolean }[];
  /** The Id of the ordinary set "Gen11 SPP" the first test makes, made here for a test that runs without it. */
  const gen11 = async (): Promise<string> => {
    const found = (await sets()).find((m) => m.Name === 'Gen11 SPP');
    if (found) return found.Id;
    const r = await post(svc, SETS, set('Gen11 SPP', { Targets: [`${FW}5/`] }));
    assert.equal(r.status, 201, r.text);
    return r.body.Id;
  };
  /** The recovery set (holding ie.fwpkg), made here when no earlier test made it. */
  const recoverySet = async (): Promise<void> => {
    if ((await sets()).some((m) => m.IsRecovery)) return;
    const r = await post(svc, SETS, RECOVERY);
    assert.equal(r.status, 201, r.text);
  };
  const locked = async (file: string) => (await get(svc, `${REPO}${file}/`)).body.Locked as boolean;
  const as = (auth: typeof NO_RECOVERY, method: string, path: string, body?: unknown) => svc.req(method, path, { auth, body });

  it('POST creates a set; Id from the Name; its components become Locked', async () => {
    assert.equal(await locked('ie.fwpkg'), false);
    const r = await post(svc, SETS, set('Gen11 SPP', { Targets: [`${FW}5/`] }));
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.Id, /^Gen11_SPP-[0-9a-f]{8}$/);
    assert.equal(r.body.IsRecovery, false);
    assert.equal(r.body.Sequence.length, 3);
    assert.deepEqual(r.body.Targets, [`${FW}5/`]);
    assert.equal(
      r.body.Actions['#VendorComponentInstallSet.Invoke'].target,
      `${SETS}${r.body.Id}/Actions/VendorComponentInstallSet.Invoke/`,
    );
    assert.equal(await locked('ie.fwpkg'), true);
    assert.equal(await locked('nic.fwpkg'), true);
    assert.equal((await svc.req('DELETE', `${REPO}ie.fwpkg/`, { auth: 'basic' })).status, 409);
  });

  it('refuses rule violations with 400s naming the property', async () => {
    await gen11();
    const count = (await get(svc, SETS)).body['Members@odata.count'];
    const item = { Name: 'i', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' };
    const cases: [unknown, string, string][] = [
      [set('Gen11 SPP'), 'Base.1.12.PropertyValueIncorrect', '#/Name'],
      [{ Name: 's', Sequence: [item, { ...item }] }, 'Base.1.12.PropertyValueIncorrect', '#/Sequence/1/Name'],
      [{ Name: 's', Sequence: [{ ...item, Filename: 'missing.bin' }] }, 'Base.1.12.PropertyValueNotInList', '#/Sequence/0/Filename'],
      [
        { Name: 's', Sequence: [{ ...item, UpdatableBy: ['Bmc', 'RuntimeAgent'] }] },
        'Base.1.12.PropertyValueIncorrect',
        '#/Sequence/0/UpdatableBy',
      ],
      [
        { Name: 's', Sequence: [{ Name: 'w', UpdatableBy: ['Bmc'], Command: 'Wait' }] },
        'Base.1.12.PropertyMissing',
        '#/Sequence/0/WaitTimeSeconds',
      ],
      [
        { Name: 's', Sequence: [{ Name: 'w', UpdatableBy: ['Bmc'], Command: 'Wait', WaitTimeSeconds: 4000 }] },
        'Base.1.12.PropertyValueOutOfRange',
        '#/Sequence/0/WaitTimeSeconds',
      ],
      [
        { Name: 's', Sequence: [{ UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }] },
        'Base.1.12.PropertyMissing',
        '#/Sequence/0/Name',
      ],
      [{ Name: 's', Sequence: [] }, 'Base.1.12.PropertyValueOutOfRange', '#/Sequence'],
      [{ Name: 's' }, 'Base.1.12.PropertyMissing', '#/Sequence'],
      [
        { Name: 's', Sequence: [item], Targets: Array.from({ length: 11 }, () => `${FW}5/`) },
        'Base.1.12.PropertyValueOutOfRange',
        '#/Targets',
      ],
    ];
    for (const [body, id, prop] of cases) {
      const r = await post(svc, SETS, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.text}`);
      assert.equal(r.body.error['@Message.ExtendedInfo'][0].MessageId, id, JSON.stringify(body));
      assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].RelatedProperties, [prop], JSON.stringify(body));
    }
    assert.equal((await get(svc, SETS)).body['Members@odata.count'], count);
  });

  it('the recovery set needs SystemRecoveryConfigPriv and holds only Critical controller-flashable firmware', async () => {
    const ordinary = `${SETS}${await gen11()}/`;
    const recovery = RECOVERY;
    let r = await as(NO_RECOVERY, 'POST', SETS, recovery);
    assert.equal(r.status, 403);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
    // Not Critical; not flashable by the controller (Type B); not for the Bmc.
    for (const [filename, by] of [
      ['cpld.fwpkg', 'Bmc'],
      ['nic.fwpkg', 'Bmc'],
      ['ie.fwpkg', 'Uefi'],
    ]) {
      r = await post(svc, SETS, { ...recovery, Sequence: [{ ...recovery.Sequence[0], Filename: filename, UpdatableBy: [by] }] });
      assert.equal(r.status, 400, `${filename} ${by}`);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.InstallSetRecoveryItemNotAllowed']);
    }
    r = await post(svc, SETS, recovery);
    assert.equal(r.status, 201, r.text);
    const uri = r.headers.location as string;
    r = await post(svc, SETS, { ...recovery, Name: 'Second recovery' });
    assert.equal(r.status, 400);
    // Changing or deleting it needs the privilege too; an ordinary set does not.
    assert.equal((await as(NO_RECOVERY, 'PATCH', uri, { Description: 'x' })).status, 403);
    assert.equal((await as(NO_RECOVERY, 'DELETE', uri)).status, 403);
    assert.equal((await as(NO_RECOVERY, 'PATCH', ordinary, { Description: 'ok' })).status, 200);
    assert.equal((await as(NO_RECOVERY, 'PATCH', ordinary, { IsRecovery: true })).status, 403);
    assert.equal((await svc.req('PATCH', uri, { auth: 'basic', body: { Description: 'Factory recovery images' } })).status, 200);
  });

  it('the integrity scan repairs from the recovery set', async () => {
    await recoverySet();
    const fw = svc.running.services.update;
    fw.integrity.configure({ OnIntegrityFailure: 'LogAndRepairAutomatically' });
    fw.integrity.corrupt('firmware', '5');
    const scan = fw.integrity.start();
    await svc.clock.advance(SCAN_DURATION_MS);
    const report = await scan;
    assert.deepEqual(report.repaired, [`${FW}5/`]);
    assert.equal((await get(svc, `${FW}5/`)).body.Version, '0.2.3.0');
  });

  it('Invoke (lower-case path too) appends one task per item without clearing the queue', async () => {
    const id = await gen11();
    await post(svc, QUEUE, { Name: 'already queued', UpdatableBy: ['Uefi'], Command: 'Wait', WaitTimeSeconds: 1 });
    await post(svc, WINDOWS, { Name: 'Tonight', StartAfter: isoIn(svc, 3600_000), Expire: isoIn(svc, 7200_000) });
    const r = await post(svc, `/redfish/v1/updateservice/installsets/${id}/Actions/VendorComponentInstallSet.Invoke`, {
      MaintenanceWindow: 'Tonight',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(messageIds(r.body), [
      'Base.1.12.Success',
      'Vendor.1.0.UpdateTaskQueued',
      'Vendor.1.0.UpdateTaskQueued',
      'Vendor.1.0.UpdateTaskQueued',
    ]);
    const members = (await get(svc, QUEUE)).body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
    assert.equal(members.length, 4);
    assert.equal(members[0], `${QUEUE}already_queued-${members[0].split('-').at(-1)}`);
    const first = (await get(svc, members[1])).body;
    assert.equal(first.Name, 'Gen11 SPP IE');
    assert.equal(first.MaintenanceWindow, 'Tonight');
    assert.deepEqual(first.Targets, [`${FW}5/`]);
    assert.equal((await get(svc, members[2])).body.Command, 'Wait');
    // Invoking again: the task names clash with queued ones.
    const again = await post(svc, `${SETS}${id}/Actions/VendorComponentInstallSet.Invoke/`, {});
    assert.equal(again.status, 400);
    assert.deepEqual(again.body.error['@Message.ExtendedInfo'][0].RelatedProperties, ['#/Sequence/0/Name']);
    assert.equal((await get(svc, QUEUE)).body['Members@odata.count'], 4, 'all or nothing');
    for (const m of members) await svc.req('DELETE', m, { auth: 'basic' });
  });

  it('Invoke takes StartAfter/Expire, an empty body, and needs TPMOverride while a TPM is in use', async () => {
    const id = await gen11();
    const target = `${SETS}${id}/Actions/VendorComponentInstallSet.Invoke/`;
    let r = await post(svc, target, { StartAfter: isoIn(svc, 3600_000), Expire: isoIn(svc, 60_000) });
    assert.equal(r.status, 400);
    r = await post(svc, target, { MaintenanceWindow: 'Nope' });
    assert.equal(r.status, 400);
    r = await post(svc, target, { Bogus: 1 });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterUnknown']);
    svc.running.services.host.setTpm({ installed: true, inUse: true });
    try {
      r = await post(svc, target, {});
      assert.equal(r.status, 400);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterMissing']);
      r = await post(svc, target, { TPMOverride: true, StartAfter: isoIn(svc, 3600_000) });
      assert.equal(r.status, 200, r.text);
    } finally {
      svc.running.services.host.setTpm({ installed: true, inUse: false });
    }
    const t = (await get(svc, (await get(svc, QUEUE)).body.Members[0]['@odata.id'])).body;
    assert.equal(t.StartAfter, isoIn(svc, 3600_000));
    assert.equal(t.TPMOverride, true);
    for (const m of (await get(svc, QUEUE)).body.Members) await svc.req('DELETE', m['@odata.id'], { auth: 'basic' });
    r = await svc.req('POST', target, { auth: 'basic' });
    assert.equal(r.status, 200, r.text);
    for (const m of (await get(svc, QUEUE)).body.Members) await svc.req('DELETE', m['@odata.id'], { auth: 'basic' });
  });

  it('PATCH renames (new Location) and edits the Sequence; locks follow; DELETE unlocks', async () => {
    const old = `${SETS}${await gen11()}/`;
    await recoverySet();
    let r = await svc.req('PATCH', old, { auth: 'basic', body: { Name: 'SPP-2026', Sequence: [{}, null, null] } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.location, `${SETS}SPP-2026/`);
    assert.equal((await get(svc, old)).status, 404);
    const s = (await get(svc, `${SETS}SPP-2026/`)).body;
    assert.deepEqual(
      s.Sequence.map((i: { Name: string }) => i.Name),
      ['Gen11 SPP IE'],
    );
    assert.equal(await locked('nic.fwpkg'), false);
    assert.equal(await locked('ie.fwpkg'), true);
    r = await svc.req('PATCH', `${SETS}SPP-2026/`, { auth: 'basic', body: { Sequence: [{ Filename: 'missing.bin' }] } });
    assert.equal(r.status, 400);
    r = await svc.req('DELETE', `${SETS}SPP-2026/`, { auth: 'basic' });
    assert.equal(r.status, 200);
    // Still locked by the recovery set.
    assert.equal(await locked('ie.fwpkg'), true);
    const recovery = (await get(svc, `${SETS}?$expand=.`)).body.Members.find((m: { IsRecovery: boolean }) => m.IsRecovery);
    r = await svc.req('DELETE', recovery['@odata.id'], { auth: 'basic' });
    assert.equal(r.status, 200);
    assert.equal(await locked('ie.fwpkg'), false);
  });

  it('keeps at most 8 install sets', async () => {
    for (const m of await sets()) assert.equal((await svc.req('DELETE', `${SETS}${m.Id}/`, { auth: 'basic' })).status, 200);
    for (let i = 1; i <= 8; i++) assert.equal((await post(svc, SETS, set(`s${i}`))).status, 201);
    const r = await post(svc, SETS, set('s9'));
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.CreateLimitReachedForResource']);
    svc = await svc.restart();
    assert.equal((await get(svc, SETS)).body['Members@odata.count'], 8);
    assert.equal(await locked('nic.fwpkg'), true);
    await advance(svc, 1000);
    assert.equal(await taskState(svc, 's1'), 404);
  });
});
