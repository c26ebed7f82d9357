// The URI patterns and the seeded draws of fault rules, as tables.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draw, uriPattern } from '../../../src/domain/control/fault-rules.js';

describe('fault rule URI patterns', () => {
  const cases: [pattern: string, path: string, matches: boolean][] = [
    ['/redfish/v1/Systems/1/', '/redfish/v1/Systems/1/', true],
    ['/redfish/v1/Systems/1/', '/redfish/v1/Systems/1', true],
    ['/redfish/v1/Systems/1', '/redfish/v1/Systems/1/', true],
    ['/redfish/v1/Systems/1/', '/redfish/v1/systems/1/', true],
    ['/redfish/v1/Systems/1/', '/redfish/v1/Systems/10/', false],
    ['/redfish/v1/Systems/1/', '/redfish/v1/Systems/1/Bios/', false],
    ['/redfish/v1/Systems/*/', '/redfish/v1/Systems/1/', true],
    ['/redfish/v1/Systems/{SystemId}/Bios/', '/redfish/v1/Systems/1/Bios/', true],
    ['/redfish/v1/Systems/{SystemId}/Bios/', '/redfish/v1/Systems/Bios/', false],
    ['/redfish/v1/*', '/redfish/v1/', false],
    ['/redfish/v1/Systems/1/?$expand=.', '/redfish/v1/Systems/1/', true],
    ['/redfish/v1/Sessions(1)/', '/redfish/v1/Sessions(1)/', true],
    ['/redfish/v1/Sessions(1)/', '/redfish/v1/Sessions1/', false],
  ];
  for (const [pattern, path, matches] of cases) {
    it(`${pattern} ${matches ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(uriPattern(pattern).test(path), matches);
    });
  }
});

describe('fault rule draws', () => {
  it('are the same for the same seed and count, in [0, 1), and spread', () => {
    const a = Array.from({ length: 1000 }, (_, n) => draw(42, n + 1));
    assert.deepEqual(
      a,
      Array.from({ length: 1000 }, (_, n) => draw(42, n + 1)),
    );
    assert.ok(a.every((x) => x >= 0 && x < 1));
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
    assert.notDeepEqual(
      a.slice(0, 20),
      Array.from({ length: 20 }, (_, n) => draw(43, n + 1)),
    );
  });
});
