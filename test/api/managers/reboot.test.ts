// Issue 29 item 2: the controller reboots like a real one. Seen from outside: Manager.Reset is
// answered, then connections are refused, then every Redfish request is 503 with Retry-After
// while it boots, then it is back with every session gone. Event delivery waits and resumes,
// SSE streams end and can be opened again; a flash of the controller's firmware does the same.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { CONTROLLER_RESET_DELAY_MS } from '../../../src/domain/firmware/flasher.js';
import { baseMessage } from '../../../src/messages/errors.js';
import { EventListener, waitFor } from '../../support/event-listener.js';
import { makePackage, startImageServer, type ImageServer } from '../../support/firmware.js';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';
import { SseStream } from '../../support/sse.js';
import { waitUntil } from '../../support/wait.js';

const SYS = '/redfish/v1/Systems/1/';
const RESET = '/redfish/v1/Managers/1/Actions/Manager.Reset/';

/** Whether a new TCP connection to the port is refused (nothing listens). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: Error & { code?: string }) => resolve(e.code === 'ECONNREFUSED'));
  });
}

describe('controller reboot', () => {
  let svc: TestService;
  let listener: EventListener;
  let images: ImageServer;
  const files = new Map<string, Buffer>();

  before(async () => {
    images = await startImageServer(mkdtempSync(`${tmpdir()}/img-`), files);
    // 30 s: 20 s unreachable, then 10 s booting.
    svc = await startTestService({ config: { controllerRebootSeconds: 30, enableControl: true, downloadCa: images.caFile } });
    listener = await EventListener.start();
    const sub = await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      auth: 'basic',
      body: { Destination: listener.url, Protocol: 'Redfish', Context: 'reboot' },
    });
    assert.equal(sub.status, 201, sub.text);
  });
  after(async () => {
    await svc.close();
    await listener.close();
    await images.close();
  });

  it('Manager.Reset: answered, then refused, then 503 with Retry-After while booting, then back with sessions gone', async () => {
    const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    const stream = await SseStream.open(svc, { token });
    assert.equal(stream.status, 200);
    const r = await svc.req('POST', RESET, { auth: { token }, body: { ResetType: 'GracefulRestart' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.connection, 'close');
    await svc.dropConnections();
    assert.equal(await refused(svc.port), true, 'connections are refused while the controller is away');
    await waitUntil(() => stream.ended, 'the SSE stream to end');

    await svc.clock.advance(19_000);
    assert.equal(await refused(svc.port), true, 'still away after 19 s');
    await svc.clock.advance(1_000);
    await waitUntil(async () => !(await refused(svc.port)), 'the listener to be back');
    const booting = await svc.req('GET', SYS, { auth: 'basic' });
    assert.equal(booting.status, 503);
    assert.equal(booting.headers['retry-after'], '10');
    assert.deepEqual(messageIds(booting.body), ['Base.1.12.ServiceTemporarilyUnavailable']);
    const login = await svc.req('POST', '/redfish/v1/SessionService/Sessions', {
      auth: 'none',
      body: { UserName: ADMIN_USER, Password: ADMIN_PASSWORD },
    });
    assert.equal(login.status, 503);
    // The control API is not the controller's own: it answers while the controller boots.
    const phase = await svc.req('GET', '/control/controller/', { auth: 'basic' });
    assert.equal(phase.body.Phase, 'Booting');
    await svc.clock.advance(6_000);
    assert.equal((await svc.req('GET', SYS, { auth: 'basic' })).headers['retry-after'], '4');

    await svc.clock.advance(4_000);
    assert.equal((await svc.req('GET', SYS, { auth: { token } })).status, 401, 'the old session is gone');
    const fresh = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
    assert.equal((await svc.req('GET', SYS, { auth: { token: fresh } })).status, 200);
    // A new stream opens.
    const again = await SseStream.open(svc, { token: fresh });
    assert.equal(again.status, 200);
    again.close();
  });

  it('event delivery waits while the controller is away, and delivers what happened then once it is back', async () => {
    const delivered = listener.received.length;
    const r = await svc.req('POST', '/control/controller/reset', { auth: 'basic', body: { OfflineSeconds: 5, BootingSeconds: 5 } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { OfflineSeconds: 5, BootingSeconds: 5 });
    await svc.dropConnections();
    // Something the controller records while away (the reset's own IEL entry is one; this is another).
    svc.running.services.events.publish(baseMessage('Success'), '/redfish/v1/', 'Alert');
    await svc.clock.advance(5_000);
    await new Promise((res) => setTimeout(res, 100));
    assert.equal(listener.received.length, delivered, 'nothing delivered while away or booting');
    await svc.clock.advance(5_000);
    await waitFor(() => listener.received.length > delivered, 'the delivery after the reboot');
  });

  it('a flash of the controller firmware reboots it the same way', async () => {
    const pkg = await makePackage(svc, { targets: ['BMC'], version: '1.60', file: 'vmc-160.fwpkg' });
    files.set('/vmc-160.fwpkg', pkg.data);
    files.set('/vmc-160.compsig', Buffer.from(pkg.compsig));
    const r = await svc.req('POST', '/redfish/v1/UpdateService/Actions/Oem/Vendor/VendorMCUpdateServiceExt.AddFromUri/', {
      auth: 'basic',
      body: {
        ImageURI: `${images.url}/vmc-160.fwpkg`,
        CompSigURI: `${images.url}/vmc-160.compsig`,
        Targets: ['/redfish/v1/UpdateService/FirmwareInventory/1/'],
        UpdateTarget: true,
      },
    });
    assert.equal(r.status, 202, r.text);
    await svc.running.services.tasks.whenDone(r.body.Id);
    // The flash is reported, then the controller resets to run its new firmware.
    await svc.clock.advance(CONTROLLER_RESET_DELAY_MS);
    await svc.dropConnections();
    assert.equal(await refused(svc.port), true);
    await svc.clock.advance(20_000);
    await waitUntil(async () => !(await refused(svc.port)), 'the listener to be back');
    assert.equal((await svc.req('GET', SYS, { auth: 'basic' })).status, 503);
    await svc.clock.advance(10_000);
    assert.equal((await svc.req('GET', '/redfish/v1/UpdateService/FirmwareInventory/1/', { auth: 'basic' })).body.Version, '1.60');
  });
});
