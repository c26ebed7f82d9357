// The vendor's DateTime resource of the manager: the controller's clock, its
// time zone (the manager's DateTimeLocalOffset follows it) and NTP servers.
// StaticNTPServers are NetworkProtocol's NTP/NTPServers (one setting, the
// same rules); with no DHCP on the dedicated NIC, NTPServers (those in use)
// are the same list. Changes take effect at once, as NetworkProtocol's do.
import { TIME_ZONES, chooseTimeZone, readDateTime, timeZoneOf, writeDateTime } from '../../domain/manager/date-time.js';
import {
  MAX_NTP_SERVERS,
  changeNetworkProtocol,
  readNetworkProtocol,
  writeNetworkProtocol,
} from '../../domain/manager/network-protocol.js';
import { Priv } from '../../lib/privileges.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { isoNow } from '../../platform/clock.js';
import { defineType, ro, t } from '../../protocol/description.js';
import type { Context, PatchContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type DateTimeDeps = Pick<Services, 'config' | 'uris' | 'clock' | 'store' | 'logs'>;

type DateTimePath = '/redfish/v1/Managers/{ManagerId}/DateTime/';

const zoneProps = {
  Index: t.integer({ minimum: 0, maximum: TIME_ZONES.length - 1 }),
  Name: t.string(),
  UtcOffset: ro(t.string()),
  Value: t.string(),
};

export const VendorMCDateTimeType = defineType({
  name: controllerType('DateTime'),
  version: '2.0.0',
  owner: OEM,
  description: "The management controller's date, time zone and NTP servers.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    ConfigurationSettings: ro(t.enum(['Current', 'SomePendingReset'])),
    DateTime: ro(t.dateTime({ volatile: true })),
    TimeZone: t.object(zoneProps, { typeName: 'TimeZone', description: 'Choose a zone by its Index, Name or Value from TimeZoneList.' }),
    TimeZoneList: ro(t.array(t.object(zoneProps, { typeName: 'TimeZoneListEntry' }))),
    NTPServers: ro(t.array(t.string(), { description: 'The NTP servers in use.' })),
    StaticNTPServers: t.array(t.string({ maxLength: 253 }), {
      description: `Up to ${MAX_NTP_SERVERS} NTP servers; the same setting as NetworkProtocol NTP/NTPServers.`,
    }),
    PropagateTimeToHost: t.boolean({ description: "The host's clock is set from the controller's at every POST." }),
    Links: t.object({ EthernetNICs: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});

function handlers(d: DateTimeDeps) {
  function getDateTime(_ctx: Context<DateTimePath>) {
    const settings = readDateTime(d.store);
    const servers = [...readNetworkProtocol(d.store).NTP.NTPServers];
    return {
      Id: 'DateTime',
      Name: 'Date and Time Settings',
      ConfigurationSettings: 'Current',
      DateTime: isoNow(d.clock),
      TimeZone: timeZoneOf(settings),
      TimeZoneList: TIME_ZONES,
      NTPServers: servers,
      StaticNTPServers: servers,
      PropagateTimeToHost: settings.PropagateTimeToHost,
      Links: { EthernetNICs: { '@odata.id': d.uris.manager('EthernetInterfaces') } },
    };
  }

  function patchDateTime(ctx: PatchContext<DateTimePath, typeof VendorMCDateTimeType.properties>): void {
    const b = ctx.body;
    const settings = readDateTime(d.store);
    const changed: [string, string][] = [];
    if (b.TimeZone !== undefined) {
      const z = chooseTimeZone(b.TimeZone);
      settings.TimeZoneIndex = z.Index;
      changed.push(['TimeZone', z.Name]);
    }
    if (b.PropagateTimeToHost !== undefined) {
      settings.PropagateTimeToHost = b.PropagateTimeToHost;
      changed.push(['PropagateTimeToHost', String(b.PropagateTimeToHost)]);
    }
    if (b.StaticNTPServers !== undefined) {
      const update = changeNetworkProtocol(
        readNetworkProtocol(d.store),
        { NTP: { NTPServers: b.StaticNTPServers } },
        { ssdpOffered: Boolean(d.config.ssdpPort), refused: ctx.problems },
      );
      ctx.problems.push(...update.problems.map((p) => ({ ...p, RelatedProperties: ['#/StaticNTPServers'] })));
      writeNetworkProtocol(d.store, update.settings);
      for (const [, value] of update.changed) changed.push(['StaticNTPServers', value]);
    }
    writeDateTime(d.store, settings);
    const origin = d.uris.manager('DateTime');
    for (const [prop, value] of changed) d.logs.write('IEL', resourceEvent('PropertyValueModifiedByClient', prop, value), origin);
  }

  return { getDateTime, patchDateTime };
}

export function registerDateTimeRoutes(routes: RouteTable, d: DateTimeDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/DateTime/',
    type: VendorMCDateTimeType,
    get: { privilege: Priv.login, handler: h.getDateTime },
    patch: { privilege: Priv.managerConfig, handler: h.patchDateTime },
  });
}
