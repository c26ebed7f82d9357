import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { t, type Props } from '../../src/protocol/description.js';
import { validateBody } from '../../src/protocol/validate.js';

const props: Props = {
  Name: t.string({ maxLength: 8 }),
  Mode: t.enum(['A', 'B']),
  Count: t.integer({ minimum: 1, maximum: 10 }),
  Flag: t.boolean(),
  Id: t.string({ readOnly: true }),
  Key: t.string({ createOnly: true, required: true }),
  When: t.dateTime({ nullable: true }),
  Boot: t.object({ Target: t.enum(['Pxe', 'Hdd']), Order: t.array(t.string()) }),
  Items: t.array(t.object({ X: t.integer() })),
  Free: t.object({}, { additionalProperties: true }),
};

const ids = (v: ReturnType<typeof validateBody>) =>
  v.problems.flatMap((p) => p.infos.map((i) => `${i.MessageId.split('.').pop()}:${i.MessageArgs.join('|')}`));

describe('validateBody', () => {
  it('keeps good properties and reports each bad one (PATCH)', () => {
    const v = validateBody(
      { Name: 'ok', Mode: 'C', Count: 11, Flag: 'yes', Id: 'x', Nope: 1, '@odata.etag': 'W/"1"', Boot: { Target: 'Pxe', Bad: 1 } },
      props,
      'patch',
    );
    assert.deepEqual(v.value, { Name: 'ok', Boot: { Target: 'Pxe' } });
    assert.deepEqual(ids(v).sort(), [
      'PropertyNotWritable:Id',
      'PropertyUnknown:Boot/Bad',
      'PropertyUnknown:Nope',
      'PropertyValueNotInList:C|Mode',
      'PropertyValueOutOfRange:11|Count',
      'PropertyValueTypeError:yes|Flag',
    ]);
  });

  it('gives PropertyValueTypeError with [value, property] (Errors 3)', () => {
    const v = validateBody({ Flag: 'true' }, props, 'patch');
    const info = v.problems[0]?.infos[0];
    assert.equal(info?.MessageId, 'Base.1.12.PropertyValueTypeError');
    assert.deepEqual(info?.MessageArgs, ['true', 'Flag']);
    assert.deepEqual(info?.RelatedProperties, ['#/Flag']);
  });

  it('refuses createOnly properties in PATCH and requires them on create', () => {
    assert.deepEqual(ids(validateBody({ Key: 'k' }, props, 'patch')), ['PropertyNotWritable:Key']);
    assert.deepEqual(ids(validateBody({ Name: 'n' }, props, 'create')), ['PropertyMissing:Key']);
    assert.deepEqual(validateBody({ Key: 'k' }, props, 'create').problems, []);
  });

  it('checks string length, date-time format and nullability', () => {
    assert.deepEqual(ids(validateBody({ Name: 'far too long' }, props, 'patch')), ['StringValueTooLong:far too long|8']);
    assert.deepEqual(ids(validateBody({ When: 'yesterday' }, props, 'patch')), ['PropertyValueFormatError:yesterday|When']);
    assert.deepEqual(validateBody({ When: null }, props, 'patch').value, { When: null });
    assert.deepEqual(ids(validateBody({ Mode: null }, props, 'patch')), ['PropertyValueTypeError:null|Mode']);
  });

  it('refuses null for a required property even when it reads as null (a write-only password)', () => {
    const password = { Secret: t.string({ required: true, writeOnly: true, secret: true, nullable: true }) };
    assert.deepEqual(ids(validateBody({ Secret: null }, password, 'patch')), ['PropertyValueTypeError:(hidden)|Secret']);
  });

  it('accepts what only one dialect offers in that dialect alone (onlyIn, enumOnlyIn)', () => {
    const offered: Props = {
      Backup: t.array(t.string(), { onlyIn: 'dmtf' }),
      Reset: t.enum(['On', 'PowerCycle'], { enumOnlyIn: { PowerCycle: 'dmtf' } }),
    };
    const body = { Backup: ['x'], Reset: 'PowerCycle' };
    assert.deepEqual(validateBody(body, offered, 'patch', 'dmtf').value, body);
    assert.deepEqual(ids(validateBody(body, offered, 'patch', 'spec')).sort(), [
      'PropertyUnknown:Backup',
      'PropertyValueNotInList:PowerCycle|Reset',
    ]);
    assert.deepEqual(validateBody({ Reset: 'On' }, offered, 'patch', 'spec').problems, []);
  });

  it('uses action messages for action parameters', () => {
    const params: Props = { ResetType: t.enum(['On', 'ForceOff'], { required: true }) };
    const mode = { action: 'ComputerSystem.Reset' };
    assert.deepEqual(ids(validateBody({}, params, mode)), ['ActionParameterMissing:ComputerSystem.Reset|ResetType']);
    assert.deepEqual(ids(validateBody({ ResetType: 'Off' }, params, mode)), [
      'ActionParameterValueNotInList:Off|ResetType|ComputerSystem.Reset',
    ]);
    assert.deepEqual(ids(validateBody({ ResetType: 1 }, params, mode)), ['ActionParameterValueTypeError:1|ResetType|ComputerSystem.Reset']);
    assert.deepEqual(ids(validateBody({ ResetType: 'On', X: 1 }, params, mode)), ['ActionParameterUnknown:ComputerSystem.Reset|X']);
  });

  it('accepts free-form members where the description allows them', () => {
    assert.deepEqual(validateBody({ Free: { Anything: [1, 'a'] } }, props, 'patch').value, { Free: { Anything: [1, 'a'] } });
  });

  it('refuses a body that is not an object', () => {
    assert.deepEqual(ids(validateBody([1], props, 'patch')), ['UnrecognizedRequestBody:']);
  });
});

describe('array PATCH rules for plain values', () => {
  it('accepts null and {} elements in arrays of strings and keeps them for the merge', () => {
    const v = validateBody({ Boot: { Order: [null, 'b', {}] } }, props, 'patch');
    assert.deepEqual(v.problems, []);
    assert.deepEqual(v.value, { Boot: { Order: [null, 'b', {}] } });
  });
});
