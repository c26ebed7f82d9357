import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost, powerOff } from '../../support/host.js';
import { messageIds, startTestService, type Auth, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const CHASSIS = '/redfish/v1/Chassis/1/';

describe('ComputerSystem HostName and the UID light', () => {
  let svc: TestService;
  const operator = { user: 'operator', password: 'Operator-Pass-1' };
  const reader = { user: 'reader', password: 'Reader-Pass-1' };
  before(async () => {
    svc = await startTestService();
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: operator.user, Password: operator.password, RoleId: 'Operator' });
    await accounts.create({ UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' });
  });
  after(() => svc.close());

  const patch = (body: unknown, auth: Auth = 'session') => svc.req('PATCH', SYS, { body, auth });

  it('HostName is the OS-reported name while the OS runs, null otherwise, until a client sets one', async () => {
    assert.equal((await svc.get(SYS)).body.HostName, null);
    await bootHost(svc);
    const serial = (await svc.get(SYS)).body.SerialNumber as string;
    assert.equal((await svc.get(SYS)).body.HostName, `host-${serial.toLowerCase()}`);
    await powerOff(svc);
    assert.equal((await svc.get(SYS)).body.HostName, null);
  });

  it('a HostName set by PATCH is kept across a restart and whatever the power state; null clears it', async () => {
    const r = await patch({ HostName: 'node-07.rack3.example.com' });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(SYS)).body.HostName, 'node-07.rack3.example.com');
    svc = await svc.restart();
    assert.equal((await svc.get(SYS)).body.HostName, 'node-07.rack3.example.com');
    await bootHost(svc);
    assert.equal((await svc.get(SYS)).body.HostName, 'node-07.rack3.example.com');
    assert.equal((await patch({ HostName: null })).status, 200);
    assert.match((await svc.get(SYS)).body.HostName, /^host-/);
    await powerOff(svc);
  });

  it('a host name that is not RFC 1123 is 400 PropertyValueFormatError and changes nothing', async () => {
    assert.equal((await patch({ HostName: 'good-name' })).status, 200);
    const bad = [
      '-leading',
      'trailing-',
      'under_score',
      'a..b',
      '',
      'dot.',
      'x'.repeat(64),
      `${'a'.repeat(63)}.`.repeat(4) + 'abc', // 259 characters
      'spa ce',
    ];
    for (const HostName of bad) {
      const r = await patch({ HostName, AssetTag: 'should-not-apply' });
      assert.equal(r.status, 400, HostName);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError'], HostName);
    }
    const got = (await svc.get(SYS)).body;
    assert.equal(got.HostName, 'good-name');
    assert.notEqual(got.AssetTag, 'should-not-apply');
    // 63-character labels and 255 characters in all are fine.
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`;
    assert.equal(longest.length, 255);
    assert.equal((await patch({ HostName: longest })).status, 200);
    assert.equal((await svc.get(SYS)).body.HostName, longest);
    assert.equal((await patch({ HostName: 'A1-b2' })).status, 200);
  });

  it('IndicatorLED and LocationIndicatorActive are one light, shared with the chassis', async () => {
    let s = (await svc.get(SYS)).body;
    assert.equal(s.IndicatorLED, 'Off');
    assert.equal(s.LocationIndicatorActive, false);

    assert.equal((await patch({ IndicatorLED: 'Blinking' })).status, 200);
    s = (await svc.get(SYS)).body;
    assert.equal(s.LocationIndicatorActive, true);
    const c = (await svc.get(CHASSIS)).body;
    assert.equal(c.IndicatorLED, 'Blinking');
    assert.equal(c.LocationIndicatorActive, true);

    // Turning the locator on again keeps it blinking; off turns both off.
    assert.equal((await patch({ LocationIndicatorActive: true })).status, 200);
    assert.equal((await svc.get(SYS)).body.IndicatorLED, 'Blinking');
    assert.equal((await patch({ LocationIndicatorActive: false })).status, 200);
    s = (await svc.get(SYS)).body;
    assert.equal(s.IndicatorLED, 'Off');
    assert.equal((await svc.get(CHASSIS)).body.LocationIndicatorActive, false);

    // On from off is Lit; a change made on the chassis shows on the system.
    assert.equal((await patch({ LocationIndicatorActive: true })).status, 200);
    assert.equal((await svc.get(SYS)).body.IndicatorLED, 'Lit');
    assert.equal((await svc.req('PATCH', CHASSIS, { body: { IndicatorLED: 'Off' } })).status, 200);
    s = (await svc.get(SYS)).body;
    assert.equal(s.IndicatorLED, 'Off');
    assert.equal(s.LocationIndicatorActive, false);
  });

  it('a contradicting pair is 400 PropertyValueConflict; a bad value is 400 PropertyValueNotInList; nothing changes', async () => {
    const conflict = await patch({ IndicatorLED: 'Lit', LocationIndicatorActive: false });
    assert.equal(conflict.status, 400);
    assert.deepEqual(messageIds(conflict.body), ['Base.1.12.PropertyValueConflict']);
    const chassisConflict = await svc.req('PATCH', CHASSIS, { body: { IndicatorLED: 'Off', LocationIndicatorActive: true } });
    assert.equal(chassisConflict.status, 400);
    const bad = await patch({ IndicatorLED: 'On' });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.PropertyValueNotInList']);
    assert.equal((await svc.get(SYS)).body.IndicatorLED, 'Off');
    // A consistent pair is fine.
    assert.equal((await patch({ IndicatorLED: 'Lit', LocationIndicatorActive: true })).status, 200);
  });

  it('the light survives a restart', async () => {
    assert.equal((await patch({ IndicatorLED: 'Blinking' })).status, 200);
    svc = await svc.restart();
    assert.equal((await svc.get(SYS)).body.IndicatorLED, 'Blinking');
    assert.equal((await svc.get(CHASSIS)).body.IndicatorLED, 'Blinking');
  });

  it('an Operator may change the light and HostName; a ReadOnly user may not', async () => {
    assert.equal((await patch({ LocationIndicatorActive: false, HostName: 'op-set' }, operator)).status, 200);
    const got = (await svc.get(SYS)).body;
    assert.equal(got.IndicatorLED, 'Off');
    assert.equal(got.HostName, 'op-set');
    const denied = await patch({ LocationIndicatorActive: true, HostName: 'ro-set' }, reader);
    assert.equal(denied.status, 403);
    assert.equal((await svc.get(SYS)).body.HostName, 'op-set');
    assert.equal((await svc.get(SYS)).body.LocationIndicatorActive, false);
    // The chassis light takes HostBIOSConfigPriv too, which a ReadOnly user lacks.
    assert.equal((await svc.req('PATCH', CHASSIS, { body: { LocationIndicatorActive: true }, auth: reader })).status, 403);
  });
});
