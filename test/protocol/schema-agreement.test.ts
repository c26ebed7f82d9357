// One description, two interpreters: the request validator (protocol/validate.ts)
// and the JSON Schema the service publishes for it (protocol/metadata.ts). For
// every action the service declares, bodies generated from its parameters (good
// values and bad ones) are accepted by the validator exactly when a standard
// JSON Schema validator (ajv) accepts them under the published schema.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { actionNames, type ActionDef, type Prop } from '../../src/protocol/description.js';
import { DIALECTS } from '../../src/protocol/dialect.js';
import { actionParametersSchema } from '../../src/protocol/metadata.js';
import { validateActionBody } from '../../src/protocol/validate.js';
import { startTestService, type TestService } from '../support/service.js';

const RUNS = Number(process.env.AGREEMENT_RUNS ?? 300);

/** Values for one property: mostly of its kind (in and out of its bounds), sometimes of another. */
function valueFor(p: Prop, depth = 0): fc.Arbitrary<unknown> {
  const other = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant({}), fc.constant([]));
  let own: fc.Arbitrary<unknown>;
  switch (p.type) {
    case 'string':
      own = fc.oneof(
        p.enum?.length ? fc.constantFrom(...p.enum) : fc.string({ maxLength: (p.maxLength ?? 20) + 2 }),
        fc.string({ maxLength: 12 }),
        fc.constantFrom(
          '2026-11-23T08:00:00Z',
          '2026-11-23T08:00:00.5+01:00',
          '2026-11-23T08:00Z',
          '2026-13-40T25:00:00Z',
          '2026-11-23',
          '',
        ),
      );
      break;
    case 'integer':
    case 'number':
      own = fc.oneof(
        fc.integer({ min: (p.minimum ?? -5) - 2, max: (p.maximum ?? 5) + 2 }),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
      );
      break;
    case 'boolean':
      own = fc.boolean();
      break;
    case 'link':
      own = fc.oneof(
        fc.record({ '@odata.id': fc.constantFrom('/redfish/v1/', '/redfish/v1/Systems/1/') }),
        fc.record({ '@odata.id': fc.integer() }),
        fc.constant({ '@odata.id': '/redfish/v1/', Extra: 1 }),
      );
      break;
    case 'array':
      own = depth > 2 ? fc.constant([]) : fc.array(valueFor(p.items, depth + 1), { maxLength: (p.maxItems ?? 3) + 1 });
      break;
    case 'object':
      own = depth > 2 ? fc.constant({}) : bodyFor(p.properties, depth + 1);
      break;
    case 'any':
      own = fc.jsonValue({ maxDepth: 1 });
      break;
  }
  return fc.oneof({ weight: 5, arbitrary: own }, { weight: 1, arbitrary: other });
}

/** An object of some of the declared members (and now and then one that is not declared). */
function bodyFor(props: Readonly<Record<string, Prop>>, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(props);
  const declared = fc.record(Object.fromEntries(names.map((n) => [n, valueFor(props[n] as Prop, depth)])), { requiredKeys: [] });
  return fc.oneof({ weight: 6, arbitrary: declared }, { weight: 1, arbitrary: declared.map((b) => ({ ...b, NotDeclared: 1 })) });
}

/** An action's body: its parameters, and sometimes the Action member iLO clients send (right or wrong). */
function actionBodyFor(def: ActionDef): fc.Arbitrary<Record<string, unknown>> {
  const named = fc.constantFrom(...actionNames(def), 'Other.Action', '', 7);
  return fc.oneof(
    { weight: 4, arbitrary: bodyFor(def.parameters) },
    { weight: 1, arbitrary: fc.tuple(bodyFor(def.parameters), named).map(([b, Action]) => ({ ...b, Action })) },
  );
}

describe('validation and the published JSON Schema agree', () => {
  let svc: TestService;
  let actions: ActionDef[];
  before(async () => {
    svc = await startTestService();
    actions = svc.running.services.routes.actionDefs();
  });
  after(() => svc.close());

  it('on every action body: the validator accepts a body exactly when its JSON Schema does', () => {
    // Redfish's own keywords (readonly, units...) are annotations for ajv; lengths count UTF-16 units as the validator does.
    const ajv = new Ajv({ strict: false, allErrors: true, unicode: false });
    addFormats.default(ajv);
    // The one definition of DMTF's odata-v4 schema the published schemas refer to (a link), so the check runs offline.
    ajv.addSchema({
      $id: 'http://redfish.dmtf.org/schemas/v1/odata-v4.json',
      definitions: {
        idRef: { type: 'object', properties: { '@odata.id': { type: 'string', format: 'uri-reference' } }, additionalProperties: false },
      },
    });
    assert.ok(actions.length >= 20, `${actions.length} actions`);
    const disagreements: string[] = [];
    // Each dialect offers its own values (enumOnlyIn, onlyIn): the schema it publishes says so too.
    for (const dialect of DIALECTS)
      for (const def of actions) {
        const check = ajv.compile(actionParametersSchema(def, dialect));
        fc.assert(
          fc.property(actionBodyFor(def), (body) => {
            const byValidator = validateActionBody(body, def, dialect).problems.length === 0;
            const bySchema = check(body);
            if (byValidator !== bySchema)
              disagreements.push(`${dialect} ${def.name} ${JSON.stringify(body)}: validator ${byValidator}, schema ${bySchema}`);
            return byValidator === bySchema;
          }),
          { numRuns: RUNS, seed: 20261123 },
        );
      }
    assert.deepEqual(disagreements, []);
  });
});
