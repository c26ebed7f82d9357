// A real HTTPS event listener for tests: records every delivery, and can be
// told to fail (HTTP 500), hang (never answer) or go away and come back.
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { issueCertificate, type IssuedCertificate } from '../../src/platform/x509.js';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export type ListenerMode = 'ok' | 'fail' | 'hang';

let certificate: Promise<IssuedCertificate> | undefined;
function listenerCertificate(): Promise<IssuedCertificate> {
  certificate ??= issueListenerCertificate();
  return certificate;
}

/** A listener's certificate for 127.0.0.1: self-signed, or signed by issuer. */
export function issueListenerCertificate(issuer?: IssuedCertificate): Promise<IssuedCertificate> {
  return issueCertificate({
    subject: 'CN=localhost',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    usage: ['server'],
    notBefore: new Date(Date.now() - 60_000),
    ...(issuer ? { issuer } : {}),
  });
}

export class EventListener {
  readonly received: Delivery[] = [];
  /** Every request, answered or not (fail/hang included). */
  attempts = 0;
  /** TLS connections accepted, and the most open at once. */
  connectionsMade = 0;
  mostOpen = 0;
  private openNow = 0;
  mode: ListenerMode = 'ok';
  private server?: Server;
  private readonly hanging: ServerResponse[] = [];

  private constructor(
    private readonly cert: IssuedCertificate,
    public port: number,
  ) {}

  /** Listen on port (0: any), with a self-signed certificate unless given one. */
  static async start(port = 0, cert?: IssuedCertificate): Promise<EventListener> {
    const l = new EventListener(cert ?? (await listenerCertificate()), port);
    await l.open();
    return l;
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}/events`;
  }

  /** Listen (again) on the same port. */
  async open(): Promise<void> {
    const server = createServer({ cert: this.cert.certPem, key: this.cert.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.attempts++;
        if (this.mode === 'hang') {
          this.hanging.push(res);
          return;
        }
        if (this.mode === 'fail') {
          res.writeHead(500).end();
          return;
        }
        this.received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(204).end();
      });
    });
    server.on('secureConnection', (socket) => {
      this.connectionsMade++;
      this.mostOpen = Math.max(this.mostOpen, ++this.openNow);
      socket.once('close', () => this.openNow--);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stop listening (connections refused) until open() is called again. */
  async close(): Promise<void> {
    for (const res of this.hanging.splice(0)) res.destroy();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** MessageIds of the events received, in order. */
  messageIds(): string[] {
    return this.received.flatMap((d) => (d.body.Events ?? []).map((e: any) => e.MessageId));
  }

  events(): any[] {
    return this.received.flatMap((d) => d.body.Events ?? []);
  }
}

/** Wait (for network I/O, not for controller time) until cond holds. */
export async function waitFor(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}
