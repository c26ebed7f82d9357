// ManagerNetworkProtocol: the controller's network services. Only HTTPS is
// offered, on the configured port; plain HTTP is reported disabled. The
// host name and NTP settings are writable and take effect at once (no
// controller reset needed); every change is written to the event log. The
// rules of a change are the domain's (changeNetworkProtocol).
import {
  MAX_NTP_SERVERS,
  changeNetworkProtocol,
  readNetworkProtocol,
  writeNetworkProtocol,
} from '../../domain/manager/network-protocol.js';
import { Priv } from '../../lib/privileges.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { commonProps, defineType, ro, statusProp, t } from '../../protocol/description.js';
import type { Context, PatchContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export type NetworkProtocolDeps = Pick<Services, 'config' | 'uris' | 'store' | 'logs'>;

type NetworkProtocolPath = '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/';

export const ManagerNetworkProtocolType = defineType({
  name: 'ManagerNetworkProtocol',
  version: '1.12.0',
  owner: 'DMTF',
  description: 'Network services of the management controller.',
  properties: {
    ...commonProps,
    Status: statusProp,
    HostName: t.string({ minLength: 1, maxLength: 253, description: 'DNS host name of the controller (RFC 1123 labels).' }),
    FQDN: ro(t.string()),
    HTTP: t.object({ Port: ro(t.integer({ nullable: true })), ProtocolEnabled: ro(t.boolean()) }, { readOnly: true, typeName: 'Protocol' }),
    HTTPS: t.object(
      { Port: ro(t.integer({ nullable: true })), ProtocolEnabled: ro(t.boolean()), Certificates: t.link({ readOnly: true }) },
      { readOnly: true, typeName: 'HTTPSProtocol' },
    ),
    SSDP: t.object(
      {
        Port: ro(t.integer({ nullable: true })),
        ProtocolEnabled: t.boolean({ description: 'Answer SSDP searches and announce the service (DSP0266 Discovery).' }),
        NotifyMulticastIntervalSeconds: t.integer({
          minimum: 0,
          maximum: 86400,
          description: 'Seconds between ssdp:alive announcements; 0 announces nothing.',
        }),
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

function handlers(d: NetworkProtocolDeps) {
  function getNetworkProtocol(ctx: Context<NetworkProtocolPath>) {
    const np = readNetworkProtocol(d.store);
    return {
      Id: 'NetworkProtocol',
      Name: 'Manager Network Protocol',
      Description: 'Network services of the management controller',
      Status: { State: 'Enabled', Health: 'OK' },
      HostName: np.HostName,
      // No DNS domain is configured, so the FQDN is the host name.
      FQDN: np.HostName,
      HTTP: { Port: 80, ProtocolEnabled: false },
      HTTPS: { Port: d.config.port, ProtocolEnabled: true, Certificates: { '@odata.id': `${ctx.uri}HTTPS/Certificates/` } },
      NTP: { Port: 123, ProtocolEnabled: np.NTP.ProtocolEnabled, NTPServers: [...np.NTP.NTPServers] },
      // Without an SSDP port (--ssdp-port 0) the controller offers no SSDP at all.
      ...(d.config.ssdpPort ? { SSDP: { Port: d.config.ssdpPort, ...np.SSDP, NotifyIPv6Scope: 'Site' } } : {}),
    };
  }

  function patchNetworkProtocol(ctx: PatchContext<NetworkProtocolPath, typeof ManagerNetworkProtocolType.properties>): void {
    const facts = { ssdpOffered: Boolean(d.config.ssdpPort), refused: ctx.problems };
    const { settings, changed, problems } = changeNetworkProtocol(readNetworkProtocol(d.store), ctx.body, facts);
    // Refused properties join the validator's; the good ones apply (DSP0266 partial PATCH).
    ctx.problems.push(...problems);
    writeNetworkProtocol(d.store, settings);
    const origin = d.uris.manager('NetworkProtocol');
    for (const [prop, value] of changed) d.logs.write('IEL', resourceEvent('PropertyValueModifiedByClient', prop, value), origin);
  }

  return { getNetworkProtocol, patchNetworkProtocol };
}

export function registerNetworkProtocolRoutes(routes: RouteTable, d: NetworkProtocolDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/',
    type: ManagerNetworkProtocolType,
    get: { privilege: Priv.login, handler: h.getNetworkProtocol },
    patch: { privilege: Priv.managerConfig, handler: h.patchNetworkProtocol },
  });
}
