// The update queue, maintenance windows and install sets under conflicting
// requests in parallel: Names stay unique (tasks, windows, install sets, the
// tasks an install set's items become), at most 8 install sets exist, and a
// component a task or install set references is never deleted, while every
// reference names a component that is there and Locked by it. Every 2xx write
// is visible afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ok, refusedAs, rounds, statuses } from '../support/race.js';
import { startTestService, type Response, type TestService } from '../support/service.js';
import { addComponent, QUEUE, REPO, SETS, WINDOWS } from '../support/update-queue.js';

const MAX_INSTALL_SETS = 8;

describe('update queue under concurrent requests', () => {
  let svc: TestService;
  let admin = { token: '' };

  before(async () => {
    svc = await startTestService();
    admin = { token: await svc.adminToken() };
    await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie.fwpkg' });
  });
  after(() => svc.close());

  const req = (method: string, path: string, body?: unknown): Promise<Response> => svc.req(method, path, { auth: admin, body });
  const members = async (collection: string): Promise<any[]> => {
    const out = [];
    for (const m of (await req('GET', collection)).body.Members) out.push((await req('GET', m['@odata.id'])).body);
    return out;
  };
  const clear = async (collection: string) => {
    for (const m of (await req('GET', collection)).body.Members) assert.equal((await req('DELETE', m['@odata.id'])).status, 200);
  };
  const waitTask = (Name: string) => ({ Name, Command: 'Wait', UpdatableBy: ['Uefi'], WaitTimeSeconds: 5 });
  const applyTask = (Name: string) => ({ Name, Command: 'ApplyUpdate', UpdatableBy: ['Uefi'], Component: 'ie.fwpkg' });
  const installSet = (Name: string, items = [`${Name} item`]) => ({
    Name,
    Sequence: items.map((item) => ({ Name: item, UpdatableBy: ['Uefi'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' })),
  });

  /** Every 2xx create is listed, under the name it was made with, and no name is there twice. */
  function checkCreated(answers: Response[], listed: any[]): void {
    const names = listed.map((m) => m.Name as string);
    assert.equal(new Set(names).size, names.length, `unique Names: ${names.join(', ')}`);
    const ids = listed.map((m) => m['@odata.id'] as string);
    for (const r of answers.filter((x) => x.status === 201)) {
      assert.ok(ids.includes(r.headers.location as string), `${r.headers.location} is listed`);
      assert.equal(listed.find((m) => m['@odata.id'] === r.headers.location)?.Name, r.body.Name);
    }
  }

  it('keeps task, window and install set Names unique, and at most 8 install sets', async () => {
    const kind = fc.constantFrom('task', 'window', 'set');
    await rounds(svc, fc.array(fc.tuple(kind, fc.integer({ min: 0, max: 4 })), { minLength: 4, maxLength: 14 }), async (drawn, fire, n) => {
      const sends = drawn.map(([k, i]) => () => {
        const name = `r${n}-${i}`;
        if (k === 'task') return req('POST', QUEUE, waitTask(name));
        if (k === 'window') return req('POST', WINDOWS, { Name: name, StartAfter: '2030-01-01T00:00:00Z' });
        return req('POST', SETS, installSet(name));
      });
      const answers = await fire(sends);
      for (const r of answers.filter((x) => !ok(x)))
        refusedAs(r, ['Base.1.12.ResourceAlreadyExists', 'Base.1.12.CreateLimitReachedForResource']);
      const [tasks, windows, sets] = [await members(QUEUE), await members(WINDOWS), await members(SETS)];
      for (const [list, k] of [
        [tasks, 'task'],
        [windows, 'window'],
        [sets, 'set'],
      ] as const) {
        checkCreated(
          answers.filter((_, i) => drawn[i]?.[0] === k),
          list,
        );
        const distinct = new Set(drawn.filter(([x]) => x === k).map(([, i]) => i)).size;
        assert.equal(list.length, k === 'set' ? Math.min(distinct, MAX_INSTALL_SETS) : distinct, `${k}: ${statuses(answers)}`);
      }
      await clear(QUEUE);
      await clear(WINDOWS);
      await clear(SETS);
    });
  });

  it('fills at most 8 install sets from many at once', async () => {
    await rounds(svc, fc.integer({ min: 9, max: 14 }), async (count, fire, n) => {
      const answers = await fire(Array.from({ length: count }, (_, i) => () => req('POST', SETS, installSet(`fill${n}-${i}`))));
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.CreateLimitReachedForResource']);
      const sets = await members(SETS);
      assert.equal(sets.length, MAX_INSTALL_SETS, statuses(answers));
      checkCreated(answers, sets);
      await clear(SETS);
    });
  });

  it('queues the tasks of an install set once, whatever is invoked or posted at once', async () => {
    const set = await req('POST', SETS, installSet('twice', ['step one', 'step two']));
    assert.equal(set.status, 201, set.text);
    const invoke = () => req('POST', `${set.headers.location}Actions/VendorComponentInstallSet.Invoke/`, {});
    await rounds(svc, fc.integer({ min: 2, max: 4 }), async (invokes, fire) => {
      const answers = await fire([...Array.from({ length: invokes }, () => invoke), () => req('POST', QUEUE, applyTask('step two'))]);
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.ResourceAlreadyExists']);
      const names = (await members(QUEUE)).map((t) => t.Name as string).sort();
      assert.equal(new Set(names).size, names.length, `unique task Names: ${names.join(', ')}`);
      assert.ok(answers.slice(0, invokes).filter(ok).length <= 1, statuses(answers));
      await clear(QUEUE);
    });
    assert.equal((await req('DELETE', set.headers.location as string)).status, 200);
  });

  it('never deletes a component a task or install set references, and every reference holds its lock', async () => {
    const component = `${REPO}ie.fwpkg/`;
    await rounds(
      svc,
      fc.array(fc.constantFrom('delete', 'task', 'set', 'patch'), { minLength: 2, maxLength: 6 }),
      async (drawn, fire, n) => {
        if ((await req('GET', component)).status === 404) await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie.fwpkg' });
        const answers = await fire(
          drawn.map((what, i) => () => {
            if (what === 'delete') return req('DELETE', component);
            if (what === 'patch') return req('PATCH', component, { Criticality: i % 2 ? 'Optional' : 'Recommended' });
            if (what === 'task') return req('POST', QUEUE, applyTask(`lock${n}-${i}`));
            return req('POST', SETS, installSet(`lock${n}-${i}`));
          }),
        );
        for (const r of answers.filter((x) => !ok(x))) {
          refusedAs(r, ['Vendor.1.0.ComponentLocked', 'Vendor.1.0.ComponentNotFound', 'Base.1.12.ResourceMissingAtURI']);
        }
        const holders = [...(await members(QUEUE)), ...(await members(SETS))].map((m) => m['@odata.id'] as string);
        const c = await req('GET', component);
        if (holders.length) {
          assert.equal(c.status, 200, `a referenced component is there: ${statuses(answers)}`);
          assert.equal(c.body.Locked, true);
        }
        checkCreated(
          answers.filter((_, i) => drawn[i] === 'task'),
          await members(QUEUE),
        );
        checkCreated(
          answers.filter((_, i) => drawn[i] === 'set'),
          await members(SETS),
        );
        await clear(QUEUE);
        await clear(SETS);
        if (c.status === 200) assert.equal((await req('GET', component)).body.Locked, false, 'unlocked once nothing references it');
      },
    );
  });

  it('answers a change and a removal of one window, install set or task at once without a 5xx', async () => {
    const kind = fc.constantFrom('window', 'set', 'task');
    await rounds(svc, fc.tuple(kind, fc.boolean()), async ([k, rename], fire, n) => {
      const collection = k === 'window' ? WINDOWS : k === 'set' ? SETS : QUEUE;
      const body =
        k === 'window' ? { Name: `pd${n}`, StartAfter: '2030-01-01T00:00:00Z' } : k === 'set' ? installSet(`pd${n}`) : waitTask(`pd${n}`);
      const made = await req('POST', collection, body);
      assert.equal(made.status, 201, made.text);
      const uri = made.headers.location as string;
      const change = k === 'task' ? { State: 'Canceled' } : rename ? { Name: `pd${n}-renamed` } : { Description: 'changed' };
      const answers = await fire([() => req('PATCH', uri, change), () => req('DELETE', uri), () => req('DELETE', uri)]);
      // One removal succeeds, or none when a rename moved the resource before either came.
      const removed = answers.slice(1).filter(ok).length;
      assert.equal(removed, rename && ok(answers[0] as Response) && removed === 0 ? 0 : 1, `one removal: ${statuses(answers)}`);
      for (const r of answers.filter((x) => !ok(x))) refusedAs(r, ['Base.1.12.ResourceMissingAtURI']);
      // What the PATCH left (its new name, when it ran first) goes too.
      await clear(collection);
    });
  });
});
