import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_STATUS, baseError, baseMessage, successBody } from '../../src/messages/errors.js';
import { BASE_REGISTRY } from '../../src/messages/registries/base.js';
import { RESOURCE_EVENT_REGISTRY } from '../../src/messages/registries/resource-event.js';
import { TASK_EVENT_REGISTRY } from '../../src/messages/registries/task-event.js';
import { VENDOR_REGISTRY } from '../../src/messages/registries/vendor.js';
import { formatMessage, makeMessage } from '../../src/messages/messages.js';
import type { RegistryDef } from '../../src/messages/registry-types.js';

const registries: RegistryDef[] = [BASE_REGISTRY, VENDOR_REGISTRY, RESOURCE_EVENT_REGISTRY, TASK_EVENT_REGISTRY];

describe('message registries', () => {
  for (const reg of registries) {
    it(`${reg.prefix}: every message's placeholders match its parameter count`, () => {
      for (const [key, m] of Object.entries(reg.messages)) {
        const used = new Set([...m.message.matchAll(/%(\d+)/g)].map((x) => Number(x[1])));
        assert.equal(Math.max(0, ...used), m.paramTypes.length, `${reg.prefix}.${key}`);
        assert.ok(['OK', 'Warning', 'Critical'].includes(m.severity), `${reg.prefix}.${key}`);
      }
    });
  }

  it('gives every Base error key a 4xx/5xx status and a message that exists', () => {
    for (const [key, status] of Object.entries(BASE_STATUS)) {
      assert.ok(key in BASE_REGISTRY.messages, key);
      assert.ok(status >= 400 && status < 600, key);
    }
  });

  it('fills arguments and refuses the wrong number of them', () => {
    const e = baseError('PropertyValueTypeError', 'abc', 'LocationIndicatorActive');
    assert.equal(e.status, 400);
    assert.equal(e.infos[0]?.MessageId, 'Base.1.12.PropertyValueTypeError');
    assert.deepEqual(e.infos[0]?.MessageArgs, ['abc', 'LocationIndicatorActive']);
    assert.equal(e.infos[0]?.Message, formatMessage(BASE_REGISTRY.messages.PropertyValueTypeError.message, ['abc', 'LocationIndicatorActive']));
    assert.throws(() => makeMessage(BASE_REGISTRY, 'PropertyUnknown', []), /takes 1 arguments/);
    assert.throws(() => makeMessage(BASE_REGISTRY, 'NoSuchKey', []), /unknown message/);
  });

  it('builds success bodies as an error object with Success first (G8)', () => {
    const body = successBody([baseMessage('PropertyUnknown', 'X')]) as { error: { code: string; '@Message.ExtendedInfo': { MessageId: string }[] } };
    assert.equal(body.error['@Message.ExtendedInfo'][0]?.MessageId, 'Base.1.12.Success');
    assert.equal(body.error.code, 'Base.1.12.GeneralError');
    const single = successBody() as { error: { code: string } };
    assert.equal(single.error.code, 'Base.1.12.Success');
  });
});
