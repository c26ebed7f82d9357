// A wrong id in any position of any route is a 404 for every method, decided
// by the dispatcher before a handler runs. The walk takes every route of the
// table, finds a URI of it that exists (by crawling, after making members),
// and puts a wrong value in each parameter position in turn.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { paramNamesOf, splitPath, type Match } from '../../src/protocol/routes.js';
import { addMemberToEveryCollection } from '../support/members.js';
import { crawlRoutes } from '../support/route-walk.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
const WRONG = 'no-such-id';

/** The URI with the parameter at `position` (counted among parameters) replaced. */
function withWrong(match: Match, template: string, position: number): string {
  let n = 0;
  const uriSegs = splitPath(match.uri);
  const tplSegs = splitPath(template);
  const out = tplSegs.map((seg, i) => (seg.startsWith('{') ? (n++ === position ? WRONG : uriSegs[i]) : uriSegs[i]));
  return `/${out.join('/')}${match.uri.endsWith('/') ? '/' : ''}`;
}

describe('wrong ids', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    await addMemberToEveryCollection(svc);
  });
  after(() => svc.close());

  it('answers 404 ResourceMissingAtURI for a wrong id in every position of every route, for every method', async () => {
    const routes = svc.running.services.routes;
    // Crawl: a URI that exists, per route.
    const known = await crawlRoutes(svc);

    const failures: string[] = [];
    const unreached: string[] = [];
    let checked = 0;
    for (const route of routes.routes()) {
      const names = paramNamesOf(route.path);
      // Outside the Redfish tree (iLO's /fwrepo/): no Redfish link reaches it; its tests check a wrong name.
      if (names.length === 0 || route.outside) continue;
      const match = known.get(route)?.[0];
      if (!match) {
        unreached.push(route.path);
        continue;
      }
      const uris: string[] = [];
      for (let i = 0; i < names.length; i++) {
        const uri = withWrong(match, route.path, i);
        uris.push(uri);
        // The actions of the resource too: a wrong id before /Actions/ is the same 404.
        for (const a of route.actions ?? []) uris.push(`${uri}Actions/${a.def.oem ? 'Oem/Vendor/' : ''}${a.def.name}/`);
      }
      for (const uri of uris) {
        for (const method of uri.includes('/Actions/') ? (['POST'] as const) : METHODS) {
          checked++;
          const r = await svc.req(method, uri, method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { body: {} });
          const ok = r.status === 404 && (method === 'HEAD' || messageIds(r.body).includes('Base.1.12.ResourceMissingAtURI'));
          if (!ok) failures.push(`${method} ${uri} -> ${r.status} ${messageIds(r.body).join(',')}`);
        }
      }
    }
    process.stdout.write(`# wrong ids: ${checked} requests; routes with parameters not reached by the crawl: ${unreached.length}\n`);
    assert.deepEqual(failures, []);
    // Every route with parameters is walked: the setup made a member of every collection.
    assert.ok(unreached.length <= 0, `unreached: ${unreached.join(', ')}`);
  });

  it('answers 404 for an id of another system, manager or chassis even where the handler never looks', async () => {
    for (const uri of [
      '/redfish/v1/Systems/999/SecureBoot/SecureBootDatabases/',
      '/redfish/v1/Managers/2/LogServices/',
      '/redfish/v1/Chassis/X/Thermal/',
    ]) {
      const r = await svc.get(uri);
      assert.equal(r.status, 404, uri);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI']);
    }
  });
});
