// The scenario control API under /control/ (--enable-control), outside the
// Redfish tree: plain JSON in and out, through the same route table, pipeline,
// authentication and error format as the Redfish resources, but with no
// resource types (nothing in $metadata, the schemas or OpenAPI; `outside`
// keeps them off the generated documents). Administrators only.
import { baseError } from '../../protocol/errors.js';
import type { PrivilegeRule } from '../../lib/privileges.js';
import { DROP_POINTS, ETAG_STYLES, FAULT_STATUSES, type FaultAction } from '../../lib/fault-actions.js';
import { FAULT_TYPES, MAX_CLOCK_JUMP_SECONDS, POWER_EVENTS, TPM_STATES, type ScenarioControl } from '../../domain/control/control.js';
import type { FaultRules } from '../../domain/control/fault-rules.js';
import { rebootOutage } from '../../platform/lifecycle.js';
import { t } from '../../protocol/description.js';
import { Reply } from '../../protocol/reply.js';
import { present, type Context, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const CONTROL_URI = '/control/';

/** What an administrator holds and no other role does. */
const ADMIN: PrivilegeRule = [['ConfigureManager', 'ConfigureUsers', 'ConfigureComponents']];

/** The controls GET /control/ lists. */
const CONTROLS = ['clock', 'power', 'faults', 'faults/rules', 'sensors', 'host', 'controller'].map((c) => `${CONTROL_URI}${c}/`);

const ClockBody = {
  AdvanceSeconds: t.integer({ minimum: 0, maximum: MAX_CLOCK_JUMP_SECONDS, description: 'Seconds to move the controller clock forward.' }),
  Set: t.dateTime({ description: 'Controller time to move to (forward only, at most ten years ahead).' }),
};
const PowerBody = { Event: t.enum(POWER_EVENTS, { required: true }) };
const FaultBody = {
  Fault: t.enum(FAULT_TYPES, { required: true }),
  Fan: t.string({ maxLength: 64, description: 'FanFailure: the fan (Id, name or number); default the first.' }),
  Bay: t.integer({ minimum: 0, maximum: 64, description: 'PsuFailure: the power supply bay; default the first.' }),
  Storage: t.string({ maxLength: 64, description: 'DriveFailure: the storage controller Id; default the first with drives.' }),
  Drive: t.string({ maxLength: 64, description: 'DriveFailure: the drive Id (position) or bay label; default the first.' }),
  Component: t.string({ maxLength: 255, description: 'FlashFailure/DownloadFailure: only this component file name.' }),
  Firmware: t.string({
    maxLength: 64,
    description: 'ImageCorruption: the firmware inventory Id or name; default the controller firmware.',
  }),
  Uri: t.string({ maxLength: 2048, description: 'DownloadFailure: only downloads whose URI starts with this.' }),
  Destination: t.string({
    maxLength: 2048,
    description: 'ListenerUnreachable: only destinations starting with this; default every listener.',
  }),
};
const SensorBody = {
  Sensor: t.string({ required: true, maxLength: 64 }),
  ReadingCelsius: t.number({ minimum: -60, maximum: 200 }),
  ReadingRPM: t.integer({ minimum: 0, maximum: 100000 }),
  ReadingWatts: t.integer({ minimum: 0, maximum: 100000 }),
  /** The same as DELETE /control/sensors/{Sensor}: the reading follows the simulation again. */
  Clear: t.boolean(),
};
const RuleBody = {
  Match: t.object(
    {
      Method: t.string({ maxLength: 16, description: 'An HTTP method; absent or * for any.' }),
      Uri: t.string({ required: true, maxLength: 2048, description: 'A path, or a pattern with * or {name} for any one segment.' }),
      User: t.string({ maxLength: 256, description: 'Only requests made as this account.' }),
    },
    { required: true },
  ),
  Action: t.object(
    {
      Status: t.integer({ minimum: 100, maximum: 599, description: `One of ${FAULT_STATUSES.join(', ')}, with its registry message.` }),
      RetryAfter: t.integer({ minimum: 0, maximum: 86400, description: 'Seconds in the Retry-After of a 503 or 429 (default 5).' }),
      Delay: t.integer({ minimum: 1, maximum: 600_000, description: 'Milliseconds (controller clock) before the real answer.' }),
      Drop: t.enum(DROP_POINTS),
      Truncate: t.integer({ minimum: 0, maximum: 1 << 30, description: 'Bytes of the body sent before the connection closes.' }),
      Patch: t.object({}, { additionalProperties: true, description: 'A JSON merge patch applied to the answer body.' }),
      ETag: t.enum(ETAG_STYLES),
      RefuseIfMatch: t.boolean({ description: '412 for a request with If-Match, even *.' }),
    },
    { required: true },
  ),
  Count: t.integer({ minimum: 1, maximum: 1_000_000_000 }),
  Every: t.integer({ minimum: 1, maximum: 1_000_000_000 }),
  Probability: t.number({ minimum: 0, maximum: 1 }),
  Seed: t.integer({ minimum: 0, maximum: 0xffffffff }),
  Expires: t.dateTime(),
  Controllers: t.any({ description: 'Fleet mode: "All", or a list of controller indexes (default: this controller).' }),
};
const ControllerResetBody = {
  OfflineSeconds: t.integer({
    minimum: 0,
    maximum: 3600,
    description: 'Seconds nothing listens (default: two thirds of --controller-reboot-seconds).',
  }),
  BootingSeconds: t.integer({ minimum: 0, maximum: 3600, description: 'Seconds every Redfish request is then 503 (default: the rest).' }),
};
const HostBody = { RuntimeAgent: t.boolean(), Tpm: t.enum(TPM_STATES), ManagerFunctionality: t.boolean() };

type ControlDeps = Pick<Services, 'control' | 'fleet' | 'faultRules' | 'controller' | 'config'>;

function handlers(d: ControlDeps & { control: ScenarioControl; faultRules: FaultRules }) {
  const { control: c, fleet, faultRules: rules } = d;
  const by = (ctx: { principal: { userName: string } }) => ctx.principal.userName;
  const controls = fleet ? [...CONTROLS, `${CONTROL_URI}fleet/`] : CONTROLS;
  const state = () => new Reply(200, { Controls: controls, State: c.state(), ...(fleet ? { Fleet: fleet.summary() } : {}) });
  return {
    getControls: () => state(),

    /** Every controller this process serves, as the fleet sees it now. */
    getFleet: () => new Reply(200, { ...fleet?.summary(), Members: fleet?.members() ?? [] }),

    async postClock(ctx: PostContext<'/control/clock/', typeof ClockBody>) {
      const { AdvanceSeconds, Set } = ctx.body;
      if ((AdvanceSeconds === undefined) === (Set === undefined)) throw baseError('PropertyMissing', 'AdvanceSeconds or Set (one of them)');
      if (AdvanceSeconds !== undefined) await c.advance(AdvanceSeconds, by(ctx));
      else await c.setClock(Set as string, by(ctx));
      return state();
    },

    postPower(ctx: PostContext<'/control/power/', typeof PowerBody>) {
      c.power(ctx.body.Event, by(ctx));
      return state();
    },

    getFaults: () => new Reply(200, { Faults: c.listFaults() }),
    getFault: (ctx: Context<'/control/faults/{FaultId}/'>) => new Reply(200, present(c.fault(ctx.params.FaultId), ctx)),

    postFault(ctx: PostContext<'/control/faults/', typeof FaultBody>) {
      const { Fault, ...target } = ctx.body;
      const f = c.addFault(Fault, target, by(ctx));
      return new Reply(201, f, { Location: `${CONTROL_URI}faults/${f.Id}` });
    },

    deleteFault(ctx: Context<'/control/faults/{FaultId}/'>) {
      return new Reply(200, present(c.clearFault(ctx.params.FaultId, by(ctx)), ctx));
    },

    getRules: () => new Reply(200, { Rules: rules.list() }),
    getRule: (ctx: Context<'/control/faults/rules/{RuleId}/'>) => new Reply(200, present(rules.get(ctx.params.RuleId), ctx)),

    postRule(ctx: PostContext<'/control/faults/rules/', typeof RuleBody>) {
      const { Controllers, ...rule } = ctx.body;
      const input = { ...rule, Action: rule.Action as FaultAction };
      const made =
        fleet && Controllers !== undefined
          ? fleet.addFaultRule(fleetTargets(Controllers), { ...input, Controllers }, by(ctx))
          : rules.add(input, by(ctx));
      // In a fleet every target controller keeps its copy under the same Id.
      return new Reply(201, made, { Location: `${CONTROL_URI}faults/rules/${made.Id}/` });
    },

    deleteRule(ctx: Context<'/control/faults/rules/{RuleId}/'>) {
      return new Reply(200, present(rules.delete(ctx.params.RuleId, by(ctx)), ctx));
    },

    getController: () => new Reply(200, { Phase: d.controller.phase(), Resets: d.controller.resets }),

    /** A reset as Manager.Reset's, with its outage's length chosen: answered, then the controller goes away. */
    async postControllerReset(ctx: PostContext<'/control/controller/reset/', typeof ControllerResetBody>) {
      const usual = rebootOutage(d.config.controllerRebootSeconds);
      const offline = ctx.body.OfflineSeconds ?? usual.offlineMs / 1000;
      const booting = ctx.body.BootingSeconds ?? usual.bootingMs / 1000;
      c.record(by(ctx), `controller reset: ${offline} s unreachable, then ${booting} s booting`);
      await d.controller.reset({ offlineMs: offline * 1000, bootingMs: booting * 1000 });
      return new Reply(200, { OfflineSeconds: offline, BootingSeconds: booting });
    },

    getSensors: () => new Reply(200, { Sensors: c.state().Sensors }),

    postSensor(ctx: PostContext<'/control/sensors/', typeof SensorBody>) {
      const b = ctx.body;
      if (b.Clear === true) {
        const released = c.releaseSensor(b.Sensor, by(ctx));
        if (!released) throw baseError('PropertyValueNotInList', b.Sensor, 'Sensor').about('Sensor');
        return new Reply(200, released);
      }
      return new Reply(200, c.holdSensor(b.Sensor, { celsius: b.ReadingCelsius, rpm: b.ReadingRPM, watts: b.ReadingWatts }, by(ctx)));
    },

    deleteSensor(ctx: Context<'/control/sensors/{SensorId}/'>) {
      return new Reply(200, present(c.releaseSensor(ctx.params.SensorId, by(ctx)), ctx));
    },

    getHost: () => new Reply(200, c.state().Host),

    postHost(ctx: PostContext<'/control/host/', typeof HostBody>) {
      const b = ctx.body;
      if (b.RuntimeAgent === undefined && b.Tpm === undefined && b.ManagerFunctionality === undefined)
        throw baseError('PropertyMissing', 'RuntimeAgent, Tpm or ManagerFunctionality');
      c.setHost(ctx.body, by(ctx));
      return new Reply(200, c.state().Host);
    },
  };
}

/** The controllers a fleet rule is for: "All", or a list of global indexes. */
function fleetTargets(v: unknown): 'All' | number[] {
  if (v === 'All') return v;
  if (Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && (x as number) >= 0)) return v as number[];
  throw baseError('PropertyValueNotInList', JSON.stringify(v), 'Controllers').about('Controllers');
}

/** Registered only with --enable-control; without it nothing under /control/ exists. */
export function registerControlRoutes(routes: RouteTable, d: ControlDeps): void {
  const c = d.control;
  const rules = d.faultRules;
  if (!c || !rules) return;
  const h = handlers({ ...d, control: c, faultRules: rules });
  const get = (handler: (ctx: never) => unknown) => ({ privilege: ADMIN, handler: handler as (ctx: unknown) => unknown });
  routes.add({ path: '/control/', outside: true, get: get(h.getControls) });
  routes.add({
    path: '/control/clock/',
    outside: true,
    get: get(h.getControls),
    post: { privilege: ADMIN, body: ClockBody, handler: h.postClock },
  });
  routes.add({
    path: '/control/power/',
    outside: true,
    get: get(h.getControls),
    post: { privilege: ADMIN, body: PowerBody, handler: h.postPower },
  });
  routes.add({
    path: '/control/faults/',
    outside: true,
    get: get(h.getFaults),
    post: { privilege: ADMIN, body: FaultBody, handler: h.postFault },
  });
  routes.add({
    path: '/control/faults/{FaultId}/',
    outside: true,
    params: { FaultId: (id) => c.fault(id) !== undefined },
    get: get(h.getFault),
    delete: { privilege: ADMIN, handler: h.deleteFault },
  });
  routes.add({
    path: '/control/faults/rules/',
    outside: true,
    get: get(h.getRules),
    post: { privilege: ADMIN, body: RuleBody, handler: h.postRule },
  });
  routes.add({
    path: '/control/faults/rules/{RuleId}/',
    outside: true,
    params: { RuleId: (id) => rules.get(id) !== undefined },
    get: get(h.getRule),
    delete: { privilege: ADMIN, handler: h.deleteRule },
  });
  routes.add({ path: '/control/controller/', outside: true, get: get(h.getController) });
  routes.add({
    path: '/control/controller/reset/',
    outside: true,
    post: { privilege: ADMIN, body: ControllerResetBody, handler: h.postControllerReset },
  });
  routes.add({
    path: '/control/sensors/',
    outside: true,
    get: get(h.getSensors),
    post: { privilege: ADMIN, body: SensorBody, handler: h.postSensor },
  });
  routes.add({
    path: '/control/sensors/{SensorId}/',
    outside: true,
    params: { SensorId: (id) => c.state().Sensors.some((s) => s.Sensor === id || s.Name === id) },
    delete: { privilege: ADMIN, handler: h.deleteSensor },
  });
  routes.add({
    path: '/control/host/',
    outside: true,
    get: get(h.getHost),
    post: { privilege: ADMIN, body: HostBody, handler: h.postHost },
  });
  // In fleet mode only: any controller lists the fleet.
  if (d.fleet) routes.add({ path: '/control/fleet/', outside: true, get: get(h.getFleet) });
}
