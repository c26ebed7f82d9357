// How a fleet shares the process's file descriptors (ulimit -n): its listening sockets (one per
// controller on a port of its own, one per port for controllers with addresses of their own),
// the connections its clients hold, the outbound connections its event deliveries share, and
// what is left for databases, three descriptors each (the file, its -wal and -shm), kept open
// for the most recently used controllers.
import { readFileSync } from 'node:fs';
import { FleetManifestError } from './manifest.js';

/** The process's own descriptors (stdio, log, node's and libuv's) and what concurrent starts open for a moment. */
export const FIXED_DESCRIPTORS = 64;
export const DESCRIPTORS_PER_DATABASE = 3;
/** Fewer open databases than this would close one at nearly every write. */
export const MIN_OPEN_DATABASES = 16;
/** Outbound connections to one event destination, shared by every controller that delivers there. */
const OUTBOUND_PER_ORIGIN = 16;
/** The outbound share: a twentieth of the limit, between these. */
const OUTBOUND_LEAST = 8;
const OUTBOUND_MOST = 512;

export class FleetCapacityError extends FleetManifestError {}

export interface DescriptorBudget {
  /** The soft limit (ulimit -n), or undefined where it cannot be read (then nothing is bounded). */
  limit: number | undefined;
  listeners: number;
  /** Connections every controller together may hold; more are closed as they arrive. */
  connections: number;
  /** Event deliveries' connections: per destination, and destinations at once in each TLS mode (two). */
  outbound: { perOrigin: number; maxOrigins: number };
  /** Databases open at once; the others rest, closed, until used. */
  databases: number;
}

/** Outbound connections within `total` descriptors: two TLS modes, each to maxOrigins destinations of perOrigin. */
function outboundShare(total: number): { perOrigin: number; maxOrigins: number } {
  const perOrigin = Math.min(OUTBOUND_PER_ORIGIN, Math.floor(total / 2));
  return { perOrigin, maxOrigins: Math.floor(total / (2 * perOrigin)) };
}

/** The soft limit on open files, from /proc/self/limits (Linux); undefined elsewhere or when unlimited. */
export function descriptorLimit(limitsFile = '/proc/self/limits'): number | undefined {
  let text: string;
  try {
    text = readFileSync(limitsFile, 'utf8');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/**
 * Shares the limit among `controllers`, `listeners` listening sockets and `maxConnections` connections
 * (the configured total, reduced to a tenth of the limit when that is smaller); refuses a fleet whose
 * listeners leave no room for the connections and a few databases.
 */
export function planDescriptors(
  limit: number | undefined,
  controllers: number,
  listeners: number,
  maxConnections: number,
): DescriptorBudget {
  if (limit === undefined) {
    return { limit, listeners, connections: maxConnections, outbound: outboundShare(OUTBOUND_MOST), databases: controllers };
  }
  const connections = Math.max(32, Math.min(maxConnections, Math.floor(limit / 10)));
  const outbound = outboundShare(Math.max(OUTBOUND_LEAST, Math.min(OUTBOUND_MOST, Math.floor(limit / 20))));
  const outboundTotal = 2 * outbound.perOrigin * outbound.maxOrigins;
  const databases = Math.floor((limit - FIXED_DESCRIPTORS - listeners - connections - outboundTotal) / DESCRIPTORS_PER_DATABASE);
  const needed = Math.min(controllers, MIN_OPEN_DATABASES);
  if (databases < needed) {
    const least = FIXED_DESCRIPTORS + listeners + connections + outboundTotal + needed * DESCRIPTORS_PER_DATABASE;
    const hint =
      listeners > 1
        ? ' or give the controllers addresses of their own on one port (--fleet-addresses: one listening socket for all)'
        : ', or run fewer controllers in this process';
    throw new FleetCapacityError(
      `a fleet of ${controllers} controllers needs at least ${least} file descriptors (${listeners} listening sockets, ` +
        `${connections} connections, ${outboundTotal} for event deliveries, ${needed} open databases of ${DESCRIPTORS_PER_DATABASE} each, ${FIXED_DESCRIPTORS} for the process); ` +
        `the limit is ${limit} (ulimit -n): raise it (ulimit -n, prlimit --nofile, LimitNOFILE=)${hint}`,
    );
  }
  return { limit, listeners, connections, outbound, databases: Math.min(controllers, databases) };
}
