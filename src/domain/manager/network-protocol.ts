// The controller's network service settings (ManagerNetworkProtocol) as
// stored, and the rules of a change to them. Other areas read them too:
// certificate login needs to know whether a time source is configured.
import { isIP } from 'node:net';
import { isHostName } from '../../lib/network-names.js';
import { type ExtendedInfo } from '../../messages/errors.js';
import { Refusal, baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export const NETWORK_PROTOCOL_SETTING = 'manager.networkProtocol';

export interface NetworkProtocolSettings {
  NTP: { ProtocolEnabled: boolean; NTPServers: string[] };
  HostName: string;
  SSDP: { ProtocolEnabled: boolean; NotifyMulticastIntervalSeconds: number; NotifyTTL: number };
}

export const DEFAULT_NETWORK_PROTOCOL: NetworkProtocolSettings = {
  NTP: { ProtocolEnabled: false, NTPServers: [] },
  HostName: 'mc-host',
  // As the vendor's controllers leave the factory: discoverable, announced every 10 minutes.
  SSDP: { ProtocolEnabled: true, NotifyMulticastIntervalSeconds: 600, NotifyTTL: 5 },
};

/** At most this many NTP servers are kept, as on the vendor's controller. */
export const MAX_NTP_SERVERS = 2;

export function readNetworkProtocol(store: DocumentStore): NetworkProtocolSettings {
  const stored = store.setting<Partial<NetworkProtocolSettings>>(NETWORK_PROTOCOL_SETTING, DEFAULT_NETWORK_PROTOCOL).get();
  // Settings stored before a part existed take that part's defaults.
  return { ...DEFAULT_NETWORK_PROTOCOL, ...stored, SSDP: { ...DEFAULT_NETWORK_PROTOCOL.SSDP, ...stored.SSDP } };
}

export function writeNetworkProtocol(store: DocumentStore, value: NetworkProtocolSettings): void {
  store.setting<NetworkProtocolSettings>(NETWORK_PROTOCOL_SETTING, DEFAULT_NETWORK_PROTOCOL).set(value);
}

/** True when NTP is enabled and at least one server is named: the controller's time is then trusted. */
export function timeSourceConfigured(store: DocumentStore): boolean {
  const ntp = readNetworkProtocol(store).NTP;
  return ntp.ProtocolEnabled && ntp.NTPServers.some((s) => s.trim() !== '');
}

// -- a change of the settings (ManagerNetworkProtocol PATCH) -------------------

/** What a client asks to change; every part is optional. */
export interface NetworkProtocolChange {
  readonly HostName?: string;
  readonly NTP?: { readonly ProtocolEnabled?: boolean; readonly NTPServers?: readonly string[] };
  readonly SSDP?: Partial<NetworkProtocolSettings['SSDP']>;
}

export interface NetworkProtocolFacts {
  /** An SSDP port is configured: without one the controller offers no SSDP, so SSDP cannot be written. */
  readonly ssdpOffered: boolean;
  /** Messages for properties already refused (request validation): with nothing left to apply, the change fails with them. */
  readonly refused: readonly ExtendedInfo[];
}

export interface NetworkProtocolUpdate {
  readonly settings: NetworkProtocolSettings;
  /** Each applied property (its path) and its new value, for the event log. */
  readonly changed: readonly (readonly [property: string, value: string])[];
  /** Messages for the properties refused here; the others still apply (DSP0266 partial PATCH). */
  readonly problems: readonly ExtendedInfo[];
}

const SSDP_KEYS = ['ProtocolEnabled', 'NotifyMulticastIntervalSeconds', 'NotifyTTL'] as const;

function isServerAddress(v: string): boolean {
  return isIP(v) !== 0 || isHostName(v);
}

/**
 * The settings after a change: a host name must be RFC 1123 labels; NTP servers
 * are host names or IP addresses, at most MAX_NTP_SERVERS once empty strings are
 * dropped; SSDP only where it is offered. A refused property is a problem and
 * the rest still applies; when nothing applies and something was refused
 * (here or before), the change fails as a whole.
 */
export function changeNetworkProtocol(
  current: NetworkProtocolSettings,
  change: NetworkProtocolChange,
  facts: NetworkProtocolFacts,
): NetworkProtocolUpdate {
  const next: NetworkProtocolSettings = { HostName: current.HostName, NTP: { ...current.NTP }, SSDP: { ...current.SSDP } };
  const changed: [string, string][] = [];
  const problems: ExtendedInfo[] = [];
  const refuse = (e: Refusal) => problems.push(...e.infos);

  if (change.HostName !== undefined) {
    if (isHostName(change.HostName)) {
      next.HostName = change.HostName;
      changed.push(['HostName', change.HostName]);
    } else {
      refuse(baseRefusal('PropertyValueFormatError', change.HostName, 'HostName').about('HostName'));
    }
  }
  if (change.NTP?.ProtocolEnabled !== undefined) {
    next.NTP.ProtocolEnabled = change.NTP.ProtocolEnabled;
    changed.push(['NTP/ProtocolEnabled', String(change.NTP.ProtocolEnabled)]);
  }
  if (change.NTP?.NTPServers !== undefined) {
    const servers = change.NTP.NTPServers.filter((x) => x.trim() !== '');
    const bad = servers.find((x) => !isServerAddress(x));
    if (bad !== undefined) {
      refuse(baseRefusal('PropertyValueFormatError', bad, 'NTP/NTPServers').about('NTP/NTPServers'));
    } else if (servers.length > MAX_NTP_SERVERS) {
      refuse(baseRefusal('PropertyValueOutOfRange', JSON.stringify(change.NTP.NTPServers), 'NTP/NTPServers').about('NTP/NTPServers'));
    } else {
      next.NTP.NTPServers = servers;
      changed.push(['NTP/NTPServers', servers.join(', ')]);
    }
  }
  if (change.SSDP) {
    if (!facts.ssdpOffered) {
      refuse(baseRefusal('PropertyNotWritable', 'SSDP').about('SSDP'));
    } else {
      for (const key of SSDP_KEYS) {
        if (set(next.SSDP, key, change.SSDP[key])) changed.push([`SSDP/${key}`, String(next.SSDP[key])]);
      }
    }
  }
  if (!changed.length && (problems.length || facts.refused.length)) throw new Refusal([...facts.refused, ...problems]);
  return { settings: next, changed, problems };
}

/** Set a member when a value is given; true when it was. */
function set<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): boolean {
  if (value === undefined) return false;
  target[key] = value;
  return true;
}
