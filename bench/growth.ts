// Cost growth (issue: performance II): GET throughput and p99 of a resource and of
// collection pages of 20 when the service holds 20 of each (every page full), then
// again once it holds 1,000 event subscriptions, a full IEL (it keeps 1,000 records)
// and 500 components in the repository: the first page and the last. The service runs as `npm start` runs it, on CPU 0;
// the load comes from CPU 1.
//   npm run bench:growth      BENCH_SECONDS=5 npm run bench:growth
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { buildPackage } from '../src/tools/fwpkg.js';
import { runMain } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = 'Bench-Pass-123';
const agent = new Agent({ connect: { rejectUnauthorized: false }, connections: 8 });
const auth = `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method: method as 'POST',
    headers: { authorization: auth, ...(body && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}), ...headers },
    body: Buffer.isBuffer(body) ? body : body ? JSON.stringify(body) : undefined,
    dispatcher: agent,
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text;
}

function multipart(name: string, data: Buffer, compsig: string): { body: Buffer; type: string } {
  const b = `----growth${Math.random().toString(16).slice(2)}`;
  const part = (field: string, filename: string, content: Buffer | string) =>
    Buffer.concat([
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from('\r\n'),
    ]);
  const params = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n{"UpdateTarget":false}\r\n`);
  return {
    body: Buffer.concat([params, part('compsig', `${name}.compsig`, compsig), part('file', name, data), Buffer.from(`--${b}--\r\n`)]),
    type: `multipart/form-data; boundary=${b}`,
  };
}

// Each scenario: its path on the small service (20 of each, so every page of 20 is full) and on
// the populated one: the first page, and a page at the end of the collection.
const SCENARIOS = [
  ['GET Systems/1/', '/redfish/v1/Systems/1/', '/redfish/v1/Systems/1/'],
  ['GET Subscriptions/?$top=20', '/redfish/v1/EventService/Subscriptions/?$top=20', '/redfish/v1/EventService/Subscriptions/?$top=20'],
  [
    '  last page ($skip=980)',
    '/redfish/v1/EventService/Subscriptions/?$top=20',
    '/redfish/v1/EventService/Subscriptions/?$skip=980&$top=20',
  ],
  [
    'GET IEL Entries/?$top=20',
    '/redfish/v1/Managers/1/LogServices/IEL/Entries/?$top=20',
    '/redfish/v1/Managers/1/LogServices/IEL/Entries/?$top=20',
  ],
  [
    '  last page ($skip=980)',
    '/redfish/v1/Managers/1/LogServices/IEL/Entries/?$top=20',
    '/redfish/v1/Managers/1/LogServices/IEL/Entries/?$skip=980&$top=20',
  ],
  [
    'GET ComponentRepository/?$top=20',
    '/redfish/v1/UpdateService/ComponentRepository/?$top=20',
    '/redfish/v1/UpdateService/ComponentRepository/?$top=20',
  ],
  [
    '  last page ($skip=480)',
    '/redfish/v1/UpdateService/ComponentRepository/?$top=20',
    '/redfish/v1/UpdateService/ComponentRepository/?$skip=480&$top=20',
  ],
] as const;

async function measure(base: string, populated: boolean): Promise<{ rps: number; p99: number }[]> {
  const out: { rps: number; p99: number }[] = [];
  for (const [name, small, large] of SCENARIOS) {
    const path = populated ? large : small;
    const o = { url: base + path, headers: { authorization: auth }, connections: 32, tlsOptions: { rejectUnauthorized: false } };
    await autocannon({ ...o, duration: 2 });
    const r = await autocannon({ ...o, duration: SECONDS });
    if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    out.push({ rps: r.requests.average, p99: r.latency.p99 });
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-growth-'));
  const port = await freePort();
  const flags = (process.env.npm_package_config_node_flags ?? '').split(' ').filter(Boolean);
  const args = [...flags, 'dist/cli.js', '--port', String(port), '--data-dir', dir, '--admin-password', PASSWORD, '--log-level', 'warn'];
  const svc: ChildProcess = spawn(
    'taskset',
    ['-c', '0', process.execPath, ...args, '--max-subscriptions', '1100', '--max-sessions', '256', '--max-sessions-per-account', '256'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `https://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      const up = await call(base, 'GET', '/redfish/v1/').then(
        () => true,
        () => false,
      );
      if (up) break;
      if (i > 300) throw new Error('the service did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const start = performance.now();
    // Subscriptions, IEL records (every host name change is one) and repository components, counted up to each target.
    let subs = 0;
    let changes = 0;
    let components = 0;
    const populate = async (subTarget: number, changeTarget: number, componentTarget: number) => {
      for (; subs < subTarget; subs++) {
        await call(base, 'POST', '/redfish/v1/EventService/Subscriptions/', {
          Destination: `https://127.0.0.1:9/listener-${subs}`,
          Protocol: 'Redfish',
          RegistryPrefixes: ['StorageDevice'],
        });
      }
      for (; changes < changeTarget; changes++)
        await call(base, 'PATCH', '/redfish/v1/Managers/1/NetworkProtocol/', { HostName: `growth-${changes}` });
      for (; components < componentTarget; components++) {
        const name = `growth-${components}.fwpkg`;
        const path = join(dir, name);
        const sig = await buildPackage({ dataDir: dir, targets: ['IE'], version: `1.0.${components}`, out: path });
        const { body, type } = multipart(name, readFileSync(path), readFileSync(sig, 'utf8'));
        await call(base, 'POST', '/redfish/v1/UpdateService/upload/', body, { 'content-type': type });
      }
    };
    await populate(20, 20, 20);
    const small = await measure(base, false);
    // The IEL keeps its newest 1,000 records (docs/simulated-server.md): 1,000 more changes fill it.
    await populate(1000, 1020, 500);
    const held = {
      subscriptions: JSON.parse(await call(base, 'GET', '/redfish/v1/EventService/Subscriptions/?$top=1'))['Members@odata.count'],
      iel: JSON.parse(await call(base, 'GET', '/redfish/v1/Managers/1/LogServices/IEL/Entries/?$top=1'))['Members@odata.count'],
      components: JSON.parse(await call(base, 'GET', '/redfish/v1/UpdateService/ComponentRepository/?$top=1'))['Members@odata.count'],
    };
    console.log(
      `populated in ${((performance.now() - start) / 1000).toFixed(0)} s: ${held.subscriptions} subscriptions, ${held.iel} IEL records, ${held.components} components`,
    );
    const full = await measure(base, true);
    console.log(`cost growth: ${SECONDS} s per run, 32 connections, Basic, service on CPU 0, load on CPU 1`);
    console.log('scenario                          | 20 held req/s | p99 | populated req/s | p99 | change');
    SCENARIOS.forEach(([name], i) => {
      const a = small[i]!;
      const b = full[i]!;
      console.log(
        `${name.padEnd(33)} | ${a.rps.toFixed(0).padStart(13)} | ${String(a.p99).padStart(3)} | ${b.rps.toFixed(0).padStart(15)} | ${String(b.p99).padStart(3)} | ${((b.rps / a.rps - 1) * 100).toFixed(0)}%`,
      );
    });
  } finally {
    svc.kill('SIGTERM');
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
