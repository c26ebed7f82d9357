// The documents hold together: every relative link and #anchor in README.md and docs/*.md
// resolves, the docs index lists every document, and the tree describes its behaviour itself
// rather than pointing to a specification file it does not contain.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const MARKDOWN = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

/** The lines of a Markdown file outside fenced code blocks, with inline code spans blanked. */
function prose(text: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push(line.replace(/`[^`]*`/g, (code) => code.replace(/[[\]()]/g, ' ')));
  }
  return out;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every inline link and image target of a file, as written. */
function links(file: string): string[] {
  const text = prose(readFileSync(file, 'utf8')).join('\n');
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

describe('documentation', () => {
  it('resolves every relative link and #anchor in README.md and docs/*.md', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const from = relative(ROOT, file);
      for (const target of links(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
        const [path = '', anchor] = target.split('#', 2);
        const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        if (!resolved.startsWith(ROOT) || !existsSync(resolved)) {
          broken.push(`${from}: ${target} (no such file)`);
        } else if (anchor !== undefined) {
          if (!resolved.endsWith('.md')) broken.push(`${from}: ${target} (an anchor into a file that is not Markdown)`);
          else if (!anchors(resolved).has(anchor)) broken.push(`${from}: ${target} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('finds links and GitHub anchors the way GitHub does', () => {
    const file = join(DOCS, 'events.md');
    assert.ok(anchors(file).has('backup-destinations---dialect-dmtf'));
    assert.ok(links(join(ROOT, 'README.md')).includes('docs/README.md'));
  });

  it('lists every document in the docs index', () => {
    const index = links(join(DOCS, 'README.md'));
    const missing = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md' && !index.includes(f));
    assert.deepEqual(missing, []);
  });

  it('refers to no specification file outside the repository', () => {
    const name = ['SPEC', 'md'].join('.');
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    const mentions = tracked.filter((f) => {
      const path = join(ROOT, f);
      return f.includes(name) || (existsSync(path) && readFileSync(path, 'latin1').includes(name));
    });
    assert.deepEqual(mentions, []);
  });
});
