// Server-sent events (issue 8 point 6; DSP0266 / REDFISH-PROTOCOL item 20):
// the stream, its EventDestination, $filter, and Last-Event-ID resume.
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../support/event-listener.js';
import { connect as tlsConnect } from 'node:tls';
import { resourceEvent } from '../../../src/messages/event-messages.js';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type TestService } from '../../support/service.js';

const SSE = '/redfish/v1/EventService/SSE/';
const SUBS = '/redfish/v1/EventService/Subscriptions/';
const TEST_EVENT = '/redfish/v1/EventService/Actions/EventService.SubmitTestEvent/';

interface SseMessage {
  id?: string;
  data: any;
}

/** A test SSE client: collects messages until closed. */
class SseClient {
  readonly messages: SseMessage[] = [];
  ended = false;
  private buffer = '';
  private constructor(
    readonly res: IncomingMessage,
    private readonly destroy: () => void,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let cut: number;
      while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        const msg: SseMessage = { data: undefined };
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) msg.id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length) {
          msg.data = JSON.parse(data.join('\n'));
          this.messages.push(msg);
        }
      }
    });
    res.on('end', () => (this.ended = true));
    res.on('close', () => (this.ended = true));
  }

  static open(svc: TestService, query = '', headers: Record<string, string> = {}, token?: string): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${svc.url}${SSE}${query}`);
      const go = (tok: string) => {
        const req = httpsRequest(
          url,
          { rejectUnauthorized: false, headers: { accept: 'text/event-stream', 'x-auth-token': tok, ...headers } },
          (res) => resolve(new SseClient(res, () => req.destroy())),
        );
        req.on('error', reject);
        req.end();
      };
      if (token) go(token);
      else svc.adminToken().then(go, reject);
    });
  }

  messageIds(): string[] {
    return this.messages.flatMap((m) => (m.data.Events ?? []).map((e: any) => e.MessageId));
  }

  close(): void {
    this.destroy();
  }

  async body(): Promise<string> {
    let text = this.buffer;
    this.res.on('data', (c: string) => (text += c));
    await new Promise((r) => this.res.on('end', r));
    return text;
  }
}

async function testEvent(svc: TestService, messageId: string, arg?: string): Promise<void> {
  const r = await svc.req('POST', TEST_EVENT, { body: { MessageId: messageId, ...(arg ? { MessageArgs: [arg, 'Slot 1'] } : {}) } });
  assert.equal(r.status, 200, r.text);
}

async function sseMembers(svc: TestService): Promise<any[]> {
  const list = (await svc.get(SUBS)).body.Members as { '@odata.id': string }[];
  const out = [];
  for (const m of list) {
    const r = await svc.get(m['@odata.id']);
    if (r.body.SubscriptionType === 'SSE') out.push(r.body);
  }
  return out;
}

describe('server-sent events', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('needs authentication', async () => {
    const r = await svc.get(SSE, { auth: 'none' });
    assert.equal(r.status, 401);
  });

  it('answers a $filter nested thousands deep with 400, not a stack overflow', async () => {
    const deep = `${'('.repeat(3000)}RegistryPrefix eq 'Base'${')'.repeat(3000)}`;
    const r = await svc.get(`${SSE}?$filter=${encodeURIComponent(deep)}`, { headers: { accept: 'text/event-stream' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.QueryParameterValueFormatError']);
  });

  it('streams events as text/event-stream with unique ids and the Event JSON as data', async () => {
    const c = await SseClient.open(svc);
    try {
      assert.equal(c.res.statusCode, 200);
      assert.match(String(c.res.headers['content-type']), /^text\/event-stream/);
      await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', '1');
      await testEvent(svc, 'Base.1.12.Success');
      await waitFor(() => c.messageIds().includes('Base.1.12.Success'), 'two SSE events');
      const ours = c.messages.filter((m) =>
        ['StorageDevice.2.1.DrvArrLogDrvErasing', 'Base.1.12.Success'].includes(m.data.Events[0].MessageId),
      );
      assert.equal(ours.length, 2);
      assert.notEqual(ours[0]!.id, ours[1]!.id);
      assert.equal(ours[0]!.data['@odata.type'], '#Event.v1_13_0.Event');
      assert.equal(ours[0]!.data.Events[0].EventId, ours[0]!.id);
      assert.equal(ours[0]!.data.Events[0].Message, 'The logical drive 1 of the array controller in Slot 1 is erasing.');
    } finally {
      c.close();
    }
  });

  it('is an EventDestination with an opaque Context while open; closing the stream deletes it', async () => {
    const c = await SseClient.open(svc);
    const members = await sseMembers(svc);
    assert.equal(members.length, 1);
    const dest = members[0];
    assert.equal(dest.SubscriptionType, 'SSE');
    assert.equal(dest.Protocol, 'Redfish');
    assert.match(dest.Context, /^[0-9a-f]{32}$/);
    await testEvent(svc, 'Base.1.12.Success');
    await waitFor(() => c.messages.length > 0, 'an event');
    assert.equal(c.messages.at(-1)!.data.Context, dest.Context);
    c.close();
    await waitFor(() => svc.running.services.eventHub.list().every((s) => s.SubscriptionType !== 'SSE'), 'the destination to go');
    assert.equal((await svc.get(dest['@odata.id'])).status, 404);
  });

  it('closes the stream when its EventDestination is deleted', async () => {
    const c = await SseClient.open(svc);
    const [dest] = await sseMembers(svc);
    assert.equal((await svc.req('PATCH', dest['@odata.id'], { body: { Context: 'x' } })).status, 400);
    assert.equal((await svc.req('DELETE', dest['@odata.id'])).status, 200);
    await waitFor(() => c.ended, 'the stream to end');
    assert.equal((await sseMembers(svc)).length, 0);
  });

  it('filters on RegistryPrefix and MessageId with $filter', async () => {
    const byPrefix = await SseClient.open(svc, `?$filter=${encodeURIComponent("RegistryPrefix eq 'StorageDevice'")}`);
    const byId = await SseClient.open(svc, `?$filter=${encodeURIComponent("MessageId eq 'Base.1.12.Success'")}`);
    const either = await SseClient.open(
      svc,
      `?$filter=${encodeURIComponent("(MessageId eq 'Base.1.12.Success') or RegistryPrefix eq 'StorageDevice'")}`,
    );
    try {
      await testEvent(svc, 'Base.1.12.Success');
      await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', '2');
      await testEvent(svc, 'ResourceEvent.1.4.TestMessage');
      await waitFor(() => byPrefix.messages.length >= 1 && byId.messages.length >= 1 && either.messages.length >= 2, 'filtered events');
      await testEvent(svc, 'Base.1.12.Success'); // a marker: everything before it has been written
      await waitFor(() => byId.messages.length >= 2, 'the marker');
      assert.deepEqual(byPrefix.messageIds(), ['StorageDevice.2.1.DrvArrLogDrvErasing']);
      assert.deepEqual(byId.messageIds(), ['Base.1.12.Success', 'Base.1.12.Success']);
      assert.deepEqual(either.messageIds().slice(0, 2), ['Base.1.12.Success', 'StorageDevice.2.1.DrvArrLogDrvErasing']);
    } finally {
      for (const c of [byPrefix, byId, either]) c.close();
    }
  });

  it('answers a bad filter with 400 and opens no stream', async () => {
    for (const f of ["Foo eq 'x'", "MessageId gt 'x'", 'MessageId eq', "MessageId eq 'x' and", "(RegistryPrefix eq 'Base'"]) {
      const r = await svc.get(`${SSE}?$filter=${encodeURIComponent(f)}`);
      assert.equal(r.status, 400, f);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.QueryParameterValueFormatError'], f);
    }
    assert.equal((await sseMembers(svc)).length, 0);
    const other = await svc.get(`${SUBS}?$filter=${encodeURIComponent("Id eq '1'")}`);
    assert.equal(other.status, 501, '$filter stays unsupported elsewhere');
  });

  it('resumes after Last-Event-ID from the durable event log, even across a restart', async () => {
    const c = await SseClient.open(svc, `?$filter=${encodeURIComponent("RegistryPrefix eq 'StorageDevice'")}`);
    await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', 'a');
    await waitFor(() => c.messages.length === 1, 'first event');
    const lastSeen = c.messages[0]!.id as string;
    c.close();
    await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', 'b');
    await testEvent(svc, 'Base.1.12.Success');
    await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', 'c');
    svc = await svc.restart();
    const again = await SseClient.open(svc, `?$filter=${encodeURIComponent("RegistryPrefix eq 'StorageDevice'")}`, {
      'last-event-id': lastSeen,
    });
    try {
      await waitFor(() => again.messages.length === 2, 'the missed events');
      assert.deepEqual(
        again.messages.map((m) => m.data.Events[0].MessageArgs[0]),
        ['b', 'c'],
      );
      assert.ok(again.messages.every((m) => Number(m.id) > Number(lastSeen)));
      await testEvent(svc, 'StorageDevice.2.1.DrvArrLogDrvErasing', 'd');
      await waitFor(() => again.messages.length === 3, 'the live event after the replay');
      assert.equal(again.messages[2]!.data.Events[0].MessageArgs[0], 'd');
    } finally {
      again.close();
    }
  });

  it('counts streams against the subscription limit', async () => {
    const limited = await startTestService({ config: { maxSubscriptions: 1 } });
    try {
      const c = await SseClient.open(limited);
      const r = await limited.get(SSE);
      assert.equal(r.status, 400);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.EventSubscriptionLimitExceeded']);
      c.close();
    } finally {
      await limited.close();
    }
  });

  it('ends a stream whose Last-Event-ID replay alone overflows its buffer', async () => {
    // More than the 1 MiB a stream may buffer, in the 1,000 events the durable log keeps;
    // the replay is written in one step, so its size alone passes the limit.
    const bus = svc.running.services.events;
    for (let i = 0; i < 1000; i++) bus.publish(resourceEvent('ResourceCreated'), `/redfish/v1/${'x'.repeat(2000)}/${i}`);
    const socket = tlsConnect({ host: '127.0.0.1', port: svc.port, rejectUnauthorized: false });
    await new Promise((r) => socket.once('secureConnect', r));
    let received = 0;
    socket.on('data', (d: Buffer) => (received += d.length));
    const closed = new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 5_000).unref();
    });
    const auth = Buffer.from(`${ADMIN_USER}:${ADMIN_PASSWORD}`).toString('base64');
    socket.write(
      `GET /redfish/v1/EventService/SSE/ HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: Basic ${auth}\r\nLast-Event-ID: 0\r\n\r\n`,
    );
    try {
      assert.equal(await closed, true, 'the service ended the connection');
      assert.ok(received < 2_000_000, `the replay stopped at the limit (${received} bytes received)`);
      const listed = (await svc.get('/redfish/v1/EventService/Subscriptions/?$expand=.')).body.Members as any[];
      assert.equal(listed.filter((m) => m.SubscriptionType === 'SSE').length, 0, 'its EventDestination is gone');
    } finally {
      socket.destroy();
    }
  });
});
