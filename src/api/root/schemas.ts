// JSON schema files (Versioning 5): one JsonSchemaFile per type served. DMTF
// types point to their published schemas; the vendor's own are served here.
import { Priv } from '../../lib/privileges.js';
import { baseError } from '../../messages/errors.js';
import { collectionOf, defineType, jsonSchemaUri, odataType, ro, t, type ResourceType, commonProps } from '../../protocol/description.js';
import { vendorCsdl, vendorJsonSchema, vendorTypes } from '../../protocol/metadata.js';
import { RawReply, collection } from '../../protocol/reply.js';
import { present, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const SCHEMAS_URI = '/redfish/v1/schemas/';
const SCHEMA_STORE = '/redfish/v1/SchemaStore/en/';

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

export function registerSchemaRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.JsonSchemas = SCHEMAS_URI;
  // Computed on first use: by then every area has registered its routes.
  let cache: Map<string, ResourceType> | undefined;
  const all = () => {
    if (!cache) {
      const types = routes.types();
      cache = new Map([...types, ...vendorTypes(types)].map((t) => [schemaId(t).toLowerCase(), t]));
    }
    return cache;
  };
  /** The vendor type a schema store file name names: `<Type>_v1.xml` (CSDL) or `<schema id>.json`. */
  const vendorSchemaOf = (file: string): ResourceType | undefined => {
    const m = /^(.+?)(?:_v1\.xml|\.json)$/.exec(file);
    if (!m) return undefined;
    return vendorTypes(routes.types()).find((t) => (file.endsWith('.xml') ? t.name === m[1] : schemaId(t) === m[1]));
  };

  routes.add({
    path: SCHEMAS_URI,
    type: collectionOf(JsonSchemaFileType),
    get: {
      privilege: Priv.login,
      handler: () =>
        collection('JSON Schemas', [...all().values()].map((t) => `${SCHEMAS_URI}${schemaId(t)}/`), {
          Description: 'Schemas of the types this service serves',
        }),
    },
  });

  routes.add({
    path: `${SCHEMAS_URI}{SchemaId}/`,
    type: JsonSchemaFileType,
    params: { SchemaId: (id) => all().has(id.toLowerCase()) },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const type = present(all().get((ctx.params.SchemaId ?? '').toLowerCase()), ctx);
        const uri = jsonSchemaUri(type);
        return {
          Id: schemaId(type),
          Name: `${type.name} Schema File`,
          Description: type.description,
          Languages: ['en'],
          Schema: odataType(type),
          Location: [type.owner === 'DMTF' ? { Language: 'en', PublicationUri: uri } : { Language: 'en', Uri: uri }],
        };
      },
    },
  });

  routes.add({
    path: `${SCHEMA_STORE}{File}`,
    file: true,
    // Schemas are public documents, like $metadata that references them.
    open: true,
    params: { File: (file) => vendorSchemaOf(file) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const file = ctx.params.File ?? '';
        const vendor = present(vendorSchemaOf(file), ctx);
        return file.endsWith('.xml')
          ? new RawReply(200, 'application/xml; charset=utf-8', vendorCsdl(vendor, routes.actionDefs()))
          : new RawReply(200, 'application/json; charset=utf-8', JSON.stringify(vendorJsonSchema(vendor, routes.actionDefs())));
      },
    },
  });
}
