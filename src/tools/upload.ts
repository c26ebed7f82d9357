// `npm run cli -- upload <file> --url ... --user ... --password ...`: uploads a
// firmware package (with its .compsig when one lies beside it) to the
// UpdateService's multipart HttpPushUri, streamed, with a progress bar on a terminal.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, UsageError, call, connect, printAnswer, usageFailure } from './client.js';
import { byteProgress } from './progress.js';
import type { Tool } from './tool.js';

const UPLOAD_URI = '/redfish/v1/UpdateService/upload/';

const USAGE = `Usage: npm run cli -- upload <file> ${CONNECTION_USAGE}
  [--no-target] [--repository] [--compsig <file>]

Uploads <file> to ${UPLOAD_URI}: flashed now (UpdateTarget) unless --no-target, kept in
the component repository with --repository. The signature <file without extension>.compsig
is sent along when it exists (or --compsig names it).
`;

function part(boundary: string, name: string, filename?: string, contentType?: string): Buffer {
  let head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"`;
  if (filename !== undefined) head += `; filename="${filename.replace(/["\r\n]/g, '_')}"`;
  head += '\r\n';
  if (contentType) head += `Content-Type: ${contentType}\r\n`;
  return Buffer.from(`${head}\r\n`);
}

export const uploadTool: Tool = {
  summary: 'upload a firmware package to a running service (progress bar on a terminal)',
  async run(argv) {
    try {
      const { values, positionals } = parseArgs({
        args: argv,
        options: {
          ...CONNECTION_OPTIONS,
          'no-target': { type: 'boolean', default: false },
          repository: { type: 'boolean', default: false },
          compsig: { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      });
      const file = positionals[0];
      if (!file) throw new UsageError('a file to upload is needed');
      if (!existsSync(file)) throw new UsageError(`no file ${file}`);
      const c = connect(values);
      const sigFile = values.compsig ?? file.replace(/\.[^./]*$/, '') + '.compsig';
      const boundary = `----bmcUpload${Date.now().toString(16)}`;
      const params = JSON.stringify({ UpdateTarget: !values['no-target'], UpdateRepository: values.repository });
      const head: Buffer[] = [part(boundary, 'parameters', undefined, 'application/json'), Buffer.from(`${params}\r\n`)];
      if (existsSync(sigFile)) {
        head.push(part(boundary, 'compsig', basename(sigFile), 'application/octet-stream'), readFileSync(sigFile), Buffer.from('\r\n'));
      }
      head.push(part(boundary, 'file', basename(file), 'application/octet-stream'));
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const size = statSync(file).size;
      const first = Buffer.concat(head);
      const bar = byteProgress(`uploading ${basename(file)}`, size);
      const body = new PassThrough();
      body.write(first);
      const src = createReadStream(file);
      src.on('data', (chunk) => bar.add((chunk as Buffer).length));
      src.on('end', () => body.end(tail));
      src.on('error', (e) => body.destroy(e));
      src.pipe(body, { end: false });
      let answer;
      try {
        answer = await call(c, 'POST', UPLOAD_URI, undefined, {
          stream: body,
          contentType: `multipart/form-data; boundary=${boundary}`,
          length: first.length + size + tail.length,
        });
      } finally {
        bar.stop();
      }
      printAnswer('upload', answer);
    } catch (e) {
      usageFailure(e, USAGE);
    }
  },
};
