// JSON schema files (Versioning 5): one JsonSchemaFile per type served. DMTF
// types point to their published schemas; the vendor's own are served here.
import { Priv } from '../../lib/privileges.js';
import { addCollection } from '../../protocol/collections.js';
import { defineType, jsonSchemaUri, odataType, ro, t, type ResourceType, commonProps } from '../../protocol/description.js';
import { vendorCsdl, vendorJsonSchema, vendorTypes } from '../../protocol/metadata.js';
import { RawReply } from '../../protocol/reply.js';
import { present, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const SCHEMAS_URI = '/redfish/v1/schemas/';

export const JsonSchemaFileType = defineType({
  name: 'JsonSchemaFile',
  version: '1.1.4',
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
export type SchemaDeps = Pick<Services, 'rootLinks'>;

function schemaFileBody(type: ResourceType): Record<string, unknown> {
  const uri = jsonSchemaUri(type);
  return {
    Id: schemaId(type),
    Name: `${type.name} Schema File`,
    Description: type.description,
    Languages: ['en'],
    Schema: odataType(type),
    Location: [type.owner === 'DMTF' ? { Language: 'en', PublicationUri: uri } : { Language: 'en', Uri: uri }],
  };
}

function handlers(routes: RouteTable) {
  // Computed on first use: by then every area has registered its routes.
  let cache: Map<string, ResourceType> | undefined;
  return { schemas, vendorSchemaOf, getSchemaStoreFile };

  /** Every type served, by lower-case schema id. */
  function schemas(): Map<string, ResourceType> {
    if (!cache) {
      const types = routes.types();
      cache = new Map([...types, ...vendorTypes(types)].map((t) => [schemaId(t).toLowerCase(), t]));
    }
    return cache;
  }

  /** The vendor type a schema store file name names: `<Type>_v1.xml` (CSDL) or `<schema id>.json`. */
  function vendorSchemaOf(file: string): ResourceType | undefined {
    const m = /^(.+?)(?:_v1\.xml|\.json)$/.exec(file);
    if (!m) return undefined;
    return vendorTypes(routes.types()).find((t) => (file.endsWith('.xml') ? t.name === m[1] : schemaId(t) === m[1]));
  }

  function getSchemaStoreFile(ctx: Context<'/redfish/v1/SchemaStore/en/{File}'>) {
    const file = ctx.params.File;
    const vendor = present(vendorSchemaOf(file), ctx);
    return file.endsWith('.xml')
      ? new RawReply(200, 'application/xml; charset=utf-8', vendorCsdl(vendor, routes.actionDefs()))
      : new RawReply(200, 'application/json; charset=utf-8', JSON.stringify(vendorJsonSchema(vendor, routes.actionDefs())));
  }
}

export function registerSchemaRoutes(routes: RouteTable, d: SchemaDeps): void {
  d.rootLinks.JsonSchemas = SCHEMAS_URI;
  const h = handlers(routes);

  addCollection(routes, {
    collection: '/redfish/v1/schemas/',
    member: '/redfish/v1/schemas/{SchemaId}/',
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
    params: { File: (file) => h.vendorSchemaOf(file) !== undefined },
    get: { privilege: Priv.login, handler: h.getSchemaStoreFile },
  });
}
