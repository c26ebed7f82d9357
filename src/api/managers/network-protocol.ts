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
import { changeAlerting, readAlerting, sendSyslog, testMailProblem, testSyslogProblem } from '../../domain/manager/alerting.js';
import { vendorMessage } from '../../messages/errors.js';
import { isoNow } from '../../platform/clock.js';
import { commonProps, defineAction, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import { action, type ActionContext, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type NetworkProtocolDeps = Pick<Services, 'config' | 'uris' | 'store' | 'logs' | 'clock' | 'managerFeatures'>;

type NetworkProtocolPath = '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/';

const SendTestAlertMailAction = defineAction({
  name: `${controllerType('ManagerNetworkService')}.SendTestAlertMail`,
  oem: true,
  description: 'Send a test alert e-mail to AlertMailEmail (recorded in the event log: the simulation has no mail transport).',
  parameters: {},
});

const SendTestSyslogAction = defineAction({
  name: `${controllerType('ManagerNetworkService')}.SendTestSyslog`,
  oem: true,
  description: 'Send a test message to the remote syslog server (one RFC 5424 datagram over UDP).',
  parameters: {},
});

const secretText = t.string({ nullable: true, writeOnly: true, secret: true, maxLength: 128 });

export const VendorMCManagerNetworkServiceType = defineType({
  name: controllerType('ManagerNetworkService'),
  version: '2.2.0',
  owner: OEM,
  description: 'Vendor network settings of the management controller: alert e-mail, remote syslog, web proxy.',
  properties: {
    ConfigurationSettings: ro(t.enum(['Current', 'SomePendingReset'])),
    AlertMailEnabled: t.boolean(),
    AlertMailEmail: t.string({ maxLength: 63 }),
    AlertMailSenderDomain: t.string({ maxLength: 63 }),
    AlertMailSMTPServer: t.string({ maxLength: 63 }),
    AlertMailSMTPPort: t.integer({ minimum: 1, maximum: 65535 }),
    AlertMailSMTPSecureEnabled: t.boolean(),
    AlertMailSMTPAuthEnabled: t.boolean(),
    AlertMailSMTPAuthUser: t.string({ maxLength: 63 }),
    AlertMailSMTPAuthPw: secretText,
    RemoteSyslogEnabled: t.boolean(),
    RemoteSyslogServer: t.string({ maxLength: 127 }),
    RemoteSyslogPort: t.integer({ minimum: 1, maximum: 65535 }),
    SNMPTrapPort: ro(t.integer()),
    FederationEnabled: ro(t.boolean()),
    FederationSupported: ro(t.boolean()),
    SerialOverLanLogging: ro(t.boolean()),
    VirtualMediaEncryptionEnabled: ro(t.boolean()),
    XMLResponseEnabled: ro(t.boolean()),
    EnhancedDownloadPerformanceEnabled: t.boolean(),
    WebProxyConfiguration: t.object(
      {
        ProxyServer: t.string({ maxLength: 255 }),
        ProxyPort: t.integer({ nullable: true, minimum: 1, maximum: 65535 }),
        ProxyUserName: t.string({ maxLength: 63 }),
        ProxyPassword: secretText,
      },
      { typeName: 'WebProxyConfiguration' },
    ),
    Links: t.object(
      { EthernetInterfaces: t.link({ readOnly: true }), SNMPService: t.link({ readOnly: true }) },
      { readOnly: true, typeName: 'Links' },
    ),
  },
});

const protocolBlock = (typeName: string) =>
  t.object({ Port: ro(t.integer({ nullable: true })), ProtocolEnabled: ro(t.boolean()) }, { readOnly: true, typeName });

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
    SNMP: protocolBlock('SNMPProtocol'),
    IPMI: protocolBlock('Protocol'),
    SSH: protocolBlock('Protocol'),
    KVMIP: protocolBlock('Protocol'),
    VirtualMedia: protocolBlock('Protocol'),
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
    Oem: oem(VendorMCManagerNetworkServiceType),
  },
  actions: [SendTestAlertMailAction, SendTestSyslogAction],
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
      // Services the simulated controller does not run, on the ports the vendor's controller uses.
      IPMI: { Port: 623, ProtocolEnabled: false },
      SSH: { Port: 22, ProtocolEnabled: false },
      KVMIP: { Port: 17990, ProtocolEnabled: false },
      SNMP: { Port: 161, ProtocolEnabled: false },
      // Virtual media images are read over HTTP(S) by the controller itself.
      VirtualMedia: { Port: 17988, ProtocolEnabled: true },
      Oem: { [OEM]: alertingBody() },
      // Without an SSDP port (--ssdp-port 0) the controller offers no SSDP at all.
      ...(d.config.ssdpPort ? { SSDP: { Port: d.config.ssdpPort, ...np.SSDP, NotifyIPv6Scope: 'Site' } } : {}),
    };
  }

  function alertingBody() {
    const a = readAlerting(d.store);
    const { AlertMailSMTPAuthPw: _pw, WebProxyConfiguration: wp, ...shown } = a;
    return {
      ConfigurationSettings: 'Current',
      ...shown,
      AlertMailSMTPAuthPw: null,
      WebProxyConfiguration: { ...wp, ProxyPassword: null },
      SNMPTrapPort: 162,
      FederationEnabled: true,
      FederationSupported: true,
      SerialOverLanLogging: false,
      VirtualMediaEncryptionEnabled: true,
      XMLResponseEnabled: false,
      Links: {
        EthernetInterfaces: { '@odata.id': d.uris.manager('EthernetInterfaces') },
        SNMPService: { '@odata.id': d.uris.manager('SnmpService') },
      },
    };
  }

  function patchNetworkProtocol(ctx: PatchContext<NetworkProtocolPath, typeof ManagerNetworkProtocolType.properties>): void {
    const vendor = ctx.body.Oem?.[OEM];
    if (vendor) changeAlerting(d.store, vendor);
    if (Object.keys(ctx.body).every((k) => k === 'Oem')) return;
    const facts = { ssdpOffered: Boolean(d.config.ssdpPort), refused: ctx.problems };
    const { settings, changed, problems } = changeNetworkProtocol(readNetworkProtocol(d.store), ctx.body, facts);
    // Refused properties join the validator's; the good ones apply (DSP0266 partial PATCH).
    ctx.problems.push(...problems);
    writeNetworkProtocol(d.store, settings);
    const origin = d.uris.manager('NetworkProtocol');
    for (const [prop, value] of changed) d.logs.write('IEL', resourceEvent('PropertyValueModifiedByClient', prop, value), origin);
  }

  function postSendTestAlertMail(_ctx: ActionContext<NetworkProtocolPath, typeof SendTestAlertMailAction>) {
    const a = readAlerting(d.store);
    const problem =
      testMailProblem(a) ?? 'the simulated controller has no mail transport; the test alert is recorded in the event log only.';
    d.logs.write('IEL', vendorMessage('TestMessageNotSent', 'alert e-mail', problem), d.uris.manager('NetworkProtocol'));
    return success(vendorMessage('TestMessageNotSent', 'alert e-mail', problem));
  }

  async function postSendTestSyslog(ctx: ActionContext<NetworkProtocolPath, typeof SendTestSyslogAction>) {
    const a = readAlerting(d.store);
    const problem = testSyslogProblem(a);
    if (problem) return success(vendorMessage('TestMessageNotSent', 'syslog message', problem));
    const to = `${a.RemoteSyslogServer}:${a.RemoteSyslogPort}`;
    await sendSyslog(a, `Test syslog message from the management controller, requested by ${ctx.principal.userName}`, isoNow(d.clock));
    d.logs.write('IEL', vendorMessage('TestMessageSent', 'syslog message', to, ctx.principal.userName), d.uris.manager('NetworkProtocol'));
    return success(vendorMessage('TestMessageSent', 'syslog message', to, ctx.principal.userName));
  }

  return { getNetworkProtocol, patchNetworkProtocol, postSendTestAlertMail, postSendTestSyslog };
}

export function registerNetworkProtocolRoutes(routes: RouteTable, d: NetworkProtocolDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/',
    type: ManagerNetworkProtocolType,
    get: { privilege: Priv.login, handler: h.getNetworkProtocol },
    patch: { privilege: Priv.managerConfig, handler: h.patchNetworkProtocol },
    actions: [
      action(SendTestAlertMailAction, Priv.managerConfig, h.postSendTestAlertMail),
      action(SendTestSyslogAction, Priv.managerConfig, h.postSendTestSyslog),
    ],
  });
}
