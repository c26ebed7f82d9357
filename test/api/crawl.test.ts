// Every link resolves: crawl the whole tree from the root, as HPE's client
// does at login, and GET every @odata.id and Location URI found.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';
import { addMemberToEveryCollection } from '../support/members.js';
import { servedLinks, unreachedGetRoutes, walk, WALK_STARTS } from '../support/route-walk.js';

const UNSAFE = /[\s"<>{}|\\^`%]/;

function collectLinks(v: unknown, out: Set<string>, key = ''): void {
  if (Array.isArray(v)) {
    for (const x of v) collectLinks(x, out, key);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if ((k === '@odata.id' || k === 'Uri' || k === 'Members@odata.nextLink') && typeof x === 'string' && x.startsWith('/redfish/')) {
        out.add(x.split('#')[0] as string);
      } else if (k !== 'target') {
        collectLinks(x, out, k);
      }
    }
  }
}

/** Actions of Actions objects ("#Name" keys, not those under Oem), with the parameters their allowable values name. */
function collectActions(v: unknown, out: Map<string, Set<string>>): void {
  if (Array.isArray(v)) {
    for (const x of v) collectActions(x, out);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'Oem') continue;
      if (k.startsWith('#') && x && typeof x === 'object') {
        const params = out.get(k.slice(1)) ?? new Set<string>();
        for (const key of Object.keys(x)) if (key.endsWith('@Redfish.AllowableValues')) params.add(key.split('@')[0] as string);
        out.set(k.slice(1), params);
      } else {
        collectActions(x, out);
      }
    }
  }
}

describe('crawl', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('finds no link that fails to GET, and every @odata.id is clean and canonical', async () => {
    const failures: string[] = [];
    const actions = new Map<string, Set<string>>();
    const crawled = await walk(svc, ['/redfish/v1/'], (uri, r) => {
      const links = new Set<string>();
      if (r.status !== 200) failures.push(`${uri} -> ${r.status}`);
      if (r.status !== 200 || !r.body || r.headers['content-type']?.includes('xml')) return links;
      const id = r.body['@odata.id'];
      if (typeof id === 'string') {
        if (id !== uri.split('?')[0]) failures.push(`${uri} has @odata.id ${id}`);
        if (UNSAFE.test(id)) failures.push(`${uri} has unsafe @odata.id ${id}`);
        if (!r.body['@odata.type']) failures.push(`${uri} has no @odata.type`);
      }
      collectLinks(r.body, links);
      collectActions(r.body, actions);
      return links;
    });
    assert.deepEqual(failures, []);
    assert.ok(crawled >= 15, `crawled ${crawled} resources`);

    // Every vendor action of an Actions object is declared in its namespace's CSDL, with its parameters.
    const vendorActions = [...actions].filter(([name]) => name.startsWith('Vendor'));
    assert.ok(vendorActions.length >= 4, `found ${vendorActions.length} vendor actions`);
    for (const [name, params] of vendorActions) {
      const [namespace, action] = name.split('.') as [string, string];
      const csdl = await svc.get(`/redfish/v1/SchemaStore/en/${namespace}_v1.xml`, { auth: 'none' });
      assert.equal(csdl.status, 200, `${namespace} CSDL`);
      const decl = new RegExp(`<Action Name="${action}" IsBound="true">([\\s\\S]*?)</Action>`).exec(csdl.text);
      assert.ok(decl, `${name} declared in ${namespace}_v1.xml`);
      const bound = new RegExp(`<Parameter Name="${namespace}" Type="${namespace}\\.(v\\d+_\\d+_\\d+)\\.Actions"/>`).exec(
        decl[1] as string,
      );
      assert.ok(bound, `${name} bound to its type's Actions`);
      for (const p of params) assert.match(decl[1] as string, new RegExp(`<Parameter Name="${p}" `), `${name} parameter ${p}`);
      // The JSON Schema says the same.
      const json = await svc.get(`/redfish/v1/SchemaStore/en/${namespace}.${bound[1]}.json`, { auth: 'none' });
      const ref = json.body.definitions.Actions.properties[`#${name}`]?.$ref as string | undefined;
      assert.equal(ref, `#/definitions/${action}`, `${name} in the JSON Schema`);
      for (const p of params) assert.ok(json.body.definitions[action].parameters[p], `${name} JSON parameter ${p}`);
    }
  });

  it('answers every GET route with an Allow header: resources, files, registries, schemas, $metadata, odata, component binaries', async () => {
    await addMemberToEveryCollection(svc);
    const routes = svc.running.services.routes;
    const reached = new Set<object>();
    const noAllow: string[] = [];
    await walk(svc, WALK_STARTS, (uri, r) => {
      // A task monitor answers its operation's own final status (the walk's task failed), and is a GET route all the same.
      if (r.status !== 200 && !uri.includes('/TaskMonitors/')) return [];
      const match = routes.match(uri.split('?')[0] as string);
      if (match) reached.add(match.route);
      if (!r.headers.allow?.split(', ').includes('GET')) noAllow.push(`${uri} ${r.status}: Allow ${r.headers.allow}`);
      return servedLinks(r);
    });
    // The SSE stream, which the walk does not open: HEAD answers its headers without starting it.
    const sse = (await svc.get('/redfish/v1/EventService/')).body.ServerSentEventUri as string;
    const head = await svc.req('HEAD', sse);
    assert.equal(head.status, 200);
    if (head.headers.allow?.split(', ').includes('GET')) reached.add(routes.match(sse)?.route as object);
    else noAllow.push(`HEAD ${sse}: Allow ${head.headers.allow}`);

    assert.deepEqual(noAllow, []);
    assert.deepEqual(unreachedGetRoutes(svc, reached), []);
  });
});

describe('crawl with unusual ids (--system-id, --chassis-id, --manager-id)', () => {
  const ids = { systemId: 'sys_1~a', chassisId: 'rack-1.a', managerId: 'MC.2-b' };
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: ids });
    await addMemberToEveryCollection(svc);
  });
  after(() => svc.close());

  it('refuses to start with an id that would need percent-encoding', async () => {
    await assert.rejects(startTestService({ config: { chassisId: 'rack 1' } }), /--chassis-id \(BMC_CHASSIS_ID\) must be .*got "rack 1"/);
  });

  it('links every system, chassis and manager URI, everywhere, as its collection lists it', async () => {
    const members = async (collection: string) =>
      (await svc.get(collection)).body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
    const listed = {
      Systems: await members('/redfish/v1/Systems/'),
      Chassis: await members('/redfish/v1/Chassis/'),
      Managers: await members('/redfish/v1/Managers/'),
    };
    assert.deepEqual(listed, {
      Systems: ['/redfish/v1/Systems/sys_1~a/'],
      Chassis: ['/redfish/v1/Chassis/rack-1.a/'],
      Managers: ['/redfish/v1/Managers/MC.2-b/'],
    });

    // Every string of every answer that names a system, chassis or manager (links, targets, origins, arguments).
    const named = new Map<string, string>();
    const visit = (v: unknown, at: string): void => {
      if (typeof v === 'string') {
        const m = /^\/redfish\/v1\/(Systems|Chassis|Managers)\/([^/?#]+)/.exec(v);
        if (m) named.set(`${m[1]}/${m[2]}/`, `${at}: ${v}`);
      } else if (Array.isArray(v)) v.forEach((x) => visit(x, at));
      else if (v && typeof v === 'object') Object.values(v).forEach((x) => visit(x, at));
    };
    const failures: string[] = [];
    const crawled = await walk(svc, ['/redfish/v1/'], (uri, r) => {
      if (r.status !== 200) {
        if (!uri.includes('/TaskMonitors/')) failures.push(`${uri} -> ${r.status}`);
        return [];
      }
      if (typeof r.body?.['@odata.id'] === 'string' && r.body['@odata.id'] !== uri.split('?')[0])
        failures.push(`${uri} has @odata.id ${r.body['@odata.id']}`);
      visit(r.body, uri);
      return servedLinks(r);
    });
    assert.deepEqual(failures, []);
    assert.ok(crawled >= 200, `crawled ${crawled} resources`);
    const expected = ['Systems/sys_1~a/', 'Chassis/rack-1.a/', 'Managers/MC.2-b/'];
    assert.deepEqual(
      [...named.keys()].filter((k) => !expected.includes(k)).map((k) => named.get(k)),
      [],
      'a URI names another id than the configured one',
    );
    assert.deepEqual([...named.keys()].sort(), [...expected].sort());
  });
});
