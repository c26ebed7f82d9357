// The single description of each resource type. Request validation,
// @odata.type, the Link header, $metadata, JSON Schema and the docs derive from it.
import type { DialectName } from './dialect.js';
import { OEM, type Oem } from '../lib/oem-token.js';

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
  /** Deprecated by DMTF: what replaces it. The DMTF dialect leaves it out; schemas mark it. */
  readonly deprecated?: string;
  /**
   * Offered in this dialect only (what DMTF's newer releases add and iLO lacks): the other one
   * leaves it out of what it serves and of its schemas, and refuses it in writes as unknown.
   */
  readonly onlyIn?: DialectName;
}

export interface StringProp<V extends string = string> extends PropBase {
  readonly type: 'string';
  readonly enum?: readonly V[];
  /** Enum values offered in one dialect only: the other refuses them and leaves them out of allowable values and schemas. */
  readonly enumOnlyIn?: Readonly<Partial<Record<V, DialectName>>>;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: 'date-time' | 'uri' | 'uri-reference';
  /** date-time: a time without an offset is also accepted, read on the controller's clock (iLO's schedule times). */
  readonly offsetOptional?: boolean;
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
export interface ObjectProp<P extends Props = Props> extends PropBase {
  readonly type: 'object';
  readonly properties: P;
  /** Free-form members (e.g. BIOS Attributes): true, or a schema every extra member must meet. */
  readonly additionalProperties?: boolean | Prop;
  /** Name of the complex type in CSDL/JSON Schema, e.g. "Boot". */
  readonly typeName?: string;
  /** A vendor (Oem/Vendor) extension type described on its own; served as its own schema. */
  readonly vendorType?: ResourceType;
}
export interface ArrayProp<I extends Prop = Prop> extends PropBase {
  readonly type: 'array';
  readonly items: I;
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

export interface ActionDef<P extends Props = Props> {
  /** Full name without '#', e.g. "ComputerSystem.Reset" or "VendorComputerSystemExt.PowerButton". */
  readonly name: string;
  /** Vendor actions are listed under Oem/Vendor/Actions and routed under Actions/Oem/Vendor/. */
  readonly oem?: boolean;
  readonly description?: string;
  readonly parameters: P;
}

export interface ResourceType<P extends Props = Props, M extends ResourceType | undefined = ResourceType<Props, any> | undefined> {
  /** Schema name: "Session", "SessionCollection", "VendorServerChassis". */
  readonly name: string;
  /** Version of the schema, "1.7.0"; collections have none. */
  readonly version?: string;
  /** DMTF schemas are referenced by their published URIs; the vendor's (OEM) are served locally. */
  readonly owner: 'DMTF' | Oem;
  readonly description: string;
  readonly properties: P;
  /** For collections: the type of the members. */
  readonly memberType?: M;
  /** For collections whose schema marks Members OData.AutoExpand (LogEntryCollection): members are shown whole. */
  readonly autoExpand?: boolean;
  readonly actions?: readonly ActionDef[];
}

// -- constructors, so descriptions read short ---------------------------------
// Each keeps the literal options it is given (`required: true`, enum values), so
// the static type of a request body follows from the description (BodyOf). NoInfer:
// inside a description the contextual type (Prop) must not widen them.

type Opt<P> = Omit<P, 'type'>;
/** No options given. */
type None = Record<never, never>;
export const t = {
  string: <const O extends Opt<StringProp> = None>(o: O = {} as O): StringProp & NoInfer<O> => ({ type: 'string', ...o }),
  enum: <const V extends string, const O extends Opt<Omit<StringProp, 'enum'>> = None>(
    values: readonly V[],
    o: O = {} as O,
  ): StringProp<NoInfer<V>> & NoInfer<O> => ({
    type: 'string',
    enum: values,
    ...o,
  }),
  dateTime: <const O extends Opt<StringProp> = None>(o: O = {} as O): StringProp & NoInfer<O> => ({
    type: 'string',
    format: 'date-time',
    ...o,
  }),
  integer: <const O extends Opt<NumberProp> = None>(o: O = {} as O): NumberProp & NoInfer<O> => ({ type: 'integer', ...o }),
  number: <const O extends Opt<NumberProp> = None>(o: O = {} as O): NumberProp & NoInfer<O> => ({ type: 'number', ...o }),
  boolean: <const O extends Opt<BooleanProp> = None>(o: O = {} as O): BooleanProp & NoInfer<O> => ({ type: 'boolean', ...o }),
  object: <const P extends Props, const O extends Opt<Omit<ObjectProp, 'properties'>> = None>(
    properties: P,
    o: O = {} as O,
  ): ObjectProp<NoInfer<P>> & NoInfer<O> => ({
    type: 'object',
    properties,
    ...o,
  }),
  array: <const I extends Prop, const O extends Opt<Omit<ArrayProp, 'items'>> = None>(
    items: I,
    o: O = {} as O,
  ): ArrayProp<NoInfer<I>> & NoInfer<O> => ({
    type: 'array',
    items,
    ...o,
  }),
  link: <const O extends Opt<LinkProp> = None>(o: O = {} as O): LinkProp & NoInfer<O> => ({ type: 'link', ...o }),
  links: <const O extends Opt<Omit<ArrayProp, 'items'>> = None>(o: O = {} as O): ArrayProp<LinkProp> & NoInfer<O> => ({
    type: 'array',
    items: { type: 'link' },
    ...o,
  }),
  any: <const O extends Opt<AnyProp> = None>(o: O = {} as O): AnyProp & NoInfer<O> => ({ type: 'any', ...o }),
};

/** Whether a dialect offers a property (see `onlyIn`). */
export function offeredIn(p: Prop, dialect: DialectName): boolean {
  return p.onlyIn === undefined || p.onlyIn === dialect;
}

/** The enum values a dialect offers (see `enumOnlyIn`): what it accepts and shows as allowable. */
export function enumIn<V extends string>(p: StringProp<V>, dialect: DialectName): readonly V[] | undefined {
  const only = p.enumOnlyIn;
  if (!p.enum || !only) return p.enum;
  return p.enum.filter((v) => (only[v] ?? dialect) === dialect);
}

/** Read-only variants of everything, for the many properties clients only read. */
export function ro<P extends Prop>(p: P): P & { readonly readOnly: true } {
  return { ...p, readOnly: true };
}

// -- the static type of a validated request body --------------------------------
// What validateBody lets through, as a type: read-only properties never arrive,
// required ones always do when creating (POST, actions), nothing is required in
// a PATCH, null only where the description allows it.

type NullOf<T> = T extends { readonly nullable: true } ? (T extends { readonly required: true } ? never : null) : never;
type ExtraOf<T, Mode extends 'patch' | 'create'> = T extends { readonly additionalProperties: true }
  ? Record<string, unknown>
  : T extends { readonly additionalProperties: infer A extends Prop }
    ? Record<string, ValueOf<A, Mode>>
    : unknown;

/** The JSON value a property accepts. */
export type ValueOf<T, Mode extends 'patch' | 'create'> =
  | (T extends StringProp<infer V>
      ? V
      : T extends NumberProp
        ? number
        : T extends BooleanProp
          ? boolean
          : T extends LinkProp
            ? { '@odata.id': string }
            : T extends ArrayProp<infer I>
              ? ValueOf<I, Mode>[]
              : T extends ObjectProp<infer Q>
                ? BodyOf<Q, Mode> & ExtraOf<T, Mode>
                : unknown)
  | NullOf<T>;

type WritableKeys<P> = { [K in keyof P]: P[K] extends { readonly readOnly: true } ? never : K }[keyof P];
/** What a PATCH may send: neither read-only nor create-only properties. */
type PatchableKeys<P> = { [K in WritableKeys<P>]: P[K] extends { readonly createOnly: true } ? never : K }[WritableKeys<P>];
type RequiredKeys<P> = { [K in WritableKeys<P>]: P[K] extends { readonly required: true } ? K : never }[WritableKeys<P>];

/** A validated body for these properties: all optional in a PATCH, the required ones present on create. */
export type BodyOf<P, Mode extends 'patch' | 'create' = 'create'> = Mode extends 'patch'
  ? { [K in PatchableKeys<P>]?: ValueOf<P[K], Mode> }
  : { [K in RequiredKeys<P>]: ValueOf<P[K], Mode> } & { [K in Exclude<WritableKeys<P>, RequiredKeys<P>>]?: ValueOf<P[K], Mode> };

/** The common Id/Name/Description trio (read-only). */
export const commonProps = {
  Id: t.string({ readOnly: true }),
  Name: t.string({ readOnly: true }),
  Description: t.string({ readOnly: true }),
} satisfies Props;

export const statusProp = t.object(
  {
    State: t.enum(
      [
        'Enabled',
        'Disabled',
        'StandbyOffline',
        'StandbySpare',
        'InTest',
        'Starting',
        'Absent',
        'UnavailableOffline',
        'Deferring',
        'Quiesced',
        'Updating',
        'Qualified',
      ],
      { readOnly: true },
    ),
    Health: t.enum(['OK', 'Warning', 'Critical'], { readOnly: true, nullable: true }),
    HealthRollup: t.enum(['OK', 'Warning', 'Critical'], { readOnly: true, nullable: true }),
  },
  { readOnly: true, typeName: 'Status' },
);

/** Resource.Location with a PartLocation: where a part sits (slot, socket, bay). */
export const locationProp = t.object(
  {
    PartLocation: t.object(
      {
        ServiceLabel: ro(t.string()),
        LocationType: ro(t.enum(['Slot', 'Bay', 'Connector', 'Socket', 'Backplane', 'Embedded'])),
        LocationOrdinalValue: ro(t.integer()),
      },
      { readOnly: true, typeName: 'PartLocation' },
    ),
  },
  { readOnly: true, typeName: 'Location' },
);

export function defineType<const P extends Props, M extends ResourceType<Props, undefined> | undefined = undefined>(
  type: ResourceType<P, M>,
): ResourceType<P, M> {
  return type;
}

/**
 * The names by which a body's optional `Action` member may name its action, as iLO clients send it
 * (`{"Action": "ComputerSystem.Reset", ...}`): the full name, with or without '#', or the short one.
 */
export function actionNames(def: ActionDef): string[] {
  const short = def.name.slice(def.name.lastIndexOf('.') + 1);
  return [def.name, `#${def.name}`, short];
}

/** An action's description, its parameters' literal types kept. */
export function defineAction<const P extends Props>(def: ActionDef<P>): ActionDef<P> {
  return def;
}

/** The object under Oem/Vendor, described by its own vendor type. */
export function vendorObject<P extends Props, const O extends { readOnly?: boolean } = Record<never, never>>(
  type: ResourceType<P, undefined>,
  o: O = {} as O,
): ObjectProp<P> & O {
  return { type: 'object', properties: type.properties, vendorType: type, typeName: type.name, ...o };
}

/** The usual `Oem: { <OEM>: {...} }` wrapper (the canonical key; naming.ts serves the configured one). */
export function oem<P extends Props, const O extends { readOnly?: boolean } = Record<never, never>>(
  type: ResourceType<P, undefined>,
  o: O = {} as O,
) {
  return t.object({ [OEM]: vendorObject(type, o) }, { ...o, typeName: 'Oem' });
}

/** Collection types made so far, by member type: a fleet's route tables each ask for the same ones. */
const collectionTypes = new WeakMap<object, Map<string, ResourceType<Props, any>>>();

/** A collection type for members of `member`, named `<Member>Collection` (one per member, description and autoExpand). */
export function collectionOf<M extends ResourceType<Props, undefined>>(
  member: M,
  description = `A collection of ${member.name} resources.`,
  o: { autoExpand?: boolean } = {},
): ResourceType<Props, M> {
  let made = collectionTypes.get(member);
  if (!made) collectionTypes.set(member, (made = new Map()));
  const key = `${o.autoExpand ?? ''}\0${description}`;
  let type = made.get(key) as ResourceType<Props, M> | undefined;
  if (!type) made.set(key, (type = newCollectionType(member, description, o)));
  return type;
}

function newCollectionType<M extends ResourceType<Props, undefined>>(
  member: M,
  description: string,
  o: { autoExpand?: boolean },
): ResourceType<Props, M> {
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
  return type.version ? `#${type.name}.v${type.version.replace(/\./g, '_')}.${type.name}` : `#${type.name}.${type.name}`;
}

/** Where the service serves schema files (JSON Schema of every type, CSDL of the vendor's). */
export const SCHEMA_STORE = '/redfish/v1/SchemaStore/en/';

/** The file name of a type's JSON Schema: `<Type>.v1_2_3.json`, or `<Type>.json` for collections. */
export function jsonSchemaFile(type: ResourceType): string {
  return type.version ? `${type.name}.v${type.version.replace(/\./g, '_')}.json` : `${type.name}.json`;
}

/** Where the schema store serves a type's JSON Schema (every type served has one there). */
export const localJsonSchemaUri = (type: ResourceType): string => `${SCHEMA_STORE}${jsonSchemaFile(type)}`;

/** Where the JSON Schema of a type is published (DMTF) or served (Vendor). */
export function jsonSchemaUri(type: ResourceType): string {
  const file = jsonSchemaFile(type);
  return type.owner === 'DMTF' ? `http://redfish.dmtf.org/schemas/v1/${file}` : `${SCHEMA_STORE}${file}`;
}

/** Where the CSDL of a type is published (DMTF) or served (Vendor). */
export function csdlUri(type: ResourceType): string {
  return type.owner === 'DMTF'
    ? `http://redfish.dmtf.org/schemas/v1/${type.name}_v1.xml`
    : `/redfish/v1/SchemaStore/en/${type.name}_v1.xml`;
}
