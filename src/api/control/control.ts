// The scenario control API under /control/ (--enable-control), outside the
// Redfish tree: plain JSON in and out, through the same route table, pipeline,
// authentication and error format as the Redfish resources, but with no
// resource types (nothing in $metadata, the schemas or OpenAPI; `outside`
// keeps them off the generated documents). Administrators only.
import { baseError } from '../../protocol/errors.js';
import type { PrivilegeRule } from '../../lib/privileges.js';
import { FAULT_TYPES, MAX_CLOCK_JUMP_SECONDS, POWER_EVENTS, TPM_STATES, type ScenarioControl } from '../../domain/control/control.js';
import { t } from '../../protocol/description.js';
import { Reply } from '../../protocol/reply.js';
import { present, type Context, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const CONTROL_URI = '/control/';

/** What an administrator holds and no other role does. */
const ADMIN: PrivilegeRule = [['ConfigureManager', 'ConfigureUsers', 'ConfigureComponents']];

/** The controls GET /control/ lists. */
const CONTROLS = ['clock', 'power', 'faults', 'sensors', 'host'].map((c) => `${CONTROL_URI}${c}/`);

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
const HostBody = { RuntimeAgent: t.boolean(), Tpm: t.enum(TPM_STATES), ManagerFunctionality: t.boolean() };

type ControlDeps = Pick<Services, 'control' | 'fleet'>;

function handlers(d: ControlDeps & { control: ScenarioControl }) {
  const { control: c, fleet } = d;
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

/** Registered only with --enable-control; without it nothing under /control/ exists. */
export function registerControlRoutes(routes: RouteTable, d: ControlDeps): void {
  const c = d.control;
  if (!c) return;
  const h = handlers({ ...d, control: c });
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
