// Every memoized representation (lib/memo.ts `Representations.get(name, key, build)`) follows a
// change of each input of its key. Under the self-checks every test service runs with
// (lib/self-check.ts) each read also rebuilds the representation and answers 500 on any
// difference from the kept one, so a key that misses an input fails here: each test reads
// the resource, changes one input, and reads it again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addComponent, QUEUE, REPO, until } from '../support/update-queue.js';
import { startTestService, type TestService } from '../support/service.js';
import { SseStream } from '../support/sse.js';
import { waitUntil } from '../support/wait.js';

const SYS = '/redfish/v1/Systems/1/';
const CH = '/redfish/v1/Chassis/1/';
const MANAGER = '/redfish/v1/Managers/1/';
const THERMAL = `${CH}Thermal/`;
const BIOS = `${SYS}Bios/`;
const ACCOUNTS = '/redfish/v1/AccountService/Accounts/';
const SESSIONS = '/redfish/v1/SessionService/Sessions/';
const SUBSCRIPTIONS = '/redfish/v1/EventService/Subscriptions/';
const IEL = '/redfish/v1/Managers/1/LogServices/IEL/Entries/';

describe('memoized representations follow every input of their key', () => {
  let svc: TestService;
  // Basic credentials throughout: the idle timeout below ends every session that waits.
  const control = async (path: string, body?: unknown, method = 'POST') => {
    const r = await svc.req(method, `/control/${path}`, { body, auth: 'basic' });
    assert.ok(r.status < 300, `${method} /control/${path}: ${r.text}`);
    return r;
  };
  const write = async (method: string, uri: string, body?: unknown) => {
    const r = await svc.req(method, uri, { body, auth: 'basic' });
    assert.ok(r.status < 300, `${method} ${uri}: ${r.status} ${r.text}`);
    return r;
  };
  const read = async (uri: string, auth?: { token: string }) => {
    const r = await svc.get(uri, { auth: auth ?? 'basic' });
    assert.equal(r.status, 200, `GET ${uri}: ${r.text}`);
    return r.body;
  };
  const members = (b: { Members: { '@odata.id': string }[] }) => b.Members.map((m) => m['@odata.id']);

  /**
   * Reads what `pick` shows of a resource (twice: the second read is the kept representation,
   * checked), makes the change, and reads again: it shows the change (`expected` when given).
   */
  async function follows<T>(
    uri: string,
    pick: (body: any) => T,
    change: () => Promise<unknown>,
    o: { expected?: T; alone?: boolean } = {},
  ): Promise<void> {
    const before = pick(await read(uri));
    assert.deepEqual(pick(await read(uri)), before, `${uri} read twice`);
    const generation = svc.running.services.store.generation;
    await change();
    if (o.alone) assert.equal(svc.running.services.store.generation, generation, `${uri}: the change wrote to the store`);
    const now = pick(await read(uri));
    assert.notDeepEqual(now, before, `${uri} after the change`);
    if (o.expected !== undefined) assert.deepEqual(now, o.expected, uri);
  }

  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
  });
  after(() => svc.close());

  it('the service root is built once (nothing it shows changes)', async () => {
    const first = await svc.get('/redfish/v1/');
    const second = await svc.get('/redfish/v1/');
    assert.equal(second.status, 200, second.text);
    assert.equal(second.headers.etag, first.headers.etag);
  });

  it('the system: stored settings, the host, POST progress on the clock, component health, the TPM', async () => {
    await follows(
      SYS,
      (b) => b.AssetTag,
      () => write('PATCH', SYS, { AssetTag: 'memo-1' }),
      { expected: 'memo-1' },
    );
    const reset = (ResetType: string) => write('POST', `${SYS}Actions/ComputerSystem.Reset/`, { ResetType });
    await follows(
      SYS,
      (b) => b.PowerState,
      () => reset('On'),
      { expected: 'PoweringOn' },
    );
    const progress = (b: any) => b.BootProgress.LastState;
    await follows(SYS, progress, () => svc.clock.advance(2_000), { expected: 'MemoryInitializationStarted' });
    // POST moves on by itself: a third of it later the progress is another, and nothing was stored.
    await follows(SYS, progress, () => svc.clock.advance(1_700), { expected: 'PCIResourceConfigStarted', alone: true });
    await follows(SYS, progress, () => svc.clock.advance(5_000), { expected: 'OSRunning' });
    await follows(
      SYS,
      (b) => b.Status.HealthRollup,
      () => control('faults', { Fault: 'DriveFailure' }),
    );
    await follows(
      SYS,
      (b) => b.TrustedModules[0].Status.State,
      () => control('host', { Tpm: 'absent' }),
      { expected: 'Absent' },
    );
    await control('host', { Tpm: 'installed' });
  });

  it('the chassis: stored settings, the host power, the health of its power supplies', async () => {
    await follows(
      CH,
      (b) => b.AssetTag,
      () => write('PATCH', CH, { AssetTag: 'memo-ch' }),
      { expected: 'memo-ch' },
    );
    await follows(
      CH,
      (b) => b.PowerState,
      () => write('POST', `${SYS}Actions/ComputerSystem.Reset/`, { ResetType: 'ForceOff' }),
      { expected: 'Off' },
    );
    await follows(
      CH,
      (b) => b.Status.Health,
      () => control('faults', { Fault: 'PsuFailure', Bay: 1 }),
      { expected: 'Warning' },
    );
    // The host back on and through POST, as the tests below expect it.
    await write('POST', `${SYS}Actions/ComputerSystem.Reset/`, { ResetType: 'On' });
    await svc.clock.advance(10_000);
  });

  it('the manager: its date and time on the clock, stored settings (time zone, a REST API state clear armed)', async () => {
    await follows(
      MANAGER,
      (b) => b.DateTime,
      () => svc.clock.advance(1_000),
      { alone: true },
    );
    await follows(
      MANAGER,
      (b) => b.DateTimeLocalOffset,
      () => write('PATCH', `${MANAGER}DateTime/`, { TimeZone: { Index: 24 } }),
    );
    await follows(
      MANAGER,
      (b) => b.Oem.Vendor.ClearRestApiStatePending,
      () => write('POST', `${MANAGER}Actions/Oem/Vendor/VendorMC.ClearRestApiState/`, {}),
      { expected: true },
    );
  });

  it('Thermal, ThermalSubsystem and the chassis: one sensor scan a second, held readings, stopped fans, user thresholds', async () => {
    const fans = (b: any) => b.Fans.map((f: any) => f.Reading);
    // Within one scan the readings are those of the scan, however the clock moves.
    await svc.clock.advance(1_000 - (svc.clock.now() % 1_000));
    const scan = fans(await read(THERMAL));
    await svc.clock.advance(600);
    assert.deepEqual(fans(await read(THERMAL)), scan, 'one scan');
    // The next scans move them (the host just powered on: the fans follow the heat), and nothing is stored.
    const generation = svc.running.services.store.generation;
    const seen = new Set<string>();
    for (let i = 0; i < 20 && seen.size < 2; i++) {
      seen.add(JSON.stringify(fans(await read(THERMAL))));
      await svc.clock.advance(1_000);
    }
    assert.ok(seen.size >= 2, 'the readings move from scan to scan');
    assert.equal(svc.running.services.store.generation, generation);
    const cpu1 = (b: any) => b.Temperatures.find((t: any) => /CPU 1/.test(t.Name)).ReadingCelsius;
    await follows(THERMAL, cpu1, () => control('sensors', { Sensor: 'CPU1', ReadingCelsius: 97 }), { expected: 97 });
    const metrics = `${CH}ThermalSubsystem/ThermalMetrics/`;
    await follows(
      metrics,
      (b) => b.TemperatureReadingsCelsius,
      () => control('sensors', { Sensor: 'CPU1', ReadingCelsius: 55 }),
    );
    await follows(
      `${CH}ThermalSubsystem/`,
      (b) => b.Status.Health,
      () => control('faults', { Fault: 'FanFailure', Fan: 'Fan1' }),
    );
    await follows(
      CH,
      (b) => b.Status.HealthRollup,
      () => control('faults', { Fault: 'FanFailure', Fan: 'Fan2' }),
    );
    const threshold = { SensorNumber: 1, AlertType: 'Warning', ThresholdCelsius: 40 };
    const set = `${THERMAL}Actions/Oem/Vendor/VendorThermalExt.SetUserTempThreshold/`;
    await follows(
      THERMAL,
      (b) => b.Oem.Vendor.PendingWarningUsertTempThreshold,
      () => write('POST', set, threshold),
    );
  });

  it('BIOS current and pending settings: a pending change, its application at POST, what the ROM reports, a reset to defaults', async () => {
    const turbo = (b: any) => b.Attributes.ProcTurbo;
    const settings = `${BIOS}Settings/`;
    await follows(settings, turbo, () => write('PATCH', settings, { Attributes: { ProcTurbo: 'Disabled' } }), { expected: 'Disabled' });
    const restart = async () => {
      await write('POST', `${SYS}Actions/ComputerSystem.Reset/`, { ResetType: 'ForceRestart' });
      await svc.clock.advance(10_000);
    };
    await follows(BIOS, turbo, restart, { expected: 'Disabled' });
    await follows(
      BIOS,
      (b) => b.Attributes.TpmState,
      () => control('host', { Tpm: 'absent' }),
      { expected: 'NotPresent' },
    );
    await follows(
      settings,
      (b) => b.Attributes.TpmState,
      () => control('host', { Tpm: 'installed' }),
    );
    // Stored state the current attributes do not show.
    const resetBios = () => write('POST', `${BIOS}Actions/Bios.ResetBios/`, {});
    await follows(BIOS, (b) => b.ResetBiosToDefaultsPending, resetBios, { expected: true });
  });

  it('event subscriptions: one made, an SSE stream opened and closed', async () => {
    const count = (b: any) => b.Members.length;
    let made = '';
    const subscribe = async () => {
      made = (await write('POST', SUBSCRIPTIONS, { Destination: 'https://127.0.0.1:9/m', Protocol: 'Redfish' })).headers.location as string;
    };
    await follows(SUBSCRIPTIONS, count, subscribe);
    let stream: SseStream | undefined;
    const token = await svc.login('Administrator', 'Test-Admin-Pass1');
    const open = async () => {
      stream = await SseStream.open(svc, { token });
      assert.equal(stream.status, 200);
    };
    await follows(SUBSCRIPTIONS, count, open);
    const opened = count(await read(SUBSCRIPTIONS));
    stream?.close();
    await waitUntil(async () => count(await read(SUBSCRIPTIONS)) === opened - 1, 'the closed stream leaving the collection');
    // Removed, so that no delivery to it is retried (and stored) while later tests run.
    await follows(SUBSCRIPTIONS, count, () => write('DELETE', made));
  });

  it('log entries: a record written', async () => {
    await follows(IEL, members, () => control('clock', { AdvanceSeconds: 1 }));
  });

  it('SessionService and sessions: a setting, a login, a logout, an idle timeout, each viewer its own MySession', async () => {
    const service = '/redfish/v1/SessionService/';
    await follows(
      service,
      (b) => b.SessionTimeout,
      () => write('PATCH', service, { SessionTimeout: 60 }),
      { expected: 60 },
    );
    let other = '';
    const login = async () => (other = await svc.login('Administrator', 'Test-Admin-Pass1'));
    await follows(SESSIONS, members, login);
    const mine = async (token: string) => (await read(SESSIONS, { token })).Oem.Vendor.Links.MySession['@odata.id'] as string;
    const uri = await mine(other);
    assert.notEqual(uri, await mine(await svc.adminToken()));
    await follows(SESSIONS, members, () => write('DELETE', uri));
    // Nothing uses the sessions now (the reads here are Basic): they time out.
    const idle = await svc.login('Administrator', 'Test-Admin-Pass1');
    await follows(SESSIONS, members, () => svc.clock.advance(61_000), { expected: [] });
    assert.equal((await svc.get(SESSIONS, { auth: { token: idle } })).status, 401);
  });

  it('accounts and an account: one made and removed, a role changed, a lockout that ends on the clock', async () => {
    let uri = '';
    const make = async () => {
      const made = await write('POST', ACCOUNTS, { UserName: 'memo', Password: 'memo-password-1', RoleId: 'ReadOnly' });
      uri = made.headers.location as string;
    };
    await follows(ACCOUNTS, members, make);
    await follows(
      uri,
      (b) => b.RoleId,
      () => write('PATCH', uri, { RoleId: 'Operator' }),
      { expected: 'Operator' },
    );
    const policy = { AccountLockoutThreshold: 2, AccountLockoutDuration: 30, AccountLockoutCounterResetAfter: 10 };
    await write('PATCH', '/redfish/v1/AccountService/', policy);
    const bad = { auth: { user: 'memo', password: 'not-the-password' } };
    const fail = async () => {
      for (let i = 0; i < 2; i++) assert.equal((await svc.get(SYS, bad)).status, 401);
    };
    await follows(uri, (b) => b.Locked, fail, { expected: true });
    await follows(
      uri,
      (b) => b.Locked,
      () => svc.clock.advance(31_000),
      { expected: false, alone: true },
    );
    await follows(ACCOUNTS, members, () => write('DELETE', uri));
  });

  it('the component repository: a component added and removed, the free space with it', async () => {
    const shown = (b: any) => [members(b), b.Oem.Vendor.FreeSizeBytes];
    await follows(REPO, shown, () => addComponent(svc, { targets: ['IE'], version: '5.1', file: 'memo.fwpkg' }));
    await follows(REPO, shown, () => write('DELETE', `${REPO}memo.fwpkg/`));
  });

  it('update tasks: progress on the clock, a waiting task canceled', async () => {
    const made = await write('POST', QUEUE, { Name: 'memo-wait', Command: 'Wait', UpdatableBy: ['Bmc'], WaitTimeSeconds: 60 });
    const uri = made.headers.location as string;
    await until(svc, made.body.Id as string, 'InProgress', 60_000, 1_000);
    await follows(
      uri,
      (b) => b.PercentComplete,
      () => svc.clock.advance(10_000),
    );
    await follows(
      uri,
      (b) => b.State,
      () => svc.clock.advance(60_000),
      { expected: 'Complete' },
    );
    // A task that waits for its start: canceled, its progress stays 0 and only the stored task changes.
    const later = new Date(svc.clock.now() + 3_600_000).toISOString();
    const waiting = await write('POST', QUEUE, {
      Name: 'memo-later',
      Command: 'Wait',
      UpdatableBy: ['Bmc'],
      WaitTimeSeconds: 5,
      StartAfter: later,
    });
    const at = waiting.headers.location as string;
    await follows(
      at,
      (b) => [b.State, b.PercentComplete],
      () => write('PATCH', at, { State: 'Canceled' }),
      { expected: ['Canceled', 0] },
    );
  });
});
