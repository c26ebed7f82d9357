// The request line (src/http/server.ts requestLogger) is written without pino's serializer:
// it must be the very line pino writes for the same entry, whatever the logger's bindings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { requestLogger } from '../../src/http/server.js';

function capture(options: pino.LoggerOptions) {
  const lines: string[] = [];
  let now = 1_767_225_600_000;
  const log = pino({ ...options, timestamp: () => `,"time":${now}` }, { write: (l: string) => lines.push(l) });
  return { log, lines, tick: () => now++ };
}

describe('request line', () => {
  const entries: [string, string, number, number, string | undefined, string][] = [
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

  it('writes nothing below its level', () => {
    const { log, lines } = capture({ level: 'warn' });
    requestLogger(log)('GET', '/', 200, 1, undefined, '::1');
    assert.deepEqual(lines, []);
    log.level = 'info';
    requestLogger(log)('GET', '/', 200, 1, undefined, '::1');
    assert.equal(lines.length, 1);
  });
});
