// The console's fleet page in Chromium against a real fleet of three controllers
// (address mode, scenario controls on): the rows, a fault on another controller
// picked up by the page's poll, the filters, the links to each controller's own
// console, the poll stopping, and paging of a large fleet (answered by the test).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { Agent, request } from 'undici';
import { defaultConfig } from '../../src/config.js';
import { startFleet, type RunningFleet } from '../../src/fleet/fleet.js';
import { ManualClock } from '../../src/platform/clock.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic } from '../support/service.js';
import {
  browserSkip,
  buildConsole,
  launchChromium,
  loginThroughPage,
  openConsole,
  openTab,
  waitText,
  type PageGlobals,
} from './browser.js';

/** Markup that runs script if any of it is ever parsed as HTML. */
const HOSTILE = '<img/src/onerror=window.__xss=1>';

/** The fleet page's rows as the user reads them: index, address, hardware, power, health, firmware, link. */
async function fleetRows(page: Page): Promise<string[][]> {
  return page.evaluate(() =>
    [...(globalThis as unknown as PageGlobals).document.querySelectorAll('#fleet-rows tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    ),
  );
}

async function waitRows(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    (want) => (globalThis as unknown as PageGlobals).document.querySelectorAll('#fleet-rows tbody tr').length === want,
    n,
    { timeout: 10_000, polling: 50 },
  );
}

/** Requests the page makes from now, but for the event stream (held open): on a still service only polls make them. */
function countReads(page: Page): { readonly n: number } {
  const counter = { n: 0 };
  page.on('request', (r) => {
    if (new URL(r.url()).pathname !== '/redfish/v1/EventService/SSE/') counter.n++;
  });
  return counter;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('web console fleet page in Chromium', { skip: browserSkip() }, () => {
  let dir: string;
  let fleet: RunningFleet;
  let browser: Browser;
  let agent: Agent;

  /** A request to one controller's real API, trusting only the fleet CA. */
  const call = async (i: number, method: string, path: string, body?: unknown) => {
    const res = await request(fleet.url(i) + path, {
      method: method as 'GET',
      headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  };

  before(async () => {
    buildConsole();
    dir = mkdtempSync(join(tmpdir(), 'console-fleet-'));
    const config = defaultConfig({
      dataDir: dir,
      adminPassword: ADMIN_PASSWORD,
      scryptLogN: 10,
      ssdpPort: 0,
      logLevel: 'silent',
      fleet: 3,
      fleetAddresses: '127.0.5.1',
      port: 0,
      enableControl: true,
    });
    [fleet, browser] = await Promise.all([
      startFleet(config, { logger: pino({ level: 'silent' }), clock: () => new ManualClock(Date.parse('2026-06-01T00:00:00Z')) }),
      launchChromium(),
    ]);
    agent = new Agent({ connect: { ca: fleet.caPem }, keepAliveTimeout: 500 });
  });
  after(async () => {
    await browser?.close();
    await agent?.close();
    await fleet?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the controllers, picks up a fault on another one, filters, links to each console, and stops polling when left', async () => {
    const { page, problems } = await openConsole(browser, fleet.url(0));
    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
    assert.equal(await page.locator('button.tab[data-view="control"]').count(), 1);
    assert.equal(await page.locator('button.tab[data-view="fleet"]').count(), 1, 'a Fleet tab: this controller is in a fleet');
    await openTab(page, 'fleet');
    await waitRows(page, 3);

    const ports = [0, 1, 2].map((i) => new URL(fleet.url(i)).port);
    const firmware = fleet.view.members().map((m) => m.FirmwareVersion);
    assert.ok(firmware[0], 'the fleet reports a BMC firmware version');
    const hardware = fleet.members.map((m) => m.hardware);
    assert.deepEqual(await fleetRows(page), [
      ['0', `127.0.5.1:${ports[0]}`, hardware[0], 'Off', 'OK', firmware[0], 'open'],
      ['1', `127.0.5.2:${ports[1]}`, hardware[1], 'Off', 'OK', firmware[1], 'open'],
      ['2', `127.0.5.3:${ports[2]}`, hardware[2], 'Off', 'OK', firmware[2], 'open'],
    ]);
    await waitText(page, '#fleet-controllers', '3 controllers');
    await waitText(page, '#fleet-off', '3 Off');
    await waitText(page, '#fleet-on', '0 On');
    await waitText(page, '#fleet-ok', '3 OK');
    await waitText(page, '#fleet-critical', '0 Critical');
    await waitText(page, '#fleet-shown', 'Showing 1–3 of 3');

    // Each row links to its controller's own console, in a new tab that cannot reach this one.
    const link = page.locator('a[data-open="1"]');
    assert.equal(await link.getAttribute('href'), `${fleet.url(1)}/console/`);
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await link.getAttribute('rel'), 'noopener');

    // A fan fails on controller 2, through its own control API: no event reaches controller 0's page, its poll does.
    const injected = await call(2, 'POST', '/control/faults/', { Fault: 'FanFailure' });
    assert.equal(injected.status, 201, injected.text);
    await waitText(page, 'tr[data-index="2"] [data-health]', 'Critical');
    await waitText(page, 'tr[data-index="1"] [data-health]', 'OK');
    await waitText(page, '#fleet-critical', '1 Critical');
    await waitText(page, '#fleet-ok', '2 OK');

    // Health filter: one row, and it stays filtered through the next poll.
    await page.selectOption('#fleet-health', 'Critical');
    await waitRows(page, 1);
    assert.equal((await fleetRows(page))[0]?.[0], '2');
    await waitText(page, '#fleet-shown', 'Showing 1–1 of 1 matching (3 in all)');
    await page.waitForResponse((r) => new URL(r.url()).pathname === '/control/fleet/');
    await sleep(200);
    assert.equal((await fleetRows(page)).length, 1);
    assert.equal(await page.inputValue('#fleet-health'), 'Critical');
    await page.selectOption('#fleet-health', '');
    await waitRows(page, 3);

    // Text filter on the address: the typed text and the focus survive a poll.
    await page.fill('#fleet-filter', '127.0.5.2');
    await waitRows(page, 1);
    assert.equal((await fleetRows(page))[0]?.[0], '1');
    await page.waitForResponse((r) => new URL(r.url()).pathname === '/control/fleet/');
    await sleep(200);
    assert.equal((await fleetRows(page)).length, 1);
    assert.equal(await page.inputValue('#fleet-filter'), '127.0.5.2');
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id),
      'fleet-filter',
    );
    await page.fill('#fleet-filter', 'no such controller');
    await page.waitForSelector('text=No controller matches the filter');
    await page.fill('#fleet-filter', '');
    await waitRows(page, 3);

    // Leaving the view stops its poll (3 s); so does logging out.
    const reads = countReads(page);
    await openTab(page, 'power');
    // The power view's own first reads: settled once none came for half a second (slow on a busy machine).
    for (let seen = -1; seen !== reads.n;) {
      seen = reads.n;
      await sleep(500);
    }
    const left = reads.n;
    await sleep(3_500);
    assert.equal(reads.n, left, 'no read while a view without a poll of its own is open (the console poll is 15 s)');
    await openTab(page, 'fleet');
    await waitRows(page, 3);
    await page.click('#logout');
    await page.waitForSelector('#login-user');
    const out = reads.n;
    await sleep(3_500);
    assert.equal(reads.n, out, 'no read after logout');
    assert.deepEqual(problems, [], 'no script error or CSP violation');
    await page.context().close();
  });

  it('shows no Fleet tab to a user who may not use the controls', async () => {
    const created = await call(0, 'POST', '/redfish/v1/AccountService/Accounts/', {
      UserName: 'watcher',
      Password: 'Watcher-Pass-1',
      RoleId: 'ReadOnly',
    });
    assert.equal(created.status, 201, created.text);
    const { page, problems } = await openConsole(browser, fleet.url(0));
    await loginThroughPage(page, 'watcher', 'Watcher-Pass-1');
    await waitText(page, '#user', 'watcher');
    assert.equal(await page.locator('button.tab[data-view="fleet"]').count(), 0);
    assert.equal(await page.locator('button.tab[data-view="control"]').count(), 0);
    assert.deepEqual(problems, []);
    await page.context().close();
  });

  it('pages a large fleet 200 rows at a time, filters before paging, and shows hostile values as text', async () => {
    // 450 members, answered by the test: every 50th Critical, odd ones On, even ones of another hardware.
    const members = Array.from({ length: 450 }, (_, i) => ({
      Index: i,
      ServiceRoot: `https://10.1.${i >> 8}.${i & 255}:443/redfish/v1/`,
      Address: `10.1.${i >> 8}.${i & 255}`,
      Port: 443,
      Hardware: i % 2 ? 'rack-2u' : 'rack-1u-old',
      Group: i % 2,
      PowerState: i % 2 ? 'On' : 'Off',
      Health: i % 50 ? 'OK' : 'Critical',
      FirmwareVersion: '3.10',
    }));
    members[449] = { ...members[449]!, Hardware: HOSTILE, ServiceRoot: 'javascript:alert(1)' };
    const body = JSON.stringify({ Controllers: 450, FirstIndex: 0, Started: 450, Members: members });
    const { page, problems } = await openConsole(browser, fleet.url(0));
    await page.route(
      (url) => url.pathname === '/control/fleet/',
      (route) => route.fulfill({ status: 200, contentType: 'application/json', body }),
    );
    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
    await openTab(page, 'fleet');
    await waitRows(page, 200);
    await waitText(page, '#fleet-controllers', '450 controllers');
    await waitText(page, '#fleet-on', '225 On');
    await waitText(page, '#fleet-critical', '9 Critical');
    await waitText(page, '#fleet-shown', 'Showing 1–200 of 450');
    assert.equal(await page.locator('#fleet-prev').isDisabled(), true);

    await page.click('#fleet-next');
    await waitText(page, '#fleet-shown', 'Showing 201–400 of 450');
    assert.equal((await fleetRows(page))[0]?.[0], '200');
    await page.click('#fleet-next');
    await waitText(page, '#fleet-shown', 'Showing 401–450 of 450');
    await waitRows(page, 50);
    assert.equal(await page.locator('#fleet-next').isDisabled(), true);
    const last = (await fleetRows(page)).at(-1)!;
    assert.equal(last[2], HOSTILE, 'markup in a value is shown as text');
    assert.equal(last[6], '—', 'no link where the service root is not http(s)');
    assert.equal(await page.locator('#fleet-rows img').count(), 0);

    // Filtering starts again at the first page and counts what matches.
    await page.selectOption('#fleet-health', 'Critical');
    await waitText(page, '#fleet-shown', 'Showing 1–9 of 9 matching (450 in all)');
    assert.deepEqual(
      (await fleetRows(page)).map((r) => r[0]),
      ['0', '50', '100', '150', '200', '250', '300', '350', '400'],
    );
    await page.selectOption('#fleet-health', '');
    await page.fill('#fleet-filter', 'OLD');
    await waitText(page, '#fleet-shown', 'Showing 1–200 of 225 matching (450 in all)');
    await page.click('#fleet-next');
    await waitText(page, '#fleet-shown', 'Showing 201–225 of 225 matching (450 in all)');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).__xss), undefined);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
