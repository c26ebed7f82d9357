// The web console in Chromium against a real service: log in through the page,
// power on and watch POST, stage a BIOS change and see it applied by a reset,
// see a failed part turn the chassis health Warning, and escape hostile names.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type TestService } from '../support/service.js';
import {
  biosRow,
  browserSkip,
  type PageGlobals,
  buildConsole,
  launchChromium,
  loginThroughPage,
  openConsole,
  openTab,
  waitText,
} from './browser.js';

/** Markup that runs script if any of it is ever parsed as HTML (no spaces or colons: a valid UserName). */
const HOSTILE = '<img/src/onerror=window.__xss=1>';

describe('web console in Chromium', { skip: browserSkip() }, () => {
  let svc: TestService;
  let browser: Browser;
  let shots: string;

  before(async () => {
    buildConsole();
    [svc, browser] = await Promise.all([startTestService({ config: { enableControl: true } }), launchChromium()]);
    shots = mkdtempSync(join(tmpdir(), 'console-shots-'));
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    if (shots) rmSync(shots, { recursive: true, force: true });
  });

  it('logs in, powers on through POST, applies a BIOS change on reset, shows a failed part, and logs out', async () => {
    const { page, problems } = await openConsole(browser, svc.url);
    const doc = await page.request.get(`${svc.url}/console/`);
    assert.match(doc.headers()['content-security-policy'] ?? '', /script-src 'self'/);

    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
    await waitText(page, '#user', ADMIN_USER);
    await waitText(page, '#power-state', 'Off');
    await page.waitForSelector('#live[data-live="true"]');
    assert.equal(await page.locator('button.tab[data-view="control"]').count(), 1, 'a Control tab: this service has --enable-control');
    assert.equal(await page.locator('button.tab[data-view="fleet"]').count(), 0, 'no Fleet tab: this service is not in a fleet');

    // Power on from the page; POST steps follow the controller clock the test holds.
    await page.click('button[data-reset="On"]');
    await waitText(page, '#power-state', 'PoweringOn');
    await svc.clock.advance(2_000);
    await waitText(page, '#power-state', 'On');
    await waitText(page, '#post-state', 'InPost');
    await svc.clock.advance(4_000);
    await waitText(page, '#post-state', 'InPostDiscoveryComplete');
    await svc.clock.advance(2_000);
    await waitText(page, '#post-state', 'FinishedPost');
    await waitText(page, '#boot-progress', 'OSRunning');
    await waitText(page, '#summary-power', 'On');

    // A BIOS change through the console's form is pending, not current.
    await openTab(page, 'bios');
    assert.deepEqual(await biosRow(page, 'UsbBoot'), { cells: ['UsbBoot', 'Enabled', 'Enabled'], pending: false });
    await page.fill('#bios-name', 'UsbBoot');
    await page.fill('#bios-value', 'Disabled');
    await page.click('#bios-form button[type="submit"]');
    await page.waitForSelector('tr[data-attribute="UsbBoot"][data-pending="true"]');
    assert.deepEqual(await biosRow(page, 'UsbBoot'), { cells: ['UsbBoot', 'Enabled', 'Disabled'], pending: true });
    assert.equal(await page.locator('tbody tr').first().getAttribute('data-attribute'), 'UsbBoot', 'pending changes come first');
    assert.equal((await svc.get('/redfish/v1/Systems/1/Bios/')).body.Attributes.UsbBoot, 'Enabled');

    // Reset from the page; POST applies the settings, and the diff empties.
    await openTab(page, 'power');
    await page.click('button[data-reset="ForceRestart"]');
    await waitText(page, '#status', 'Reset ForceRestart: done');
    await openTab(page, 'bios');
    for (let s = 0; s < 12; s++) await svc.clock.advance(1_000);
    await page.waitForSelector('tr[data-attribute="UsbBoot"][data-pending="false"]', { timeout: 20_000 });
    assert.deepEqual(await biosRow(page, 'UsbBoot'), { cells: ['UsbBoot', 'Disabled', 'Disabled'], pending: false });
    assert.equal((await svc.get('/redfish/v1/Systems/1/Bios/')).body.Attributes.UsbBoot, 'Disabled');
    await page.waitForSelector('text=Pending settings were last applied at');
    assert.match((await page.locator('#view .message').first().textContent()) ?? '', /success/i, "the apply's Success message is shown");

    // A fan failure injected from the console's control tab (the control API) turns the chassis Warning.
    await waitText(page, '#health-chassis', 'OK');
    await openTab(page, 'control');
    await page.click('button[data-fault="FanFailure"]');
    await waitText(page, '#status', 'Inject FanFailure: done');
    await waitText(page, '#health-chassis', 'Warning', 20_000);
    await waitText(page, '#health-system', 'OK');

    await openTab(page, 'inventory');
    await page.waitForSelector('[data-inventory="Processors"] table');
    await page.waitForSelector('[data-inventory="PowerSubsystem"], [data-inventory="Power"]');

    const shot = join(shots, 'console.png');
    await page.screenshot({ path: shot, fullPage: false });
    assert.ok(statSync(shot).size > 10_000, 'a real screenshot was written');

    // Logging out deletes the session on the service.
    const sessions = async () => (await svc.get('/redfish/v1/SessionService/Sessions/')).body['Members@odata.count'] as number;
    const before = await sessions();
    await page.click('#logout');
    await page.waitForSelector('#login-user');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.length), 0, 'no token is kept');
    assert.equal(await sessions(), before - 1);
    assert.deepEqual(problems, [], 'no script error or CSP violation');
    await page.context().close();
  });

  it('shows user names and log messages holding markup as text, never as elements', async () => {
    const password = 'Xss-Test-Pass1';
    const created = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: HOSTILE, Password: password, RoleId: 'Administrator' },
    });
    assert.equal(created.status, 201, created.text);
    // Clearing a log as that user records its name in the log's message.
    const cleared = await svc.req('POST', '/redfish/v1/Managers/1/LogServices/IEL/Actions/LogService.ClearLog/', {
      body: {},
      auth: { user: HOSTILE, password },
    });
    assert.equal(cleared.status, 200, cleared.text);

    const { page, problems } = await openConsole(browser, svc.url);
    await loginThroughPage(page, HOSTILE, password);
    await waitText(page, '#user', HOSTILE);
    await openTab(page, 'logs');
    const shown = (m: string) =>
      [...(globalThis as unknown as PageGlobals).document.querySelectorAll('.message')].some((e) => e.textContent?.includes(m));
    await page.waitForFunction(shown, HOSTILE);
    const found = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return { images: g.document.querySelectorAll('img').length, xss: g.__xss, text: g.document.body.textContent ?? '' };
    });
    assert.equal(found.images, 0, 'no element was injected');
    assert.equal(found.xss, undefined, 'no injected handler ran');
    assert.ok(found.text.includes(HOSTILE), 'the markup appears literally');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('drives the scenario controls as the /control/ contract says, when the service offers them', async () => {
    // The control API is not part of this service yet: the page's requests to it are answered here, as the contract says.
    const { page, problems } = await openConsole(browser, svc.url);
    const sent: { method: string; path: string; body: unknown }[] = [];
    let faults = [{ Id: 'f1', Fault: 'FanFailure' }];
    await page.route(/\/control\//, async (route) => {
      const req = route.request();
      const path = new URL(req.url()).pathname;
      if (req.method() === 'GET') {
        const body = { Controls: [], State: { Clock: '2026-11-22T08:00:00Z', PowerState: 'Off', Faults: faults } };
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
      }
      sent.push({ method: req.method(), path, body: req.postData() ? JSON.parse(req.postData()!) : undefined });
      if (req.method() === 'DELETE') faults = [];
      const created = req.method() === 'POST' && path === '/control/faults';
      const headers: Record<string, string> = created ? { Location: '/control/faults/f2' } : {};
      return route.fulfill({ status: created ? 201 : 200, headers, contentType: 'application/json', body: '{}' });
    });
    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
    await openTab(page, 'control');
    await waitText(page, '#control-clock', '2026-11-22T08:00:00Z');
    await page.click('button[data-advance="3600"]');
    await waitText(page, '#status', 'Clock +1 h: done');
    await page.click('button[data-event="PullPower"]');
    await waitText(page, '#status', 'PullPower: done');
    await page.click('button[data-fault="PsuFailure"]');
    await waitText(page, '#status', 'Inject PsuFailure: done');
    await page.click('button[data-clear="f1"]');
    await waitText(page, '#status', 'Clear FanFailure: done');
    await page.fill('#sensor-name', '01-Inlet Ambient');
    await page.fill('#sensor-reading', '45');
    await page.click('#sensor-form button[type="submit"]');
    await waitText(page, '#status', 'Sensor 01-Inlet Ambient: done');
    assert.deepEqual(sent, [
      { method: 'POST', path: '/control/clock', body: { AdvanceSeconds: 3600 } },
      { method: 'POST', path: '/control/power', body: { Event: 'PullPower' } },
      { method: 'POST', path: '/control/faults', body: { Fault: 'PsuFailure' } },
      { method: 'DELETE', path: '/control/faults/f1', body: undefined },
      { method: 'POST', path: '/control/sensors', body: { Sensor: '01-Inlet Ambient', ReadingCelsius: 45 } },
    ]);
    await page.waitForSelector('text=No fault injected');
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('asks for a new password first when the account must change it', async () => {
    const created = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'newcomer', Password: 'First-Pass-123', RoleId: 'Operator', PasswordChangeRequired: true },
    });
    assert.equal(created.status, 201, created.text);
    const { page, problems } = await openConsole(browser, svc.url);
    await page.fill('#login-user', 'newcomer');
    await page.fill('#login-password', 'First-Pass-123');
    await page.click('#login-submit');
    await page.fill('#new-password', 'Second-Pass-456');
    await page.fill('#new-password-again', 'Second-Pass-456');
    await page.click('#password-submit');
    await waitText(page, '#user', 'newcomer');
    await waitText(page, '#power-state', (await svc.get('/redfish/v1/Systems/1/')).body.PowerState);
    const account = await svc.get(created.headers.location!);
    assert.equal(account.body.PasswordChangeRequired, false);
    assert.equal((await svc.get('/redfish/v1/Systems/1/', { auth: { user: 'newcomer', password: 'Second-Pass-456' } })).status, 200);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('gives a read-only user every view, and shows a refused power action as an error', async () => {
    const created = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'watcher', Password: 'Watcher-Pass-1', RoleId: 'ReadOnly' },
    });
    assert.equal(created.status, 201, created.text);
    const { page, problems } = await openConsole(browser, svc.url);
    await loginThroughPage(page, 'watcher', 'Watcher-Pass-1');
    for (const view of ['power', 'sensors', 'bios', 'secureboot', 'updates', 'events', 'logs', 'inventory']) {
      await openTab(page, view);
      await page.waitForSelector('#view section, #view-error');
      const refused = await page.locator('#view-error').allTextContents();
      assert.deepEqual(refused, [], `${view} is readable`);
    }
    await openTab(page, 'power');
    await page.click('button[data-reset="ForceRestart"]');
    await page.waitForSelector('#status[data-error="true"]');
    assert.match((await page.locator('#status').textContent()) ?? '', /^Reset ForceRestart: .*privilege/i);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
