// Every byte of a fixed set of answers, for comparing two versions of the code: a change meant to
// leave answers alone (issue 30's allocation work) must print the same. The service runs in this
// process on a copy of a data dir, its clock stopped at a fixed instant, so that a version run
// twice prints the same bytes; only Date (the wall clock's) is left out.
//   tsx bench/answers.ts DATA_DIR > mine.txt   (and the same from a checkout of the other version)
//   diff base.txt mine.txt
// DATA_DIR is made at the first run when it does not exist; each run works on a copy of it.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Agent, request } from 'undici';
import { startService } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { ManualClock } from '../src/platform/clock.js';
import { adminCredentials, PASSWORD, runMain } from './support.js';

const SYSTEM = '/redfish/v1/Systems/1/';
const GETS = [
  SYSTEM,
  '/redfish/v1/',
  '/redfish/v1/Chassis/1/',
  '/redfish/v1/Managers/1/',
  '/redfish/v1/SessionService/',
  '/redfish/v1/Systems/1/Bios/',
  `${SYSTEM}?$select=Name,Status/Health,Boot`,
  `${SYSTEM}?$expand=.`,
  '/redfish/v1/Systems/?$expand=.',
  '/redfish/v1/Systems/?only',
  '/redfish/v1/Systems/?$top=1',
  `${SYSTEM}?$top=1`,
  '/redfish/v1/Chassis/?$expand=.',
  '/redfish/v1/Systems/1',
  '/rest/v1/Systems/1',
  '/redfish/v1/Nothing/Here/',
  '/redfish/v1/Systems/2/',
];

async function main(): Promise<void> {
  const seed = process.argv[2];
  if (!seed) throw new Error('usage: tsx bench/answers.ts DATA_DIR');
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-answers-'));
  if (existsSync(seed)) cpSync(seed, dataDir, { recursive: true });
  const config = defaultConfig({ port: 0, host: '127.0.0.1', dataDir, adminPassword: PASSWORD, scryptLogN: 10, ssdpPort: 0 });
  const running = await startService(config, { clock: new ManualClock('2026-11-22T08:00:00Z'), logger: pino({ level: 'silent' }) });
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  const show = async (method: string, path: string, headers: Record<string, string>): Promise<Record<string, unknown>> => {
    const res = await request(running.url + path, { method: method as 'GET', headers, dispatcher: agent });
    const body = await res.body.text();
    const shown = Object.entries(res.headers).filter(([h]) => h !== 'date');
    console.log(
      `${method} ${path} ${Object.keys(headers).join(',')}\n${res.statusCode}\n${shown.map(([h, v]) => `${h}: ${String(v)}`).join('\n')}\n${body}\n`,
    );
    return res.headers;
  };
  try {
    const { basic, token } = await adminCredentials(running.url, agent);
    for (const path of GETS) {
      await show('GET', path, { authorization: basic });
      await show('GET', path, { 'x-auth-token': token });
    }
    const etag = String((await show('HEAD', SYSTEM, { authorization: basic })).etag);
    await show('HEAD', '/redfish/v1/', {});
    await show('GET', '/redfish/v1/', {});
    await show('GET', SYSTEM, {});
    await show('GET', SYSTEM, { authorization: basic, 'if-none-match': etag });
    await show('GET', SYSTEM, { authorization: basic, 'if-none-match': 'W/"other"' });
    await show('DELETE', SYSTEM, { authorization: basic });
    await show('PUT', '/redfish/v1/', { authorization: basic });
    await show('GET', SYSTEM, { authorization: 'Basic d3Jvbmc6d3Jvbmc=' });
    await show('GET', SYSTEM, { authorization: basic, 'odata-version': '3.0' });
    await show('GET', `${SYSTEM}?$bogus=1`, { authorization: basic });
  } finally {
    await agent.close();
    await running.close();
    if (!existsSync(seed)) cpSync(dataDir, seed, { recursive: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain(main);
