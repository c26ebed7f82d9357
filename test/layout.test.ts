// The test tree mirrors src/: a test about one module sits in the folder of
// that module (test/domain/bios/ for src/domain/bios/), and `npm test` runs
// every *.test.ts at any depth (node 20's --test does not expand globs itself).
// The domain and the simulator speak no HTTP and no Redfish routing.
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

/**
 * What only the protocol and api layers say. The domain and the simulator report refusals
 * (messages/refusal.ts), which protocol/errors.ts answers, and are handed the URIs they name.
 */
const HTTP_CONSTRUCTS: readonly [what: string, pattern: RegExp][] = [
  ['Redfish error builders', /\b(baseError|vendorError|combinedError|storageFull)\(/],
  ['RedfishErrors', /\bRedfishError\b/],
  ['HTTP statuses', /\bstatus(Code)?\s*(:|===?|!==?|[<>]=?)\s*[1-5]\d\d\b/],
  ['HTTP statuses named in prose', /\b(a|an|the|with|answers?|gets?)\s+[1-5]\d\d\b(?![-.\d])/i],
  ['HTTP headers', /Retry-After|WWW-Authenticate/i],
  ['Redfish URIs', /\/redfish\/v1\b/],
];

/** Every line of the .ts files under a folder of src/, as "path:line: text". */
function sourceLines(dir: string): { at: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceLines(path);
    if (!name.endsWith('.ts')) return [];
    const file = relative(ROOT, path).split(sep).join('/');
    return readFileSync(path, 'utf8')
      .split('\n')
      .map((text, i) => ({ at: `${file}:${i + 1}`, text }));
  });
}

describe('the domain and the simulator speak no HTTP', () => {
  const lines = ['domain', 'platform'].flatMap((layer) => sourceLines(join(ROOT, 'src', layer)));

  for (const [what, pattern] of HTTP_CONSTRUCTS) {
    it(`${what}: none under src/domain or src/platform`, () => {
      const found = lines.filter((l) => pattern.test(l.text)).map((l) => `${l.at}: ${l.text.trim()}`);
      assert.deepEqual(found, [], `${what} in the domain or the simulator`);
    });
  }
});
