// Connection exhaustion (issue 12, item 2): connections that never say hello,
// never finish their headers or stall their body are closed; long uploads
// that keep sending and SSE streams are not; a cap on open connections turns
// the extra ones away at once while the open ones keep working.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { endsWithWholeAnswer, idleTcp, parseAnswer, rawTls, type RawConnection } from '../support/raw-http.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, startTestService, type TestService } from '../support/service.js';
import { waitUntil } from '../support/wait.js';

const SESSIONS = '/redfish/v1/SessionService/Sessions';
const IDLE = 300;

/** A request on a raw connection: its headers now, its body as the caller sends it. */
function head(method: string, path: string, headers: Record<string, string>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

describe('connection limits and timeouts', () => {
  let svc: TestService;
  before(async () => {
    // The idle connections below all come from 127.0.0.1: room for them from one address.
    svc = await startTestService({ config: { tlsHandshakeTimeout: 1, headersTimeout: 1, bodyTimeout: 1, maxConnectionsPerSource: 1000 } });
  });
  after(() => svc.close());

  it(`closes ${IDLE} connections that send no TLS hello, and answers a GET meanwhile`, async () => {
    const idle: (Socket & { closedAt?: number })[] = [];
    for (let i = 0; i < IDLE; i += 50) idle.push(...(await Promise.all(Array.from({ length: 50 }, () => idleTcp(svc.port)))));
    const opened = performance.now();
    const r = await svc.get('/redfish/v1/', { auth: 'none' });
    const ms = performance.now() - opened;
    assert.equal(r.status, 200);
    assert.ok(ms < 1000, `GET took ${ms.toFixed(0)} ms with ${IDLE} idle connections open`);
    // The GET was answered while (nearly all of) them were still open...
    assert.ok(idle.filter((s) => s.closedAt !== undefined).length < IDLE / 2);
    // ...and the handshake timeout (1 s here, 10 s by default) closes every one of them.
    await waitUntil(() => idle.every((s) => s.closedAt !== undefined), 'the idle connections to be closed', 10_000);
    for (const s of idle) assert.ok((s.closedAt as number) - opened < 8_000);
  });

  it('answers a connection that completes the handshake but sends nothing 408, then closes it', async () => {
    const c = await rawTls(svc.port);
    const text = await c.untilClosed(8_000);
    const a = parseAnswer(text);
    assert.equal(a.status, 408);
    assert.equal(a.body.error['@Message.ExtendedInfo'][0].MessageId, 'Vendor.1.0.HttpRequestTimeout');
  });

  it('closes a client that sends its headers slowly and never finishes them', async () => {
    const c = await rawTls(svc.port);
    c.socket.write('GET /redfish/v1/ HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    // One byte every 200 ms keeps the connection busy but never ends the headers.
    let sent = 0;
    while (!c.closed() && sent < 60) {
      c.socket.write('a');
      sent++;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(c.closed(), 'the slow client is still connected after 12 s');
    assert.equal(parseAnswer(c.text()).status, 408);
  });

  it('cuts a request body that makes no progress with 408 and closes', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(head('POST', SESSIONS, { 'Content-Type': 'application/json', 'Content-Length': '100' }) + '{"UserName": "Adm');
    const text = await c.untilClosed(8_000);
    const a = parseAnswer(text);
    assert.equal(a.status, 408);
    assert.equal(a.headers.connection, 'close');
    assert.equal(a.body.error['@Message.ExtendedInfo'][0].MessageId, 'Vendor.1.0.HttpRequestTimeout');
  });

  it('cuts a multipart upload that stops sending', async () => {
    const c = await rawTls(svc.port);
    c.socket.write(
      head('POST', '/redfish/v1/UpdateService/upload/', {
        Authorization: basic(ADMIN_USER, ADMIN_PASSWORD),
        'Content-Type': 'multipart/form-data; boundary=XX',
        'Content-Length': '100000',
      }) +
        '--XX\r\nContent-Disposition: form-data; name="UpdateFile"; filename="stalled.bin"\r\nContent-Type: application/octet-stream\r\n\r\nabc',
    );
    const text = await c.untilClosed(8_000);
    // 408 when the answer could still be sent; a bare close is fine too.
    if (text) assert.equal(parseAnswer(text).status, 408);
    // The service is not left busy with the dead upload.
    const state = async () => (await svc.get('/redfish/v1/UpdateService/')).body.Oem.Vendor.State;
    await waitUntil(async () => (await state()) !== 'Uploading', 'the update service to leave Uploading', 5_000, 50);
  });

  it('does not cut a body that keeps coming slowly for longer than the body timeout', async () => {
    const body = JSON.stringify({ UserName: ADMIN_USER, Password: ADMIN_PASSWORD });
    const c = await rawTls(svc.port);
    c.socket.write(
      head('POST', SESSIONS, { 'Content-Type': 'application/json', 'Content-Length': String(body.length), Connection: 'close' }),
    );
    // About 3 s in all, one byte every 300 ms at first: three times the body timeout.
    const slow = 10;
    for (let i = 0; i < slow; i++) {
      c.socket.write(body[i] as string);
      await new Promise((r) => setTimeout(r, 300));
    }
    c.socket.write(body.slice(slow));
    const a = parseAnswer(await c.untilClosed(8_000));
    assert.equal(a.status, 201);
  });

  it('keeps an SSE stream open well past the header and body timeouts', async () => {
    const token = await svc.adminToken();
    const c = await rawTls(svc.port);
    c.socket.write(head('GET', '/redfish/v1/EventService/SSE/', { Accept: 'text/event-stream', 'X-Auth-Token': token }));
    await c.untilText(/^HTTP\/1\.1 200 /);
    const opened = performance.now();
    // Three times each timeout with nothing sent either way: still open.
    await waitUntil(() => c.closed() || performance.now() - opened > 3_000, 'three seconds');
    assert.equal(c.closed(), false);
    c.socket.destroy();
  });
});

describe('connection cap', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { maxConnections: 4 } });
  });
  after(() => svc.close());

  /** GET the service root on a raw kept-alive connection; resolves with the status. */
  async function getOn(c: RawConnection): Promise<number> {
    const from = c.text().length;
    c.socket.write('GET /redfish/v1/ HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => endsWithWholeAnswer(c.text().slice(from)), 'the answer', 5_000);
    return parseAnswer(c.text().slice(from)).status;
  }

  it('closes connections beyond --max-connections at once while the open ones keep working', async () => {
    await svc.dropConnections();
    const open: RawConnection[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await rawTls(svc.port);
      assert.equal(await getOn(c), 200);
      open.push(c);
    }
    // The fifth: accepted by the kernel, closed by the service before any TLS.
    const started = performance.now();
    await assert.rejects(rawTls(svc.port), /closed before the TLS handshake/);
    assert.ok(performance.now() - started < 2_000);
    // The open ones still answer.
    for (const c of open) assert.equal(await getOn(c), 200);
    // One closes: there is room again.
    open.pop()?.socket.destroy();
    let again: RawConnection | undefined;
    const deadline = performance.now() + 5_000;
    while (!again && performance.now() < deadline) again = await rawTls(svc.port).catch(() => undefined);
    assert.ok(again, 'a new connection after one closed');
    assert.equal(await getOn(again), 200);
    for (const c of [...open, again]) c.socket.destroy();
  });
});
