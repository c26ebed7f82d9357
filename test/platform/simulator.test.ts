import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { POST_STEPS } from '../../src/platform/lifecycle.js';
import { timingsOf } from '../../src/platform/simulator.js';
import { ConfigError, defaultConfig, parseConfig } from '../../src/config.js';
import { startTestService, type TestService } from '../support/service.js';
import { answered } from '../support/refusals.js';

// Default (fast) timings: power on 2 s, POST 5 s, OS shutdown 5 s.
const POWER_ON = 2000;
const POST = 5000;
const SHUTDOWN = 5000;

describe('server simulator', () => {
  let svc: TestService;
  const server = () => svc.running.services.server;
  const host = () => svc.running.services.host;
  const advance = (ms: number) => svc.clock.advance(ms);
  /** Power off, from whatever state an earlier test left. */
  const off = () => {
    if (host().powerState() !== 'Off') server().reset('ForceOff');
  };
  /** The OS running, from whatever state an earlier test left. */
  const running = async () => {
    if (server().snapshot().phase === 'OsRunning') return;
    off();
    server().reset('On');
    await advance(POWER_ON + POST);
    assert.equal(server().snapshot().phase, 'OsRunning');
  };

  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('starts off, with the TPM as configured', () => {
    assert.equal(server().powerState(), 'Off');
    assert.equal(host().powerState(), 'Off');
    assert.deepEqual(host().tpm(), { installed: true, inUse: false });
  });

  it('powers on through PoweringOn and POST, running every POST step with PowerState On, then the OS', async () => {
    const seen: string[] = [];
    for (const step of POST_STEPS) {
      host().onPost(step, (boot) => {
        seen.push(`${step}:${host().powerState()}:${boot.bootCount}`);
      });
    }
    const changes: string[] = [];
    host().onPowerChange((from, to) => changes.push(`${from}>${to}`));
    const events: string[] = [];
    svc.running.services.events.subscribe((e) => events.push(`${e.message.MessageId}@${e.origin}:${e.eventType}`));
    server().reset('On');
    assert.equal(host().powerState(), 'PoweringOn');
    await advance(POWER_ON - 1);
    assert.equal(host().powerState(), 'PoweringOn');
    assert.deepEqual(seen, []);
    await advance(1);
    assert.equal(host().powerState(), 'On');
    assert.deepEqual(
      seen,
      POST_STEPS.map((s) => `${s}:On:1`),
    );
    assert.equal(host().osRunning(), false, 'no OS during POST');
    await advance(POST);
    assert.equal(host().osRunning(), true);
    assert.equal(server().snapshot().phase, 'OsRunning');
    assert.deepEqual(changes, ['Off>PoweringOn', 'PoweringOn>On']);
    assert.deepEqual(events, [
      'ResourceEvent.1.4.ResourcePoweringOn@/redfish/v1/Systems/1/:StatusChange',
      'ResourceEvent.1.4.ResourcePoweredOn@/redfish/v1/Systems/1/:StatusChange',
    ]);
    assert.equal(svc.running.services.logs.list('IML').at(-1)?.MessageId, 'ResourceEvent.1.4.ResourcePoweredOn');
  });

  it('rejects On while on, naming the state', async () => {
    await running();
    assert.throws(
      () => server().reset('On'),
      (e: any) => {
        assert.equal(answered(e).status, 400);
        assert.deepEqual(
          e.infos.map((i: any) => i.MessageId),
          ['Vendor.1.0.InvalidOperationForSystemState'],
        );
        assert.match(e.infos[0].Message, /running its operating system/);
        return true;
      },
    );
  });

  it('GracefulShutdown goes through PoweringOff for the shutdown time and writes IML records', async () => {
    await running();
    const before = svc.running.services.logs.list('IML').length;
    server().reset('GracefulShutdown');
    assert.equal(host().powerState(), 'PoweringOff');
    assert.equal(host().osRunning(), false);
    await advance(SHUTDOWN - 1);
    assert.equal(host().powerState(), 'PoweringOff');
    await advance(1);
    assert.equal(host().powerState(), 'Off');
    const iml = svc.running.services.logs.list('IML').slice(before);
    assert.deepEqual(
      iml.map((r) => r.MessageId),
      ['ResourceEvent.1.4.ResourcePoweredOff'],
    );
  });

  it('refuses what makes no sense when off: ForceOff, GracefulShutdown, restarts, Nmi, PressAndHold', () => {
    off();
    for (const t of ['ForceOff', 'GracefulShutdown', 'GracefulRestart', 'ForceRestart', 'Nmi'] as const) {
      assert.throws(
        () => server().reset(t),
        (e: any) => answered(e).status === 400 && /powered off/.test(e.infos[0].Message),
        t,
      );
    }
    assert.throws(
      () => server().powerButton('PressAndHold'),
      (e: unknown) => answered(e).status === 400,
    );
  });

  it('ForceRestart keeps power on and reruns POST; GracefulRestart shuts the OS down first', async () => {
    await running();
    const boots = server().snapshot().bootCount;
    server().reset('ForceRestart');
    assert.equal(host().powerState(), 'On');
    assert.equal(host().osRunning(), false);
    await advance(POWER_ON);
    assert.equal(server().snapshot().bootCount, boots + 1);
    await advance(POST);
    assert.equal(host().osRunning(), true);
    server().reset('GracefulRestart');
    assert.equal(server().snapshot().phase, 'OsStopping');
    await advance(SHUTDOWN);
    assert.equal(server().snapshot().phase, 'Resetting');
    await advance(POWER_ON);
    assert.equal(server().snapshot().bootCount, boots + 2);
    await advance(POST);
    assert.equal(server().snapshot().phase, 'OsRunning');
  });

  it('Nmi logs a critical IML record, stops the OS and restarts the server', async () => {
    await running();
    const boots = server().snapshot().bootCount;
    server().reset('Nmi');
    const last = svc.running.services.logs.list('IML').at(-1);
    assert.equal(last?.MessageId, 'Vendor.1.0.NmiGenerated');
    assert.equal(last?.Severity, 'Critical');
    assert.equal(host().osRunning(), false);
    await advance(SHUTDOWN + POWER_ON + POST);
    assert.equal(server().snapshot().bootCount, boots + 1);
    assert.equal(host().osRunning(), true);
  });

  it('the power button: a press asks the OS to shut down; during POST it powers off at once; press and hold forces off', async () => {
    await running();
    server().powerButton('Press');
    assert.equal(host().powerState(), 'PoweringOff');
    await advance(SHUTDOWN);
    assert.equal(host().powerState(), 'Off');
    server().reset('PushPowerButton');
    assert.equal(host().powerState(), 'PoweringOn');
    assert.throws(
      () => server().reset('PushPowerButton'),
      (e: any) => /powering on/.test(e.infos[0].Message),
    );
    await advance(POWER_ON);
    server().powerButton('Press');
    assert.equal(host().powerState(), 'Off', 'POST: firmware powers off at once');
    server().reset('On');
    await advance(POWER_ON + POST);
    server().powerButton('PressAndHold');
    assert.equal(host().powerState(), 'Off');
  });

  it('ForceOff cuts power in any powered phase, even while powering off', async () => {
    await running();
    server().reset('GracefulShutdown');
    server().reset('ForceOff');
    assert.equal(host().powerState(), 'Off');
    await advance(SHUTDOWN * 2);
    assert.equal(host().powerState(), 'Off', 'the cancelled shutdown timer does not fire');
  });

  it('SystemReset when off cycles auxiliary power at once, restarting the controller', async () => {
    off();
    const resets = svc.running.services.controller.resets;
    assert.equal(server().systemReset(), true);
    assert.equal(svc.running.services.controller.resets, resets + 1);
    assert.equal(svc.running.services.logs.list('IML').at(-1)?.MessageId, 'Vendor.1.0.AuxPowerCycled');
    assert.equal(server().snapshot().auxCycleArmed, false);
  });

  it('SystemReset when on is armed until the next power off', async () => {
    await running();
    const cycles = server().snapshot().auxCycles;
    const resets = svc.running.services.controller.resets;
    assert.equal(server().systemReset(), false);
    assert.equal(server().snapshot().auxCycleArmed, true);
    await advance(60_000);
    assert.equal(svc.running.services.controller.resets, resets);
    server().reset('GracefulShutdown');
    await advance(SHUTDOWN);
    assert.equal(svc.running.services.controller.resets, resets + 1);
    assert.equal(server().snapshot().auxCycleArmed, false);
    assert.equal(server().snapshot().auxCycles, cycles + 1);
  });

  it('a service restart keeps power state, boot count and a pending transition without power-cycling', async () => {
    await running();
    server().systemReset(); // armed
    const boots = server().snapshot().bootCount;
    server().reset('GracefulRestart');
    await advance(1000);
    svc = await svc.restart();
    assert.equal(server().snapshot().phase, 'OsStopping');
    assert.equal(host().powerState(), 'On');
    assert.equal(server().snapshot().auxCycleArmed, true);
    await advance(SHUTDOWN - 1000 + POWER_ON);
    assert.equal(server().snapshot().bootCount, boots + 1);
    await advance(POST);
    assert.equal(host().osRunning(), true);
    svc = await svc.restart();
    assert.equal(host().powerState(), 'On');
    assert.equal(host().osRunning(), true);
    assert.equal(server().snapshot().bootCount, boots + 1);
  });

  it('continues a power-on that a restart interrupted', async () => {
    off();
    server().reset('On');
    await advance(POWER_ON - 1);
    svc = await svc.restart();
    assert.equal(host().powerState(), 'PoweringOn');
    let ran = 0;
    host().onPost('BootDevice', () => {
      ran++;
    });
    await advance(1);
    assert.equal(ran, 1);
    assert.equal(host().powerState(), 'On');
  });

  it('runs POST hooks again when a restart cut them short (at least once)', async () => {
    off();
    let hang = true;
    host().onPost('UefiUpdates', () => (hang ? new Promise<void>(() => {}) : undefined));
    server().reset('On');
    await advance(POWER_ON + POST * 3);
    assert.equal(server().snapshot().phase, 'Post', 'POST waits for its hooks');
    const boots = server().snapshot().bootCount;
    hang = false;
    svc = await svc.restart();
    let ran = 0;
    host().onPost('ApplyBiosSettings', () => {
      ran++;
    });
    await advance(0);
    assert.equal(ran, 1, 'hooks registered by the areas at start-up run');
    assert.equal(server().snapshot().bootCount, boots, 'the same boot');
    await advance(POST);
    assert.equal(host().osRunning(), true);
  });
});

describe('simulator configuration', () => {
  it('has fast defaults, a realistic profile with minute-long POST, and per-phase overrides', () => {
    assert.deepEqual(timingsOf(defaultConfig()), { powerOnMs: 2000, postMs: 5000, shutdownMs: 5000 });
    assert.ok(timingsOf(defaultConfig({ timing: 'realistic' })).postMs >= 60_000);
    assert.equal(timingsOf(defaultConfig({ timing: 'realistic', postSeconds: 7 })).postMs, 7000);
  });

  it('reads --timing, the duration overrides and --tpm from flags and environment, refusing unknown values', () => {
    const c = parseConfig(['--timing', 'realistic', '--post-seconds', '90', '--tpm', 'in-use'], {});
    assert.equal(c.timing, 'realistic');
    assert.equal(c.postSeconds, 90);
    assert.equal(c.tpm, 'in-use');
    assert.equal(parseConfig([], { BMC_SHUTDOWN_SECONDS: '12' }).shutdownSeconds, 12);
    assert.throws(() => parseConfig(['--timing', 'slow'], {}), ConfigError);
    assert.throws(() => parseConfig(['--tpm', 'yes'], {}), ConfigError);
  });

  it('reports the configured TPM', async () => {
    for (const [tpm, want] of [
      ['absent', { installed: false, inUse: false }],
      ['in-use', { installed: true, inUse: true }],
    ] as const) {
      const svc = await startTestService({ config: { tpm } });
      try {
        assert.deepEqual(svc.running.services.host.tpm(), want);
      } finally {
        await svc.close();
      }
    }
  });
});
