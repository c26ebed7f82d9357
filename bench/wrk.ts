// wrk benchmark (issue 30): the service as built in one or more checkouts and a bare node:https
// server sending the same bytes (bench/bare-server.ts), each pinned to CPU 0, loaded in turn by wrk
// pinned to CPU 1 (2 threads, 32 keep-alive connections), WRK_ROUNDS alternations of WRK_SECONDS
// each. Prints every run and each target's median req/s, as a ratio to bare and to the first build:
// ratios taken within one run hold on a busy machine, where absolute figures do not. Also requests
// per CPU second of the server (its user + system time from /proc): the figure other processes on
// CPU 0 disturb least.
//   npm run bench:wrk                                   (this checkout, PATCH of the boot override)
//   WRK_BUILDS=main=/tmp/main,mine=. npm run bench:wrk  (checkouts with a built dist/, A B bare A B bare…)
//   WRK_SCENARIO=GET WRK_ROUNDS=5 WRK_SECONDS=10 WRK_PORT=18650 npm run bench:wrk
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { PASSWORD, cannedAnswer, freePort, runMain, sleep } from './support.js';

const ROUNDS = Number(process.env.WRK_ROUNDS ?? 3);
const SECONDS = Number(process.env.WRK_SECONDS ?? 10);
const SCENARIOS = {
  PATCH: {
    method: 'PATCH',
    path: '/redfish/v1/Systems/1/',
    body: JSON.stringify({ Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once' } }),
  },
  GET: { method: 'GET', path: '/redfish/v1/Systems/1/', body: '' },
};
const scenario = SCENARIOS[(process.env.WRK_SCENARIO ?? 'PATCH') as keyof typeof SCENARIOS];
if (!scenario) throw new Error(`WRK_SCENARIO is one of ${Object.keys(SCENARIOS).join(', ')}`);
const builds = (process.env.WRK_BUILDS ?? 'this=.').split(',').map((b) => {
  const [name, dir] = b.includes('=') ? b.split('=') : [b, b];
  return { name: name as string, root: resolve(dir as string) };
});
const authorization = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;
const agent = new Agent({ connect: { rejectUnauthorized: false } });
let nextPort = process.env.WRK_PORT ? Number(process.env.WRK_PORT) : undefined;
const port = async () => (nextPort === undefined ? freePort() : nextPort++);

const answers = (port: number) =>
  request(`https://127.0.0.1:${port}/redfish/v1/`, { dispatcher: agent }).then(
    async (r) => (await r.body.text(), true),
    () => false,
  );

/** A server on CPU 0, ready when it answers. */
async function start(args: string[], at: number): Promise<ChildProcess> {
  if (await answers(at)) throw new Error(`port ${at} is taken`);
  const proc = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) break;
    if (await answers(at)) return proc;
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not listen on ${at}`);
}

/** wrk from CPU 1 against a target: its requests per second (a non-2xx answer fails the run). */
async function wrk(url: string, seconds: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    'taskset',
    ['-c', '1', 'wrk', '-t2', '-c32', `-d${seconds}s`, '-s', join(import.meta.dirname, 'wrk.lua'), url],
    { env: { ...process.env, WRK_METHOD: scenario.method, WRK_BODY: scenario.body, WRK_AUTH: authorization } },
  );
  if (/Non-2xx|Socket errors/.test(stdout)) throw new Error(`wrk ${url}:\n${stdout}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
}

/** CPU seconds a process has used, user and system (taskset execs node: the pid is the server's). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-wrk-'));
  const procs: ChildProcess[] = [];
  try {
    const targets: { name: string; url: string; pid?: number; rps: number[]; perCpu: number[] }[] = [];
    for (const b of builds) {
      const p = await port();
      const data = join(dir, b.name);
      const flags = (process.env.npm_package_config_node_flags ?? '--max-semi-space-size=4 --v8-pool-size=1').split(' ');
      const cli = [join(b.root, 'dist', 'cli.js'), '--port', String(p), '--data-dir', data, '--ssdp-port', '0'];
      const opts = ['--admin-password', PASSWORD, '--max-sessions', '256', '--max-sessions-per-account', '256', '--log-level', 'info'];
      const proc = await start([...flags, ...cli, ...opts], p);
      procs.push(proc);
      targets.push({ name: b.name, url: `https://127.0.0.1:${p}${scenario.path}`, pid: proc.pid, rps: [], perCpu: [] });
    }
    // The bare server replays the first build's answer, with its certificate.
    const first = join(dir, builds[0]?.name as string);
    const canned = await cannedAnswer(targets[0]?.url as string, { ...scenario, headers: { authorization } }, agent);
    writeFileSync(join(dir, 'canned.json'), JSON.stringify({ [`${scenario.method} ${scenario.path}`]: canned }));
    const barePort = await port();
    const bareArgs = [join(first, 'https-cert.pem'), join(first, 'https-key.pem'), join(dir, 'canned.json'), String(barePort)];
    const bareProc = await start(['--import', 'tsx', join(import.meta.dirname, 'bare-server.ts'), ...bareArgs], barePort);
    procs.push(bareProc);
    targets.push({ name: 'bare', url: `https://127.0.0.1:${barePort}${scenario.path}`, pid: bareProc.pid, rps: [], perCpu: [] });

    console.log(
      `wrk: ${scenario.method} ${scenario.path}, 2 threads, 32 connections, ${SECONDS} s per run, ${ROUNDS} rounds; servers on CPU 0, wrk on CPU 1`,
    );
    for (const t of targets) await wrk(t.url, 3); // warm-up: JIT, connections
    for (let round = 1; round <= ROUNDS; round++) {
      for (const t of targets) {
        const cpu = cpuSeconds(t.pid);
        const rps = await wrk(t.url, SECONDS);
        t.rps.push(rps);
        t.perCpu.push((rps * SECONDS) / (cpuSeconds(t.pid) - cpu));
      }
      const line = (t: (typeof targets)[number]) =>
        `${t.name} ${Math.round(t.rps.at(-1) as number)} (${Math.round(t.perCpu.at(-1) as number)}/CPU s)`;
      console.log(`round ${round}: ${targets.map(line).join(', ')}`);
    }
    const bare = targets.at(-1) as (typeof targets)[number];
    const base = targets[0] as (typeof targets)[number];
    for (const t of targets) {
      const [m, c] = [median(t.rps), median(t.perCpu)];
      console.log(
        `${t.name.padEnd(8)} median ${Math.round(m).toString().padStart(6)} req/s, ${(m / median(bare.rps)).toFixed(2)} of bare, ${(m / median(base.rps)).toFixed(2)} of ${base.name}` +
          ` | ${Math.round(c).toString().padStart(6)} req per CPU s, ${(c / median(bare.perCpu)).toFixed(2)} of bare, ${(c / median(base.perCpu)).toFixed(2)} of ${base.name}`,
      );
    }
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await sleep(1000);
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
