// LogServices: the integrated management log (IML, host events) under the
// system, and the event log (IEL, controller events) under the manager. The
// records come from services.logs, written by every area as things happen.
//
// LogService.ClearLog needs ManagerConfigPriv (the vendor's "configure
// controller settings" privilege) on either log. It takes no parameters,
// empties the log and leaves one record saying who cleared it.
import { Representations } from '../../lib/memo.js';
import { LOG_IDS, MAX_LOG_RECORDS, type LogId, type LogRecord } from '../../domain/logs/logs.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { isoNow, toIso } from '../../platform/clock.js';
import { collectionOf, commonProps, defineAction, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { collection, created, success } from '../../protocol/reply.js';
import { action, present, type ActionContext, type Context, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type LogServiceDeps = Pick<Services, 'uris' | 'clock' | 'logs' | 'events' | 'store' | 'naming'>;

// The same handlers serve the logs of either owner: their contexts are those of either path.
type SystemLogPath = '/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/';
type ManagerLogPath = '/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/';
type LogServiceContext = Context<SystemLogPath> | Context<ManagerLogPath>;
type ClearLogContext = ActionContext<SystemLogPath, typeof ClearLogAction> | ActionContext<ManagerLogPath, typeof ClearLogAction>;
type EntriesContext =
  | Context<'/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/Entries/'>
  | Context<'/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/Entries/'>;
type EntryContext =
  | Context<'/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/Entries/{LogEntryId}/'>
  | Context<'/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/Entries/{LogEntryId}/'>;

const SEVERITIES = ['OK', 'Warning', 'Critical'] as const;

export const LogEntryType = defineType({
  name: 'LogEntry',
  version: '1.21.0',
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
export const LogEntryCollectionType = collectionOf(LogEntryType, 'The records of a log.', { autoExpand: true });

/** A maintenance note a user adds to the IML (the vendor's: ilorest serverlogs --selectlog=IML -m). */
const MaintenanceNoteBody = {
  EntryCode: t.enum(['Maintenance'], { required: true }),
  Message: t.string({ required: true, minLength: 1, maxLength: 256 }),
};

const ClearLogAction = defineAction({
  name: 'LogService.ClearLog',
  description: 'Remove every record of the log; one record of the clear remains.',
  parameters: {},
});

export const LogServiceType = defineType({
  name: 'LogService',
  version: '1.9.0',
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

const LogServiceCollectionType = collectionOf(LogServiceType);

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
    ...(info.id === 'IML' ? { OemRecordFormat: `${OEM}-IML` } : {}),
    Created: toIso(r.Created),
    Severity: r.Severity,
    Message: r.Message,
    MessageId: r.MessageId,
    MessageArgs: r.MessageArgs.map(String),
    Links: r.Origin ? { OriginOfCondition: { '@odata.id': r.Origin } } : {},
  };
}

/** The handlers of the system's logs (the IML) and of the manager's (the IEL). */
function handlers(d: LogServiceDeps) {
  return { iml: ownerHandlers(d, 'system'), iel: ownerHandlers(d, 'manager') };
}

/** The handlers of the logs of one owner. */
function ownerHandlers(d: LogServiceDeps, owner: LogInfo['owner']) {
  const mine = LOG_IDS.filter((id) => LOGS[id].owner === owner);
  // The controller's log bears the controller's name where the vendor's does ("iLO Event Log", which its clients look for).
  const controller = d.naming.name(controllerType('')).slice(d.naming.key.length);
  const logs: Record<LogId, LogInfo> = d.naming.identity ? LOGS : { ...LOGS, IEL: { ...LOGS.IEL, name: `${controller} ${LOGS.IEL.name}` } };
  const entryLists = new Representations(4);
  const ownerBase = (): string => (owner === 'system' ? d.uris.system('LogServices') : d.uris.manager('LogServices'));
  const logOf = (ctx: LogServiceContext | EntriesContext | EntryContext): { info: LogInfo; uri: string } => {
    const found = mine.find((l) => l === ctx.params.LogServiceId);
    const id = present(found, ctx);
    return { info: logs[id], uri: `${ownerBase()}${id}/` };
  };
  /** Resolvers of the log and entry ids: the owner's logs, and the records they hold. */
  const params = {
    LogServiceId: (id: string) => mine.some((l) => l === id),
    LogEntryId: (id: string, p: Readonly<Record<string, string>>) => {
      const log = mine.find((l) => l === p.LogServiceId);
      return log !== undefined && d.logs.get(logs[log].id, id) !== undefined;
    },
  };

  function getLogServices() {
    const base = ownerBase();
    return collection(
      'Log Service Collection',
      mine.map((id) => `${base}${id}/`),
      { Description: 'Log services' },
    );
  }

  function getLogService(ctx: LogServiceContext) {
    const { info, uri } = logOf(ctx);
    return {
      Id: info.id,
      Name: info.name,
      Description: info.description,
      ServiceEnabled: true,
      MaxNumberOfRecords: MAX_LOG_RECORDS,
      OverWritePolicy: 'WrapsWhenFull',
      LogEntryType: info.id === 'IML' ? 'OEM' : 'Event',
      DateTime: isoNow(d.clock),
      DateTimeLocalOffset: '+00:00',
      Status: { State: 'Enabled', Health: 'OK' },
      Entries: { '@odata.id': `${uri}Entries/` },
    };
  }

  function postClearLog(ctx: ClearLogContext) {
    const { info, uri } = logOf(ctx);
    d.logs.clear(info.id);
    const msg = vendorMessage('LogCleared', info.name, ctx.principal.userName);
    d.logs.write(info.id, msg, uri);
    d.events.publish(msg, uri, 'Other');
    return success();
  }

  /** Rebuilt when the log changes (any stored write): a page of it then costs the page. */
  function getEntries(ctx: EntriesContext) {
    const { info, uri } = logOf(ctx);
    return entryLists.get(uri, [d.store.generation], () =>
      collection(
        `${info.name} Entries`,
        d.logs.list(info.id).map((r) => `${uri}Entries/${r.Id}/`),
        {
          Description: `Records of the ${info.name}`,
        },
      ),
    );
  }

  function getEntry(ctx: EntryContext) {
    const { info } = logOf(ctx);
    return entryBody(info, present(d.logs.get(info.id, ctx.params.LogEntryId), ctx));
  }

  /** A maintenance note, as the vendor's IML takes one (the system's only log is the IML). */
  function postEntry(ctx: PostContext<'/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/Entries/', typeof MaintenanceNoteBody>) {
    const { info, uri } = logOf(ctx);
    const r = d.logs.write('IML', vendorMessage('MaintenanceNote', ctx.body.Message), uri);
    const entry = `${uri}Entries/${r.Id}/`;
    return created(entry, entryBody(info, r));
  }

  return { params, getLogServices, getLogService, postClearLog, getEntries, getEntry, postEntry };
}

export function registerLogServiceRoutes(routes: RouteTable, d: LogServiceDeps): void {
  const { iml, iel } = handlers(d);

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/LogServices/',
    type: LogServiceCollectionType,
    get: { privilege: Priv.login, handler: iml.getLogServices },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/',
    type: LogServiceType,
    params: iml.params,
    get: { privilege: Priv.login, handler: iml.getLogService },
    actions: [action(ClearLogAction, Priv.managerConfig, iml.postClearLog)],
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/Entries/',
    type: LogEntryCollectionType,
    params: iml.params,
    get: { privilege: Priv.login, handler: iml.getEntries },
    post: { privilege: Priv.managerConfig, body: MaintenanceNoteBody, handler: iml.postEntry },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/LogServices/{LogServiceId}/Entries/{LogEntryId}/',
    type: LogEntryType,
    params: iml.params,
    get: { privilege: Priv.login, handler: iml.getEntry },
  });

  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LogServices/',
    type: LogServiceCollectionType,
    get: { privilege: Priv.login, handler: iel.getLogServices },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/',
    type: LogServiceType,
    params: iel.params,
    get: { privilege: Priv.login, handler: iel.getLogService },
    actions: [action(ClearLogAction, Priv.managerConfig, iel.postClearLog)],
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/Entries/',
    type: LogEntryCollectionType,
    params: iel.params,
    get: { privilege: Priv.login, handler: iel.getEntries },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LogServices/{LogServiceId}/Entries/{LogEntryId}/',
    type: LogEntryType,
    params: iel.params,
    get: { privilege: Priv.login, handler: iel.getEntry },
  });
}
