// The test tree mirrors src/: a test about one module sits in the folder of
// that module (test/domain/bios/ for src/domain/bios/), and `npm test` runs
// every *.test.ts at any depth (node 20's --test does not expand globs itself).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const TEST = join(ROOT, 'test');

/**
 * Folders of test/ that are not about one part of src/ (console: the web console, console/ beside
 * src/; concurrency: the rules of every area under conflicting requests).
 */
const OWN_FOLDERS = new Set(['support', 'fuzz', 'console', 'concurrency']);

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

/** A shell glob of the test script (only `*` is used) as a regular expression. */
function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
}

describe('test layout', () => {
  const files = testFiles(TEST);

  it('npm test names every test file, at any depth', () => {
    const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test;
    const globs = script.split(/\s+/).filter((w) => w.startsWith('test/') && w.endsWith('.test.ts'));
    assert.ok(globs.length > 0, 'the test script names test files');
    const missed = files.filter((f) => !globs.some((g) => globRegExp(g).test(f)));
    assert.deepEqual(missed, [], 'test files npm test does not run');
    // Every glob matches something: the shell passes an unmatched glob on as a file name.
    for (const g of globs)
      assert.ok(
        files.some((f) => globRegExp(g).test(f)),
        `${g} matches no test file`,
      );
  });

  it('a test in a folder sits in a folder src/ has too', () => {
    const orphans = files
      .map((f) => f.slice('test/'.length).split('/').slice(0, -1).join('/'))
      .filter((dir) => dir !== '' && !OWN_FOLDERS.has(dir.split('/')[0] as string))
      .filter((dir) => !existsSync(join(ROOT, 'src', dir)));
    assert.deepEqual([...new Set(orphans)], [], 'test folders without a src/ counterpart');
  });
});
