// kill -9 soak: writers hammer the service with acknowledged writes of several
// kinds, the process is killed with SIGKILL at a random moment, restarted on the
// same data dir, and every acknowledged write is looked for. Repeats for
// SOAK_CYCLES cycles (default 24) and exits non-zero if anything acknowledged
// was lost. Loopback only; bounded in cycles and time.
//   npm run soak        SOAK_CYCLES=50 npm run soak
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const CYCLES = Number(process.env.SOAK_CYCLES ?? 24);
const WRITERS = 4;
const PASSWORD = 'Soak-Admin-Pass1';
const AUTH = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;
const BOOT_TARGETS = ['Pxe', 'Hdd', 'Cd', 'Usb', 'UefiShell', 'BiosSetup'];

interface Started {
  proc: ChildProcess;
  url: string;
  exited: Promise<void>;
}

async function start(dataDir: string): Promise<Started> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--data-dir', dataDir, '--admin-password', PASSWORD],
    {
      env: { ...process.env, BMC_SCRYPT_LOG_N: '10', BMC_SSDP_PORT: '0', BMC_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${out}`)), 60_000);
    const look = (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(https:\/\/[^"]+)\/redfish\/v1\/"/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout?.on('data', look);
    proc.stderr?.on('data', look);
    proc.once('exit', () => reject(new Error(`exited at start:\n${out}`)));
  });
  return { proc, url, exited };
}

interface Ledger {
  /** Maintenance windows whose creation was acknowledged (201). */
  windows: Set<string>;
  /** Per writer, the BIOS ServerName values in the order sent, and the index of the last acknowledged one. */
  bios: { sent: string[]; acked: number };
  boot: { sent: string[]; acked: number };
  acknowledged: number;
}

async function call(agent: Agent, url: string, method: string, path: string, body?: unknown) {
  const r = await request(url + path, {
    method: method as 'GET',
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: agent,
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

/** Write until stopped (by the kill: requests then fail). */
async function writer(agent: Agent, url: string, id: number, cycle: number, ledger: Ledger, stop: { now: boolean }): Promise<void> {
  for (let n = 0; !stop.now; n++) {
    try {
      const kind = (n + id) % 3;
      if (kind === 0) {
        const name = `w${cycle}-${id}-${n}`;
        const r = await call(agent, url, 'POST', '/redfish/v1/UpdateService/MaintenanceWindows/', {
          Name: name,
          StartAfter: '2030-01-01T00:00:00Z',
          Expire: '2030-01-02T00:00:00Z',
        });
        if (r.status === 201) {
          ledger.windows.add(name);
          ledger.acknowledged++;
        }
      } else if (kind === 1 && id === 0) {
        const value = `soak${cycle}n${n}`.slice(0, 14);
        ledger.bios.sent.push(value);
        const r = await call(agent, url, 'PATCH', '/redfish/v1/Systems/1/Bios/Settings/', { Attributes: { ServerName: value } });
        if (r.status === 200) {
          ledger.bios.acked = ledger.bios.sent.length - 1;
          ledger.acknowledged++;
        }
      } else if (kind === 2 && id === 1) {
        const value = BOOT_TARGETS[n % BOOT_TARGETS.length] as string;
        ledger.boot.sent.push(value);
        const r = await call(agent, url, 'PATCH', '/redfish/v1/Systems/1/', {
          Boot: { BootSourceOverrideTarget: value, BootSourceOverrideEnabled: 'Continuous' },
        });
        if (r.status === 200) {
          ledger.boot.acked = ledger.boot.sent.length - 1;
          ledger.acknowledged++;
        }
      }
    } catch {
      return; // the process is gone
    }
  }
}

/** A register is intact when it holds the last acknowledged value or one sent after it (in flight at the kill). */
function registerIntact(value: unknown, reg: { sent: string[]; acked: number }): boolean {
  if (reg.acked < 0) return true;
  return reg.sent.slice(reg.acked).includes(String(value));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmc-soak-'));
  const agent = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 1000 });
  let acknowledged = 0;
  let lost = 0;
  const started = Date.now();
  try {
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const svc = await start(dataDir);
      const ledger: Ledger = { windows: new Set(), bios: { sent: [], acked: -1 }, boot: { sent: [], acked: -1 }, acknowledged: 0 };
      const stop = { now: false };
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(agent, svc.url, i, cycle, ledger, stop));
      await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1500)));
      svc.proc.kill('SIGKILL');
      await svc.exited;
      stop.now = true;
      await Promise.all(writers);

      const after = await start(dataDir);
      const windows = await call(agent, after.url, 'GET', '/redfish/v1/UpdateService/MaintenanceWindows/?$expand=.');
      const names = new Set<string>((windows.body?.Members ?? []).map((m: { Name: string }) => m.Name));
      const missing = [...ledger.windows].filter((n) => !names.has(n));
      const bios = await call(agent, after.url, 'GET', '/redfish/v1/Systems/1/Bios/Settings/');
      const system = await call(agent, after.url, 'GET', '/redfish/v1/Systems/1/');
      const biosOk = registerIntact(bios.body?.Attributes?.ServerName, ledger.bios);
      const bootOk = registerIntact(system.body?.Boot?.BootSourceOverrideTarget, ledger.boot);
      const cycleLost = missing.length + (biosOk ? 0 : 1) + (bootOk ? 0 : 1);
      acknowledged += ledger.acknowledged;
      lost += cycleLost;
      process.stdout.write(
        `cycle ${String(cycle).padStart(2)}: ${String(ledger.acknowledged).padStart(4)} acknowledged writes, ${cycleLost} lost` +
          (cycleLost
            ? ` (windows missing: ${missing.join(', ') || 'none'}; bios ${biosOk ? 'ok' : 'LOST'}; boot ${bootOk ? 'ok' : 'LOST'})`
            : '') +
          '\n',
      );
      // Start the next cycle small: the windows checked are removed through the API.
      for (const n of names)
        await call(agent, after.url, 'DELETE', `/redfish/v1/UpdateService/MaintenanceWindows/${encodeURIComponent(n)}/`);
      after.proc.kill('SIGKILL');
      await after.exited;
    }
  } finally {
    await agent.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`\nsoak: ${CYCLES} kill -9 cycles in ${seconds} s, ${acknowledged} acknowledged writes, ${lost} lost\n`);
  if (lost > 0) process.exitCode = 1;
}

await main();
