// Domain and platform functions throw refusals without statuses; their tests
// assert the answer a client gets, which the protocol's status table gives.
import assert from 'node:assert/strict';
import { Refusal } from '../../src/messages/refusal.js';
import { answerOf, type RedfishError } from '../../src/protocol/errors.js';

/** The Redfish error a thrown value is answered with; fails unless it is a refusal the table answers. */
export function answered(e: unknown): RedfishError {
  assert.ok(e instanceof Refusal, String(e));
  const answer = answerOf(e);
  assert.ok(answer, `no status for ${e.infos[0]?.MessageId}`);
  return answer;
}
