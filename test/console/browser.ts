// The web console in a real browser: Debian's Chromium driven by playwright-core
// (no browser download), the console compiled first, and the steps the tests and
// the screenshot script share.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or false. In CI they always run: a missing browser fails them. */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM) || process.env.CI) return false;
  return `${CHROMIUM} is not installed (apt-get install chromium); the web console browser test is skipped outside CI`;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Compile the console into dist/console (incremental: quick when nothing changed). */
export function buildConsole(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('node_modules/typescript/bin/tsc', `file://${ROOT}`)), '-b', 'console'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

export function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespace for Chromium's sandbox.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page on the console that records script errors and CSP violations. */
export async function openConsole(browser: Browser, url: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  await page.goto(`${url}/console/`);
  return { page, problems };
}

export async function loginThroughPage(page: Page, user: string, password: string): Promise<void> {
  await page.fill('#login-user', user);
  await page.fill('#login-password', password);
  await page.click('#login-submit');
  await page.waitForSelector('#view[data-view]');
}

/** An element as page functions read it. */
interface PageElement {
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  querySelectorAll(selector: string): Iterable<PageElement> & ArrayLike<PageElement>;
}

/** What functions run in the page use of its globals (the tests are type-checked without the DOM lib). */
export interface PageGlobals {
  document: PageElement & { body: PageElement; querySelector(selector: string): PageElement | null };
  sessionStorage: { length: number };
  /** Set only if injected markup ever ran. */
  __xss?: number;
}

/** Wait until the element's text is `want` (the page updates from events and polls). */
export async function waitText(page: Page, selector: string, want: string, timeout = 10_000): Promise<void> {
  try {
    const check = ([s, w]: readonly [string, string]) =>
      (globalThis as unknown as PageGlobals).document.querySelector(s)?.textContent === w;
    await page.waitForFunction(check, [selector, want] as const, {
      timeout,
      polling: 50,
    });
  } catch (e) {
    const got = await page
      .locator(selector)
      .first()
      .textContent({ timeout: 100 })
      .catch(() => null);
    throw new Error(`${selector} never read "${want}" within ${timeout} ms (last: ${JSON.stringify(got)})`, { cause: e });
  }
}

export async function openTab(page: Page, view: string): Promise<void> {
  await page.click(`button.tab[data-view="${view}"]`);
  await page.waitForSelector(`#view[data-view="${view}"]`);
}

/** The cell texts of the BIOS diff row of one attribute: [name, current, pending], and whether it is marked pending. */
export async function biosRow(page: Page, attribute: string): Promise<{ cells: string[]; pending: boolean } | undefined> {
  return page.evaluate((a) => {
    const row = (globalThis as unknown as PageGlobals).document.querySelector(`tr[data-attribute="${a}"]`);
    if (!row) return undefined;
    return { cells: [...row.querySelectorAll('td')].map((td) => td.textContent ?? ''), pending: row.dataset.pending === 'true' };
  }, attribute);
}
