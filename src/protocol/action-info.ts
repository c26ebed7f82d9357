// ActionInfo: what an action takes, served for every action with parameters at
// <resource>/<Action>ActionInfo/ and named by the action's @Redfish.ActionInfo.
// Derived from the action's description (defineAction): names, whether each is
// required, data types, allowable values (the enum, or the route's per-request
// ones), ranges, patterns and array sizes.
import { commonProps, defineType, enumIn, offeredIn, ro, t, type ActionDef, type Prop } from './description.js';
import type { DialectName } from './dialect.js';

export const ActionInfoType = defineType({
  name: 'ActionInfo',
  version: '1.5.0',
  owner: 'DMTF',
  description: 'The parameters an action takes and the values the service accepts for them.',
  properties: {
    ...commonProps,
    Parameters: ro(
      t.array(
        t.object(
          {
            Name: ro(t.string()),
            Required: ro(t.boolean()),
            DataType: ro(t.enum(['Boolean', 'Number', 'NumberArray', 'String', 'StringArray', 'Object', 'ObjectArray'])),
            AllowableValues: ro(t.array(t.string())),
            AllowablePattern: ro(t.string()),
            MinimumValue: ro(t.number()),
            MaximumValue: ro(t.number()),
            ArraySizeMinimum: ro(t.integer()),
            ArraySizeMaximum: ro(t.integer()),
          },
          { typeName: 'Parameters' },
        ),
      ),
    ),
  },
});

/** Actions that take nothing have no ActionInfo. */
export function hasParameters(def: ActionDef): boolean {
  return Object.keys(def.parameters).length > 0;
}

/** The action's name without its namespace: "Reset" for ComputerSystem.Reset. */
function shortName(def: ActionDef): string {
  return def.name.slice(def.name.lastIndexOf('.') + 1);
}

/** Where the ActionInfo of an action of the resource at routePath is served. */
export function actionInfoPath(routePath: string, def: ActionDef): string {
  return `${routePath}${shortName(def)}ActionInfo/`;
}

function dataType(p: Prop): string | undefined {
  switch (p.type) {
    case 'string':
      return 'String';
    case 'integer':
    case 'number':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    case 'object':
    case 'link':
      return 'Object';
    case 'array': {
      const item = dataType(p.items);
      return item === undefined ? undefined : `${item}Array`;
    }
    default:
      return undefined;
  }
}

const BOOLEAN_VALUES = ['true', 'false'] as const;

/** The ActionInfo of an action; `allowable` overrides a parameter's allowable values (state-dependent ones). */
export function actionInfoBody(
  def: ActionDef,
  dialect: DialectName,
  allowable: Readonly<Record<string, readonly string[]>> = {},
): Record<string, unknown> {
  const short = shortName(def);
  const offered = Object.entries(def.parameters).filter(([, p]) => offeredIn(p, dialect));
  const parameters = offered.map(([name, p]) => {
    const item = p.type === 'array' ? p.items : p;
    // A boolean's two values are listed too: profiles (OpenStack Ironic's) read every parameter's allowable values.
    const values =
      allowable[name] ?? (item.type === 'string' ? enumIn(item, dialect) : item.type === 'boolean' ? BOOLEAN_VALUES : undefined);
    const type = dataType(p);
    return {
      Name: name,
      Required: p.required === true,
      ...(type ? { DataType: type } : {}),
      ...(values ? { AllowableValues: [...values] } : {}),
      ...(item.type === 'string' && item.pattern !== undefined && !values ? { AllowablePattern: item.pattern } : {}),
      ...((item.type === 'integer' || item.type === 'number') && item.minimum !== undefined ? { MinimumValue: item.minimum } : {}),
      ...((item.type === 'integer' || item.type === 'number') && item.maximum !== undefined ? { MaximumValue: item.maximum } : {}),
      ...(p.type === 'array' && p.minItems !== undefined ? { ArraySizeMinimum: p.minItems } : {}),
      ...(p.type === 'array' && p.maxItems !== undefined ? { ArraySizeMaximum: p.maxItems } : {}),
    };
  });
  return { Id: `${short}ActionInfo`, Name: `${short} Action Info`, Parameters: parameters };
}
