// The controller's network service settings (ManagerNetworkProtocol) as
// stored. Other areas read them too: certificate login needs to know whether
// a time source is configured.
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

const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A DNS name made of RFC 1123 labels (no trailing dot), at most 253 characters. */
export function isHostName(v: string): boolean {
  return v.length > 0 && v.length <= 253 && v.split('.').every((l) => LABEL.test(l));
}
