// `npm run console:screenshot`: docs/console.png from the real console in
// Chromium, against a test service powered on with a BIOS change pending.
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService } from '../support/service.js';
import { buildConsole, launchChromium, loginThroughPage, openConsole, openTab, waitText } from './browser.js';

const OUT = fileURLToPath(new URL('../../docs/console.png', import.meta.url));

buildConsole();
const [svc, browser] = await Promise.all([startTestService(), launchChromium()]);
try {
  await svc.req('POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/', { body: { ResetType: 'On' } });
  for (let s = 0; s < 10; s++) await svc.clock.advance(1_000);
  await svc.req('PATCH', '/redfish/v1/Systems/1/Bios/Settings/', {
    body: { Attributes: { UsbBoot: 'Disabled', WorkloadProfile: 'Virtualization-MaxPerformance' } },
  });
  const { page } = await openConsole(browser, svc.url);
  await loginThroughPage(page, ADMIN_USER, ADMIN_PASSWORD);
  await waitText(page, '#summary-post', 'FinishedPost');
  await openTab(page, 'bios');
  await page.waitForSelector('tr[data-attribute="UsbBoot"][data-pending="true"]');
  await page.waitForSelector('#live[data-live="true"]');
  await page.screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await svc.close();
}
