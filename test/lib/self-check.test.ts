// The self-checks every test service runs under (lib/self-check.ts): a memoized value is rebuilt
// at every read and a difference fails it; the route table's handlers and resolvers answer every
// other call through a promise, so the dispatcher's asynchronous branches run as often as the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Representations, StaleRepresentation } from '../../src/lib/memo.js';
import { Priv } from '../../src/lib/privileges.js';
import { enableSelfChecks, selfChecking, sometimesLate } from '../../src/lib/self-check.js';
import { RouteTable } from '../../src/protocol/routes.js';

enableSelfChecks();

describe('self-checks', () => {
  it('are on in the test suite', () => {
    assert.equal(selfChecking(), true);
  });

  it('fail a memoized value whose key misses an input, and pass one whose key has them all', () => {
    const views = new Representations();
    let input = 1;
    const complete = () => views.get('complete', [input], () => ({ value: input }));
    const partial = () => views.get('partial', [], () => ({ value: input }));
    assert.equal(complete(), complete(), 'kept while its key is unchanged');
    assert.deepEqual(partial(), { value: 1 });
    input = 2;
    assert.deepEqual(complete(), { value: 2 });
    assert.throws(partial, (e: Error) => e instanceof StaleRepresentation && /'partial' is stale.*\/value: 1 kept, 2 now/.test(e.message));
  });

  it('answer every other call of a wrapped function through a promise, a throw as a rejection', async () => {
    let n = 0;
    const late = sometimesLate((fail: boolean) => {
      if (fail) throw new Error('refused');
      return ++n;
    });
    assert.equal(late(false), 1);
    const second = late(false);
    assert.ok(second instanceof Promise);
    assert.equal(await second, 2);
    assert.throws(() => late(true), /refused/);
    await assert.rejects(late(true) as Promise<number>, /refused/);
  });

  it('wrap every handler and resolver a route table is given, so each sync-or-async path runs both ways', async () => {
    const routes = new RouteTable();
    const handler = () => ({ Id: '1' });
    routes.param('SystemId', (id) => id === '1');
    routes.add({
      path: '/redfish/v1/Systems/{SystemId}/',
      params: { SystemId: (id) => id === '1' },
      get: { privilege: Priv.login, handler },
      patch: { privilege: Priv.login, handler },
      actions: [{ def: { name: 'ComputerSystem.Reset', parameters: {} }, privilege: Priv.login, handler }],
    });
    const m = routes.match('/redfish/v1/Systems/1/');
    assert.ok(m);
    const answers = (f: () => unknown) => [f(), f()].map((x) => x instanceof Promise);
    const ctx = {} as never;
    assert.deepEqual(
      answers(() => m.route.get?.handler(ctx)),
      [false, true],
    );
    assert.deepEqual(
      answers(() => m.route.patch?.handler(ctx)),
      [false, true],
    );
    assert.deepEqual(
      answers(() => m.route.actions?.[0]?.handler(ctx)),
      [false, true],
    );
    assert.deepEqual(
      answers(() => routes.resolves(m)),
      [false, true],
    );
    assert.equal(await routes.resolves(m), true);
  });
});
