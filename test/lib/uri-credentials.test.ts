// Credentials in URIs (src/lib/uri-credentials.ts): what may be shown of a URI,
// and what a download takes from it, as tables.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonWithoutCredentials, splitCredentials, withoutCredentials } from '../../src/lib/uri-credentials.js';

describe('withoutCredentials', () => {
  const cases: [string, string][] = [
    ['https://host/a.bin', 'https://host/a.bin'],
    ['https://user:secret@host/a.bin', 'https://host/a.bin'],
    ['https://user@host:8443/a.bin?x=1', 'https://host:8443/a.bin?x=1'],
    ['https://:secret@host/a.bin', 'https://host/a.bin'],
    // The parser takes the last @ of the authority: so does the masking.
    ['https://user:p@ss@host/a.bin', 'https://host/a.bin'],
    ['https://host/path@with-at', 'https://host/path@with-at'],
    // Not URLs a parser reads: everything from :// to the last @ of the word goes.
    ['https://user:pa/ss@[bad/a.bin', 'https://[bad/a.bin'],
    ['not a uri', 'not a uri'],
    ['ftp://user:secret@host/a.bin', 'ftp://host/a.bin'],
    ['x https://u:s@[ y', 'x https://[ y'],
  ];
  for (const [given, shown] of cases) it(`${given} -> ${shown}`, () => assert.equal(withoutCredentials(given), shown));

  it('cleans every string of a JSON body, keeping the rest', () => {
    assert.deepEqual(jsonWithoutCredentials({ ImageURI: 'https://u:s@h/a', Targets: ['https://u:s@h/b'], UpdateTarget: true, N: 1 }), {
      ImageURI: 'https://h/a',
      Targets: ['https://h/b'],
      UpdateTarget: true,
      N: 1,
    });
  });
});

describe('splitCredentials', () => {
  it('takes user and password out of the URL, decoded', () => {
    const { url, userName, password } = splitCredentials(new URL('https://us%40er:p%3Ass@host/a.bin'));
    assert.deepEqual([url.href, userName, password], ['https://host/a.bin', 'us@er', 'p:ss']);
  });
  it('leaves a URL without them as it is', () => {
    const given = new URL('https://host/a.bin');
    assert.deepEqual(splitCredentials(given), { url: given });
  });
});
