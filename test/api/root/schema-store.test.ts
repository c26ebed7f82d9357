// Schemas served locally (Versioning 5, issue #14): every JsonSchemaFile names a
// local Uri whose JSON Schema, generated from the service's own descriptions,
// resolves all its references within the store, so clients without internet can
// read them; the resources the service serves validate against them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Ajv } from 'ajv';
import { redfishAjv } from '../../support/schemas.js';
import { startTestService, type TestService } from '../../support/service.js';

const STORE = '/redfish/v1/SchemaStore/en/';

interface SchemaDoc {
  $id: string;
  $schema?: string;
  $ref?: string;
  definitions: Record<string, any>;
}

/** Every `$ref` in a document. */
function refsOf(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refsOf(x, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refsOf(x, out);
    }
  return out;
}

describe('the schema store serves a JSON Schema for every type', () => {
  let svc: TestService;
  let ajv: Ajv;
  const docs = new Map<string, SchemaDoc>();
  let files: { Id: string; Schema: string; Location: { Uri?: string; PublicationUri?: string }[] }[];

  before(async () => {
    svc = await startTestService();
    const list = await svc.get('/redfish/v1/schemas/?$expand=.');
    assert.equal(list.status, 200);
    files = list.body.Members;
    assert.ok(files.length >= 20, `${files.length} schema files`);
    // Every document served, and the shared definitions they refer to, read over HTTPS.
    const uris = new Set<string>([`${STORE}odata-v4.json`]);
    for (const f of files) for (const l of f.Location) if (l.Uri) uris.add(l.Uri);
    for (const uri of uris) {
      const r = await svc.get(uri, { auth: 'none' });
      assert.equal(r.status, 200, uri);
      assert.match(r.headers['content-type'] ?? '', /application\/json/, uri);
      docs.set(uri, r.body as SchemaDoc);
    }
    ajv = redfishAjv();
    for (const doc of docs.values()) ajv.addSchema(doc);
  });
  after(() => svc.close());

  it('lists a local Uri for every JsonSchemaFile, DMTF ones keeping their PublicationUri', () => {
    for (const f of files) {
      const uris = f.Location.map((l) => l.Uri);
      const local = uris.find((u) => u?.startsWith(STORE));
      assert.ok(local, `${f.Id} has a local Uri`);
      assert.equal(local, `${STORE}${f.Id}.json`);
      assert.equal(docs.get(local)?.$id, local, `${f.Id} document names itself`);
      for (const l of f.Location)
        if (l.PublicationUri) assert.match(l.PublicationUri, /^http:\/\/redfish\.dmtf\.org\/schemas\/v1\/.+\.json$/, f.Id);
    }
    const system = files.find((f) => f.Id.startsWith('ComputerSystem.v'));
    assert.ok(system?.Location[0]?.PublicationUri, 'ComputerSystem keeps its DMTF PublicationUri');
    const vendor = files.find((f) => f.Id.startsWith('Vendor'));
    assert.ok(vendor, 'a vendor schema');
    assert.equal(vendor.Location[0]?.PublicationUri, undefined);
  });

  it('compiles every document with all its references resolved within the store', () => {
    for (const [uri, doc] of docs) {
      for (const ref of refsOf(doc)) {
        assert.ok(!/^https?:/.test(ref), `${uri}: ${ref} points outside the service`);
        const file = ref.split('#')[0];
        if (file) assert.ok(docs.has(file), `${uri}: ${ref} is served`);
      }
      // Compiling resolves every $ref (ajv fetches nothing: an unresolved one throws).
      assert.ok(ajv.getSchema(uri), uri);
      if (doc.$ref) assert.ok(ajv.getSchema(`${uri}${doc.$ref}`), `${uri}${doc.$ref}`);
      for (const name of Object.keys(doc.definitions)) assert.ok(ajv.getSchema(`${uri}#/definitions/${name}`), `${uri} ${name}`);
    }
  });

  it('serves the versioned definition shape: a document whose definitions hold the type', () => {
    const system = files.find((f) => f.Id.startsWith('ComputerSystem.v'))!;
    const doc = docs.get(`${STORE}${system.Id}.json`)!;
    assert.equal(doc.$ref, '#/definitions/ComputerSystem');
    const def = doc.definitions.ComputerSystem;
    assert.equal(def.type, 'object');
    assert.ok(def.properties.Boot, 'Boot');
    assert.ok(def.properties.PowerState, 'PowerState');
    // Actions, as DMTF shows them: "#ComputerSystem.Reset" with its parameters.
    const reset = doc.definitions.Actions?.properties?.['#ComputerSystem.Reset'];
    assert.equal(reset?.$ref, '#/definitions/Reset');
    assert.ok(doc.definitions.Reset.parameters.ResetType.enum.includes('On'));
    // A collection: the unversioned file jsonSchemaUri names.
    const collection = files.find((f) => f.Id === 'ComputerSystemCollection');
    assert.ok(collection, 'ComputerSystemCollection');
    assert.ok(docs.get(`${STORE}ComputerSystemCollection.json`)?.definitions.ComputerSystemCollection.properties.Members);
  });

  it('validates the ComputerSystem the service serves against its served schema', async () => {
    const r = await svc.get('/redfish/v1/Systems/1/');
    assert.equal(r.status, 200);
    const [, type] = /^#([^.]+\.v\d+_\d+_\d+)\./.exec(r.body['@odata.type']) ?? [];
    assert.ok(type, r.body['@odata.type']);
    const uri = `${STORE}${type}.json`;
    // The Link header names the served schema (clients such as ilorest read it from there).
    assert.equal(r.headers.link, `<${uri}>; rel=describedby`);
    const validate = ajv.getSchema(`${uri}#/definitions/ComputerSystem`);
    assert.ok(validate, uri);
    assert.ok(validate(r.body), JSON.stringify(validate.errors, null, 1));
    // The check has teeth: a wrong type, an unknown property, a value outside the enum fail.
    assert.equal(validate({ ...r.body, PowerState: 5 }), false);
    assert.equal(validate({ ...r.body, NotAProperty: 1 }), false);
    assert.equal(validate({ ...r.body, Boot: { ...r.body.Boot, BootSourceOverrideTarget: 'Nowhere' } }), false);
    // And a change of a read-only property is marked so.
    const props = docs.get(uri)!.definitions.ComputerSystem.properties;
    assert.equal(props.PowerState.readonly, true);
    assert.equal(props.Id.readonly, true);
    const boot = docs.get(uri)!.definitions[props.Boot.$ref.replace('#/definitions/', '')];
    assert.equal(boot.properties.BootSourceOverrideTarget.readonly, false);
    const patch = await svc.req('PATCH', '/redfish/v1/Systems/1/', {
      body: { PowerState: 'Off' },
      headers: { 'If-Match': r.headers.etag ?? '*' },
    });
    assert.equal(patch.status, 400, 'a read-only property is refused');
  });

  it('refuses a file the store does not serve', async () => {
    for (const file of ['Nothing.v1_0_0.json', 'ComputerSystem.v0_0_0.json', 'ComputerSystem_v1.xml', 'odata-v4.xml']) {
      const r = await svc.get(`${STORE}${file}`, { auth: 'none' });
      assert.equal(r.status, 404, file);
    }
  });
});
