// Issue 28 items 3 and 5 (onebuttonerase): the vendor's SecureSystemErase runs
// at the next POST: BIOS defaults, Secure Boot keys, the TPM, then (once the
// outcome could be read) the controller's factory reset.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FACTORY_RESET_DELAY_MS } from '../../../src/domain/manager/secure-erase.js';
import { bootHost } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const ERASE = `${SYS}Actions/Oem/Vendor/VendorComputerSystemExt.SecureSystemErase/`;

describe('one-button secure erase', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  // Basic: the erase ends with a factory reset, which ends every session.
  const req = (method: string, path: string, body?: unknown) => svc.req(method, path, { body, auth: 'basic' });
  const oem = async () => (await req('GET', SYS)).body.Oem.Vendor;

  it('erases at POST, shows its outcome, then resets the controller to its factory settings and reads Idle', async () => {
    const idle = await oem();
    assert.deepEqual([idle.SystemROMAndiLOEraseStatus, idle.UserDataEraseStatus], ['Idle', 'Idle']);
    assert.equal(idle.Actions['#VendorComputerSystemExt.SecureSystemErase'].target, ERASE);

    // State to erase: a changed BIOS setting, a TPM in use, a second account and a changed SNMP contact.
    await req('PATCH', `${SYS}Bios/Settings/`, { Attributes: { ProcTurbo: 'Disabled' } });
    await bootHost(svc);
    assert.equal((await req('GET', `${SYS}Bios/`)).body.Attributes.ProcTurbo, 'Disabled');
    svc.running.services.host.setTpm({ installed: true, inUse: true });
    await req('POST', '/redfish/v1/AccountService/Accounts/', { UserName: 'erased', Password: 'Erased-Pass-1', RoleId: 'ReadOnly' });
    await req('PATCH', '/redfish/v1/Managers/1/SnmpService/', { Contact: 'erase me' });

    const r = await req('POST', ERASE, { SystemROMAndiLOErase: true, UserDataErase: true });
    assert.equal(r.status, 200, r.text);
    assert.equal((await oem()).SystemROMAndiLOEraseStatus, 'Initiated');
    assert.equal((await req('POST', ERASE, { SystemROMAndiLOErase: true, UserDataErase: true })).status, 409);

    await bootHost(svc, 1_000, 'ForceRestart');
    const done = await oem();
    assert.equal(done.SystemROMAndiLOEraseStatus, 'CompletedWithSuccess');
    assert.equal(done.UserDataEraseComponentStatus.TPMEraseStatus, 'CompletedWithSuccess');
    assert.equal(done.TpmState, 'PresentNotInUse');
    assert.notEqual((await req('GET', `${SYS}Bios/`)).body.Attributes.ProcTurbo, 'Disabled');
    const iml = (await req('GET', `${SYS}LogServices/IML/Entries/`)).body.Members.map((e: any) => e.Message);
    assert.ok(iml.some((m: string) => /One-button secure erase completed/.test(m)));
    // The controller's settings stay until the outcome could be read.
    assert.equal((await req('GET', '/redfish/v1/Managers/1/SnmpService/')).body.Contact, 'erase me');

    await svc.clock.advance(FACTORY_RESET_DELAY_MS);
    await svc.dropConnections();
    assert.equal((await req('GET', '/redfish/v1/Managers/1/SnmpService/')).body.Contact, '');
    const users = (await req('GET', '/redfish/v1/AccountService/Accounts/?$expand=.')).body.Members.map((a: any) => a.UserName);
    assert.deepEqual(users, ['Administrator']);
    const after = await oem();
    assert.deepEqual([after.SystemROMAndiLOEraseStatus, after.UserDataEraseStatus], ['Idle', 'Idle']);
  });
});

// ilorest 3.6.0.0 onebuttonerase --confirm --nomonitor (its monitor ends in a NameError of its own
// on every path): the requests it sends and the Oem/Hpe fields its monitor would print.
describe('one-button secure erase as ilorest asks it, --oem-name Hpe', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const req = (method: string, path: string, body?: unknown) => svc.req(method, path, { body, auth: 'basic' });

  it('finds the action under Oem/Hpe/Actions, erases at the restart it asks for, and reads each part complete', async () => {
    await bootHost(svc);
    await req('PATCH', `${SYS}Bios/settings/`, { Attributes: { ServerName: 'r28-erase' } });
    const system = (await req('GET', SYS)).body;
    assert.deepEqual([system.Oem.Hpe.SystemROMAndiLOEraseStatus, system.Oem.Hpe.UserDataEraseStatus], ['Idle', 'Idle']);
    const key = Object.keys(system.Oem.Hpe.Actions).find((k) => k.includes('SecureSystemErase'));
    assert.equal(key, '#HpeComputerSystemExt.SecureSystemErase');
    const erase = await req('POST', system.Oem.Hpe.Actions[key].target, { SystemROMAndiLOErase: true, UserDataErase: true });
    assert.equal(erase.status, 200, erase.text);
    const restart = await req('POST', system.Actions['#ComputerSystem.Reset'].target, { ResetType: 'ForceRestart' });
    assert.equal(restart.status, 200, restart.text);
    await svc.clock.advance(5_000);
    await svc.running.services.server.postSettled();
    const oem = (await req('GET', SYS)).body.Oem.Hpe;
    assert.deepEqual(oem.SystemROMAndiLOEraseComponentStatus, {
      BIOSSettingsEraseStatus: 'CompletedWithSuccess',
      iLOSettingsEraseStatus: 'CompletedWithSuccess',
    });
    assert.ok(Object.values(oem.UserDataEraseComponentStatus).every((s) => s === 'CompletedWithSuccess'));
    assert.equal((await req('GET', `${SYS}Bios/`)).body.Attributes.ServerName, '');
  });
});
