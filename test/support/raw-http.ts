// Raw connections for tests of the HTTP and TLS layers: bytes written as a
// client chooses (slowly, malformed, never finished), the answer read until the
// server closes, every wait bounded by a deadline.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';

/** Wait until cond() holds, checking every few milliseconds; fail with `what` after ms. */
export async function waitUntil(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TLS connection to the service, its bytes collected, its end observed. */
export interface RawConnection {
  socket: TLSSocket;
  /** Everything received so far, as text. */
  text(): string;
  closed(): boolean;
  /** Resolves with the text received once the server has closed; rejects after ms. */
  untilClosed(ms?: number): Promise<string>;
  /** Resolves once the text received matches; rejects after ms. */
  untilText(re: RegExp, ms?: number): Promise<string>;
}

/** localAddress: the client's own address (127.0.0.2...), to connect as another source on loopback. */
export function rawTls(port: number, options: ConnectionOptions & { localAddress?: string } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    let data = '';
    let closed = false;
    const socket = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...options });
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    socket.once('secureConnect', () => {
      const conn: RawConnection = {
        socket,
        text: () => data,
        closed: () => closed,
        untilClosed: async (ms = 10_000) => {
          await waitUntil(() => closed, 'the server to close the connection', ms);
          return data;
        },
        untilText: async (re, ms = 10_000) => {
          await waitUntil(() => re.test(data), `an answer matching ${re}`, ms);
          return data;
        },
      };
      resolve(conn);
    });
    // After the handshake this is a no-op: the promise is settled.
    socket.once('close', () => reject(new Error('closed before the TLS handshake completed')));
  });
}

/** Send one request as given and read until the server closes (or ms pass: then rejects, a hang). */
export async function exchange(port: number, request: string | Buffer, ms = 10_000): Promise<string> {
  const c = await rawTls(port);
  c.socket.write(request);
  return c.untilClosed(ms);
}

/** A plain TCP connection that never says anything (no TLS ClientHello). */
export function idleTcp(port: number): Promise<Socket & { closedAt?: number }> {
  return new Promise((resolve, reject) => {
    const s = netConnect(port, '127.0.0.1') as Socket & { closedAt?: number };
    s.on('error', () => undefined);
    s.once('connect', () => resolve(s));
    s.once('close', () => {
      s.closedAt = performance.now();
      reject(new Error('closed before connecting'));
    });
  });
}

/** Status code, headers (lower-case names) and parsed JSON body of the first answer in raw text. */
export function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: any } {
  const end = text.indexOf('\r\n\r\n');
  const head = end >= 0 ? text.slice(0, end) : text;
  const [statusLine, ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let rest = end >= 0 ? text.slice(end + 4) : '';
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (;;) {
      const nl = rest.indexOf('\r\n');
      if (nl < 0) break;
      const size = parseInt(rest.slice(0, nl), 16);
      if (!size) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    rest = out;
  } else if (headers['content-length'] !== undefined) rest = rest.slice(0, Number(headers['content-length']));
  let body: any;
  try {
    body = rest ? JSON.parse(Buffer.from(rest, 'latin1').toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  return { status, headers, body };
}

/** Whether raw text ends with a whole answer (its body complete, by Content-Length or the last chunk). */
export function endsWithWholeAnswer(text: string): boolean {
  const last = text.lastIndexOf('HTTP/1.1 ');
  const end = text.indexOf('\r\n\r\n', last);
  if (last < 0 || end < 0) return false;
  const { headers } = parseAnswer(text.slice(last));
  const body = text.length - (end + 4);
  if (headers['transfer-encoding'] === 'chunked') return text.endsWith('\r\n0\r\n\r\n');
  return body === Number(headers['content-length'] ?? 0);
}
