import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasArrayMarkers, isEmptyObject, jsonTypeOf, mergePatch, resolveArrayMarkers } from '../../src/lib/json-merge.js';
import { isIsoDateTime } from '../../src/lib/iso-time.js';

describe('mergePatch', () => {
  it('merges objects and follows the array rules of DSP0266', () => {
    const current = { A: { B: 1, C: 2 }, Items: [{ X: 1 }, { X: 2 }, { X: 3 }], Tags: ['a', 'b'] };
    assert.deepEqual(mergePatch(current, { A: { C: 5 }, Items: [{}, null], Tags: ['c'] }), {
      A: { B: 1, C: 5 },
      Items: [{ X: 1 }],
      Tags: ['c'],
    });
  });

  it('applies null and {} elements in arrays of plain values', () => {
    assert.deepEqual(mergePatch({ Boot: { Order: ['x', 'y', 'z'] } }, { Boot: { Order: [null, 'b', {}] } }), {
      Boot: { Order: ['b', 'z'] },
    });
  });

  it('leaves the current document unchanged', () => {
    const current = { A: { B: 1 }, L: [{ X: 1 }] };
    mergePatch(current, { A: { B: 2 }, L: [null] });
    assert.deepEqual(current, { A: { B: 1 }, L: [{ X: 1 }] });
  });
});

describe('resolveArrayMarkers', () => {
  it('turns null and {} elements into the final array, at any depth', () => {
    const current = { NTP: { NTPServers: ['a', 'b', 'c'] }, Items: [{ X: 1 }, { X: 2 }] };
    const patch = { NTP: { NTPServers: [null, {}, 'd'] }, Items: [{}, null] };
    assert.equal(hasArrayMarkers(patch), true);
    assert.deepEqual(resolveArrayMarkers(patch, current), { NTP: { NTPServers: ['b', 'd'] }, Items: [{ X: 1 }] });
    assert.equal(hasArrayMarkers({ NTP: { NTPServers: ['x'] } }), false);
  });
});

describe('jsonTypeOf and isEmptyObject', () => {
  it('name JSON types', () => {
    assert.deepEqual([null, [], {}, 'a', 1, true].map(jsonTypeOf), ['null', 'array', 'object', 'string', 'number', 'boolean']);
    assert.equal(isEmptyObject({}), true);
    assert.equal(isEmptyObject([]), false);
    assert.equal(isEmptyObject({ a: 1 }), false);
  });
});

describe('isIsoDateTime', () => {
  it('accepts complete times with a zone and refuses the rest', () => {
    assert.equal(isIsoDateTime('2024-05-01T10:20:30Z'), true);
    assert.equal(isIsoDateTime('2024-05-01T10:20:30.123+02:00'), true);
    assert.equal(isIsoDateTime('2024-05-01T10:20Z'), false, 'seconds are required (RFC 3339 date-time)');
    assert.equal(isIsoDateTime('2024-05-01T10:20:30'), false);
    assert.equal(isIsoDateTime('2024-05-01'), false);
    assert.equal(isIsoDateTime('2024-13-01T10:20:30Z'), false);
  });
});
