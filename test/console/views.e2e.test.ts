// Issue 29 items 3-5 in Chromium against a real service: the Activity view shows a
// request the test makes through the API within a second, with what it changed; the
// Sensors charts draw the readings; the BIOS editor is built from the attribute
// registry (enums as choices, limits, dependencies greyed out) and stages a change;
// a firmware upload shows its progress and follows the update to its end; the
// Processors table names each socket. SCREENSHOTS=1 writes docs/console-*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makePackage } from '../support/firmware.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type TestService } from '../support/service.js';
import {
  browserSkip,
  buildConsole,
  launchChromium,
  loginThroughPage,
  openConsole,
  openTab,
  type PageGlobals,
  waitText,
} from './browser.js';

const SYS = '/redfish/v1/Systems/1/';

/** With SCREENSHOTS=1 (npm run screenshots), the view as the docs show it. */
async function screenshot(page: Page, name: string, part?: string): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  const path = fileURLToPath(new URL(`../../docs/console-${name}.png`, import.meta.url));
  await (part ? page.locator(part).screenshot({ path }) : page.screenshot({ path }));
}

/** An attribute of an element the page holds, read in the page. */
function attr(page: Page, selector: string, name: string): Promise<string | undefined> {
  return page.evaluate(([s, n]) => (globalThis as unknown as PageGlobals).document.querySelector(s)?.dataset[n], [selector, name] as const);
}

describe('web console views in Chromium (issue 29)', { skip: browserSkip() }, () => {
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    buildConsole();
    [svc, browser] = await Promise.all([startTestService({ config: { enableControl: true } }), launchChromium()]);
    ({ page, problems } = await openConsole(browser, svc.url));
    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('Activity: a request made through the API shows within a second, with its bodies and what it changed', async () => {
    await openTab(page, 'activity');
    await page.waitForSelector('#activity-rows tr');
    const started = performance.now();
    const patched = await svc.req('PATCH', SYS, { auth: 'basic', body: { AssetTag: 'inspected-by-test' } });
    assert.equal(patched.status, 200, patched.text);
    const row = `#activity-rows tr[data-method="PATCH"][data-uri="${SYS}"]`;
    await page.waitForSelector(row, { timeout: 1_000 });
    const shownAfter = performance.now() - started;
    assert.ok(shownAfter < 1_000, `shown after ${Math.round(shownAfter)} ms`);
    const cells = await page.locator(`${row} td`).allTextContents();
    assert.deepEqual(cells.slice(1, 5), ['PATCH', SYS, ADMIN_USER, '200']);

    // The detail: the body sent, and the resource before (the console's own earlier read) and after.
    await page.click(row);
    await page.waitForSelector('#activity-diff tr[data-path="AssetTag"]');
    const change = await page.locator('#activity-diff tr[data-path="AssetTag"] td').allTextContents();
    assert.equal(change[2], 'inspected-by-test');
    assert.notEqual(change[1], 'inspected-by-test');
    assert.match((await page.locator('#activity-detail pre.body').first().textContent()) ?? '', /"AssetTag": "inspected-by-test"/);
    const headers = await page.locator('#activity-detail').textContent();
    assert.ok(!headers?.includes(ADMIN_PASSWORD), 'no credentials are shown');

    // Filters: a status class and a method.
    await svc.get('/redfish/v1/Systems/404/', { auth: 'basic' });
    await page.selectOption('#activity-status', '4xx');
    await page.waitForSelector('#activity-rows tr[data-uri="/redfish/v1/Systems/404/"]');
    const statuses = await page.locator('#activity-rows tr td:nth-child(5)').allTextContents();
    assert.ok(statuses.length > 0 && statuses.every((s) => s.startsWith('4')), statuses.join());
    await page.selectOption('#activity-status', '');
    await page.selectOption('#activity-method', 'PATCH');
    const methods = await page.locator('#activity-rows tr td:nth-child(2)').allTextContents();
    assert.ok(methods.length > 0 && methods.every((m) => m === 'PATCH'), methods.join());
    await page.fill('#activity-uri', 'Systems/1');
    await page.click(row);
    await screenshot(page, 'activity');
    await page.selectOption('#activity-method', '');
    await page.fill('#activity-uri', '');
  });

  it('Sensors: power, temperature and fan charts draw the sampled readings', async () => {
    const held = await svc.req('POST', '/control/sensors/', { auth: 'basic', body: { Sensor: 'PowerConsumption', ReadingWatts: 321 } });
    assert.equal(held.status, 200, held.text);
    await openTab(page, 'sensors');
    await page.waitForFunction(
      () => Number((globalThis as unknown as PageGlobals).document.querySelector('#chart-power')?.dataset.points ?? 0) >= 2,
      undefined,
      { timeout: 10_000 },
    );
    assert.equal(await attr(page, '#chart-power', 'last'), '321', 'the held reading is the last point');
    for (const id of ['power', 'temperature', 'fans']) {
      assert.equal(await page.locator(`#chart-${id} canvas`).count(), 1, `${id} is drawn`);
      assert.ok(Number(await attr(page, `#chart-${id}`, 'series')) >= 1, `${id} has a series`);
    }
    await screenshot(page, 'sensors');
  });

  it('BIOS editor: an enum is a select, a dependent attribute is greyed out, a change is PATCHed and shown pending', async () => {
    const current = (await svc.get(`${SYS}Bios/`, { auth: 'basic' })).body.Attributes;
    assert.notEqual(current.WorkloadProfile, 'Custom', 'the power settings start owned by a profile');
    await openTab(page, 'bios');
    await page.waitForSelector('#bios-editor');
    await page.click('details[data-menu$="/WorkloadProfileMenu"] > summary');
    await page.click('details[data-menu$="/PowerAndPerformanceOptions"] > summary');
    const profile = '[data-bios-attr="WorkloadProfile"]';
    const regulator = '[data-bios-attr="PowerRegulator"]';
    assert.equal(await page.locator(`${profile} select`).count(), 1, 'an enumeration is a select');
    assert.ok((await page.locator(`${profile} select option`).count()) > 2);
    assert.equal(await attr(page, regulator, 'greyed'), 'true', 'PowerRegulator is the profile’s while it is not Custom');
    assert.equal(await page.locator(`${regulator} select`).isDisabled(), true);

    await page.selectOption(`${profile} select`, 'Custom');
    assert.equal(await attr(page, regulator, 'greyed'), 'false', 'the dependency is evaluated in the page at once');
    assert.equal(await attr(page, profile, 'staged'), 'true');

    // A number beyond its registry bounds is refused before anything is sent.
    const bounded = page.locator('.bios-attr input[type="number"][max]').first();
    await bounded.evaluate((el) => ((el as unknown as { closest(s: string): { open: boolean } | null }).closest('details')!.open = true));
    const max = Number(await bounded.getAttribute('max'));
    const min = Number(await bounded.getAttribute('min'));
    const chosen = (await bounded.inputValue()) === String(max) ? min : max;
    await bounded.fill(String(max + 1));
    await bounded.dispatchEvent('change');
    await page.waitForSelector('.bios-attr[data-invalid="true"]');
    assert.equal(await page.locator('#bios-save').isDisabled(), true);
    await bounded.fill(String(chosen));
    await bounded.dispatchEvent('change');
    assert.equal(await page.locator('.bios-attr[data-invalid="true"]').count(), 0);
    const boundedName = await bounded.getAttribute('name');

    await page.click('#bios-save');
    await waitText(page, '#status', 'Saved 2 BIOS change(s) as pending');
    await page.waitForSelector(`${profile}[data-pending="true"]`);
    await page.waitForSelector('tr[data-attribute="WorkloadProfile"][data-pending="true"]');
    const pending = (await svc.get(`${SYS}Bios/Settings/`, { auth: 'basic' })).body.Attributes;
    assert.equal(pending.WorkloadProfile, 'Custom');
    assert.equal(pending[boundedName!], chosen);
    assert.equal(
      (await svc.get(`${SYS}Bios/`, { auth: 'basic' })).body.Attributes.WorkloadProfile,
      current.WorkloadProfile,
      'only pending',
    );
    await screenshot(page, 'bios');
  });

  it('Updates: a package upload shows its progress and follows the update to its end', async () => {
    const pkg = await makePackage(svc, {
      targets: ['CPLD'],
      version: '0x2C',
      activation: 'Immediate',
      file: 'cpld.fwpkg',
      // Large enough that the browser reports its progress on the way.
      image: randomBytes(24 * 1024 * 1024),
    });
    await openTab(page, 'updates');
    await page.waitForSelector('#fw-form');
    await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals & { __percents: string[]; MutationObserver: any };
      g.__percents = [];
      const bar = g.document.querySelector('#fw-progress') as unknown as object;
      new g.MutationObserver(() => g.__percents.push(String((bar as { dataset: { percent: string } }).dataset.percent))).observe(bar, {
        attributes: true,
      });
    });
    await page.setInputFiles('#fw-file', pkg.path);
    await page.setInputFiles('#fw-compsig', {
      name: `${pkg.name}.compsig`,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(pkg.compsig),
    });
    await page.click('#fw-upload');
    await page.waitForSelector('#fw-status[data-state="done"], #fw-status[data-state="failed"]', { timeout: 60_000 });
    assert.equal(await attr(page, '#fw-status', 'state'), 'done', (await page.locator('#fw-status').textContent()) ?? '');
    assert.equal(await attr(page, '#fw-task', 'state'), 'Complete');
    const percents = await page.evaluate(() => (globalThis as unknown as { __percents: string[] }).__percents);
    assert.equal(percents.at(-1), '100');
    assert.ok(
      percents.some((p) => Number(p) > 0 && Number(p) < 100),
      `progress was shown on the way: ${percents.join()}`,
    );
    const inventory = (await svc.get('/redfish/v1/UpdateService/FirmwareInventory/?$expand=.', { auth: 'basic' })).body.Members;
    assert.ok(
      inventory.some((m: any) => m.Version === '0x2C'),
      'the package was flashed',
    );
    await screenshot(page, 'updates');
  });

  it('Inventory: the Processors table names each socket', async () => {
    const procs = (await svc.get(`${SYS}Processors/?$expand=.`, { auth: 'basic' })).body.Members.map((p: any) => p.Socket);
    assert.ok(procs.length >= 1 && procs.every((s: unknown) => typeof s === 'string' && s.length > 0));
    await openTab(page, 'inventory');
    await page.waitForSelector('[data-inventory="Processors"] table');
    const shown = await page.locator('[data-inventory="Processors"] [data-place]').allTextContents();
    assert.deepEqual(shown, procs);
    await screenshot(page, 'inventory', '[data-inventory="Processors"]');
    assert.deepEqual(problems, [], 'no script error or CSP violation');
  });
});

// The views read the vendor's objects under the name the service publishes (its root's Oem key).
describe('web console views under --oem-name Hpe', { skip: browserSkip() }, () => {
  let svc: TestService;
  let browser: Browser;

  before(async () => {
    buildConsole();
    [svc, browser] = await Promise.all([startTestService({ config: { oemName: 'Hpe' } }), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it("Power and Updates show the server's POST state and the task queue from Oem/Hpe", async () => {
    const { page, problems } = await openConsole(browser, svc.url);
    await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
    await openTab(page, 'power');
    await waitText(page, '#post-state', 'PowerOff');
    await waitText(page, '#summary-post', 'PowerOff');
    await page.click('button[data-reset="On"]');
    await svc.clock.advance(8_000);
    await waitText(page, '#post-state', 'FinishedPost');
    await waitText(page, '#summary-post', 'FinishedPost');
    await openTab(page, 'updates');
    const queue = (await svc.get('/redfish/v1/UpdateService/UpdateTaskQueue/')).body.Oem.Hpe.QueueStatus.State;
    await waitText(page, '#queue-state', queue);
    assert.deepEqual(problems, []);
  });
});
