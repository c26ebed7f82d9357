import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHostName, isSubnetMask } from '../../src/lib/network-names.js';

describe('isHostName', () => {
  const cases: [string, boolean][] = [
    ['mc-host', true],
    ['a', true],
    ['a.b.c', true],
    ['x'.repeat(63), true],
    ['x'.repeat(64), false],
    [`${'x'.repeat(63)}.${'y'.repeat(63)}.${'z'.repeat(63)}.${'w'.repeat(61)}`, true],
    [`${'x'.repeat(63)}.${'y'.repeat(63)}.${'z'.repeat(63)}.${'w'.repeat(62)}`, false],
    ['', false],
    ['-a', false],
    ['a-', false],
    ['a..b', false],
    ['a_b', false],
    ['mc.', false],
  ];
  for (const [name, ok] of cases)
    it(`${JSON.stringify(name.length > 20 ? `${name.slice(0, 20)}...(${name.length})` : name)} -> ${ok}`, () =>
      assert.equal(isHostName(name), ok));
});

describe('isSubnetMask', () => {
  const cases: [string, boolean][] = [
    ['255.255.255.0', true],
    ['255.255.0.0', true],
    ['255.255.255.255', true],
    ['128.0.0.0', true],
    ['0.0.0.0', false],
    ['255.0.255.0', false],
    ['255.255.255.1', false],
    ['255.255.256.0', false],
    ['mask', false],
  ];
  for (const [mask, ok] of cases) it(`${mask} -> ${ok}`, () => assert.equal(isSubnetMask(mask), ok));
});
