// ActionInfo (src/protocol/action-info.ts): every action that takes parameters
// names an ActionInfo resource, derived from the action's description, that
// agrees with the action's own @Redfish.AllowableValues; served over HTTPS in
// both dialects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actionInfoBody } from '../../src/protocol/action-info.js';
import { defineAction, t } from '../../src/protocol/description.js';
import { startTestService, type TestService } from '../support/service.js';

type Json = Record<string, any>;

/** Every action object of a body ("#Name" keys, under Oem too), by name. */
function actionsOf(v: unknown, out: Map<string, Json[]>): void {
  if (Array.isArray(v)) for (const x of v) actionsOf(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k.startsWith('#') && x && typeof x === 'object' && 'target' in x)
        out.set(k.slice(1), [...(out.get(k.slice(1)) ?? []), x as Json]);
      else actionsOf(x, out);
    }
  }
}

function linksOf(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) linksOf(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '@odata.id' && typeof x === 'string' && x.startsWith('/redfish/v1')) out.add(x.split('#')[0] as string);
      else linksOf(x, out);
    }
  }
}

/** Crawls the tree from the root and returns every action object found. */
async function crawlActions(svc: TestService): Promise<Map<string, Json[]>> {
  const seen = new Set<string>();
  const queue = ['/redfish/v1/'];
  const actions = new Map<string, Json[]>();
  while (queue.length && seen.size < 3000) {
    const uri = queue.shift() as string;
    if (seen.has(uri)) continue;
    seen.add(uri);
    const r = await svc.get(uri);
    if (r.status !== 200 || !r.body || typeof r.body !== 'object') continue;
    actionsOf(r.body, actions);
    const links = new Set<string>();
    linksOf(r.body, links);
    for (const l of links) if (!seen.has(l) && !l.includes('/Entries')) queue.push(l);
  }
  return actions;
}

for (const dialect of ['spec', 'dmtf'] as const) {
  describe(`ActionInfo (${dialect} dialect)`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService({ config: { dialect } });
    });
    after(() => svc.close());

    it('every action with parameters names an ActionInfo that lists them as the action shows them', async () => {
      const actions = await crawlActions(svc);
      for (const name of [
        'ComputerSystem.Reset',
        'Manager.Reset',
        'VirtualMedia.InsertMedia',
        'UpdateService.SimpleUpdate',
        'Bios.ChangePassword',
        'LogService.ClearLog',
      ]) {
        assert.ok(actions.has(name), `${name} found`);
      }
      let checked = 0;
      for (const [name, entries] of actions) {
        for (const entry of entries) {
          const link = entry['@Redfish.ActionInfo'] as string | undefined;
          if (link === undefined) continue;
          checked++;
          assert.equal(link.endsWith('/'), dialect === 'spec', `${link} spelled as the dialect spells URIs`);
          const r = await svc.get(link);
          assert.equal(r.status, 200, `${name}: ${link}`);
          assert.match(r.body['@odata.type'], /^#ActionInfo\.v1_\d+_\d+\.ActionInfo$/);
          assert.equal(r.body['@odata.id'], link);
          const params = r.body.Parameters as Json[];
          assert.ok(params.length > 0, `${name} has parameters`);
          for (const p of params) {
            assert.equal(typeof p.Required, 'boolean');
            assert.match(p.DataType, /^(Boolean|Number|String|Object)(Array)?$/, `${name}.${p.Name}`);
            const shown = entry[`${p.Name}@Redfish.AllowableValues`];
            if (shown) assert.deepEqual(p.AllowableValues, shown, `${name}.${p.Name}: the same values as the action`);
          }
          for (const key of Object.keys(entry).filter((k) => k.endsWith('@Redfish.AllowableValues'))) {
            assert.ok(
              params.some((p) => p.Name === key.split('@')[0]),
              `${name}: ${key} is a parameter of the ActionInfo`,
            );
          }
        }
      }
      assert.ok(checked >= 10, `${checked} ActionInfo resources checked`);
      // An action without parameters names none (ClearLog takes nothing).
      for (const entry of actions.get('LogService.ClearLog') ?? []) assert.equal(entry['@Redfish.ActionInfo'], undefined);
      const reset = (actions.get('ComputerSystem.Reset') ?? [])[0]!;
      const info = (await svc.get(reset['@Redfish.ActionInfo'])).body;
      assert.deepEqual(info.Parameters[0], {
        Name: 'ResetType',
        Required: true,
        DataType: 'String',
        AllowableValues: reset['ResetType@Redfish.AllowableValues'],
      });
      const insert = (await svc.get((actions.get('VirtualMedia.InsertMedia') ?? [])[0]!['@Redfish.ActionInfo'])).body;
      const image = insert.Parameters.find((p: Json) => p.Name === 'Image');
      assert.deepEqual([image.Required, image.DataType], [true, 'String']);
      const inserted = insert.Parameters.find((p: Json) => p.Name === 'Inserted');
      assert.deepEqual([inserted.DataType, inserted.AllowableValues], ['Boolean', ['true', 'false']]);
    });

    it('ActionInfo is read-only and needs a login', async () => {
      const uri = dialect === 'spec' ? '/redfish/v1/Systems/1/ResetActionInfo/' : '/redfish/v1/Systems/1/ResetActionInfo';
      assert.equal((await svc.get(uri, { auth: 'none' })).status, 401);
      const r = await svc.req('PATCH', uri, { body: { Id: 'x' } });
      assert.equal(r.status, 405);
      assert.equal(r.headers.allow, 'GET, HEAD');
      assert.equal((await svc.get('/redfish/v1/Systems/9/ResetActionInfo/')).status, 404);
    });
  });
}

describe('actionInfoBody', () => {
  it('derives data types, ranges, patterns and array sizes from the description', () => {
    const def = defineAction({
      name: 'Example.Act',
      parameters: {
        Mode: t.enum(['A', 'B'], { required: true }),
        Count: t.integer({ minimum: 1, maximum: 9 }),
        Tag: t.string({ pattern: '^[a-z]+$' }),
        Targets: t.array(t.string(), { maxItems: 4 }),
        Levels: t.array(t.enum(['Low', 'High'])),
        Options: t.object({ Fast: t.boolean() }),
        Flag: t.boolean(),
      },
    });
    assert.deepEqual(actionInfoBody(def, 'spec', { Mode: ['B'] }), {
      Id: 'ActActionInfo',
      Name: 'Act Action Info',
      Parameters: [
        { Name: 'Mode', Required: true, DataType: 'String', AllowableValues: ['B'] },
        { Name: 'Count', Required: false, DataType: 'Number', MinimumValue: 1, MaximumValue: 9 },
        { Name: 'Tag', Required: false, DataType: 'String', AllowablePattern: '^[a-z]+$' },
        { Name: 'Targets', Required: false, DataType: 'StringArray', ArraySizeMaximum: 4 },
        { Name: 'Levels', Required: false, DataType: 'StringArray', AllowableValues: ['Low', 'High'] },
        { Name: 'Options', Required: false, DataType: 'Object' },
        { Name: 'Flag', Required: false, DataType: 'Boolean', AllowableValues: ['true', 'false'] },
      ],
    });
  });
});
