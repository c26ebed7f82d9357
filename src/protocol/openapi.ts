// The OpenAPI document (/redfish/v1/openapi.yaml, DSP0266 "OpenAPI"): every
// path of the route table with its methods, bodies, actions and credentials,
// derived from the same descriptions as $metadata. DMTF types are referenced
// in DMTF's published OpenAPI schema files; vendor types are included.
import { stringify } from 'yaml';
import { jsonSchemaUri, type ActionDef, type ResourceType } from './description.js';
import { actionParametersSchema, vendorJsonSchema, vendorTypes } from './metadata.js';
import type { DialectName } from './dialect.js';
import { actionPath, type MethodSpec, type ResourceRoute, type RouteTable } from './routes.js';

type Json = Record<string, unknown>;

const DMTF = 'http://redfish.dmtf.org/schemas/v1/';
const MESSAGES = { type: 'array', items: { $ref: `${DMTF}Message.v1_3_0.yaml#/components/schemas/Message_v1_3_0_Message` } };

/** The error body; a success message comes in the same envelope, code Base.1.12.Success. */
const BODIES = {
  RedfishError: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, '@Message.ExtendedInfo': MESSAGES },
      },
    },
  },
};

/** The component name DMTF gives a type's schema: "ComputerSystem_v1_20_0_ComputerSystem". */
function componentName(type: ResourceType, definition = type.name): string {
  return type.version ? `${type.name}_v${type.version.replace(/\./g, '_')}_${definition}` : `${type.name}_${definition}`;
}

function schemaRef(type: ResourceType): string {
  if (type.owner === 'Vendor') return `#/components/schemas/${componentName(type)}`;
  const file = type.version ? `${type.name}.v${type.version.replace(/\./g, '_')}.yaml` : `${type.name}.yaml`;
  return `${DMTF}${file}#/components/schemas/${componentName(type)}`;
}

/**
 * A vendor JSON Schema (metadata.ts) in OpenAPI 3.0's dialect: readOnly,
 * nullable instead of type lists, no patternProperties, and $refs pointing
 * into this document's components (or DMTF's OpenAPI files).
 */
function toOpenApi(value: unknown, owner: ResourceType | undefined, byFile: Map<string, ResourceType>): unknown {
  if (Array.isArray(value)) return value.map((v) => toOpenApi(v, owner, byFile));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    // Not OpenAPI schema keywords; an action's parameters are its path's request body instead.
    if (k === 'patternProperties' || k === 'requiredOnCreate' || k === 'parameters') continue;
    if (k === 'readonly') out.readOnly = v;
    else if (k === 'units') out['x-units'] = v;
    else if (k === 'type' && Array.isArray(v)) {
      out.type = v.find((t) => t !== 'null');
      out.nullable = true;
    } else if (k === '$ref' && typeof v === 'string') out.$ref = openApiRef(v, owner, byFile);
    else if (k === 'properties' && typeof v === 'object' && v !== null) {
      // A map of property names (which may look like keywords) to schemas.
      out.properties = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, toOpenApi(p, owner, byFile)]));
    } else out[k] = toOpenApi(v, owner, byFile);
  }
  return out;
}

function openApiRef(ref: string, owner: ResourceType | undefined, byFile: Map<string, ResourceType>): string {
  const [file, pointer = ''] = ref.split('#');
  const definition = pointer.replace('/definitions/', '');
  if (file === '') return owner ? `#/components/schemas/${componentName(owner, definition)}` : ref;
  if (file === `${DMTF}odata-v4.json`) return `${DMTF}odata-v4.yaml#/components/schemas/odata-v4_${definition}`;
  const vendor = byFile.get(file as string);
  if (vendor) return `#/components/schemas/${componentName(vendor, definition)}`;
  return ref;
}

const pathParams = (path: string) =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));

function security(spec: MethodSpec | undefined, route: ResourceRoute): Json {
  return spec?.open || route.open ? { security: [] } : {};
}

function json(schema: Json, description: string): Json {
  return { description, content: { 'application/json': { schema } } };
}

const ERRORS = { default: { $ref: '#/components/responses/error' } };

function actionOperation(route: ResourceRoute, def: ActionDef, byFile: Map<string, ResourceType>, dialect: DialectName): Json {
  // Parameters come with their named types written in place: no local references remain.
  const schema = toOpenApi(actionParametersSchema(def, dialect), undefined, byFile) as Json;
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return {
    post: {
      summary: `#${def.name}`,
      ...(def.description ? { description: def.description } : {}),
      requestBody: { required, content: { 'application/json': { schema } } },
      responses: {
        '200': { $ref: '#/components/responses/success' },
        '202': { description: 'Accepted: a task monitor is in the Location header.' },
        '204': { description: 'Success, no body.' },
        ...ERRORS,
      },
      ...security(undefined, route),
    },
  };
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

/** The document as an object, as a dialect offers the API; openApiYaml() gives the served text. */
export function openApiDocument(routes: RouteTable, info: OpenApiInfo, dialect: DialectName = 'spec'): Json {
  const vendor = vendorTypes(routes.types());
  const byFile = new Map(vendor.map((v) => [jsonSchemaUri(v), v]));
  const schemas: Json = { ...BODIES };
  for (const v of vendor) {
    const doc = vendorJsonSchema(v, routes.actionDefs(), dialect) as { definitions: Record<string, unknown> };
    for (const [name, def] of Object.entries(doc.definitions)) schemas[componentName(v, name)] = toOpenApi(def, v, byFile);
  }

  const paths: Json = {};
  for (const route of routes.routes()) {
    if (route.outside) continue;
    const item: Json = {};
    const params = pathParams(route.path);
    if (params.length) item.parameters = params;
    const type = route.type;
    const body = type ? { $ref: schemaRef(type) } : {};
    if (route.get) {
      item.get = {
        ...(type ? { description: type.description } : {}),
        responses: { '200': type ? json(body, `The ${type.name} resource.`) : { description: 'The document.' }, ...ERRORS },
        ...security(route.get, route),
      };
    }
    if (route.patch || route.put) {
      const update = {
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: {
          '200': type
            ? json(body, `The ${type.name} resource as it now is, or a success message.`)
            : { $ref: '#/components/responses/success' },
          '202': { description: 'Accepted: a task monitor is in the Location header.' },
          '204': { description: 'Success, no body.' },
          ...ERRORS,
        },
      };
      if (route.patch) item.patch = { ...update, ...security(route.patch, route) };
      if (route.put) item.put = { ...update, ...security(route.put, route) };
    }
    if (route.post) {
      const member = type?.memberType;
      const schema = route.post.stream
        ? { 'multipart/form-data': { schema: { type: 'object' } } }
        : { 'application/json': { schema: member ? { $ref: schemaRef(member) } : {} } };
      item.post = {
        requestBody: { required: true, content: schema },
        responses: {
          '201': member
            ? { ...json({ $ref: schemaRef(member) }, `The created ${member.name}; its URI is in the Location header.`) }
            : { description: 'Created.' },
          '200': { $ref: '#/components/responses/success' },
          '202': { description: 'Accepted: a task monitor is in the Location header.' },
          ...ERRORS,
        },
        ...security(route.post, route),
      };
    }
    if (route.delete)
      item.delete = { responses: { '200': { $ref: '#/components/responses/success' }, ...ERRORS }, ...security(route.delete, route) };
    if (Object.keys(item).some((k) => k !== 'parameters')) paths[route.path] = item;
    if (route.post && type?.memberType)
      paths[`${route.path}Members/`] = { ...(params.length ? { parameters: params } : {}), post: item.post };
    for (const a of route.actions ?? []) {
      paths[actionPath(route, a.def, 'oem-vendor', routes.naming)] = {
        ...(params.length ? { parameters: params } : {}),
        ...actionOperation(route, a.def, byFile, dialect),
      };
    }
  }

  return {
    openapi: '3.0.1',
    info,
    paths,
    components: {
      schemas,
      responses: {
        error: json({ $ref: '#/components/schemas/RedfishError' }, 'An error, with a registry message for each problem.'),
        success: json(
          { $ref: '#/components/schemas/RedfishError' },
          'Success: the same envelope, with code Base.1.12.Success and its message.',
        ),
      },
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        session: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
      },
    },
    security: [{ basic: [] }, { session: [] }],
  };
}

export function openApiYaml(routes: RouteTable, info: OpenApiInfo, dialect: DialectName = 'spec'): string {
  return stringify(openApiDocument(routes, info, dialect), { aliasDuplicateObjects: false, lineWidth: 0 });
}
