// Every link resolves: crawl the whole tree from the root, as HPE's client
// does at login, and GET every @odata.id and Location URI found.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

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

describe('crawl', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('finds no link that fails to GET, and every @odata.id is clean and canonical', async () => {
    const seen = new Set<string>();
    const queue = ['/redfish/v1/'];
    const failures: string[] = [];
    while (queue.length && seen.size < 5000) {
      const uri = queue.shift() as string;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const r = await svc.get(uri);
      if (r.status !== 200) {
        failures.push(`${uri} -> ${r.status}`);
        continue;
      }
      if (!r.body || r.headers['content-type']?.includes('xml')) continue;
      const id = r.body['@odata.id'];
      if (typeof id === 'string') {
        if (id !== uri.split('?')[0]) failures.push(`${uri} has @odata.id ${id}`);
        if (UNSAFE.test(id)) failures.push(`${uri} has unsafe @odata.id ${id}`);
        if (!r.body['@odata.type']) failures.push(`${uri} has no @odata.type`);
      }
      const links = new Set<string>();
      collectLinks(r.body, links);
      for (const l of links) if (!seen.has(l)) queue.push(l);
    }
    assert.deepEqual(failures, []);
    assert.ok(seen.size >= 15, `crawled ${seen.size} resources`);
  });
});
