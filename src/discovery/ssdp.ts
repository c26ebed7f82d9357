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

export interface SsdpOptions {
  port: number;
  /** The service root's UUID (the USN). */
  uuid: string;
  /** The service root's URL (the AL header). */
  location: string;
  /** Minor version of the Redfish specification the service implements. */
  redfishMinor: number;
  clock: Clock;
  settings(): SsdpSettings;
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
  const usn = `uuid:${o.uuid.toLowerCase()}::${st}`;
  const socket: Socket = createSocket({ type: 'udp4', reuseAddr: true });
  socket.on('error', (err) => o.log.warn({ err }, 'SSDP socket error'));

  const answer = (text: string, from: RemoteInfo): void => {
    if (!o.settings().enabled) return;
    const h = parseSearch(text);
    if (!h || h.man?.replace(/"/g, '') !== 'ssdp:discover') return;
    const target = h.st ?? '';
    if (target !== 'ssdp:all' && !REDFISH_ST.test(target)) return;
    const reply =
      `HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=${MAX_AGE}\r\nST: ${st}\r\nUSN: ${usn}\r\n` +
      `AL: ${o.location}\r\nEXT:\r\nSERVER: bmc-redfish UPnP/1.1\r\n\r\n`;
    socket.send(reply, from.port, from.address);
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
  const notify = async (nts: 'ssdp:alive' | 'ssdp:byebye'): Promise<void> => {
    const s = o.settings();
    const text =
      `NOTIFY * HTTP/1.1\r\nHOST: ${GROUP}:${port}\r\nCACHE-CONTROL: max-age=${MAX_AGE}\r\nNT: ${st}\r\nNTS: ${nts}\r\n` +
      `USN: ${usn}\r\nAL: ${o.location}\r\n\r\n`;
    try {
      socket.setMulticastTTL(Math.min(255, Math.max(1, s.notifyTtl)));
      await new Promise<void>((resolve, reject) => socket.send(text, port, GROUP, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      o.log.warn({ err, nts }, 'SSDP NOTIFY not sent');
    }
  };
  // One tick a second: the interval is a setting that may change at any time.
  let lastNotify = -Infinity;
  const tick: TimerHandle = o.clock.setInterval(1000, () => {
    const s = o.settings();
    const now = o.clock.now();
    if (!s.enabled || s.notifyIntervalSeconds <= 0 || now - lastNotify < s.notifyIntervalSeconds * 1000) return;
    lastNotify = now;
    void notify('ssdp:alive');
  });

  return {
    port,
    close: async () => {
      tick.cancel();
      if (o.settings().enabled) await notify('ssdp:byebye');
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
