// The in-process event bus (src/domain/events/bus.ts): a listener that throws
// is logged, and neither the publisher nor the other listeners notice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { EventBus, type ServiceEvent } from '../../../src/domain/events/bus.js';
import { resourceEvent } from '../../../src/messages/event-messages.js';
import { ManualClock } from '../../../src/platform/clock.js';

describe('event bus', () => {
  it('logs a failing listener and still delivers to the others', () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const bus = new EventBus(new ManualClock(), log);
    const seen: ServiceEvent[] = [];
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe((e) => seen.push(e));
    const event = bus.publish(resourceEvent('ResourceCreated'), '/redfish/v1/Systems/1');
    assert.deepEqual(seen, [event]);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'event listener failed');
    assert.equal(lines[0]?.origin, '/redfish/v1/Systems/1');
    assert.match(String((lines[0]?.err as { message?: string }).message), /listener broke/);
  });
});
