import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Priv } from '../../src/lib/privileges.js';
import { t } from '../../src/protocol/description.js';
import { RouteTable, allowedMethods } from '../../src/protocol/routes.js';

const noop = { privilege: Priv.login, handler: () => ({}) };

function table(): RouteTable {
  const r = new RouteTable();
  r.add({ path: '/redfish/v1/Systems/', get: noop });
  r.add({
    path: '/redfish/v1/Systems/{SystemId}/',
    get: noop,
    patch: noop,
    actions: [{ def: { name: 'ComputerSystem.Reset', parameters: { ResetType: t.string() } }, ...noop }],
  });
  r.add({ path: '/redfish/v1/UpdateService/InstallSets/{Id}/', get: noop, delete: noop });
  r.add({ path: '/redfish/v1/RegistryStore/registries/en/{File}', file: true, get: noop });
  return r;
}

describe('RouteTable', () => {
  it('matches literal segments case-insensitively and gives the canonical URI', () => {
    const m = table().match('/redfish/v1/updateservice/installsets/Set1');
    assert.equal(m?.uri, '/redfish/v1/UpdateService/InstallSets/Set1/');
    assert.deepEqual(m?.params, { Id: 'Set1' });
  });

  it('prefers literal segments and finds actions', () => {
    const m = table().match('/redfish/v1/Systems/1/Actions/ComputerSystem.Reset');
    assert.ok(m);
    assert.equal(m.action?.def.name, 'ComputerSystem.Reset');
    assert.deepEqual(allowedMethods(m), ['POST']);
  });

  it('lists the allowed methods of a resource', () => {
    assert.deepEqual(allowedMethods(table().match('/redfish/v1/Systems/1/')!), ['GET', 'HEAD', 'PATCH']);
  });

  it('keeps files without a trailing slash and decodes parameters', () => {
    const m = table().match('/redfish/v1/RegistryStore/registries/en/Base%2Ejson');
    assert.equal(m?.params.File, 'Base.json');
    assert.equal(m?.uri, '/redfish/v1/RegistryStore/registries/en/Base.json');
  });

  it('does not match unknown paths or malformed escapes', () => {
    assert.equal(table().match('/redfish/v1/Nothing/'), undefined);
    assert.equal(table().match('/redfish/v1/Systems/%E0%A4%A/'), undefined);
  });

  it('refuses duplicate routes and conflicting parameter names', () => {
    const r = table();
    assert.throws(() => r.add({ path: '/redfish/v1/Systems/', get: noop }), /duplicate/);
    assert.throws(() => r.add({ path: '/redfish/v1/Systems/{Other}/Bios/', get: noop }), /conflicting/);
  });
});

describe('RouteTable parameters and patterns', () => {
  it('fails verify() while some parameter of some route has no resolver', () => {
    const r = new RouteTable();
    r.add({ path: '/redfish/v1/Systems/{SystemId}/Bios/', get: noop });
    r.add({ path: '/redfish/v1/Things/{ThingId}/', params: { ThingId: () => true }, get: noop });
    assert.throws(() => r.verify(), /\{SystemId\} in \/redfish\/v1\/Systems\/\{SystemId\}\/Bios\//);
    r.param('SystemId', (id) => id === '1');
    assert.doesNotThrow(() => r.verify());
  });

  it('resolves every parameter, outermost first, and a route-level resolver wins over the shared one', async () => {
    const r = new RouteTable();
    const asked: string[] = [];
    r.param('SystemId', (id) => (asked.push(`system ${id}`), id === '1'));
    r.param('DbId', () => false);
    r.add({
      path: '/redfish/v1/Systems/{SystemId}/Dbs/{DbId}/',
      params: { DbId: async (id, p) => (asked.push(`db ${id} of ${p.SystemId}`), id === 'PK') },
      get: noop,
    });
    const at = (path: string) => r.resolves(r.match(path)!);
    assert.equal(await at('/redfish/v1/Systems/1/Dbs/PK/'), true);
    assert.equal(await at('/redfish/v1/Systems/1/Dbs/KEK/'), false);
    assert.equal(await at('/redfish/v1/Systems/2/Dbs/PK/'), false);
    assert.deepEqual(asked, ['system 1', 'db PK of 1', 'system 1', 'db KEK of 1', 'system 2']);
  });

  it('compiles patterns when a route is added: a bad one fails there, not on a request', () => {
    const r = new RouteTable();
    assert.throws(
      () =>
        r.add({
          path: '/redfish/v1/X/',
          get: noop,
          patch: { ...noop, body: { Deep: t.object({ Name: t.string({ pattern: '([a-z' }) }) } },
        }),
      /bad pattern "\(\[a-z"/,
    );
    assert.doesNotThrow(() =>
      r.add({ path: '/redfish/v1/Y/', get: noop, patch: { ...noop, body: { Name: t.string({ pattern: '^[a-z]+$' }) } } }),
    );
  });
});
