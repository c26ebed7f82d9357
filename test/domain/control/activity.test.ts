// Issue 29 item 3: the request inspector's memory stays within its caps: the number of
// requests, the bytes of one body, and the bytes of all bodies together.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActivityLog, type AnsweredRequest } from '../../../src/domain/control/activity.js';
import { ManualClock } from '../../../src/platform/clock.js';

const request = (body: string): AnsweredRequest => ({
  method: 'PATCH',
  uri: '/redfish/v1/Systems/1/',
  user: 'admin',
  status: 200,
  durationMs: 1,
  requestHeaders: {},
  requestBody: body,
  responseHeaders: {},
  responseBody: Buffer.from(body),
});

describe('ActivityLog caps', () => {
  it('drops the oldest requests once the bodies together pass the total cap', () => {
    const log = new ActivityLog(new ManualClock(0), { entries: 100, bodyBytes: 100, totalBytes: 1000 });
    for (let i = 0; i < 20; i++) log.record(request(`"${'x'.repeat(98)}"`));
    // Each request keeps two bodies of 100 bytes: five fit in 1000.
    assert.deepEqual(
      log.list().map((s) => s.Id),
      ['20', '19', '18', '17', '16'],
    );
  });

  it('cuts each body at the body cap', () => {
    const log = new ActivityLog(new ManualClock(0), { entries: 10, bodyBytes: 8, totalBytes: 1000 });
    log.record(request('{"AssetTag": "0123456789"}'));
    const r = log.get('1')!;
    assert.deepEqual([r.Request.Body, r.Request.BodyTruncated, r.Response.Body], ['{"AssetT', true, '{"AssetT']);
  });
});
