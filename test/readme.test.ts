// README.md opens with the two commands a newcomer needs and stays short; docs/configuration.md
// documents every option with its default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPTIONS } from '../src/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const configuration = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

/** The cells of the configuration table's row that names `--flag`. */
function optionRow(flag: string): string[] | undefined {
  const line = configuration.split('\n').find((l) => l.startsWith('| ') && l.split(' | ')[0]?.includes(`\`--${flag}\``));
  return line?.split(' | ').map((cell) => cell.replace(/^\| /, '').trim());
}

describe('README', () => {
  it('opens with the start and test commands, and CI runs the same test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    assert.match(firstBlock, /^npm ci && npm start/m);
    assert.match(firstBlock, /^npm ci && npm test/m);
    assert.match(ci, /^npm ci && npm test$/m);
    assert.ok(readme.indexOf('```sh') < readme.indexOf('\n## '), 'the commands come before the first section');
  });

  it('is read in five minutes: under 300 lines', () => {
    assert.ok(readme.split('\n').length < 300, `README.md has ${readme.split('\n').length} lines`);
  });

  it('has every command-line option in docs/configuration.md, with its environment variable and default', () => {
    for (const o of OPTIONS) {
      const row = optionRow(o.flag);
      assert.ok(row, `--${o.flag} in docs/configuration.md`);
      assert.ok(row[1]?.includes(o.env), `${o.env} beside --${o.flag}`);
      if (o.default === undefined) continue;
      const shown = row[2]?.replaceAll('`', '');
      assert.equal(shown, o.default === false ? 'off' : String(o.default), `default of --${o.flag}`);
    }
  });
});
