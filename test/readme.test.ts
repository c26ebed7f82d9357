// README.md opens with the two commands a newcomer needs and documents every option.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPTIONS } from '../src/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

describe('README', () => {
  it('opens with the start and test commands, and CI runs the same test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    assert.match(firstBlock, /^npm ci && npm start/m);
    assert.match(firstBlock, /^npm ci && npm test/m);
    assert.match(ci, /^npm ci && npm test$/m);
  });

  it('lists every command-line option and its environment variable', () => {
    for (const o of OPTIONS) {
      assert.ok(readme.includes(`\`--${o.flag}\``), `--${o.flag} in README`);
      assert.ok(readme.includes(o.env), `${o.env} in README`);
    }
  });
});
