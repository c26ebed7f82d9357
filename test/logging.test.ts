// The service log (src/logging.ts): lines are batched by pino's asynchronous
// destination and flushed on the controller clock; a failing output does not
// stop the service.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLog } from '../src/logging.js';
import { ManualClock } from '../src/platform/clock.js';

const dir = mkdtempSync(join(tmpdir(), 'bmc-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function logFile(): { path: string; fd: number; text(): string } {
  const path = join(dir, `log-${files++}.jsonl`);
  // The log owns the descriptor: it is closed with the log.
  const fd = openSync(path, 'w');
  return { path, fd, text: () => readFileSync(path, 'utf8') };
}

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('service log', () => {
  it('holds lines until 250 ms of the clock have passed, and stamps them with its time', async () => {
    const clock = new ManualClock();
    const file = logFile();
    const out = createLog('info', clock, file.fd);
    out.log.info({ n: 1 }, 'first');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(file.text(), '', 'not written at once');
    await clock.advance(249);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(file.text(), '', 'not before 250 ms');
    await clock.advance(1);
    await until(() => file.text().includes('"msg":"first"'));
    const line = JSON.parse(file.text());
    assert.equal(line.n, 1);
    assert.equal(line.time, Date.parse('2026-01-01T00:00:00Z'));
    await out.close();
  });

  it('writes a batch as it nears 64 KiB without waiting for the clock, and less only on the clock', async () => {
    const clock = new ManualClock();
    const file = logFile();
    const out = createLog('info', clock, file.fd);
    const filler = 'x'.repeat(1000);
    // About 1,060 bytes a line: 50 lines are 53 KB.
    for (let i = 0; i < 50; i++) out.log.info({ i, filler }, 'bulk');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(file.text(), '', 'under 64 KiB waits');
    for (let i = 50; i < 70; i++) out.log.info({ i, filler }, 'bulk');
    await until(() => file.text().length >= 60 * 1024);
    await out.close();
    assert.equal(file.text().trim().split('\n').length, 70);
  });

  it('keeps lines whole and in order: multi-byte text, and a line longer than a batch', async () => {
    const clock = new ManualClock();
    const file = logFile();
    const out = createLog('info', clock, file.fd);
    out.log.info({ text: 'Grüße, 温度 ✓' }, 'first');
    out.log.info({ text: 'é'.repeat(40_000) }, 'long');
    out.log.info({ text: '末尾' }, 'last');
    await out.close();
    const lines = file
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; text: string });
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['first', 'long', 'last'],
    );
    assert.equal(lines[0]!.text, 'Grüße, 温度 ✓');
    assert.equal(lines[1]!.text, 'é'.repeat(40_000));
    assert.equal(lines[2]!.text, '末尾');
  });

  it('writes out what is collected on close and on flush', async () => {
    const clock = new ManualClock();
    const file = logFile();
    const out = createLog('info', clock, file.fd);
    out.log.info('flushed');
    out.flush();
    await until(() => file.text().includes('"msg":"flushed"'));
    out.log.warn('closing');
    await out.close();
    assert.match(file.text(), /"msg":"closing"/);
    out.log.info('after close');
    await clock.advance(1000);
    assert.equal(file.text().trim().split('\n').length, 2);
  });

  it('goes on without a log when its output fails', { skip: !existsSync('/dev/full') }, async () => {
    const clock = new ManualClock();
    // Every write to /dev/full fails (ENOSPC), as a log pipe whose reader went away does (EPIPE).
    const fd = openSync('/dev/full', 'w');
    const out = createLog('info', clock, fd);
    for (let i = 0; i < 5; i++) out.log.info('lost');
    await clock.advance(250);
    await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 100; i++) out.log.info({ filler: 'x'.repeat(1000) }, 'after the failure');
    await clock.advance(1000);
    await out.close();
  });
});
