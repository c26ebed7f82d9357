// $metadata (CSDL), the OData service document, and JSON Schema/CSDL files
// for the vendor's own types: all derived from the resource descriptions.
import type { ActionDef, ObjectProp, Prop, Props, ResourceType } from './description.js';
import { actionNames, csdlUri, enumIn, jsonSchemaUri, localJsonSchemaUri, odataType, offeredIn, SCHEMA_STORE, t } from './description.js';
import type { DialectName } from './dialect.js';

const COMMON_NAMESPACES: readonly [string, string[]][] = [
  ['RedfishExtensions_v1.xml', ['RedfishExtensions.v1_0_0']],
  ['Resource_v1.xml', ['Resource', 'Resource.v1_0_0']],
  ['Message_v1.xml', ['Message', 'Message.v1_0_0']],
  ['Settings_v1.xml', ['Settings', 'Settings.v1_0_0']],
];

function versionedNamespace(type: ResourceType): string {
  return type.version ? `${type.name}.v${type.version.replace(/\./g, '_')}` : type.name;
}

/** Every vendor type reachable from the served types through vendorType links. */
export function vendorTypes(types: readonly ResourceType[]): ResourceType[] {
  const found = new Map<string, ResourceType>();
  const visitProps = (props: Props) => {
    for (const p of Object.values(props)) visitProp(p);
  };
  const visitProp = (p: Prop): void => {
    if (p.type === 'object') {
      if (p.vendorType && !found.has(p.vendorType.name)) {
        found.set(p.vendorType.name, p.vendorType);
        visitProps(p.vendorType.properties);
      }
      visitProps(p.properties);
    } else if (p.type === 'array') {
      visitProp(p.items);
    }
  };
  for (const t of types) {
    if (t.owner === 'Vendor') found.set(t.name, t);
    visitProps(t.properties);
  }
  return [...found.values()];
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function metadataXml(types: readonly ResourceType[], serviceRoot: ResourceType): string {
  const refs: string[] = [];
  for (const [file, namespaces] of COMMON_NAMESPACES) {
    refs.push(
      reference(`http://redfish.dmtf.org/schemas/v1/${file}`, namespaces, file.startsWith('RedfishExtensions') ? 'Redfish' : undefined),
    );
  }
  for (const t of types) {
    if (t.owner === 'Vendor') continue;
    refs.push(reference(csdlUri(t), t.version ? [t.name, versionedNamespace(t)] : [t.name]));
  }
  for (const v of vendorTypes(types)) refs.push(reference(csdlUri(v), [v.name, versionedNamespace(v)]));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">',
    ...refs,
    '  <edmx:DataServices>',
    '    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="Service">',
    `      <EntityContainer Name="Service" Extends="${versionedNamespace(serviceRoot)}.ServiceContainer"/>`,
    '    </Schema>',
    '  </edmx:DataServices>',
    '</edmx:Edmx>',
    '',
  ].join('\n');
}

function reference(uri: string, namespaces: string[], alias?: string): string {
  const includes = namespaces.map((n, i) =>
    i === 0 && alias ? `    <edmx:Include Namespace="${n}" Alias="${alias}"/>` : `    <edmx:Include Namespace="${n}"/>`,
  );
  return [`  <edmx:Reference Uri="${xmlEscape(uri)}">`, ...includes, '  </edmx:Reference>'].join('\n');
}

const EDM: Record<string, string> = {
  string: 'Edm.String',
  integer: 'Edm.Int64',
  number: 'Edm.Decimal',
  boolean: 'Edm.Boolean',
  any: 'Edm.PrimitiveType',
};

/**
 * A vendor type's properties as served: the protocol layer may add an Actions
 * object (its own actions, or vendor actions under Oem/Vendor), so every
 * vendor type declares one, open to any action.
 */
function servedProperties(type: ResourceType): Props {
  if (type.properties.Actions) return type.properties;
  // Oem: where the DMTF dialect lists vendor actions (Actions/Oem).
  const oemActions = t.object({}, { readOnly: true, additionalProperties: true, typeName: 'OemActions' });
  return {
    ...type.properties,
    Actions: t.object({ Oem: oemActions }, { readOnly: true, additionalProperties: true, typeName: 'Actions' }),
  };
}

/**
 * The actions named in a type's namespace ("VendorHttpsCert.GenerateCSR" belongs to VendorHttpsCert)
 * that sit in a resource's Actions object. Vendor actions shown under Oem/Vendor/Actions (the
 * spec dialect's layout, iLO's) are left out: DMTF's validator accepts declared OEM actions only under
 * Actions/Oem, and fails declared ones anywhere else, where undeclared ones only warn.
 */
function actionsOf(type: ResourceType, actions: readonly ActionDef[]): ActionDef[] {
  return actions.filter((a) => !a.oem && a.name.slice(0, a.name.lastIndexOf('.')) === type.name);
}

/**
 * Bound actions, as DMTF declares them: in the unversioned namespace, bound to the type's Actions.
 * Vendor actions are declared too where the dialect shows them under Actions/Oem (DMTF's place,
 * where DMTF's validator looks them up); see actionsOf for why not under Oem/Vendor/Actions.
 */
function csdlActions(type: ResourceType, actions: readonly ActionDef[], ns: string, complex: string[], vendor: boolean): string[] {
  const declared = vendor ? actions.filter((a) => a.name.slice(0, a.name.lastIndexOf('.')) === type.name) : actionsOf(type, actions);
  return declared.flatMap((a) => [
    `      <Action Name="${a.name.slice(a.name.lastIndexOf('.') + 1)}" IsBound="true">`,
    ...(a.description ? [`        <Annotation Term="OData.Description" String="${xmlEscape(a.description)}"/>`] : []),
    `        <Parameter Name="${type.name}" Type="${ns}.Actions"/>`,
    ...Object.entries(a.parameters).map(
      ([name, p]) => `        <Parameter Name="${name}" Type="${csdlType(name, p, ns, complex)}"${p.required ? ' Nullable="false"' : ''}/>`,
    ),
    '      </Action>',
  ]);
}

/** CSDL of a vendor type: the entity or complex type and its parts, and the actions of its namespace. */
export function vendorCsdl(type: ResourceType, actions: readonly ActionDef[] = [], vendorActions = false): string {
  const ns = versionedNamespace(type);
  const complex: string[] = [];
  const props = csdlProperties(servedProperties(type), ns, complex, '        ');
  const bound = csdlActions(type, actions, ns, complex, vendorActions);
  const isEntity = Boolean(type.properties['@odata.id'] || type.properties.Id);
  const kind = isEntity ? 'EntityType' : 'ComplexType';
  const base = isEntity ? ' BaseType="Resource.v1_0_0.Resource"' : ' BaseType="Resource.OemObject"';
  // Collections are unversioned: one namespace, one entity type derived from ResourceCollection.
  // Other types: an abstract base in the unversioned namespace, the properties in the versioned one.
  const schemas = type.version
    ? [
        `    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${type.name}">`,
        `      <${kind} Name="${type.name}"${base} Abstract="true"/>`,
        ...bound,
        '    </Schema>',
        `    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${ns}">`,
        `      <${kind} Name="${type.name}" BaseType="${type.name}.${type.name}">`,
      ]
    : [
        `    <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="${type.name}">`,
        ...bound,
        `      <EntityType Name="${type.name}" BaseType="Resource.v1_0_0.ResourceCollection">`,
      ];
  const close = type.version ? `      </${kind}>` : '      </EntityType>';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">',
    reference('http://redfish.dmtf.org/schemas/v1/RedfishExtensions_v1.xml', ['RedfishExtensions.v1_0_0'], 'Redfish'),
    reference('http://redfish.dmtf.org/schemas/v1/Resource_v1.xml', ['Resource', 'Resource.v1_0_0']),
    '  <edmx:DataServices>',
    ...schemas,
    `        <Annotation Term="OData.Description" String="${xmlEscape(type.description)}"/>`,
    props,
    close,
    ...complex,
    '    </Schema>',
    '  </edmx:DataServices>',
    '</edmx:Edmx>',
    '',
  ].join('\n');
}

function csdlProperties(props: Props, ns: string, complex: string[], indent: string): string {
  return Object.entries(props)
    .filter(([name]) => !name.includes('@'))
    .map(([name, p]) => csdlProperty(name, p, ns, complex, indent))
    .join('\n');
}

function csdlProperty(name: string, p: Prop, ns: string, complex: string[], indent: string): string {
  const perm = p.readOnly ? 'OData.Permission/Read' : 'OData.Permission/ReadWrite';
  const nullable = p.nullable ? '' : ' Nullable="false"';
  const typeName = csdlType(name, p, ns, complex);
  const lines = [
    `${indent}<Property Name="${name}" Type="${typeName}"${p.type === 'array' ? '' : nullable}>`,
    `${indent}  <Annotation Term="OData.Permissions" EnumMember="${perm}"/>`,
  ];
  if (p.description) lines.push(`${indent}  <Annotation Term="OData.Description" String="${xmlEscape(p.description)}"/>`);
  if (p.type === 'integer' || p.type === 'number') {
    if (p.minimum !== undefined) lines.push(`${indent}  <Annotation Term="Validation.Minimum" Int="${p.minimum}"/>`);
    if (p.maximum !== undefined) lines.push(`${indent}  <Annotation Term="Validation.Maximum" Int="${p.maximum}"/>`);
  }
  if (p.type === 'string' && p.pattern) lines.push(`${indent}  <Annotation Term="Validation.Pattern" String="${xmlEscape(p.pattern)}"/>`);
  lines.push(`${indent}</Property>`);
  return lines.join('\n');
}

function csdlType(name: string, p: Prop, ns: string, complex: string[]): string {
  switch (p.type) {
    case 'array':
      return `Collection(${csdlType(name, p.items, ns, complex)})`;
    case 'link':
      return 'Resource.Item';
    case 'object': {
      if (p.vendorType) return `${versionedNamespace(p.vendorType)}.${p.vendorType.name}`;
      const typeName = p.typeName ?? name;
      complex.push(complexType(typeName, p, ns, complex));
      return `${ns}.${typeName}`;
    }
    case 'string':
      return p.format === 'date-time' ? 'Edm.DateTimeOffset' : 'Edm.String';
    default:
      return EDM[p.type] ?? 'Edm.String';
  }
}

function complexType(name: string, p: ObjectProp, ns: string, complex: string[]): string {
  const open = p.additionalProperties ? ' OpenType="true"' : '';
  return [`      <ComplexType Name="${name}"${open}>`, csdlProperties(p.properties, ns, complex, '        '), '      </ComplexType>'].join(
    '\n',
  );
}

// -- JSON Schema -------------------------------------------------------------

/** Annotations any object may carry. */
const ANNOTATIONS = { '^([a-zA-Z_][a-zA-Z0-9_]*)?@(odata|Redfish|Message)\\.[a-zA-Z_][a-zA-Z0-9_]*$': {} };

/**
 * Where a JSON Schema's references point: DMTF's published odata-v4 document and each type's
 * published (DMTF) or served (Vendor) schema; or, in the documents the schema store serves,
 * only documents of that store, so a client without internet resolves every reference.
 */
interface SchemaRefs {
  readonly odata: string;
  readonly typeUri: (type: ResourceType) => string;
  readonly id: (type: ResourceType) => string;
}

const PUBLISHED_REFS: SchemaRefs = {
  odata: 'http://redfish.dmtf.org/schemas/v1/odata-v4.json',
  typeUri: jsonSchemaUri,
  id: jsonSchemaUri,
};

/** The schema store's own copy of the odata-v4 definitions the served schemas refer to. */
export const ODATA_SCHEMA_FILE = 'odata-v4.json';

const LOCAL_REFS: SchemaRefs = {
  odata: `${SCHEMA_STORE}${ODATA_SCHEMA_FILE}`,
  typeUri: localJsonSchemaUri,
  id: localJsonSchemaUri,
};

/** The odata-v4 definitions the served schemas use, as the service writes them. */
export function odataJsonSchema(): object {
  const uriRef = (description: string) => ({ type: 'string', format: 'uri-reference', readonly: true, description });
  return {
    $id: LOCAL_REFS.odata,
    title: 'OData annotations and references',
    definitions: {
      idRef: {
        type: 'object',
        description: 'A reference to a resource.',
        additionalProperties: false,
        properties: { '@odata.id': uriRef('The unique identifier of a resource.') },
      },
      id: uriRef('The unique identifier of a resource.'),
      context: uriRef('The OData description of a payload.'),
      type: { type: 'string', readonly: true, description: 'The type of a resource.' },
      etag: { type: 'string', readonly: true, description: 'The current ETag of the resource.' },
      count: { type: 'integer', readonly: true, description: 'The number of items in a collection.' },
      nextLink: uriRef('The URI to the resource containing the next set of partial members.'),
    },
  };
}

/** What a JSON Schema is built with: its named definitions, where its references point, and the dialect it describes. */
interface Build {
  readonly definitions: Record<string, object>;
  readonly refs: SchemaRefs;
  readonly dialect: DialectName;
}

const build = (refs: SchemaRefs, dialect: DialectName): Build => ({ definitions: {}, refs, dialect });

/** A vendor type's JSON Schema, its references pointing where the types are published (as OpenAPI uses it). */
export function vendorJsonSchema(type: ResourceType, actions: readonly ActionDef[] = [], dialect: DialectName = 'spec'): object {
  return typeJsonSchema(type, actions, build(PUBLISHED_REFS, dialect));
}

/** The JSON Schema the schema store serves for any type (DMTF or Vendor): every reference within the store. */
export function servedJsonSchema(type: ResourceType, actions: readonly ActionDef[] = [], dialect: DialectName = 'spec'): object {
  return typeJsonSchema(type, actions, build(LOCAL_REFS, dialect));
}

function typeJsonSchema(type: ResourceType, actions: readonly ActionDef[], b: Build): object {
  const { definitions, refs } = b;
  definitions[type.name] = jsonObject(servedProperties(type), false, b, type.description);
  if (type.autoExpand && type.memberType) autoExpandedMembers(definitions[type.name] as JsonObject, type.memberType, b);
  // Its actions, as DMTF's schemas show them: a "#Name" property of Actions, its parameters listed.
  const own = actionsOf(type, actions);
  if (own.length) {
    const entries: Record<string, object> = {};
    for (const a of own) {
      const short = a.name.slice(a.name.lastIndexOf('.') + 1);
      const parameters: Record<string, object> = {};
      for (const [name, p] of Object.entries(a.parameters))
        if (offeredIn(p, b.dialect)) parameters[name] = { ...jsonProp(p, b), ...(p.required ? { requiredParameter: true } : {}) };
      definitions[short] = {
        type: 'object',
        ...(a.description ? { description: a.description } : {}),
        additionalProperties: false,
        parameters,
        patternProperties: ANNOTATIONS,
        properties: {
          target: { type: 'string', format: 'uri-reference', readonly: true, description: 'Link to invoke action' },
          title: { type: 'string', readonly: true, description: 'Friendly action name' },
        },
      };
      entries[`#${a.name}`] = { $ref: `#/definitions/${short}` };
    }
    const holder = (definitions.Actions ??= jsonObject({}, true, b)) as { properties: Record<string, object> };
    Object.assign(holder.properties, entries);
  }
  return {
    $id: refs.id(type),
    $schema: 'http://redfish.dmtf.org/schemas/v1/redfish-schema-v1.json',
    title: odataType(type),
    $ref: `#/definitions/${type.name}`,
    definitions,
  };
}

type JsonObject = { properties: Record<string, { items?: object }> };

/** OData.AutoExpand: a member is shown whole (or left a reference when it cannot be shown), as DMTF's schemas allow. */
function autoExpandedMembers(collection: JsonObject, member: ResourceType, b: Build): void {
  const members = collection.properties.Members;
  if (!members?.items) throw new Error(`${member.name}: an auto-expanded collection needs Members`);
  members.items = { anyOf: [members.items, { $ref: `${b.refs.typeUri(member)}#/definitions/${member.name}` }] };
}

function jsonObject(props: Props, additional: boolean | Prop, b: Build, description?: string): object {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (!offeredIn(p, b.dialect)) continue;
    properties[name] = jsonProp(p, b);
    if (p.required) required.push(name);
  }
  return {
    type: 'object',
    ...(description ? { description } : {}),
    additionalProperties: additional === true ? true : additional ? jsonProp(additional, b) : false,
    patternProperties: ANNOTATIONS,
    properties,
    ...(required.length ? { requiredOnCreate: required } : {}),
  };
}

function jsonProp(p: Prop, b: Build): object {
  const common = {
    ...(p.description ? { description: p.description } : {}),
    readonly: Boolean(p.readOnly),
    // As DMTF's JSON Schemas say it.
    ...(p.deprecated ? { deprecated: `This property has been deprecated in favor of ${p.deprecated}.` } : {}),
  };
  const shape = jsonShape(p, b);
  // A scalar says null in its type (and its enum); a reference, object or array is one of two, as DMTF writes it.
  if (!p.nullable || p.type === 'any' || typeof shape.type === 'object') return { ...common, ...shape };
  return { ...common, anyOf: [shape, { type: 'null' }] };
}

/** What a property's values are, without its description and marks; a scalar's type already admits null when it is nullable. */
function jsonShape(p: Prop, b: Build): Record<string, unknown> {
  const { definitions, refs } = b;
  const nullable = (t: string) => (p.nullable ? [t, 'null'] : t);
  switch (p.type) {
    case 'string': {
      const values = enumIn(p, b.dialect);
      return {
        type: nullable('string'),
        ...(values ? { enum: p.nullable ? [...values, null] : [...values] } : {}),
        ...(p.pattern ? { pattern: p.pattern } : {}),
        ...(p.format ? { format: p.format } : {}),
        ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
        ...(p.minLength !== undefined ? { minLength: p.minLength } : {}),
      };
    }
    case 'integer':
    case 'number':
      return {
        type: nullable(p.type),
        ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
        ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
        ...(p.units ? { units: p.units } : {}),
      };
    case 'boolean':
      return { type: nullable('boolean') };
    case 'link':
      // DMTF's idRef, and the @odata.id the service requires in a reference it is sent.
      return { allOf: [{ $ref: `${refs.odata}#/definitions/idRef` }, { required: ['@odata.id'] }] };
    case 'array':
      return { type: 'array', items: jsonProp(p.items, b), ...(p.maxItems !== undefined ? { maxItems: p.maxItems } : {}) };
    case 'object':
      if (p.vendorType) return { $ref: `${refs.typeUri(p.vendorType)}#/definitions/${p.vendorType.name}` };
      if (p.typeName) {
        const shape = jsonObject(p.properties, p.additionalProperties ?? false, b, p.description);
        const known = definitions[p.typeName];
        // One name, one shape: a second object of the same name would be read as the first.
        if (known && JSON.stringify(known) !== JSON.stringify(shape))
          throw new Error(`two different objects are named ${p.typeName} in one schema`);
        definitions[p.typeName] = shape;
        return { $ref: `#/definitions/${p.typeName}` };
      }
      return jsonObject(p.properties, p.additionalProperties ?? false, b) as Record<string, unknown>;
    case 'any':
      return {};
  }
}

/** An action's parameters as one JSON Schema object, as a dialect offers them, with named object types written in place. */
export function actionParametersSchema(def: ActionDef, dialect: DialectName = 'spec'): object {
  const b = build(PUBLISHED_REFS, dialect);
  const definitions = b.definitions;
  const inline = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(inline);
    if (typeof v !== 'object' || v === null) return v;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) return inline(definitions[ref.slice('#/definitions/'.length)]);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inline(x)]));
  };
  // Every action takes an Action member naming it (iLO clients send one), as validation checks.
  const properties: Record<string, object> = { Action: { type: 'string', enum: actionNames(def) } };
  const required: string[] = [];
  for (const [name, p] of Object.entries(def.parameters)) {
    if (!offeredIn(p, dialect)) continue;
    properties[name] = jsonProp(p, b);
    if (p.required) required.push(name);
  }
  return inline({ type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) }) as object;
}

/** The OData service document: the root and its top-level resources. */
export function serviceDocument(topLevel: Record<string, string>): object {
  return {
    '@odata.context': '/redfish/v1/$metadata',
    value: Object.entries(topLevel).map(([name, url]) => ({ name, kind: 'Singleton', url })),
  };
}
