// The vendor's ActiveHealthSystem of the manager (ilorest serverlogs
// --selectlog=AHS) and its EmbeddedMedia. The AHS log is the domain's
// (../../domain/manager/active-health.ts); its download is served at the
// Links' extref, /ahsdata/<file>.ahs, with the vendor's query parameters
// (days=N, from=YYYY-MM-DD&to=YYYY-MM-DD, downloadAll=1).
import { Priv } from '../../lib/privileges.js';
import { serverIdentity } from '../../platform/identity.js';
import { toIso } from '../../platform/clock.js';
import { baseError } from '../../protocol/errors.js';
import { defineAction, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { RawReply, success } from '../../protocol/reply.js';
import { action, missing, type ActionContext, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type ActiveHealthDeps = Pick<Services, 'managerFeatures' | 'clock' | 'hardware' | 'serviceUuid'>;

type AhsPath = '/redfish/v1/Managers/{ManagerId}/ActiveHealthSystem/';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const ClearLogAction = defineAction({
  name: `${controllerType('ActiveHealthSystem')}.ClearLog`,
  description: 'Clear the AHS log.',
  parameters: {},
});
const CaptureSystemLogAction = defineAction({
  name: `${controllerType('ActiveHealthSystem')}.CaptureSystemLog`,
  description: "Record a milestone: the host's system log was captured.",
  parameters: {},
});
const LogAmplifierDataAction = defineAction({
  name: `${controllerType('ActiveHealthSystem')}.LogAmplifierData`,
  description: 'Record a milestone: amplifier data was logged.',
  parameters: {},
});
const LogMilestoneAction = defineAction({
  name: `${controllerType('ActiveHealthSystem')}.LogMilestone`,
  description: 'Record a milestone in the AHS log.',
  parameters: {
    MilestoneOperation: t.string({ required: true, maxLength: 32 }),
    MilestoneTag: t.string({ required: true, maxLength: 32 }),
  },
});

export const VendorMCActiveHealthSystemType = defineType({
  name: controllerType('ActiveHealthSystem'),
  version: '2.5.0',
  owner: OEM,
  description: "The Active Health System log of the server's health, and its download.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    AHSEnabled: t.boolean(),
    AHSFileStart: ro(t.dateTime()),
    AHSFileEnd: ro(t.dateTime({ volatile: true })),
    AHSStatus: t.object(
      { HardwareEnabled: t.boolean(), SoftwareEnabled: t.boolean(), TemporaryHoldEnabled: t.boolean() },
      { readOnly: true, typeName: 'AHSStatus' },
    ),
    LocationParameters: t.object(
      {
        days: t.string(),
        downloadAll: t.string(),
        from: t.string(),
        to: t.string(),
        case_no: t.string(),
        co_name: t.string(),
        contact_name: t.string(),
        email: t.string(),
        phone: t.string(),
      },
      { readOnly: true, typeName: 'LocationParameters' },
    ),
    Links: t.object(
      {
        AHSLocation: t.object({ extref: t.string() }, { typeName: 'ExtRef' }),
        RecentWeek: t.object({ extref: t.string() }, { typeName: 'ExtRef' }),
        InfoSight: t.object({ extref: t.string() }, { typeName: 'ExtRef' }),
      },
      { readOnly: true, typeName: 'Links' },
    ),
  },
  actions: [ClearLogAction, CaptureSystemLogAction, LogAmplifierDataAction, LogMilestoneAction],
});

export const VendorMCEmbeddedMediaType = defineType({
  name: controllerType('EmbeddedMedia'),
  version: '2.0.0',
  owner: OEM,
  description: "The controller's embedded media controller.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Controller: t.object(
      {
        Firmware: t.object({ Current: t.object({ VersionString: t.string() }, { typeName: 'Current' }) }, { typeName: 'Firmware' }),
        Status: statusProp,
      },
      { readOnly: true, typeName: 'Controller' },
    ),
  },
});

/** What each download parameter does, for clients that build their own download URI. */
const LOCATION_PARAMETERS = {
  days: 'The last N days of the log, up to today: ?days=7.',
  downloadAll: 'The whole log: ?downloadAll=1.',
  from: "The first day of a range, with 'to': ?from=2024-03-01&to=2024-03-30.",
  to: "The last day of a range, with 'from'.",
  case_no: 'A support case number for the file header (accepted, not recorded).',
  co_name: 'A company name for the file header (accepted, not recorded).',
  contact_name: 'A contact name for the file header (accepted, not recorded).',
  email: "A contact's e-mail address for the file header (accepted, not recorded).",
  phone: "A contact's phone number for the file header (accepted, not recorded).",
};

function handlers(d: ActiveHealthDeps) {
  const ahs = d.managerFeatures.activeHealth;

  /** The download's file name: the server's serial number and today's date, as the vendor names it. */
  function fileName(): string {
    const serial = serverIdentity(d.serviceUuid, d.hardware.system).SerialNumber;
    return `${serial}_${toIso(d.clock.now()).slice(0, 10).replace(/-/g, '')}.ahs`;
  }

  function getAhs(_ctx: Context<AhsPath>) {
    const s = ahs.state();
    const span = ahs.span();
    const file = `/ahsdata/${fileName()}`;
    return {
      Id: 'ActiveHealthSystem',
      Name: 'Active Health System',
      AHSEnabled: s.AHSEnabled,
      AHSFileStart: toIso(span.start),
      AHSFileEnd: toIso(span.end),
      AHSStatus: { HardwareEnabled: s.AHSEnabled, SoftwareEnabled: s.AHSEnabled, TemporaryHoldEnabled: false },
      LocationParameters: LOCATION_PARAMETERS,
      Links: {
        AHSLocation: { extref: `${file}?downloadAll=1` },
        RecentWeek: { extref: `${file}?days=7` },
        InfoSight: { extref: `${file}?days=1` },
      },
    };
  }

  function patchAhs(ctx: PatchContext<AhsPath, typeof VendorMCActiveHealthSystemType.properties>): void {
    if (ctx.body.AHSEnabled !== undefined) ahs.setEnabled(ctx.body.AHSEnabled);
  }

  function getDownload(ctx: Context<'/ahsdata/{AhsFile}/'>) {
    if (ctx.params.AhsFile !== fileName()) throw missing(ctx);
    const q = ctx.query.other ?? {};
    const day = (name: 'from' | 'to') => {
      const v = q[name];
      if (v === undefined) return undefined;
      if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw baseError('QueryParameterValueFormatError', v, name);
      return Date.parse(`${v}T00:00:00Z`);
    };
    const days = q.days === undefined ? undefined : Number(q.days);
    if (days !== undefined && !(Number.isInteger(days) && days > 0))
      throw baseError('QueryParameterValueFormatError', String(q.days), 'days');
    const text = ahs.download({ days, from: day('from'), to: day('to') });
    return new RawReply(200, 'application/octet-stream', text, { 'Content-Disposition': `attachment; filename="${ctx.params.AhsFile}"` });
  }

  const milestone = (operation: string, tag: string) => () => {
    ahs.logMilestone(operation, tag);
    return success();
  };

  return {
    getAhs,
    patchAhs,
    getDownload,
    postClearLog: () => {
      ahs.clear();
      return success();
    },
    postCapture: milestone('CaptureSystemLog', 'SystemLog'),
    postAmplifier: milestone('LogAmplifierData', 'AmplifierData'),
    postMilestone: (ctx: ActionContext<AhsPath, typeof LogMilestoneAction>) =>
      milestone(ctx.body.MilestoneOperation, ctx.body.MilestoneTag)(),
    getEmbeddedMedia: () => ({
      Id: 'EmbeddedMedia',
      Name: 'Embedded Media Service',
      // The embedded media controller of a DL360 Gen10 Plus, as its controller reports it.
      Controller: { Firmware: { Current: { VersionString: '02.11.00' } }, Status: { Health: 'OK', State: 'Enabled' } },
    }),
  };
}

export function registerActiveHealthRoutes(routes: RouteTable, d: ActiveHealthDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/ActiveHealthSystem/',
    type: VendorMCActiveHealthSystemType,
    get: { privilege: Priv.login, handler: h.getAhs },
    patch: { privilege: Priv.managerConfig, handler: h.patchAhs },
    actions: [
      action(ClearLogAction, Priv.managerConfig, h.postClearLog),
      action(CaptureSystemLogAction, Priv.managerConfig, h.postCapture),
      action(LogAmplifierDataAction, Priv.managerConfig, h.postAmplifier),
      action(LogMilestoneAction, Priv.managerConfig, h.postMilestone),
    ],
  });
  routes.add({
    path: '/ahsdata/{AhsFile}/',
    outside: true,
    params: { AhsFile: (name) => /^[A-Za-z0-9_]{1,64}\.ahs$/.test(name) },
    get: { privilege: Priv.login, handler: h.getDownload },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/EmbeddedMedia/',
    type: VendorMCEmbeddedMediaType,
    get: { privilege: Priv.login, handler: h.getEmbeddedMedia },
  });
}
