import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPrototypeKey, jsonDepth, parseClientJson } from '../../src/lib/json.js';

describe('jsonDepth', () => {
  const cases: [string, number][] = [
    ['1', 0],
    ['"[[["', 0],
    ['{}', 1],
    ['[[], [[]]]', 3],
    ['{"a": {"b": [1, {"c": null}]}}', 4],
    ['["\\"[", ["\\\\"], "]"]', 2],
    ['{"x": "}}}}"}', 1],
  ];
  for (const [text, depth] of cases) it(`${text} is ${depth} deep`, () => assert.equal(jsonDepth(text), depth));
  it('stops counting past the limit', () => assert.equal(jsonDepth('['.repeat(1000), 3), 4));
});

describe('parseClientJson', () => {
  it('parses within the limit', () => assert.deepEqual(parseClientJson('[[1]]', 2), { ok: true, value: [[1]] }));
  it('refuses deeper text before parsing it', () => assert.deepEqual(parseClientJson('[[[1]]]', 2), { ok: false, reason: 'depth' }));
  it('reports syntax errors', () => assert.deepEqual(parseClientJson('{"a":', 2), { ok: false, reason: 'syntax' }));
});

describe('isPrototypeKey', () => {
  for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__lookupGetter__'])
    it(`${k} is one`, () => assert.ok(isPrototypeKey(k)));
  for (const k of ['Name', 'proto', 'Constructor', '']) it(`"${k}" is not`, () => assert.ok(!isPrototypeKey(k)));
});
