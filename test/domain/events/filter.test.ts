// The $filter of an SSE stream (src/domain/events/filter.ts): every property,
// both operators, and/or/not with their precedence, parentheses, quoting, and
// every syntax error, as tables of filter -> which events pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FilterSyntaxError,
  MAX_FILTER_DEPTH,
  MAX_FILTER_TERMS,
  parseEventFilter,
  SSE_FILTER_PROPERTIES,
} from '../../../src/domain/events/filter.js';
import type { LoggedEvent } from '../../../src/domain/events/format.js';

const created: LoggedEvent = {
  id: 1,
  kind: 'Event',
  prefix: 'ResourceEvent',
  messageId: 'ResourceEvent.1.3.ResourceCreated',
  eventType: 'ResourceAdded',
  origin: '/redfish/v1/Systems/1',
  body: {},
};
const alert: LoggedEvent = {
  id: 2,
  kind: 'Event',
  prefix: 'Vendor',
  messageId: 'Vendor.1.0.ThermalAlert',
  eventType: 'Alert',
  origin: '/redfish/v1/Chassis/1/Thermal/',
  body: {},
};
const quoted: LoggedEvent = { id: 3, kind: 'Event', prefix: "O'Brien", messageId: "O'Brien", eventType: 'Other', body: {} };
const report: LoggedEvent = { id: 4, kind: 'MetricReport', body: {} };

const EVENTS = { created, alert, quoted, report } as const;
type Name = keyof typeof EVENTS;

/** [filter, the events it lets through]. */
const PASSES: [string, Name[]][] = [
  // EventFormatType: the kind of record.
  ["EventFormatType eq 'Event'", ['created', 'alert', 'quoted']],
  ["EventFormatType eq 'MetricReport'", ['report']],
  ["EventFormatType ne 'Event'", ['report']],
  ["EventFormatType eq 'event'", []],
  // RegistryPrefix: exact and case-sensitive; a record without one never equals, so `ne` passes it.
  ["RegistryPrefix eq 'ResourceEvent'", ['created']],
  ["RegistryPrefix eq 'resourceevent'", []],
  ["RegistryPrefix ne 'ResourceEvent'", ['alert', 'quoted', 'report']],
  ["RegistryPrefix eq ''", []],
  // MessageId: any version of the same key, "Prefix.Key", or the prefix alone.
  ["MessageId eq 'ResourceEvent.1.3.ResourceCreated'", ['created']],
  ["MessageId eq 'ResourceEvent.1.0.ResourceCreated'", ['created']],
  ["MessageId eq 'ResourceEvent.9.99.ResourceCreated'", ['created']],
  ["MessageId eq 'ResourceEvent.ResourceCreated'", ['created']],
  ["MessageId eq 'ResourceEvent'", ['created']],
  ["MessageId eq 'ResourceEvent.1.3.ResourceRemoved'", []],
  ["MessageId eq 'Vendor.1.3.ResourceCreated'", []],
  ["MessageId eq 'ResourceCreated'", []],
  ["MessageId eq 'resourceevent.1.3.ResourceCreated'", []],
  ["MessageId ne 'Vendor.ThermalAlert'", ['created', 'quoted', 'report']],
  // A MessageId that is no registry id matches only itself.
  ["MessageId eq 'O''Brien'", ['quoted']],
  // EventType.
  ["EventType eq 'Alert'", ['alert']],
  ["EventType eq 'ResourceAdded'", ['created']],
  ["EventType ne 'Alert'", ['created', 'quoted', 'report']],
  ["EventType eq 'StatusChange'", []],
  // OriginResource: a trailing slash on either side does not matter; nothing else is loosened.
  ["OriginResource eq '/redfish/v1/Systems/1'", ['created']],
  ["OriginResource eq '/redfish/v1/Systems/1/'", ['created']],
  ["OriginResource eq '/redfish/v1/Systems/1//'", ['created']],
  ["OriginResource eq '/redfish/v1/Chassis/1/Thermal'", ['alert']],
  ["OriginResource eq '/redfish/v1/Systems'", []],
  ["OriginResource eq '/redfish/v1/systems/1'", []],
  ["OriginResource ne '/redfish/v1/Systems/1'", ['alert', 'quoted', 'report']],
  // Quoting: '' is a quote inside a value.
  ["RegistryPrefix eq 'O''Brien'", ['quoted']],
  ["RegistryPrefix eq 'O'", []],
  // Operators and keywords in any case; property names exactly.
  ["EventType EQ 'Alert'", ['alert']],
  ["EventType Ne 'Alert'", ['created', 'quoted', 'report']],
  ["EventType eq 'Alert' OR EventType eq 'Other'", ['alert', 'quoted']],
  ["EventFormatType eq 'Event' AnD EventType ne 'Alert'", ['created', 'quoted']],
  ["NOT EventFormatType eq 'Event'", ['report']],
  // and / or / not.
  ["EventType eq 'Alert' or EventType eq 'ResourceAdded'", ['created', 'alert']],
  ["EventType eq 'Alert' and EventType eq 'ResourceAdded'", []],
  ["RegistryPrefix eq 'Vendor' and EventType eq 'Alert'", ['alert']],
  ["not EventType eq 'Alert'", ['created', 'quoted', 'report']],
  ["not not EventType eq 'Alert'", ['alert']],
  ["not not not EventType eq 'Alert'", ['created', 'quoted', 'report']],
  // and binds tighter than or: a or (b and c), not (a or b) and c.
  ["EventType eq 'ResourceAdded' or RegistryPrefix eq 'Vendor' and EventType eq 'Other'", ['created']],
  ["(EventType eq 'ResourceAdded' or RegistryPrefix eq 'Vendor') and EventType eq 'Other'", []],
  ["RegistryPrefix eq 'Vendor' and EventType eq 'Other' or EventType eq 'ResourceAdded'", ['created']],
  // not binds tighter than and / or.
  ["not EventType eq 'Alert' and EventFormatType eq 'Event'", ['created', 'quoted']],
  ["not (EventType eq 'Alert' and EventFormatType eq 'Event')", ['created', 'quoted', 'report']],
  ["not EventType eq 'Alert' or EventType eq 'Alert'", ['created', 'alert', 'quoted', 'report']],
  ["not (EventType eq 'Alert' or EventType eq 'ResourceAdded')", ['quoted', 'report']],
  // Chains are evaluated left to right at one level.
  ["EventType eq 'Alert' or EventType eq 'Other' or EventFormatType eq 'MetricReport'", ['alert', 'quoted', 'report']],
  ["EventFormatType eq 'Event' and RegistryPrefix ne 'Vendor' and EventType ne 'Other'", ['created']],
  // Parentheses and white space.
  ["(EventType eq 'Alert')", ['alert']],
  ["((EventType eq 'Alert'))", ['alert']],
  ["(EventType eq 'Alert')or(EventType eq 'Other')", ['alert', 'quoted']],
  ["  EventType\teq\n'Alert'  ", ['alert']],
  ["EventType eq 'Alert' and (RegistryPrefix eq 'Vendor' or (MessageId eq 'X.1.0.Y'))", ['alert']],
  // Values keep their white space and special characters.
  ["EventType eq ' Alert'", []],
  ["OriginResource eq '/redfish/v1/Chassis/1/Thermal/ and EventType eq ''Alert'''", []],
];

/** [filter, the reason it is refused]. */
const REFUSED: [string, RegExp][] = [
  ['', /^empty filter$/],
  ['   ', /^empty filter$/],
  ["EventType eq 'Alert", /^unterminated string$/],
  ["EventType eq 'Alert''", /^unterminated string$/],
  ["'", /^unterminated string$/],
  ['EventType eq Alert', /^expected a quoted value after EventType eq$/],
  ['EventType eq', /^expected a quoted value after EventType eq$/],
  ['EventType ne (', /^expected a quoted value after EventType ne$/],
  ["EventType gt 'Alert'", /^expected eq or ne after EventType$/],
  ["EventType 'Alert'", /^expected eq or ne after EventType$/],
  ['EventType', /^expected eq or ne after EventType$/],
  ["EventType = 'Alert'", /^unexpected '='$/],
  ["Severity eq 'OK'", /^unsupported property Severity$/],
  ["eventtype eq 'Alert'", /^unsupported property eventtype$/],
  ["Oem.Vendor eq 'x'", /^unsupported property Oem.Vendor$/],
  ["and EventType eq 'Alert'", /^unsupported property and$/],
  ["'Alert' eq EventType", /^expected a property name$/],
  ['()', /^expected a property name$/],
  ['not', /^expected a property name$/],
  ["EventType eq 'Alert' and", /^expected a property name$/],
  ["EventType eq 'Alert' or ()", /^expected a property name$/],
  ["(EventType eq 'Alert'", /^missing '\)'$/],
  ["((EventType eq 'Alert')", /^missing '\)'$/],
  ["(EventType eq 'Alert' 'x'", /^missing '\)'$/],
  ["EventType eq 'Alert')", /^unexpected text after the expression$/],
  ["EventType eq 'Alert' EventType eq 'Other'", /^unexpected text after the expression$/],
  ["EventType eq 'Alert' xor EventType eq 'Other'", /^unexpected text after the expression$/],
  ['EventType eq "Alert"', /^unexpected '"'$/],
  ["EventType eq 'A' & EventType eq 'B'", /^unexpected '&'$/],
  ["EventType eq 'A' || EventType eq 'B'", /^unexpected '\|'$/],
  ["EventType/Name eq 'A'", /^unexpected '\/'$/],
];

describe('SSE $filter', () => {
  it('offers exactly the five properties of DSP0266', () => {
    assert.deepEqual([...SSE_FILTER_PROPERTIES].sort(), ['EventFormatType', 'EventType', 'MessageId', 'OriginResource', 'RegistryPrefix']);
  });

  for (const [filter, expected] of PASSES) {
    it(`${JSON.stringify(filter)} passes ${expected.length ? expected.join(', ') : 'nothing'}`, () => {
      const predicate = parseEventFilter(filter);
      const passed = (Object.keys(EVENTS) as Name[]).filter((n) => predicate(EVENTS[n]));
      assert.deepEqual(passed, expected);
    });
  }

  for (const [filter, reason] of REFUSED) {
    it(`refuses ${JSON.stringify(filter)}`, () => {
      assert.throws(
        () => parseEventFilter(filter),
        (e: unknown) => e instanceof FilterSyntaxError && reason.test(e.message),
      );
    });
  }

  it('every property of the table is exercised with both operators', () => {
    for (const p of SSE_FILTER_PROPERTIES) {
      for (const op of ['eq', 'ne'])
        assert.ok(
          PASSES.some(([f]) => f.startsWith(`${p} ${op} `)),
          `${p} ${op}`,
        );
    }
  });

  it(`nests up to ${MAX_FILTER_DEPTH} levels of parentheses and not`, () => {
    const depth = MAX_FILTER_DEPTH;
    assert.equal(parseEventFilter(`${'('.repeat(depth)}EventType eq 'Alert'${')'.repeat(depth)}`)(alert), true);
    assert.equal(parseEventFilter(`${'not '.repeat(depth)}EventType eq 'Alert'`)(alert), true);
    assert.equal(parseEventFilter(`not (${'not '.repeat(depth - 2)}EventType eq 'Alert')`)(alert), false);
  });

  // Nesting is parsed by recursion: unbounded, a filter a few kilobytes long exhausted the stack
  // and the RangeError escaped as a 500 from the SSE route instead of the 400 a syntax error gets.
  for (const [what, filter] of [
    ['parentheses', `${'('.repeat(MAX_FILTER_DEPTH + 1)}EventType eq 'Alert'${')'.repeat(MAX_FILTER_DEPTH + 1)}`],
    ['6,000 parentheses', `${'('.repeat(6000)}EventType eq 'Alert'${')'.repeat(6000)}`],
    ['not', `${'not '.repeat(MAX_FILTER_DEPTH + 1)}EventType eq 'Alert'`],
    ['comparisons', Array.from({ length: MAX_FILTER_TERMS + 1 }, () => "EventType eq 'Alert'").join(' or ')],
  ] as const) {
    it(`refuses too many ${what} with a syntax error, not a stack overflow`, () => {
      assert.throws(
        () => parseEventFilter(filter),
        (e: unknown) => e instanceof FilterSyntaxError,
      );
    });
  }
});
