// One listening socket per port for many controllers that each have an address of their own
// (a fleet's --fleet-addresses): the socket is bound to the IPv4 wildcard, and each accepted
// connection goes to the controller whose address it reached (socket.localAddress). A connection
// to an address no controller has is closed at once, before TLS costs anything. Ten thousand
// controllers on one port hold one descriptor rather than ten thousand.
import { createServer, type Server, type Socket } from 'node:net';

interface Port {
  server: Server;
  /** The port the socket is bound to (the system's pick when 0 was asked for). */
  bound: Promise<number>;
  byAddress: Map<string, (s: Socket) => void>;
}

export class SharedPorts {
  private readonly ports = new Map<number, Port>();

  constructor(private readonly wildcard = '0.0.0.0') {}

  /** Connections to host:port go to accept from now on; resolves with the bound port. */
  async attach(host: string, port: number, accept: (s: Socket) => void): Promise<{ port: number; detach(): Promise<void> }> {
    let p = this.ports.get(port);
    if (!p) {
      const byAddress = new Map<string, (s: Socket) => void>();
      const server = createServer((s) => {
        const to = byAddress.get(s.localAddress ?? '');
        if (to) to(s);
        else s.destroy();
      });
      const bound = new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, this.wildcard, () => {
          server.off('error', reject);
          resolve((server.address() as { port: number }).port);
        });
      });
      p = { server, bound, byAddress };
      this.ports.set(port, p);
    }
    if (p.byAddress.has(host)) throw new Error(`${host}:${port} is served twice`);
    p.byAddress.set(host, accept);
    const taken = p;
    let actual: number;
    try {
      actual = await taken.bound;
    } catch (e) {
      this.ports.delete(port);
      throw e;
    }
    // Found again under the bound port too: a controller back from a reset asks for that one.
    this.ports.set(actual, taken);
    return {
      port: actual,
      detach: () => {
        taken.byAddress.delete(host);
        if (taken.byAddress.size > 0) return Promise.resolve();
        for (const key of [port, actual]) if (this.ports.get(key) === taken) this.ports.delete(key);
        return new Promise<void>((resolve) => taken.server.close(() => resolve()));
      },
    };
  }
}

/** The connections the controllers of one process hold together: a share of its descriptor limit. */
export class ConnectionBudget {
  held = 0;
  /** Refused one since it was last below max (its warning is logged once). */
  full = false;
  constructor(readonly max: number) {}
}
