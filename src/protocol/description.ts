// The single description of each resource type. Request validation,
// @odata.type, the Link header, $metadata, JSON Schema and the docs derive from it.

interface PropBase {
  readonly description?: string;
  /** Never writable by a client. */
  readonly readOnly?: boolean;
  /** Writable when the resource is created, read-only afterwards. */
  readonly createOnly?: boolean;
  /** Must be present when the resource is created (or the action invoked). */
  readonly required?: boolean;
  readonly nullable?: boolean;
  /** Accepted in writes, never returned (returned as null). */
  readonly writeOnly?: boolean;
  /** Changes without any client write (readings, clocks): left out of the ETag. */
  readonly volatile?: boolean;
  /** A credential or key: its value is never echoed in messages (write-only ones neither). */
  readonly secret?: boolean;
}

export interface StringProp extends PropBase {
  readonly type: 'string';
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: 'date-time' | 'uri' | 'uri-reference';
}
export interface NumberProp extends PropBase {
  readonly type: 'integer' | 'number';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly units?: string;
}
export interface BooleanProp extends PropBase {
  readonly type: 'boolean';
}
export interface ObjectProp extends PropBase {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Prop>>;
  /** Free-form members (e.g. BIOS Attributes): true, or a schema every extra member must meet. */
  readonly additionalProperties?: boolean | Prop;
  /** Name of the complex type in CSDL/JSON Schema, e.g. "Boot". */
  readonly typeName?: string;
  /** A vendor (Oem/Vendor) extension type described on its own; served as its own schema. */
  readonly vendorType?: ResourceType;
}
export interface ArrayProp extends PropBase {
  readonly type: 'array';
  readonly items: Prop;
  readonly maxItems?: number;
  readonly minItems?: number;
}
/** A reference {"@odata.id": "..."} to another resource. */
export interface LinkProp extends PropBase {
  readonly type: 'link';
  readonly target?: string;
}
export interface AnyProp extends PropBase {
  readonly type: 'any';
}

export type Prop = StringProp | NumberProp | BooleanProp | ObjectProp | ArrayProp | LinkProp | AnyProp;
export type Props = Readonly<Record<string, Prop>>;

export interface ActionDef {
  /** Full name without '#', e.g. "ComputerSystem.Reset" or "VendorComputerSystemExt.PowerButton". */
  readonly name: string;
  /** Vendor actions are listed under Oem/Vendor/Actions and routed under Actions/Oem/Vendor/. */
  readonly oem?: boolean;
  readonly description?: string;
  readonly parameters: Props;
}

export interface ResourceType {
  /** Schema name: "Session", "SessionCollection", "VendorServerChassis". */
  readonly name: string;
  /** Version of the schema, "1.7.0"; collections have none. */
  readonly version?: string;
  /** DMTF schemas are referenced by their published URIs; Vendor ones are served locally. */
  readonly owner: 'DMTF' | 'Vendor';
  readonly description: string;
  readonly properties: Props;
  /** For collections: the type of the members. */
  readonly memberType?: ResourceType;
  /** For collections whose schema marks Members OData.AutoExpand (LogEntryCollection): members are shown whole. */
  readonly autoExpand?: boolean;
  readonly actions?: readonly ActionDef[];
}

// -- constructors, so descriptions read short ---------------------------------

type Opt<P> = Omit<P, 'type'>;
export const t = {
  string: (o: Opt<StringProp> = {}): StringProp => ({ type: 'string', ...o }),
  enum: (values: readonly string[], o: Opt<StringProp> = {}): StringProp => ({ type: 'string', enum: values, ...o }),
  dateTime: (o: Opt<StringProp> = {}): StringProp => ({ type: 'string', format: 'date-time', ...o }),
  integer: (o: Opt<NumberProp> = {}): NumberProp => ({ type: 'integer', ...o }),
  number: (o: Opt<NumberProp> = {}): NumberProp => ({ type: 'number', ...o }),
  boolean: (o: Opt<BooleanProp> = {}): BooleanProp => ({ type: 'boolean', ...o }),
  object: (properties: Props, o: Opt<Omit<ObjectProp, 'properties'>> = {}): ObjectProp => ({
    type: 'object',
    properties,
    ...o,
  }),
  array: (items: Prop, o: Opt<Omit<ArrayProp, 'items'>> = {}): ArrayProp => ({ type: 'array', items, ...o }),
  link: (o: Opt<LinkProp> = {}): LinkProp => ({ type: 'link', ...o }),
  links: (o: Opt<Omit<ArrayProp, 'items'>> = {}): ArrayProp => ({ type: 'array', items: { type: 'link' }, ...o }),
  any: (o: Opt<AnyProp> = {}): AnyProp => ({ type: 'any', ...o }),
};

/** Read-only variants of everything, for the many properties clients only read. */
export function ro<P extends Prop>(p: P): P {
  return { ...p, readOnly: true };
}

/** The common Id/Name/Description trio (read-only). */
export const commonProps: Props = {
  Id: t.string({ readOnly: true }),
  Name: t.string({ readOnly: true }),
  Description: t.string({ readOnly: true }),
};

export const statusProp = t.object(
  {
    State: t.enum(['Enabled', 'Disabled', 'StandbyOffline', 'StandbySpare', 'InTest', 'Starting', 'Absent', 'UnavailableOffline', 'Deferring', 'Quiesced', 'Updating', 'Qualified'], { readOnly: true }),
    Health: t.enum(['OK', 'Warning', 'Critical'], { readOnly: true, nullable: true }),
    HealthRollup: t.enum(['OK', 'Warning', 'Critical'], { readOnly: true, nullable: true }),
  },
  { readOnly: true, typeName: 'Status' },
);

export function defineType(type: ResourceType): ResourceType {
  return type;
}

/** The object under Oem/Vendor, described by its own vendor type. */
export function vendorObject(type: ResourceType, o: { readOnly?: boolean } = {}): ObjectProp {
  return { type: 'object', properties: type.properties, vendorType: type, typeName: type.name, ...o };
}

/** The usual `Oem: { Vendor: {...} }` wrapper. */
export function oem(type: ResourceType, o: { readOnly?: boolean } = {}): ObjectProp {
  return t.object({ Vendor: vendorObject(type, o) }, { ...o, typeName: 'Oem' });
}

/** A collection type for members of `member`, named `<Member>Collection`. */
export function collectionOf(
  member: ResourceType,
  description = `A collection of ${member.name} resources.`,
  o: { autoExpand?: boolean } = {},
): ResourceType {
  return {
    name: `${member.name}Collection`,
    owner: member.owner,
    description,
    memberType: member,
    autoExpand: o.autoExpand,
    properties: {
      Name: t.string({ readOnly: true }),
      Description: t.string({ readOnly: true }),
      Members: t.links({ readOnly: true }),
      'Members@odata.count': t.integer({ readOnly: true }),
      'Members@odata.nextLink': t.string({ readOnly: true, format: 'uri-reference' }),
      Oem: t.object({}, { readOnly: true, additionalProperties: true }),
    },
  };
}

/** "#Session.v1_7_0.Session" or "#SessionCollection.SessionCollection". */
export function odataType(type: ResourceType): string {
  return type.version
    ? `#${type.name}.v${type.version.replace(/\./g, '_')}.${type.name}`
    : `#${type.name}.${type.name}`;
}

/** Where the JSON Schema of a type is published (DMTF) or served (Vendor). */
export function jsonSchemaUri(type: ResourceType): string {
  const file = type.version ? `${type.name}.v${type.version.replace(/\./g, '_')}.json` : `${type.name}.json`;
  return type.owner === 'DMTF'
    ? `http://redfish.dmtf.org/schemas/v1/${file}`
    : `/redfish/v1/SchemaStore/en/${file}`;
}

/** Where the CSDL of a type is published (DMTF) or served (Vendor). */
export function csdlUri(type: ResourceType): string {
  return type.owner === 'DMTF'
    ? `http://redfish.dmtf.org/schemas/v1/${type.name}_v1.xml`
    : `/redfish/v1/SchemaStore/en/${type.name}_v1.xml`;
}
