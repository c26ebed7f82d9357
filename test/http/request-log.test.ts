// The request line (src/http/server.ts requestLogger) is written without pino's serializer:
// it must be the very line pino writes for the same entry, whatever the logger's bindings.
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { requestLogger } from '../../src/http/server.js';
import { createLog } from '../../src/logging.js';
import { ManualClock } from '../../src/platform/clock.js';

function capture(options: pino.LoggerOptions) {
  const lines: string[] = [];
  let now = 1_767_225_600_000;
  const log = pino({ ...options, timestamp: () => `,"time":${now}` }, { write: (l: string) => lines.push(l) });
  return { log, lines, tick: () => now++ };
}

describe('request line', () => {
  type Entry = [string, string, number, number, string | undefined, string];
  const entries: Entry[] = [
    ['GET', '/redfish/v1/', 200, 0.3, undefined, '127.0.0.1'],
    ['PATCH', '/redfish/v1/Systems/1/?$select="Boot"&x=\\n\u00e9\u2028', 412, 12, 'Admin "quoted" ü', '::ffff:10.0.0.1'],
  ];

  for (const [name, options] of [
    ['a root logger with pino base bindings', {}],
    ['a root logger without bindings', { base: undefined }],
  ] as const) {
    it(`is the line pino writes, for ${name} and a child with bindings`, () => {
      const { log, lines, tick } = capture(options);
      for (const logger of [log, log.child({ controller: 7 })]) {
        for (const e of entries) {
          const [method, path, status, ms, user, ip] = e;
          requestLogger(logger)(method, path, status, ms, user, ip);
          logger.info({ method, path, status, ms, user, ip }, 'request');
          tick();
          const [fast, slow] = lines.splice(0, 2);
          assert.equal(fast, slow);
          assert.equal(JSON.parse(fast!).path, path);
        }
      }
    });
  }

  it("is the line pino writes through the service's log too, which takes it in pieces (batches filled and a line larger than a batch)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bmc-request-log-'));
    try {
      const path = join(dir, 'log.jsonl');
      const out = createLog('info', new ManualClock(), openSync(path, 'w'));
      const long: Entry = ['GET', `/redfish/v1/${'x'.repeat(30_000)}/`, 404, 1.5, 'Administrator', '127.0.0.1'];
      // Enough lines to fill several batches; now and then one larger than a batch.
      const written = Array.from({ length: 600 }, (_, i) => (i % 60 === 59 ? long : entries[i % entries.length]!));
      for (const logger of [out.log, out.log.child({ controller: 7 })])
        for (const [method, path, status, ms, user, ip] of written) {
          requestLogger(logger)(method, path, status, ms, user, ip);
          logger.info({ method, path, status, ms, user, ip }, 'request');
        }
      await out.close();
      const lines = readFileSync(path, 'utf8').split('\n');
      assert.equal(lines.pop(), '');
      assert.equal(lines.length, 2 * 2 * written.length);
      for (let i = 0; i < lines.length; i += 2) assert.equal(lines[i], lines[i + 1], `line ${i}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes nothing below its level', () => {
    const { log, lines } = capture({ level: 'warn' });
    requestLogger(log)('GET', '/', 200, 1, undefined, '::1');
    assert.deepEqual(lines, []);
    log.level = 'info';
    requestLogger(log)('GET', '/', 200, 1, undefined, '::1');
    assert.equal(lines.length, 1);
  });
});
