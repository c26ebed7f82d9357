// JavaScript heap bytes allocated per GET (issue 30): each scavenge walks the old generation, so a
// fleet's GETs cost in proportion to what they allocate. The service runs as `npm start` runs it,
// with --trace-gc-nvp: every collection prints the bytes allocated since the one before it. Per
// URI and credential (Basic, a session token): ALLOC_WARMUP GETs, then ALLOC_GETS GETs on
// ALLOC_CONNECTIONS kept-alive connections; the bytes of the collections between the phase's first
// and last, over the GETs answered between those two. The figures do not depend on machine load.
//   npm run bench:alloc      ALLOC_GETS=5000 ALLOC_LOG_LEVEL=info npm run bench:alloc
import { Agent, request } from 'undici';
import { adminCredentials, runMain, startBenchService } from './support.js';

const GETS = Number(process.env.ALLOC_GETS ?? 20_000);
const WARMUP = Number(process.env.ALLOC_WARMUP ?? 2_000);
const CONNECTIONS = Number(process.env.ALLOC_CONNECTIONS ?? 4);
const URIS = [
  '/redfish/v1/Systems/1/',
  '/redfish/v1/',
  '/redfish/v1/Chassis/1/',
  '/redfish/v1/Managers/1/',
  '/redfish/v1/SessionService/',
  '/redfish/v1/Systems/1/Bios/',
];

/** A collection as --trace-gc-nvp prints it: its kind, the bytes allocated since the one before. */
const GC_LINE = /\bgc=(\w+)\b.*\ballocated=(\d+)/;

async function main(): Promise<void> {
  const svc = await startBenchService({
    built: true,
    nodeArgs: ['--trace-gc-nvp'],
    pipeStdout: true,
    port: process.env.ALLOC_PORT ? Number(process.env.ALLOC_PORT) : undefined,
    env: process.env.ALLOC_LOG_LEVEL ? { BMC_LOG_LEVEL: process.env.ALLOC_LOG_LEVEL } : {},
  });
  /** Each collection: bytes allocated since the previous one, and how many GETs were answered when it was printed. */
  const collections: { allocated: number; answered: number }[] = [];
  let answered = 0;
  let partial = '';
  svc.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const m = GC_LINE.exec(line);
      if (m) collections.push({ allocated: Number(m[2]), answered });
    }
  });
  const agent = new Agent({ connect: { rejectUnauthorized: false }, connections: CONNECTIONS, pipelining: 1 });
  try {
    const { basic, token } = await adminCredentials(svc.base, agent);
    const credentials: [string, Record<string, string>][] = [
      ['Basic', { authorization: basic }],
      ['session', { 'x-auth-token': token }],
    ];

    const load = async (url: string, headers: Record<string, string>, count: number): Promise<number> => {
      let left = count;
      let size = 0;
      const worker = async () => {
        while (left-- > 0) {
          const res = await request(url, { headers, dispatcher: agent });
          const body = await res.body.arrayBuffer();
          if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`);
          size = body.byteLength;
          answered++;
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      return size;
    };

    console.log(`${GETS} GETs after ${WARMUP} of warm-up, ${CONNECTIONS} connections; JS heap bytes allocated per GET`);
    console.log(`${'URI'.padEnd(32)} ${'body'.padStart(7)} ${'Basic'.padStart(8)} ${'session'.padStart(8)}`);
    for (const uri of URIS) {
      const perGet: string[] = [];
      let size = 0;
      for (const [, headers] of credentials) {
        await load(svc.base + uri, headers, WARMUP);
        const first = collections.length;
        size = await load(svc.base + uri, headers, GETS);
        const seen = collections.slice(first);
        if (seen.length < 3) throw new Error(`${uri}: only ${seen.length} collections in ${GETS} GETs; raise ALLOC_GETS`);
        const bytes = seen.slice(1).reduce((sum, c) => sum + c.allocated, 0);
        const gets = seen[seen.length - 1]!.answered - seen[0]!.answered;
        perGet.push(String(Math.round(bytes / gets)));
      }
      console.log(`${uri.padEnd(32)} ${String(size).padStart(7)} ${perGet.map((b) => b.padStart(8)).join(' ')}`);
    }
  } finally {
    await agent.close();
    await svc.stop();
  }
}

runMain(main);
