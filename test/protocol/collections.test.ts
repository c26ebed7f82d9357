import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Priv } from '../../src/lib/privileges.js';
import { RedfishError } from '../../src/protocol/errors.js';
import { addCollection } from '../../src/protocol/collections.js';
import { defineType, ro, t } from '../../src/protocol/description.js';
import { ANONYMOUS } from '../../src/protocol/principal.js';
import { EMPTY_QUERY } from '../../src/protocol/query.js';
import { Reply } from '../../src/protocol/reply.js';
import { RouteTable, allowedMethods, methodSpec, type Match } from '../../src/protocol/routes.js';

const WidgetType = defineType({
  name: 'Widget',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'A test member.',
  properties: { Id: ro(t.string()), Colour: t.enum(['Red', 'Blue'], { required: true }), Size: t.integer() },
});

interface Widget {
  id: string;
  colour: 'Red' | 'Blue';
  size: number;
}

/** Two shelves of widgets; shelf B only allows reading. */
function setup() {
  const shelves = new Map<string, Widget[]>([
    ['A', [{ id: '1', colour: 'Red', size: 1 }]],
    ['B', [{ id: 'x y', colour: 'Blue', size: 2 }]],
  ]);
  const shelf = (id: string): Widget[] => shelves.get(id) ?? [];
  const routes = new RouteTable();
  addCollection(routes, {
    collection: '/redfish/v1/Shelves/{ShelfId}/Widgets/',
    member: '/redfish/v1/Shelves/{ShelfId}/Widgets/{WidgetId}/',
    type: WidgetType,
    name: 'Widget Collection',
    extra: (p) => ({ Description: `Widgets on shelf ${p.ShelfId}` }),
    params: { ShelfId: (id) => shelves.has(id) },
    store: {
      list: (p) => shelf(p.ShelfId),
      // Asynchronous like a store that is made on first use.
      get: async (id, p) => shelf(p.ShelfId).find((w) => w.id === id),
      id: (w) => w.id,
    },
    show: (w, at) => ({ Id: w.id, Colour: w.colour, Size: w.size, Shelf: at.params.ShelfId, Self: at.uri }),
    privileges: { read: Priv.login, write: Priv.configureComponents },
    readOnlyFor: (p) => p.ShelfId === 'B',
    create: {
      handler: (ctx) => {
        // Typed from the description: Colour is required, Size optional.
        const w: Widget = { id: String(shelf(ctx.params.ShelfId).length + 1), colour: ctx.body.Colour, size: ctx.body.Size ?? 0 };
        shelf(ctx.params.ShelfId).push(w);
        return w;
      },
    },
    update: {
      body: { Size: t.integer() },
      handler: (w, ctx) => {
        if (ctx.body.Size !== undefined) w.size = ctx.body.Size;
      },
    },
    remove: (w, ctx) => {
      const list = shelf(ctx.params.ShelfId);
      list.splice(list.indexOf(w), 1);
    },
  });
  return { routes, shelves };
}

/** Runs the handler of a method on a path, as the dispatcher would after resolving its parameters. */
async function call(routes: RouteTable, method: string, path: string, body: Record<string, unknown> = {}): Promise<unknown> {
  const m: Match | undefined = routes.match(path);
  assert.ok(m, `no route for ${path}`);
  assert.equal(await routes.resolves(m), true, `${path} does not resolve`);
  const spec = methodSpec(m, method);
  assert.ok(spec, `no ${method} on ${path}`);
  return spec.handler({
    params: m.params,
    uri: m.uri,
    principal: ANONYMOUS,
    query: EMPTY_QUERY,
    body,
    problems: [],
    headers: {},
    clientIp: '',
  });
}

describe('addCollection', () => {
  it('registers the collection and its member, each with the methods declared', () => {
    const { routes } = setup();
    assert.deepEqual(
      routes.routes().map((r) => r.path),
      ['/redfish/v1/Shelves/{ShelfId}/Widgets/', '/redfish/v1/Shelves/{ShelfId}/Widgets/{WidgetId}/'],
    );
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Shelves/A/Widgets/')!), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Shelves/A/Widgets/1/')!), ['GET', 'HEAD', 'PATCH', 'DELETE']);
    assert.equal(
      routes
        .types()
        .map((t) => t.name)
        .join(),
      'Widget,WidgetCollection',
    );
    assert.doesNotThrow(() => routes.verify());
  });

  it('shows the collection with member URIs (ids encoded) and its extra properties', async () => {
    const { routes } = setup();
    assert.deepEqual(await call(routes, 'GET', '/redfish/v1/Shelves/B/Widgets/'), {
      Name: 'Widget Collection',
      Description: 'Widgets on shelf B',
      Members: [{ '@odata.id': '/redfish/v1/Shelves/B/Widgets/x%20y/' }],
    });
  });

  it('resolves the member id from the store, after the outer parameters', async () => {
    const { routes } = setup();
    const at = (path: string) => routes.resolves(routes.match(path)!);
    assert.equal(await at('/redfish/v1/Shelves/A/Widgets/1/'), true);
    assert.equal(await at('/redfish/v1/Shelves/A/Widgets/2/'), false);
    assert.equal(await at('/redfish/v1/Shelves/C/Widgets/1/'), false);
    assert.equal(await at('/redfish/v1/Shelves/C/Widgets/'), false);
  });

  it('shows a member with its collection parameters and URI', async () => {
    const { routes } = setup();
    assert.deepEqual(await call(routes, 'GET', '/redfish/v1/Shelves/A/Widgets/1/'), {
      Id: '1',
      Colour: 'Red',
      Size: 1,
      Shelf: 'A',
      Self: '/redfish/v1/Shelves/A/Widgets/1/',
    });
  });

  it('answers a create with 201, the Location of the new member and its body', async () => {
    const { routes, shelves } = setup();
    const r = await call(routes, 'POST', '/redfish/v1/Shelves/A/Widgets/', { Colour: 'Blue' });
    assert.ok(r instanceof Reply);
    assert.equal(r.status, 201);
    assert.equal(r.headers.Location, '/redfish/v1/Shelves/A/Widgets/2/');
    assert.deepEqual(r.resource?.body, { Id: '2', Colour: 'Blue', Size: 0, Shelf: 'A', Self: '/redfish/v1/Shelves/A/Widgets/2/' });
    assert.equal(shelves.get('A')?.length, 2);
  });

  it('gives the Location of the member, not of the Members alias, when created through <collection>/Members', async () => {
    const { routes } = setup();
    const r = await call(routes, 'POST', '/redfish/v1/Shelves/A/Widgets/Members/', { Colour: 'Red' });
    assert.ok(r instanceof Reply);
    assert.equal(r.headers.Location, '/redfish/v1/Shelves/A/Widgets/2/');
  });

  it('hands update and remove the member it found', async () => {
    const { routes, shelves } = setup();
    await call(routes, 'PATCH', '/redfish/v1/Shelves/A/Widgets/1/', { Size: 7 });
    assert.equal(shelves.get('A')?.[0]?.size, 7);
    await call(routes, 'DELETE', '/redfish/v1/Shelves/A/Widgets/1/');
    assert.deepEqual(shelves.get('A'), []);
  });

  it('answers 404 when a resolved member is gone before its handler runs', async () => {
    const { routes, shelves } = setup();
    const m = routes.match('/redfish/v1/Shelves/A/Widgets/1/')!;
    assert.equal(await routes.resolves(m), true);
    shelves.set('A', []);
    const ctx = {
      params: m.params,
      uri: m.uri,
      principal: ANONYMOUS,
      query: EMPTY_QUERY,
      body: {},
      problems: [],
      headers: {},
      clientIp: '',
    };
    await assert.rejects(
      async () => methodSpec(m, 'GET')!.handler(ctx),
      (e: unknown) => e instanceof RedfishError && e.status === 404,
    );
  });

  it('makes the collection and its members read-only where readOnlyFor says so', () => {
    const { routes } = setup();
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Shelves/B/Widgets/')!), ['GET', 'HEAD']);
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Shelves/B/Widgets/x%20y/')!), ['GET', 'HEAD']);
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Shelves/B/Widgets/Members/')!), []);
  });

  it('registers no write methods that are not declared (a read-only collection needs no write privilege)', () => {
    const routes = new RouteTable();
    addCollection(routes, {
      collection: '/redfish/v1/Things/',
      member: '/redfish/v1/Things/{ThingId}/',
      type: WidgetType,
      name: 'Things',
      store: { list: () => [], get: () => undefined, id: (x: Widget) => x.id },
      show: (x) => ({ Id: x.id }),
      privileges: { read: Priv.login },
    });
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Things/')!), ['GET', 'HEAD']);
    assert.deepEqual(allowedMethods(routes.match('/redfish/v1/Things/a/')!), ['GET', 'HEAD']);
    assert.equal(routes.match('/redfish/v1/Things/Members/')?.membersAlias, undefined);
  });

  it('refuses writes declared without a write privilege', () => {
    assert.throws(
      () =>
        addCollection(new RouteTable(), {
          collection: '/redfish/v1/Things/',
          member: '/redfish/v1/Things/{ThingId}/',
          type: WidgetType,
          name: 'Things',
          store: { list: () => [], get: () => undefined, id: (x: Widget) => x.id },
          show: (x) => ({ Id: x.id }),
          privileges: { read: Priv.login },
          remove: () => undefined,
        }),
      /writes need privileges.write/,
    );
  });

  it('refuses a member path that does not add exactly one parameter to the collection', () => {
    assert.throws(
      () =>
        addCollection(new RouteTable(), {
          collection: '/redfish/v1/Things/',
          member: '/redfish/v1/Things/{A}/{B}/',
          type: WidgetType,
          name: 'Things',
          store: { list: () => [], get: () => undefined, id: (x: Widget) => x.id },
          show: (x) => ({ Id: x.id }),
          privileges: { read: Priv.login, write: Priv.login },
        }),
      /must add one \{Param\}/,
    );
  });
});
