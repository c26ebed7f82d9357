// Registries (Errors 7, G11), $metadata, the OData document and JSON schemas (Versioning 5).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { startTestService, type TestService } from '../../support/service.js';

describe('registries, $metadata and schemas', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('lists the message registries by name, each with a Location per language', async () => {
    const r = await svc.get('/redfish/v1/Registries/');
    const ids = r.body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
    for (const name of ['Base', 'Vendor', 'ResourceEvent', 'TaskEvent']) assert.ok(ids.includes(`/redfish/v1/Registries/${name}/`), name);
    const base = await svc.get('/redfish/v1/Registries/Base/');
    assert.equal(base.body.Registry, 'Base.1.12');
    assert.deepEqual(base.body.Languages, ['en']);
    assert.equal(base.body.Location[0].Uri, '/redfish/v1/RegistryStore/registries/en/Base.json');
  });

  it('serves registry files gzip-compressed, and a MessageId resolves through them (Errors 7)', async () => {
    // Fetch without automatic decompression: the bytes must be gzip (G11).
    const token = await svc.adminToken();
    const res = await request(`${svc.url}/redfish/v1/RegistryStore/registries/en/Base.json`, {
      headers: { 'x-auth-token': token },
      dispatcher: new Agent({ connect: { rejectUnauthorized: false } }),
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    const doc = JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
    assert.equal(doc.RegistryPrefix, 'Base');
    assert.equal(doc.RegistryVersion, '1.12.0');
    const [prefix, major, minor, key] = 'Base.1.12.PropertyValueTypeError'.split('.');
    assert.equal(`${prefix}.${major}.${minor}`, 'Base.1.12');
    assert.match(doc.Messages[key!].Message, /%1.*%2/);
    assert.equal(doc.Messages[key!].NumberOfArgs, 2);
  });

  it('answers 404 for an unknown registry and file', async () => {
    assert.equal((await svc.get('/redfish/v1/Registries/Nope/')).status, 404);
    assert.equal((await svc.get('/redfish/v1/RegistryStore/registries/en/Nope.json')).status, 404);
  });

  it('serves $metadata as CSDL referencing DMTF schemas by URI and vendor ones locally', async () => {
    const r = await svc.get('/redfish/v1/$metadata', { auth: 'none' });
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type'] ?? '', /^application\/xml/);
    assert.match(r.text, /<EntityContainer Name="Service" Extends="ServiceRoot\.v1_\d+_\d+\.ServiceContainer"\/>/);
    assert.match(r.text, /Uri="http:\/\/redfish\.dmtf\.org\/schemas\/v1\/Session_v1\.xml"/);
    assert.match(r.text, /<edmx:Include Namespace="Session\.v1_\d+_\d+"\/>/);
    assert.match(r.text, /Uri="\/redfish\/v1\/SchemaStore\/en\/VendorSession_v1\.xml"/);
    const csdl = await svc.get('/redfish/v1/SchemaStore/en/VendorSession_v1.xml', { auth: 'none' });
    assert.equal(csdl.status, 200);
    assert.match(csdl.text, /<Property Name="MySession" Type="Edm\.Boolean"/);
  });

  it('serves the OData service document', async () => {
    const r = await svc.get('/redfish/v1/odata', { auth: 'none' });
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.context'], '/redfish/v1/$metadata');
    const urls = r.body.value.map((v: { url: string }) => v.url);
    assert.ok(urls.includes('/redfish/v1/'));
    assert.ok(urls.includes('/redfish/v1/SessionService/'));
  });

  it('lists a JsonSchemaFile for every type served, vendor schemas served locally', async () => {
    const r = await svc.get('/redfish/v1/schemas/');
    assert.equal(r.body['@odata.type'], '#JsonSchemaFileCollection.JsonSchemaFileCollection');
    const ids: string[] = r.body.Members.map((m: { '@odata.id': string }) => m['@odata.id']);
    assert.ok(ids.some((i) => /\/Session\.v1_\d+_\d+\/$/.test(i)));
    const session = await svc.get(ids.find((i) => /\/Session\.v/.test(i))!);
    assert.equal(session.body['@odata.type'], '#JsonSchemaFile.v1_1_5.JsonSchemaFile');
    assert.match(session.body.Location[0].PublicationUri, /^http:\/\/redfish\.dmtf\.org\/schemas\/v1\/Session\.v1_\d+_\d+\.json$/);
    const vendor = await svc.get(ids.find((i) => i.includes('/VendorSession.'))!);
    const schema = await svc.get(vendor.body.Location[0].Uri);
    assert.equal(schema.status, 200);
    assert.equal(schema.body.title, '#VendorSession.v1_0_0.VendorSession');
    assert.equal(schema.body.definitions.VendorSession.properties.MySession.type, 'boolean');
  });
});
