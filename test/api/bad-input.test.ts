// Bad input never gets a 500: every write the API offers (found by crawling
// from the root, actions included) is sent malformed bodies, and must answer
// a 4xx Redfish error with a registry MessageId.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

const BAD_BODIES: { name: string; raw?: string; body?: unknown }[] = [
  { name: 'array', body: [1, 2] },
  { name: 'string', body: 'text' },
  { name: 'number', body: 42 },
  { name: 'unknown property', body: { BogusProperty: true } },
  { name: 'nulls', body: { Name: null, Id: null, Oem: null, Attributes: null, Boot: null } },
  { name: 'wrong types', body: { Name: 5, Enabled: 'yes', Attributes: [], Boot: 'x', ResetType: 7, Password: {}, Targets: 'x' } },
  { name: 'deep garbage', body: { Oem: { Vendor: { X: [{ Y: { Z: null } }] } }, Attributes: { A: { B: [] } } } },
  { name: 'malformed JSON', raw: '{"Name": ' },
  { name: 'huge string', body: { Name: 'x'.repeat(100_000), UserName: 'y'.repeat(100_000) } },
];

function collect(v: unknown, links: Set<string>, targets: Set<string>): void {
  if (Array.isArray(v)) return v.forEach((x) => collect(x, links, targets));
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (k === '@odata.id' && typeof x === 'string' && x.startsWith('/redfish/v1/')) links.add(x);
    else if (k === 'target' && typeof x === 'string') targets.add(x);
    else collect(x, links, targets);
  }
}

describe('bad input across the API', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('answers every malformed write with a 4xx Redfish error, never a 5xx', async () => {
    const seen = new Set<string>();
    const queue = ['/redfish/v1/'];
    const targets = new Set<string>();
    const writable: { uri: string; methods: string[] }[] = [];
    while (queue.length && seen.size < 3000) {
      const uri = queue.shift() as string;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const r = await svc.get(uri);
      if (r.status !== 200 || !r.body) continue;
      const methods = (r.headers.allow ?? '').split(', ').filter((m) => ['POST', 'PATCH', 'PUT'].includes(m));
      if (methods.length) writable.push({ uri, methods });
      const links = new Set<string>();
      collect(r.body, links, targets);
      for (const l of links) if (!seen.has(l)) queue.push(l);
    }
    const cases = [...writable, ...[...targets].map((uri) => ({ uri, methods: ['POST'] }))].filter(
      // The upload endpoint takes multipart only; it has its own tests for bad parts.
      ({ uri }) => !uri.endsWith('/UpdateService/upload/'),
    );
    assert.ok(cases.length > 40, `found ${cases.length} writable resources and actions`);
    process.stdout.write(`# bad-input: ${cases.length} writable resources and actions, ${BAD_BODIES.length} bodies each\n`);
    const failures: string[] = [];
    for (const { uri, methods } of cases) {
      for (const method of methods) {
        for (const bad of BAD_BODIES) {
          const r = await svc.req(
            method,
            uri,
            bad.raw !== undefined ? { rawBody: bad.raw, headers: { 'content-type': 'application/json' } } : { body: bad.body },
          );
          const ids = r.body?.error?.['@Message.ExtendedInfo']?.map((m: { MessageId: string }) => m.MessageId) ?? [];
          if (r.status >= 500) failures.push(`${method} ${uri} (${bad.name}) -> ${r.status} ${r.text.slice(0, 200)}`);
          else if (r.status >= 400 && !ids.length) failures.push(`${method} ${uri} (${bad.name}) -> ${r.status} without MessageId`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});
