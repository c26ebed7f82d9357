// Issue 24, item 1: slow request bodies cannot hold the connections. An answer
// given before the body arrived (a 401) closes the connection instead of
// draining it; a body that trickles in below --body-min-rate is cut with 408;
// one client address holds at most --max-connections-per-source connections,
// so a flood from one source leaves room for the others.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseAnswer, rawTls, type RawConnection } from '../support/raw-http.js';
import { startTestService, type TestService } from '../support/service.js';
import { waitUntil } from '../support/wait.js';

const SESSIONS = '/redfish/v1/SessionService/Sessions';
const UPLOAD = '/redfish/v1/UpdateService/upload/';

/** A request's head on a raw connection; its body follows as the test sends it. */
function head(method: string, path: string, headers: Record<string, string>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

const messageId = (text: string) => parseAnswer(text).body?.error?.['@Message.ExtendedInfo']?.[0]?.MessageId;

describe('slow request bodies', () => {
  let svc: TestService;
  // The default body timeout (30 s) and a minimum rate of 1,000 bytes/s; the test moves the clock.
  before(async () => {
    svc = await startTestService({ config: { bodyMinRate: 1000 } });
  });
  after(() => svc.close());

  it('answers an unauthenticated PATCH 401 and closes at once, without reading its 100,000-byte body', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(head('PATCH', '/redfish/v1/Systems/1/', { 'Content-Type': 'application/json', 'Content-Length': '100000' }) + '{"A');
    // Well within the 30 s the body could otherwise trickle for, byte by byte.
    const text = await c.untilClosed(5_000);
    const a = parseAnswer(text);
    assert.equal(a.status, 401);
    assert.equal(a.headers.connection, 'close');
    assert.equal(messageId(text), 'Base.1.12.NoValidSession');
  });

  it('answers an unauthenticated upload 401 at its file part and closes, without reading the rest', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(
      head('POST', UPLOAD, { 'Content-Type': 'multipart/form-data; boundary=XX', 'Content-Length': '100000000' }) +
        '--XX\r\nContent-Disposition: form-data; name="file"; filename="slow.fwpkg"\r\n\r\nAAAA',
    );
    const text = await c.untilClosed(5_000);
    assert.equal(parseAnswer(text).status, 401);
    assert.equal(parseAnswer(text).headers.connection, 'close');
  });

  it('keeps a connection whose small body came whole open after an error (keep-alive)', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(head('PATCH', '/redfish/v1/Systems/1/', { 'Content-Type': 'application/json', 'Content-Length': '2' }) + '{}');
    await c.untilText(/\r\n\r\n\{/);
    assert.equal(parseAnswer(c.text()).status, 401);
    assert.notEqual(parseAnswer(c.text()).headers.connection, 'close');
    c.socket.destroy();
  });

  /**
   * The service has read what was written before: a request on a new connection (a whole TLS
   * handshake later) has been answered. The clock moves only after that.
   */
  const received = async () => {
    const probe = await rawTls(svc.port);
    probe.socket.write('GET /redfish/v1/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await probe.untilClosed(5_000);
  };

  it('cuts a login body that trickles in below --body-min-rate with 408 and closes', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(head('POST', SESSIONS, { 'Content-Type': 'application/json', 'Content-Length': '100' }) + '{"UserName"');
    await received();
    // 10 bytes in the first 31 s: about 0.3 bytes/s, below 1,000.
    await svc.clock.advance(31_000);
    const text = await c.untilClosed(5_000);
    assert.equal(parseAnswer(text).status, 408);
    assert.equal(messageId(text), 'Vendor.1.0.HttpRequestTimeout');
    assert.match(parseAnswer(text).body.error['@Message.ExtendedInfo'][0].Message, /below the minimum of 1000 bytes\/s/);
  });

  it('lets a body keep its average above the minimum, and cuts it once it falls below', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(head('POST', SESSIONS, { 'Content-Type': 'application/json', 'Content-Length': '1000000' }));
    await received();
    c.socket.write(' '.repeat(40_000));
    await received();
    // 40,000 bytes in 31 s: above 1,000 bytes/s, so the body goes on.
    await svc.clock.advance(31_000);
    await received();
    assert.equal(c.closed(), false, c.text());
    // Nothing more: at 40 s the average reaches 1,000 bytes/s; past it the body is cut.
    await svc.clock.advance(10_000);
    const text = await c.untilClosed(5_000);
    assert.equal(parseAnswer(text).status, 408);
  });
});

describe('connections per client address', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxConnectionsPerSource: 4, maxConnections: 12 } });
  });
  after(() => svc.close());

  const getRoot = async (c: RawConnection) => {
    c.socket.write('GET /redfish/v1/ HTTP/1.1\r\nHost: x\r\n\r\n');
    await c.untilText(/\r\n\r\n\{[\s\S]*\}$/);
    return parseAnswer(c.text()).status;
  };

  it('refuses a flood from one address beyond the cap while another address is served', async () => {
    await svc.dropConnections();
    const flood = await Promise.all(
      Array.from({ length: 20 }, () =>
        rawTls(svc.port).then(
          (c) => c,
          () => undefined,
        ),
      ),
    );
    const held = flood.filter((c): c is RawConnection => c !== undefined);
    assert.equal(held.length, 4, 'connections 127.0.0.1 holds');
    // Another address still gets in and is answered.
    const other = await rawTls(svc.port, { localAddress: '127.0.0.2' });
    assert.equal(await getRoot(other), 200);
    // The flood's own connections keep working.
    assert.equal(await getRoot(held[0] as RawConnection), 200);
    // One of them closes: its address has room again.
    held.pop()?.socket.destroy();
    let again: RawConnection | undefined;
    await waitUntil(async () => (again = await rawTls(svc.port).catch(() => undefined)) !== undefined, 'room for 127.0.0.1');
    assert.equal(await getRoot(again as unknown as RawConnection), 200);
    for (const c of [...held, other, again as unknown as RawConnection]) c.socket.destroy();
  });
});
