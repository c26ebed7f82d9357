// Issue 24 item 9: a controller that has run before and finds its firmware or license signing key
// missing makes a new one and says so in its log, with what that costs; a first start says nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { SIGNING_KEY_FILE } from '../../../src/domain/firmware/signing.js';
import { LICENSE_SIGNING_KEY_FILE } from '../../../src/domain/licensing/license-keys.js';
import { startTestService } from '../../support/service.js';

describe('vendor signing keys made anew', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bmc-keys-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const captured = () => {
    const lines: { level: number; msg: string; file?: string }[] = [];
    return { lines, logger: pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) }) };
  };

  it('a first start makes its keys without a warning; a later start that lost them warns, naming the file and the cost', async () => {
    const first = captured();
    const svc = await startTestService({ dataDir: dir, keepData: true, logger: first.logger });
    await svc.close();
    assert.deepEqual(
      first.lines.filter((l) => l.level >= 40),
      [],
    );

    rmSync(join(dir, SIGNING_KEY_FILE));
    rmSync(join(dir, LICENSE_SIGNING_KEY_FILE));
    const second = captured();
    const again = await startTestService({ dataDir: dir, keepData: true, logger: second.logger });
    await again.close();
    const warnings = second.lines.filter((l) => l.level === 40);
    const firmware = warnings.find((l) => l.file === join(dir, SIGNING_KEY_FILE));
    assert.ok(firmware, JSON.stringify(warnings));
    assert.match(
      firmware.msg,
      /firmware-signing-key\.pem was missing: a new key was made; firmware packages signed with the old key no longer verify/,
    );
    const license = warnings.find((l) => l.file === join(dir, LICENSE_SIGNING_KEY_FILE));
    assert.ok(license, JSON.stringify(warnings));
    assert.match(license.msg, /license keys issued with the old key can no longer be installed/);
  });
});
