// Node checks each listening HTTP server's open connections against the headers deadline on
// a timer of its own (connectionsCheckingInterval), connections or not: ten thousand servers
// of a fleet made ten thousand timer calls a second while idle, and took CPU from requests.
// Here one timer per interval serves the whole process, and calls only the checks of servers
// that have connections open. Node's check itself is unchanged: it is taken from the timer
// node made (`_onTimeout`, an internal). When that timer cannot be found (another node), node
// keeps its own: the same deadline, only at its old cost.
import type { Server } from 'node:https';

const CHECK_TIMER = 'http.server.connectionsCheckingInterval';

interface Ticker {
  timer?: ReturnType<typeof setInterval>;
  checks: Set<() => void>;
}

const tickers = new Map<number, Ticker>();

/** Servers whose connections are checked now (those with connections open): what the tests read. */
export function checkedServers(): number {
  let n = 0;
  for (const t of tickers.values()) n += t.checks.size;
  return n;
}

export interface ConnectionChecks {
  /** The server has a connection open (again): its check runs. */
  opened(): void;
  /** Its last connection closed: nothing to check. */
  closed(): void;
}

/**
 * Takes over node's check of a server that has just started listening (call it from 'listening',
 * after node's own listener). Returns what the server's connection count drives.
 */
export function shareConnectionChecks(server: Server, intervalMs: number): ConnectionChecks {
  const key = Object.getOwnPropertySymbols(server).find((s) => s.description === CHECK_TIMER);
  const nodeTimer = key && (server as unknown as Record<symbol, { _onTimeout?: unknown } | undefined>)[key];
  const check = nodeTimer && typeof nodeTimer._onTimeout === 'function' ? (nodeTimer._onTimeout as () => void) : undefined;
  if (!check) return { opened: () => undefined, closed: () => undefined };
  clearInterval(nodeTimer as ReturnType<typeof setInterval>);
  let ticker = tickers.get(intervalMs);
  if (!ticker) tickers.set(intervalMs, (ticker = { checks: new Set() }));
  const t = ticker;
  return {
    opened() {
      if (t.checks.has(check)) return;
      t.checks.add(check);
      t.timer ??= setInterval(() => {
        for (const c of t.checks) c();
      }, intervalMs).unref();
    },
    closed() {
      t.checks.delete(check);
      if (t.checks.size === 0 && t.timer) {
        clearInterval(t.timer);
        t.timer = undefined;
      }
    },
  };
}
