// SSDP discovery (DSP0266 "Discovery"): answers M-SEARCH requests for the
// Redfish service (or ssdp:all) with the service root's location, and
// announces the service with NOTIFY ssdp:alive at the configured interval.
// Whether it answers, and how often it announces, is read from the
// ManagerNetworkProtocol settings each time, so a PATCH applies at once.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import type { Clock, TimerHandle } from '../platform/clock.js';

const GROUP = '239.255.255.250';
const MAX_AGE = 1800;
const REDFISH_ST = /^urn:dmtf-org:service:redfish-rest:1(:\d+)?$/i;

export interface SsdpSettings {
  enabled: boolean;
  /** Seconds between NOTIFY ssdp:alive announcements; 0 announces nothing. */
  notifyIntervalSeconds: number;
  notifyTtl: number;
}

/** One Redfish service answered for: a fleet has one per controller, on one socket. */
export interface SsdpMember {
  /** The service root's UUID (the USN). */
  uuid: string;
  /** The service root's URL (the AL header). */
  location: string;
  /** Read each time, so a PATCH of the controller's settings applies at once. */
  settings(): SsdpSettings;
}

export interface SsdpOptions {
  port: number;
  members: readonly SsdpMember[];
  /** Minor version of the Redfish specification the service implements. */
  redfishMinor: number;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}

export interface Ssdp {
  /** The UDP port it listens on. */
  port: number;
  close(): Promise<void>;
}

/** Header fields of an SSDP request, names in lower case; undefined unless it is an M-SEARCH. */
function parseSearch(text: string): Record<string, string> | undefined {
  const [start, ...lines] = text.split(/\r?\n/);
  if (!/^M-SEARCH \* HTTP\/1\.1$/i.test(start?.trim() ?? '')) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

export async function startSsdp(o: SsdpOptions): Promise<Ssdp> {
  const st = `urn:dmtf-org:service:redfish-rest:1:${o.redfishMinor}`;
  const usn = (m: SsdpMember) => `uuid:${m.uuid.toLowerCase()}::${st}`;
  const socket: Socket = createSocket({ type: 'udp4', reuseAddr: true });
  socket.on('error', (err) => o.log.warn({ err }, 'SSDP socket error'));

  const answer = (text: string, from: RemoteInfo): void => {
    const h = parseSearch(text);
    if (!h || h.man?.replace(/"/g, '') !== 'ssdp:discover') return;
    const target = h.st ?? '';
    if (target !== 'ssdp:all' && !REDFISH_ST.test(target)) return;
    // One answer per service, as from that many controllers.
    for (const m of o.members) {
      if (!m.settings().enabled) continue;
      const reply =
        `HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=${MAX_AGE}\r\nST: ${st}\r\nUSN: ${usn(m)}\r\n` +
        `AL: ${m.location}\r\nEXT:\r\nSERVER: bmc-redfish UPnP/1.1\r\n\r\n`;
      socket.send(reply, from.port, from.address);
    }
  };
  socket.on('message', (msg, from) => answer(msg.toString('utf8'), from));

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(o.port, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const port = socket.address().port;
  // Join the group on every IPv4 interface, loopback included, so local and remote searches are heard.
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a?.family === 'IPv4')
    .map((a) => a?.address);
  for (const address of addresses) {
    try {
      socket.addMembership(GROUP, address);
    } catch (err) {
      o.log.warn({ err, address }, 'SSDP cannot join the multicast group on an interface');
    }
  }

  /** Never rejects: a NOTIFY that cannot be sent (no route, socket closing) is logged, and the next tick tries again. */
  const notify = async (m: SsdpMember, nts: 'ssdp:alive' | 'ssdp:byebye'): Promise<void> => {
    const s = m.settings();
    const text =
      `NOTIFY * HTTP/1.1\r\nHOST: ${GROUP}:${port}\r\nCACHE-CONTROL: max-age=${MAX_AGE}\r\nNT: ${st}\r\nNTS: ${nts}\r\n` +
      `USN: ${usn(m)}\r\nAL: ${m.location}\r\n\r\n`;
    try {
      socket.setMulticastTTL(Math.min(255, Math.max(1, s.notifyTtl)));
      await new Promise<void>((resolve, reject) => socket.send(text, port, GROUP, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      o.log.warn({ err, nts }, 'SSDP NOTIFY not sent');
    }
  };
  // One tick a second: the interval is a setting that may change at any time.
  const lastNotify = o.members.map(() => -Infinity);
  const tick: TimerHandle = o.clock.setInterval(1000, () => {
    const now = o.clock.now();
    o.members.forEach((m, i) => {
      const s = m.settings();
      if (!s.enabled || s.notifyIntervalSeconds <= 0 || now - lastNotify[i]! < s.notifyIntervalSeconds * 1000) return;
      lastNotify[i] = now;
      void notify(m, 'ssdp:alive');
    });
  });

  return {
    port,
    close: async () => {
      tick.cancel();
      await Promise.all(o.members.filter((m) => m.settings().enabled).map((m) => notify(m, 'ssdp:byebye')));
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
