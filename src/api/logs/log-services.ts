// LogServices: the integrated management log (IML, host events) under the
// system, and the event log (IEL, controller events) under the manager. The
// records come from services.logs, written by every area as things happen.
//
// LogService.ClearLog needs ManagerConfigPriv (the vendor's "configure
// controller settings" privilege) on either log. It takes no parameters,
// empties the log and leaves one record saying who cleared it.
import { LOG_IDS, MAX_LOG_RECORDS, type LogId, type LogRecord } from '../../domain/manager/logs.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, vendorMessage } from '../../messages/errors.js';
import { isoNow, toIso } from '../../platform/clock.js';
import { collectionOf, defineType, ro, statusProp, t, type ActionDef, commonProps } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

const SEVERITIES = ['OK', 'Warning', 'Critical'] as const;

export const LogEntryType = defineType({
  name: 'LogEntry',
  version: '1.11.0',
  owner: 'DMTF',
  description: 'One record of a log.',
  properties: {
    ...commonProps,
    EntryType: ro(t.enum(['Event', 'SEL', 'Oem'])),
    OemRecordFormat: ro(t.string()),
    Created: ro(t.dateTime()),
    Severity: ro(t.enum(SEVERITIES)),
    Message: ro(t.string()),
    MessageId: ro(t.string()),
    MessageArgs: ro(t.array(t.string())),
    Links: t.object({ OriginOfCondition: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});

// DMTF's LogEntryCollection marks Members OData.AutoExpand: entries are shown whole.
const LogEntryCollectionType = collectionOf(LogEntryType, 'The records of a log.', { autoExpand: true });

const ClearLogAction: ActionDef = {
  name: 'LogService.ClearLog',
  description: 'Remove every record of the log; one record of the clear remains.',
  parameters: {},
};

export const LogServiceType = defineType({
  name: 'LogService',
  version: '1.6.0',
  owner: 'DMTF',
  description: 'A log of the controller.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    MaxNumberOfRecords: ro(t.integer()),
    OverWritePolicy: ro(t.enum(['Unknown', 'WrapsWhenFull', 'NeverOverWrites'])),
    LogEntryType: ro(t.enum(['Event', 'SEL', 'Multiple', 'OEM'])),
    DateTime: ro(t.dateTime({ volatile: true })),
    DateTimeLocalOffset: ro(t.string()),
    Status: statusProp,
    Entries: t.link({ readOnly: true }),
  },
  actions: [ClearLogAction],
});

interface LogInfo {
  id: LogId;
  name: string;
  description: string;
  /** Where it lives: the system (IML) or the manager (IEL). */
  owner: 'system' | 'manager';
}

const LOGS: Record<LogId, LogInfo> = {
  IML: { id: 'IML', name: 'Integrated Management Log', description: 'Events of the server: power, POST, BIOS, hardware', owner: 'system' },
  IEL: { id: 'IEL', name: 'Event Log', description: 'Events of the management controller: resets, settings, security', owner: 'manager' },
};

function entryBody(info: LogInfo, r: LogRecord): Record<string, unknown> {
  return {
    Id: r.Id,
    Name: info.name,
    Description: info.description,
    // The IML carries the vendor's own record format; the IEL holds Redfish events.
    EntryType: info.id === 'IML' ? 'Oem' : 'Event',
    ...(info.id === 'IML' ? { OemRecordFormat: 'Vendor-IML' } : {}),
    Created: toIso(r.Created),
    Severity: r.Severity,
    Message: r.Message,
    MessageId: r.MessageId,
    MessageArgs: r.MessageArgs.map(String),
    Links: r.Origin ? { OriginOfCondition: { '@odata.id': r.Origin } } : {},
  };
}

export function registerLogServiceRoutes(routes: RouteTable, s: Services): void {
  const owners = {
    system: { param: 'SystemId', config: () => s.config.systemId, base: '/redfish/v1/Systems/{SystemId}/LogServices/' },
    manager: { param: 'ManagerId', config: () => s.config.managerId, base: '/redfish/v1/Managers/{ManagerId}/LogServices/' },
  } as const;

  for (const [owner, o] of Object.entries(owners) as [LogInfo['owner'], (typeof owners)[LogInfo['owner']]][]) {
    const mine = LOG_IDS.filter((id) => LOGS[id].owner === owner);
    const ownerBase = (): string => o.base.replace(`{${o.param}}`, encodeURIComponent(o.config()));
    const logOf = (ctx: RequestContext): { info: LogInfo; uri: string } => {
      const id = present(mine.find((l) => l === ctx.params.LogServiceId), ctx);
      return { info: LOGS[id], uri: `${ownerBase()}${id}/` };
    };
    const params = {
      LogServiceId: (id: string) => mine.some((l) => l === id),
      LogEntryId: (id: string, p: Readonly<Record<string, string>>) => {
        const log = mine.find((l) => l === p.LogServiceId);
        return log !== undefined && s.logs.get(LOGS[log].id, id) !== undefined;
      },
    };

    routes.add({
      path: o.base,
      type: collectionOf(LogServiceType),
      get: {
        privilege: Priv.login,
        handler: (ctx) => {
          const base = ownerBase();
          return collection('Log Service Collection', mine.map((id) => `${base}${id}/`), { Description: 'Log services' });
        },
      },
    });

    routes.add({
      path: `${o.base}{LogServiceId}/`,
      params,
      type: LogServiceType,
      get: {
        privilege: Priv.login,
        handler: (ctx) => {
          const { info, uri } = logOf(ctx);
          return {
            Id: info.id,
            Name: info.name,
            Description: info.description,
            ServiceEnabled: true,
            MaxNumberOfRecords: MAX_LOG_RECORDS,
            OverWritePolicy: 'WrapsWhenFull',
            LogEntryType: info.id === 'IML' ? 'OEM' : 'Event',
            DateTime: isoNow(s.clock),
            DateTimeLocalOffset: '+00:00',
            Status: { State: 'Enabled', Health: 'OK' },
            Entries: { '@odata.id': `${uri}Entries/` },
          };
        },
      },
      actions: [
        {
          def: ClearLogAction,
          privilege: Priv.managerConfig,
          handler: (ctx) => {
            const { info, uri } = logOf(ctx);
            s.logs.clear(info.id);
            const msg = vendorMessage('LogCleared', info.name, ctx.principal.userName);
            s.logs.write(info.id, msg, uri);
            s.events.publish(msg, uri, 'Other');
            return success();
          },
        },
      ],
    });

    routes.add({
      path: `${o.base}{LogServiceId}/Entries/`,
      params,
      type: LogEntryCollectionType,
      get: {
        privilege: Priv.login,
        handler: (ctx) => {
          const { info, uri } = logOf(ctx);
          return collection(`${info.name} Entries`, s.logs.list(info.id).map((r) => `${uri}Entries/${r.Id}/`), {
            Description: `Records of the ${info.name}`,
          });
        },
      },
    });

    routes.add({
      path: `${o.base}{LogServiceId}/Entries/{LogEntryId}/`,
      params,
      type: LogEntryType,
      get: {
        privilege: Priv.login,
        handler: (ctx) => {
          const { info } = logOf(ctx);
          return entryBody(info, present(s.logs.get(info.id, ctx.params.LogEntryId ?? ''), ctx));
        },
      },
    });
  }
}
