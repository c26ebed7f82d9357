// JSON schema files (Versioning 5): one JsonSchemaFile per type served. Every
// type's JSON Schema is served here (DMTF types also name their published one),
// its references all within the store, so clients resolve them without internet.
import { Priv } from '../../lib/privileges.js';
import { addCollection } from '../../protocol/collections.js';
import {
  defineType,
  jsonSchemaFile,
  jsonSchemaUri,
  localJsonSchemaUri,
  odataType,
  ro,
  t,
  type ResourceType,
  commonProps,
} from '../../protocol/description.js';
import { ODATA_SCHEMA_FILE, odataJsonSchema, servedJsonSchema, vendorCsdl, vendorTypes } from '../../protocol/metadata.js';
import { RawReply } from '../../protocol/reply.js';
import { present, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const JsonSchemaFileType = defineType({
  name: 'JsonSchemaFile',
  version: '1.1.5',
  owner: 'DMTF',
  description: 'Where the JSON Schema of a type can be read.',
  properties: {
    ...commonProps,
    Languages: ro(t.array(t.string())),
    Schema: ro(t.string()),
    Location: ro(
      t.array(
        t.object(
          { Language: ro(t.string()), Uri: ro(t.string({ format: 'uri-reference' })), PublicationUri: ro(t.string({ format: 'uri' })) },
          { typeName: 'Location' },
        ),
      ),
    ),
  },
});

const schemaId = (type: ResourceType) => (type.version ? `${type.name}.v${type.version.replace(/\./g, '_')}` : type.name);

/** What the schema area uses (the types served come from the route table). */
export type SchemaDeps = Pick<Services, 'dialect' | 'routes'>;

function schemaFileBody(type: ResourceType): Record<string, unknown> {
  const local = localJsonSchemaUri(type);
  return {
    Id: schemaId(type),
    Name: `${type.name} Schema File`,
    Description: type.description,
    Languages: ['en'],
    Schema: odataType(type),
    Location: [
      type.owner === 'DMTF' ? { Language: 'en', Uri: local, PublicationUri: jsonSchemaUri(type) } : { Language: 'en', Uri: local },
    ],
  };
}

function handlers(d: SchemaDeps) {
  // Computed on first use: by then every area has registered its d.routes.
  let cache: Map<string, ResourceType> | undefined;
  let files: Map<string, StoreFile> | undefined;
  return { schemas, storeFile, getSchemaStoreFile };

  /** Every type served, by lower-case schema id. */
  function schemas(): Map<string, ResourceType> {
    if (!cache) {
      const types = d.routes.types();
      cache = new Map([...types, ...vendorTypes(types)].map((t) => [schemaId(t).toLowerCase(), t]));
    }
    return cache;
  }

  /**
   * The files of the store, by name: every type's JSON Schema (`<schema id>.json`), the vendor
   * types' CSDL (`<Type>_v1.xml`), and the odata-v4 definitions the JSON Schemas refer to.
   */
  function storeFile(file: string): StoreFile | undefined {
    if (!files) {
      files = new Map<string, StoreFile>([[ODATA_SCHEMA_FILE, { kind: 'odata' }]]);
      for (const type of schemas().values()) files.set(jsonSchemaFile(type), { kind: 'json', type });
      for (const type of vendorTypes(d.routes.types())) files.set(`${type.name}_v1.xml`, { kind: 'csdl', type });
    }
    return files.get(file);
  }

  function getSchemaStoreFile(ctx: Context<'/redfish/v1/SchemaStore/en/{File}'>) {
    const file = present(storeFile(ctx.params.File), ctx);
    switch (file.kind) {
      case 'csdl':
        return new RawReply(
          200,
          'application/xml; charset=utf-8',
          vendorCsdl(file.type, d.routes.actionDefs(), d.dialect.vendorActions === 'actions-oem'),
        );
      case 'json':
        return new RawReply(
          200,
          'application/json; charset=utf-8',
          JSON.stringify(servedJsonSchema(file.type, d.routes.actionDefs(), d.dialect.name)),
        );
      case 'odata':
        return new RawReply(200, 'application/json; charset=utf-8', JSON.stringify(odataJsonSchema()));
    }
  }
}

type StoreFile = { kind: 'json' | 'csdl'; type: ResourceType } | { kind: 'odata' };

export function registerSchemaRoutes(routes: RouteTable, d: SchemaDeps): void {
  // iLO's /redfish/v1/schemas/, or DMTF's /redfish/v1/JsonSchemas/ (the dialect's choice).
  const collection = d.dialect.jsonSchemasUri;
  const h = handlers(d);

  addCollection(routes, {
    collection,
    member: `${collection}{SchemaId}/`,
    type: JsonSchemaFileType,
    name: 'JSON Schemas',
    extra: () => ({ Description: 'Schemas of the types this service serves' }),
    store: { list: () => [...h.schemas().values()], get: (id) => h.schemas().get(id.toLowerCase()), id: schemaId },
    show: schemaFileBody,
    privileges: { read: Priv.login },
  });
  routes.add({
    path: '/redfish/v1/SchemaStore/en/{File}',
    file: true,
    // Schemas are public documents, like $metadata that references them.
    open: true,
    params: { File: (file) => h.storeFile(file) !== undefined },
    get: { privilege: Priv.login, handler: h.getSchemaStoreFile },
  });
}
