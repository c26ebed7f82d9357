// /redfish/v1/openapi.yaml (DSP0266 OpenAPI): derived from the route table,
// so every path and method served is in it, and nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { actionPath } from '../../src/protocol/routes.js';
import { startTestService, type TestService } from '../support/service.js';

const DMTF_REF = /^http:\/\/redfish\.dmtf\.org\/schemas\/v1\/[A-Za-z0-9-]+(\.v\d+_\d+_\d+)?\.yaml#\/components\/schemas\/[A-Za-z0-9_-]+$/;

function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refs(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refs(x, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  let svc: TestService;
  let doc: any;
  before(async () => {
    svc = await startTestService();
    doc = parse((await svc.get('/redfish/v1/openapi.yaml', { auth: 'none' })).text);
  });
  after(() => svc.close());

  it('is served without credentials as application/yaml, for any Accept a client may send', async () => {
    for (const accept of ['application/yaml', 'application/*;charset=utf-8', '*/*', undefined]) {
      const r = await svc.get('/redfish/v1/openapi.yaml', { auth: 'none', headers: accept ? { accept } : {} });
      assert.equal(r.status, 200, String(accept));
      assert.match(r.headers['content-type'] ?? '', /^application\/yaml/);
      assert.deepEqual(parse(r.text), doc, String(accept));
    }
    assert.equal(doc.openapi, '3.0.1');
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['basic', 'session']);
  });

  it('has every path of the route table with exactly the methods it serves, and every action', () => {
    const routes = svc.running.services.routes;
    // Routes outside the Redfish tree (iLO's /fwrepo/, /cgi-bin/, /bkupdata/, /ahsdata/) are not in the document.
    for (const r of routes.routes().filter((x) => !x.outside)) {
      const item = doc.paths[r.path];
      const methods = { get: r.get, patch: r.patch, put: r.put, post: r.post, delete: r.delete };
      const served = Object.entries(methods)
        .filter(([, m]) => m)
        .map(([k]) => k);
      if (served.length)
        assert.deepEqual(
          Object.keys(item)
            .filter((k) => k !== 'parameters')
            .sort(),
          served.sort(),
          r.path,
        );
      const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (params.length)
        assert.deepEqual(
          item.parameters.map((p: { name: string }) => p.name),
          params,
          r.path,
        );
      if (r.open) assert.deepEqual(item.get.security, [], `${r.path} needs no credentials`);
      else if (r.get) assert.equal(item.get.security, undefined, `${r.path} needs credentials`);
      for (const a of r.actions ?? []) {
        const op = doc.paths[actionPath(r, a.def)]?.post;
        assert.ok(op, `${a.def.name} at ${actionPath(r, a.def)}`);
        // The parameters, and the Action member every action takes (naming the action).
        const props = op.requestBody.content['application/json'].schema.properties;
        assert.deepEqual(Object.keys(props).sort(), ['Action', ...Object.keys(a.def.parameters)].sort());
        assert.ok(props.Action.enum.includes(a.def.name));
      }
    }
    // A documented action with its allowable values and a required parameter.
    const reset = doc.paths['/redfish/v1/Systems/{SystemId}/Actions/ComputerSystem.Reset/'].post;
    assert.ok(reset.requestBody.content['application/json'].schema.properties.ResetType.enum.includes('ForceRestart'));
    assert.deepEqual(reset.requestBody.content['application/json'].schema.required, ['ResetType']);
  });

  it("resolves every local reference, and points DMTF types at DMTF's OpenAPI files", () => {
    for (const ref of new Set(refs(doc))) {
      if (ref.startsWith('#/')) {
        const target = ref
          .slice(2)
          .split('/')
          .reduce((o: any, k) => o?.[k], doc);
        assert.ok(target, `${ref} resolves`);
      } else {
        assert.match(ref, DMTF_REF);
      }
    }
    const system = doc.paths['/redfish/v1/Systems/{SystemId}/'].get.responses['200'].content['application/json'].schema.$ref;
    assert.match(system, /ComputerSystem\.v\d+_\d+_\d+\.yaml#\/components\/schemas\/ComputerSystem_v\d+_\d+_\d+_ComputerSystem$/);
    // Vendor types are part of the document, in OpenAPI's dialect.
    const vendor = doc.components.schemas.VendorComputerSystemExt_v1_0_0_VendorComputerSystemExt;
    assert.equal(vendor.properties.PostState.readOnly, true);
    assert.equal(JSON.stringify(doc).includes('"readonly"'), false);
    assert.equal(JSON.stringify(doc).includes('patternProperties'), false);
  });
});
