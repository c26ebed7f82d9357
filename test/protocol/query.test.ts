import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RedfishError } from '../../src/protocol/errors.js';
import { parseQuery, type Query } from '../../src/protocol/query.js';

function ok(search: string): Query {
  const q = parseQuery(search);
  assert.ok(!(q instanceof RedfishError), `expected ${search} to parse, got ${q instanceof RedfishError ? q.message : ''}`);
  return q;
}

function fails(search: string, status: number, key: string): void {
  const q = parseQuery(search);
  assert.ok(q instanceof RedfishError, `expected ${search} to fail`);
  assert.equal(q.status, status, search);
  assert.match(q.infos[0]?.MessageId ?? '', new RegExp(`\\.${key}$`), search);
}

describe('parseQuery', () => {
  it('parses $select with nested paths and trailing slashes', () => {
    assert.deepEqual(ok('$select=Attributes/Name,@Redfish.Settings/Messages,Oem/Vendor/Actions/').select, [
      ['Attributes', 'Name'],
      ['@Redfish.Settings', 'Messages'],
      ['Oem', 'Vendor', 'Actions'],
    ]);
  });

  const expands: [string, Query['expand']][] = [
    ['$expand=.', { mode: 'subordinate', levels: 1 }],
    ['$expand=*', { mode: 'all', levels: 1 }],
    ['$expand=~', { mode: 'links', levels: 1 }],
    ['$expand=*($levels=3)', { mode: 'all', levels: 3 }],
    ['$expand=.($levels=6)', { mode: 'subordinate', levels: 6 }],
  ];
  for (const [search, expected] of expands) {
    it(`parses ${search}`, () => assert.deepEqual(ok(search).expand, expected));
  }

  it('parses only, $top and $skip', () => {
    assert.equal(ok('only').only, true);
    assert.equal(ok('only=').only, true);
    const q = ok('$top=2&$skip=3');
    assert.equal(q.top, 2);
    assert.equal(q.skip, 3);
  });

  it('ignores unknown parameters without $', () => {
    const q = ok('foo=bar&rpvunknown');
    assert.equal(q.any, false);
  });

  const bad: [string, number, string][] = [
    ['$select=', 400, 'QueryParameterValueFormatError'],
    ['$select=A//,', 400, 'QueryParameterValueFormatError'],
    ['$select=A;B', 400, 'QueryParameterValueFormatError'],
    ['$expand=foo', 400, 'QueryParameterValueFormatError'],
    ['$expand=*($levels=x)', 400, 'QueryParameterValueTypeError'],
    ['$expand=*($levels=0)', 400, 'QueryParameterOutOfRange'],
    ['$expand=*($levels=7)', 400, 'QueryParameterOutOfRange'],
    ['only=foo', 400, 'QueryParameterValueFormatError'],
    ['$top=-1', 400, 'QueryParameterValueTypeError'],
    ['$skip=abc', 400, 'QueryParameterValueTypeError'],
    ['$top=99999999999999999999', 400, 'QueryParameterOutOfRange'],
    ['only&$expand=.', 400, 'QueryCombinationInvalid'],
    ['$select=Id&$select=Name', 400, 'MalformedQuery'],
    ['$rpvunknown', 501, 'QueryNotSupported'],
    ['$filter=Id eq 1', 501, 'QueryNotSupported'],
    ['excerpt=foo', 501, 'QueryNotSupported'],
  ];
  for (const [search, status, key] of bad) {
    it(`refuses ${search} with ${status} ${key}`, () => fails(search, status, key));
  }
});
