// ManagerNetworkProtocol: the controller's network services. Only HTTPS is
// offered (G1), on the configured port; plain HTTP is reported disabled. The
// host name and NTP settings are writable and take effect at once (no
// controller reset needed); every change is written to the event log.
import { isIP } from 'node:net';
import {
  MAX_NTP_SERVERS,
  isHostName,
  readNetworkProtocol,
  writeNetworkProtocol,
  type NetworkProtocolSettings,
} from '../../domain/manager/network-protocol.js';
import { Priv } from '../../lib/privileges.js';
import { RedfishError, baseError } from '../../messages/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { defineType, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import type { RequestContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

const protocol = (writable: boolean) =>
  t.object(
    { Port: ro(t.integer({ nullable: true })), ProtocolEnabled: writable ? t.boolean() : ro(t.boolean()) },
    { readOnly: !writable, typeName: 'Protocol' },
  );

export const ManagerNetworkProtocolType = defineType({
  name: 'ManagerNetworkProtocol',
  version: '1.10.0',
  owner: 'DMTF',
  description: 'Network services of the management controller.',
  properties: {
    ...commonProps,
    Status: statusProp,
    HostName: t.string({ minLength: 1, maxLength: 253, description: 'DNS host name of the controller (RFC 1123 labels).' }),
    FQDN: ro(t.string()),
    HTTP: protocol(false),
    HTTPS: t.object(
      { Port: ro(t.integer({ nullable: true })), ProtocolEnabled: ro(t.boolean()), Certificates: t.link({ readOnly: true }) },
      { readOnly: true, typeName: 'HTTPSProtocol' },
    ),
    SSDP: t.object(
      {
        Port: ro(t.integer({ nullable: true })),
        ProtocolEnabled: t.boolean({ description: 'Answer SSDP searches and announce the service (DSP0266 Discovery).' }),
        NotifyMulticastIntervalSeconds: t.integer({ minimum: 0, maximum: 86400, description: 'Seconds between ssdp:alive announcements; 0 announces nothing.' }),
        NotifyTTL: t.integer({ minimum: 1, maximum: 255, description: 'Time-to-live of the announcements.' }),
        NotifyIPv6Scope: ro(t.enum(['Link', 'Site', 'Organization'])),
      },
      { typeName: 'SSDProtocol' },
    ),
    NTP: t.object(
      {
        Port: ro(t.integer({ nullable: true })),
        ProtocolEnabled: t.boolean(),
        NTPServers: t.array(t.string({ maxLength: 253 }), {
          description: `Up to ${MAX_NTP_SERVERS} NTP servers (host names or IP addresses); empty strings are ignored.`,
        }),
      },
      { typeName: 'NTPProtocol' },
    ),
  },
});

function isServerAddress(v: string): boolean {
  return isIP(v) !== 0 || isHostName(v);
}

export function registerNetworkProtocolRoutes(routes: RouteTable, s: Services): void {

  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/',
    type: ManagerNetworkProtocolType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const np = readNetworkProtocol(s.store);
        return {
          Id: 'NetworkProtocol',
          Name: 'Manager Network Protocol',
          Description: 'Network services of the management controller',
          Status: { State: 'Enabled', Health: 'OK' },
          HostName: np.HostName,
          // No DNS domain is configured, so the FQDN is the host name.
          FQDN: np.HostName,
          HTTP: { Port: 80, ProtocolEnabled: false },
          HTTPS: { Port: s.config.port, ProtocolEnabled: true, Certificates: { '@odata.id': `${ctx.uri}HTTPS/Certificates/` } },
          NTP: { Port: 123, ProtocolEnabled: np.NTP.ProtocolEnabled, NTPServers: [...np.NTP.NTPServers] },
          // Without an SSDP port (--ssdp-port 0) the controller offers no SSDP at all.
          ...(s.config.ssdpPort ? { SSDP: { Port: s.config.ssdpPort, ...np.SSDP, NotifyIPv6Scope: 'Site' } } : {}),
        };
      },
    },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const id = s.config.managerId;
        const body = ctx.body as {
          HostName?: string;
          NTP?: { ProtocolEnabled?: boolean; NTPServers?: string[] };
          SSDP?: Partial<NetworkProtocolSettings['SSDP']>;
        };
        const current = readNetworkProtocol(s.store);
        const next: NetworkProtocolSettings = { HostName: current.HostName, NTP: { ...current.NTP }, SSDP: { ...current.SSDP } };
        // Refused properties join the validator's; the good ones still apply (DSP0266 partial PATCH).
        const problems = ctx.problems;
        const changed: [string, string][] = [];

        if (body.HostName !== undefined) {
          if (isHostName(body.HostName)) {
            next.HostName = body.HostName;
            changed.push(['HostName', body.HostName]);
          } else {
            problems.push(...baseError('PropertyValueFormatError', body.HostName, 'HostName').about('HostName').infos);
          }
        }
        if (body.NTP?.ProtocolEnabled !== undefined) {
          next.NTP.ProtocolEnabled = body.NTP.ProtocolEnabled;
          changed.push(['NTP/ProtocolEnabled', String(body.NTP.ProtocolEnabled)]);
        }
        if (body.NTP?.NTPServers !== undefined) {
          const servers = body.NTP.NTPServers.filter((x) => x.trim() !== '');
          const bad = servers.find((x) => !isServerAddress(x));
          if (bad !== undefined) {
            problems.push(...baseError('PropertyValueFormatError', bad, 'NTP/NTPServers').about('NTP/NTPServers').infos);
          } else if (servers.length > MAX_NTP_SERVERS) {
            problems.push(...baseError('PropertyValueOutOfRange', JSON.stringify(body.NTP.NTPServers), 'NTP/NTPServers').about('NTP/NTPServers').infos);
          } else {
            next.NTP.NTPServers = servers;
            changed.push(['NTP/NTPServers', servers.join(', ')]);
          }
        }
        if (body.SSDP) {
          if (!s.config.ssdpPort) {
            problems.push(...baseError('PropertyNotWritable', 'SSDP').about('SSDP').infos);
          } else {
            for (const key of ['ProtocolEnabled', 'NotifyMulticastIntervalSeconds', 'NotifyTTL'] as const) {
              const value = body.SSDP[key];
              if (value === undefined) continue;
              (next.SSDP as Record<string, unknown>)[key] = value;
              changed.push([`SSDP/${key}`, String(value)]);
            }
          }
        }
        // Nothing valid was left to apply: the request fails as a whole.
        if (!changed.length && problems.length) throw new RedfishError(400, problems);
        writeNetworkProtocol(s.store, next);
        const origin = `/redfish/v1/Managers/${encodeURIComponent(id)}/NetworkProtocol/`;
        for (const [prop, value] of changed) s.logs.write('IEL', resourceEvent('PropertyValueModifiedByClient', prop, value), origin);
        return undefined;
      },
    },
  });
}
