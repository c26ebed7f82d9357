// Issue 12 item 12a: which file names a client may give a component (validFilename).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileNameOf } from '../../../src/domain/firmware/download.js';
import { MAX_FILENAME_BYTES, printableFilename, safeFilename, validFilename } from '../../../src/domain/firmware/repository.js';

const ACCEPTED: [string, string][] = [
  ['a plain name', 'bmc-2.10.fwpkg'],
  ['a single character', 'x'],
  ['spaces and brackets', 'System ROM (U30) v2.70.bin'],
  ['a leading dot', '.hidden.fwpkg'],
  ['dots around a name', '..a..'],
  ['UTF-8 letters', 'Größe-ñ-固件.fwpkg'],
  ['an astral character (a surrogate pair)', 'rocket-\u{1F680}.bin'],
  ['exactly 255 bytes of ASCII', 'a'.repeat(MAX_FILENAME_BYTES)],
  ['exactly 255 bytes of 3-byte characters', '固'.repeat(85)],
  ['a name that only contains a reserved word', 'constructor.fwpkg'],
  ['a reserved word in another case', '__PROTO__'],
  ['zero-width joiner (not a bidi control)', 'a\u200db.bin'],
];

const REFUSED: [string, string][] = [
  ['empty', ''],
  ['one dot', '.'],
  ['two dots', '..'],
  ['only dots', '.....'],
  ['a slash', 'a/b.bin'],
  ['a backslash', 'a\\b.bin'],
  ['NUL', 'a\u0000.bin'],
  ['a tab (C0)', 'a\tb.bin'],
  ['a newline (C0)', 'a\nb.bin'],
  ['unit separator (last C0)', 'a\u001f.bin'],
  ['DEL', 'a\u007f.bin'],
  ['a C1 control (first)', 'a\u0080.bin'],
  ['a C1 control (NEL)', 'a\u0085.bin'],
  ['a C1 control (last)', 'a\u009f.bin'],
  ['LEFT-TO-RIGHT MARK', 'a\u200e.bin'],
  ['RIGHT-TO-LEFT MARK', 'a\u200f.bin'],
  ['ARABIC LETTER MARK', 'a\u061c.bin'],
  ['LEFT-TO-RIGHT EMBEDDING', 'a\u202a.bin'],
  ['RIGHT-TO-LEFT EMBEDDING', 'a\u202b.bin'],
  ['POP DIRECTIONAL FORMATTING', 'a\u202c.bin'],
  ['LEFT-TO-RIGHT OVERRIDE', 'a\u202d.bin'],
  ['RIGHT-TO-LEFT OVERRIDE', 'evil\u202enib.fwpkg'],
  ['LEFT-TO-RIGHT ISOLATE', 'a\u2066.bin'],
  ['RIGHT-TO-LEFT ISOLATE', 'a\u2067.bin'],
  ['FIRST STRONG ISOLATE', 'a\u2068.bin'],
  ['POP DIRECTIONAL ISOLATE', 'a\u2069.bin'],
  ['an unpaired high surrogate', 'a\ud800.bin'],
  ['an unpaired low surrogate', 'a\udc00.bin'],
  ['256 bytes of ASCII', 'a'.repeat(MAX_FILENAME_BYTES + 1)],
  ['86 3-byte characters (258 bytes, 86 UTF-16 units)', '固'.repeat(86)],
  ['64 astral characters (256 bytes)', '\u{1F680}'.repeat(64)],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['prototype', 'prototype'],
  ['toString', 'toString'],
  ['valueOf', 'valueOf'],
  ['hasOwnProperty', 'hasOwnProperty'],
  ['isPrototypeOf', 'isPrototypeOf'],
  ['propertyIsEnumerable', 'propertyIsEnumerable'],
  ['toLocaleString', 'toLocaleString'],
  ['__defineGetter__', '__defineGetter__'],
  ['__lookupSetter__', '__lookupSetter__'],
];

describe('component file names (validFilename)', () => {
  for (const [why, name] of ACCEPTED) {
    it(`accepts ${why}`, () => assert.equal(validFilename(name), true, JSON.stringify(name)));
  }
  for (const [why, name] of REFUSED) {
    it(`refuses ${why}`, () => assert.equal(validFilename(name), false, JSON.stringify(name)));
  }

  it('refuses every member name of Object.prototype', () => {
    for (const n of Object.getOwnPropertyNames(Object.prototype)) assert.equal(validFilename(n), false, n);
  });

  it('refuses every C0, DEL and C1 control character and accepts the printable characters around them', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const name = `a${String.fromCharCode(c)}b`;
      const control = c < 0x20 || c >= 0x7f;
      if (control || c === 0x2f || c === 0x5c) assert.equal(validFilename(name), false, `U+${c.toString(16)}`);
      else assert.equal(validFilename(name), true, `U+${c.toString(16)}`);
    }
  });

  it('shows refused characters as escapes in messages', () => {
    assert.equal(printableFilename('evil\u202enib.fwpkg'), 'evil\\u202enib.fwpkg');
    assert.equal(printableFilename('a\u0000\u007f\u0085b'), 'a\\u0000\\u007f\\u0085b');
    assert.equal(printableFilename('Größe-\u{1F680}.bin'), 'Größe-\u{1F680}.bin');
  });
});

describe('names made from download URLs (fileNameOf, safeFilename)', () => {
  const cases: [string, string][] = [
    ['https://h/fw/ilo6.bin', 'ilo6.bin'],
    ['https://h/fw/a%E2%80%AEnib.exe', 'a_nib.exe'],
    ['https://h/fw/%00x%1F', '_x_'],
    ['https://h/fw/__proto__', 'image.bin'],
    ['https://h/fw/..', 'image.bin'],
    ['https://h/fw/', 'image.bin'],
    ['https://h/fw/a%2Fb', 'a_b'],
    ['https://h/fw/%E0%A4%A', '%E0%A4%A'],
  ];
  for (const [url, name] of cases) it(`${url} -> ${name}`, () => assert.equal(fileNameOf(new URL(url)), name));

  it('cuts a long name to 255 UTF-8 bytes, whole characters only, in linear time', () => {
    const name = fileNameOf(new URL(`https://h/${'\u00e9'.repeat(100_000)}.bin`));
    assert.equal(Buffer.byteLength(name, 'utf8'), 254);
    assert.ok(validFilename(name));
    assert.equal(safeFilename('\ud800'), '_');
    assert.equal(safeFilename('constructor'), 'image.bin');
  });
});
