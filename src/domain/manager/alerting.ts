// The controller's vendor network settings beside NetworkProtocol's standard
// ones: alert e-mail, remote syslog and the web proxy. A test syslog message
// is really sent (one RFC 5424 datagram over UDP); the simulation has no mail
// transport, so a test alert e-mail is only recorded.
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { isHostName } from '../../lib/network-names.js';
import { baseRefusal, refusals, type Refusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export interface AlertingSettings {
  AlertMailEnabled: boolean;
  AlertMailEmail: string;
  AlertMailSenderDomain: string;
  AlertMailSMTPServer: string;
  AlertMailSMTPPort: number;
  AlertMailSMTPSecureEnabled: boolean;
  AlertMailSMTPAuthEnabled: boolean;
  AlertMailSMTPAuthUser: string;
  /** Sealed, or null when none is set. */
  AlertMailSMTPAuthPw: string | null;
  RemoteSyslogEnabled: boolean;
  RemoteSyslogServer: string;
  RemoteSyslogPort: number;
  WebProxyConfiguration: { ProxyServer: string; ProxyPort: number | null; ProxyUserName: string; ProxyPassword: string | null };
  EnhancedDownloadPerformanceEnabled: boolean;
}

const SETTING = 'manager.alerting';

/** As the vendor's controller leaves the factory. */
export const DEFAULT_ALERTING: AlertingSettings = {
  AlertMailEnabled: false,
  AlertMailEmail: '',
  AlertMailSenderDomain: '',
  AlertMailSMTPServer: '',
  AlertMailSMTPPort: 25,
  AlertMailSMTPSecureEnabled: true,
  AlertMailSMTPAuthEnabled: false,
  AlertMailSMTPAuthUser: '',
  AlertMailSMTPAuthPw: null,
  RemoteSyslogEnabled: false,
  RemoteSyslogServer: '',
  RemoteSyslogPort: 514,
  WebProxyConfiguration: { ProxyServer: '', ProxyPort: null, ProxyUserName: '', ProxyPassword: null },
  EnhancedDownloadPerformanceEnabled: false,
};

export type AlertingChange = Partial<Omit<AlertingSettings, 'WebProxyConfiguration'>> & {
  readonly WebProxyConfiguration?: Partial<AlertingSettings['WebProxyConfiguration']>;
};

export function readAlerting(store: DocumentStore): AlertingSettings {
  const s = store.setting<AlertingSettings>(SETTING, DEFAULT_ALERTING).get();
  return { ...DEFAULT_ALERTING, ...s, WebProxyConfiguration: { ...DEFAULT_ALERTING.WebProxyConfiguration, ...s.WebProxyConfiguration } };
}

export function writeAlerting(store: DocumentStore, s: AlertingSettings): void {
  store.setting<AlertingSettings>(SETTING, DEFAULT_ALERTING).set(s);
}

const isAddress = (v: string) => v === '' || isIP(v) !== 0 || isHostName(v);

/** The settings after a change; the passwords sealed, server names checked. */
export function changeAlerting(store: DocumentStore, c: AlertingChange): AlertingSettings {
  const cur = readAlerting(store);
  const problems: Refusal[] = [];
  for (const key of ['AlertMailSMTPServer', 'RemoteSyslogServer'] as const) {
    const v = c[key];
    if (v !== undefined && !isAddress(v)) problems.push(baseRefusal('PropertyValueFormatError', v, key).about(key));
  }
  const proxy = c.WebProxyConfiguration?.ProxyServer;
  if (proxy !== undefined && proxy !== null && !isAddress(proxy))
    problems.push(
      baseRefusal('PropertyValueFormatError', proxy, 'WebProxyConfiguration/ProxyServer').about('WebProxyConfiguration/ProxyServer'),
    );
  if (problems.length) throw refusals(problems);
  const seal = (v: string | null | undefined, kept: string | null) =>
    v === undefined ? kept : v === null || v === '' ? null : store.secrets.seal(v);
  const { WebProxyConfiguration: wp, AlertMailSMTPAuthPw, ...rest } = c;
  const next: AlertingSettings = {
    ...cur,
    ...rest,
    AlertMailSMTPAuthPw: seal(AlertMailSMTPAuthPw, cur.AlertMailSMTPAuthPw),
    WebProxyConfiguration: {
      ProxyServer: wp?.ProxyServer ?? cur.WebProxyConfiguration.ProxyServer,
      ProxyPort: wp?.ProxyPort !== undefined ? wp.ProxyPort : cur.WebProxyConfiguration.ProxyPort,
      ProxyUserName: wp?.ProxyUserName ?? cur.WebProxyConfiguration.ProxyUserName,
      ProxyPassword: seal(wp?.ProxyPassword, cur.WebProxyConfiguration.ProxyPassword),
    },
  };
  writeAlerting(store, next);
  return next;
}

/** Why a test message cannot go out, or undefined when the feature is set up. */
export function testMailProblem(s: AlertingSettings): string | undefined {
  if (!s.AlertMailEnabled) return 'alert e-mail is disabled (AlertMailEnabled).';
  if (!s.AlertMailEmail || !s.AlertMailSMTPServer) return 'alert e-mail needs AlertMailEmail and AlertMailSMTPServer.';
  return undefined;
}

export function testSyslogProblem(s: AlertingSettings): string | undefined {
  if (!s.RemoteSyslogEnabled) return 'remote syslog is disabled (RemoteSyslogEnabled).';
  if (!s.RemoteSyslogServer) return 'remote syslog needs RemoteSyslogServer.';
  return undefined;
}

/** Send one syslog message (RFC 5424, facility local0, notice) to the configured server. */
export function sendSyslog(s: AlertingSettings, text: string, at: string): Promise<void> {
  const line = `<133>1 ${at} ${hostname()} mc - - - ${text}`;
  return new Promise((resolve) => {
    const socket = createSocket(isIP(s.RemoteSyslogServer) === 6 ? 'udp6' : 'udp4');
    // A datagram has no answer: an unknown host or a closed port is the receiver's business, as for any syslog sender.
    socket.on('error', () => {
      socket.close();
      resolve();
    });
    socket.send(line, s.RemoteSyslogPort, s.RemoteSyslogServer, () => {
      socket.close();
      resolve();
    });
  });
}
