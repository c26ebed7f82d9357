// Upload benchmark (issue 6): streams a 1 GiB signed firmware image over HTTPS
// to the HttpPushUri of a real service running as a child process, and reports
// MB/s and the server's peak resident memory (VmHWM from /proc/<pid>/status).
//   npm run bench:upload               BENCH_UPLOAD_MIB=256 npm run bench:upload
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { writeBin } from '../src/domain/firmware/package.js';
import { makeCompsig, sha256File, VendorSigningKey } from '../src/domain/firmware/signing.js';

const MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 1024);
const PASSWORD = 'Bench-Pass-123';
const agent = new Agent({ connect: { rejectUnauthorized: false }, bodyTimeout: 0, headersTimeout: 0 });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function status(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const dataDir = join(dir, 'data');
  const image = join(dir, 'vmc-big.bin');
  try {
    // The image is signed with the data dir's vendor key, which the service then trusts.
    const key = VendorSigningKey.loadOrCreate(dataDir);
    const block = randomBytes(1024 * 1024);
    await writeBin(
      image,
      { DeviceClass: 'BMC', Version: '1.41', Name: 'Vendor Management Controller' },
      (function* () {
        for (let i = 0; i < MIB; i++) yield block;
      })(),
      key,
    );
    const size = statSync(image).size;
    const compsig = makeCompsig(key, 'vmc-big.bin', await sha256File(image));

    const port = await freePort();
    // The node flags npm start passes (package.json config.node_flags), unless BENCH_NODE_FLAGS says otherwise.
    const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? process.env.npm_package_config_node_flags ?? '').split(' ').filter(Boolean);
    // The service as `npm start` runs it: the compiled build (npm run bench:upload builds it first).
    const proc = spawn(
      process.execPath,
      [
        ...nodeFlags,
        'dist/cli.js',
        '--port',
        String(port),
        '--data-dir',
        dataDir,
        '--admin-password',
        PASSWORD,
        '--log-level',
        'warn',
        '--repository-bytes',
        String(size + 1024 * 1024),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const url = `https://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        await (await request(`${url}/redfish/v1/`, { dispatcher: agent })).body.text();
        break;
      } catch {
        if (i > 300) throw new Error('service did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const pid = proc.pid as number;
    const idleRss = status(pid, 'VmRSS');
    const startupHwm = status(pid, 'VmHWM');
    // Reset the peak so VmHWM afterwards is the peak during the upload (Linux clear_refs 5).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');

    const boundary = '----benchUpload';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="parameters"\r\n\r\n${JSON.stringify({ UpdateTarget: false })}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="compsig"; filename="vmc-big.compsig"\r\n\r\n${compsig}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="vmc-big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      for await (const c of createReadStream(image, { highWaterMark: 1024 * 1024 })) yield c as Buffer;
      yield tail;
    }
    let peakSampled = 0;
    const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, status(pid, 'VmRSS'))), 100);
    const t0 = process.hrtime.bigint();
    const res = await request(`${url}/redfish/v1/UpdateService/upload/`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
        authorization: `Basic ${Buffer.from(`Administrator:${PASSWORD}`).toString('base64')}`,
      },
      body: Readable.from(body()),
    });
    const text = await res.body.text();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    clearInterval(sampler);
    const hwm = status(pid, 'VmHWM');
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    if (res.statusCode !== 200) throw new Error(`upload answered ${res.statusCode}: ${text}`);
    const mb = size / 1e6;
    process.stdout.write(
      `uploaded ${(size / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(1)} s: ${(mb / seconds).toFixed(1)} MB/s ` +
        `(receive, SHA-256, write, verify both signatures, store)\n` +
        `server (node flags: ${nodeFlags.join(' ') || 'none'}) RSS: startup peak ${(startupHwm / 2 ** 20).toFixed(1)} MiB, idle ${(idleRss / 2 ** 20).toFixed(1)} MiB, during upload: peak sampled ${(peakSampled / 2 ** 20).toFixed(1)} MiB, ` +
        `VmHWM ${(hwm / 2 ** 20).toFixed(1)} MiB = ${(hwm / 1e6).toFixed(0)} MB (limit 150 MB: ${hwm < 150e6 ? 'ok' : 'EXCEEDED'})\n`,
    );
    if (hwm >= 150e6) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
