import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { idFromName } from '../../../src/domain/update-queue/names.js';

const hash8 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 8);

describe('update queue ids from names', () => {
  it('keeps URI-unreserved names as they are', () => {
    for (const n of ['BMC-1.45', 'nightly_update', 'a~b', 'X']) assert.equal(idFromName(n), n);
  });

  it('maps any other name deterministically to a URI-safe id', () => {
    assert.equal(idFromName('IE firmware 0.2.3'), `IE_firmware_0.2.3-${hash8('IE firmware 0.2.3')}`);
    assert.equal(idFromName('Größe/1'), `Gr__e_1-${hash8('Größe/1')}`);
    assert.equal(idFromName('a b'), idFromName('a b'));
    assert.notEqual(idFromName('a b'), idFromName('a_b'));
    assert.notEqual(idFromName('a b'), idFromName('a/b'));
    for (const n of ['a b', 'ü', '..', '%20', 'x?y#z']) assert.match(idFromName(n), /^[A-Za-z0-9._~-]+$/);
  });

  it('never yields a path word of its own (., .., Members, Actions)', () => {
    for (const n of ['.', '..', 'Members', 'actions']) assert.equal(idFromName(n), `${n.replace(/[^A-Za-z0-9._~-]/g, '_')}-${hash8(n)}`);
  });
});
