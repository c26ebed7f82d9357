// The update task queue, maintenance windows and install sets under
// /redfish/v1/UpdateService/ (docs/update-queue.md). Writes need
// ManagerConfigPriv like the rest of the update service; the recovery install
// set also needs SystemRecoveryConfigPriv, checked per request because it
// depends on the data.
import { Priv, satisfies } from '../../lib/privileges.js';
import type { TaskInput } from '../../domain/update-queue/checks.js';
import type { InstallSetInput, InvokeInput } from '../../domain/update-queue/install-sets.js';
import type { QueueStatus } from '../../domain/update-queue/queue.js';
import {
  INSTALL_SETS_URI,
  MAINTENANCE_WINDOWS_URI,
  UPDATE_QUEUE_URI,
  installSetUri,
  taskUri,
  windowUri,
  type InstallSetRecord,
  type TaskRecord,
  type WindowRecord,
} from '../../domain/update-queue/records.js';
import { RUNTIME_POLL_MS } from '../../domain/update-queue/updaters.js';
import type { WindowInput } from '../../domain/update-queue/windows.js';
import { baseError, successBody, vendorMessage } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { t } from '../../protocol/description.js';
import { Reply, collection, created, success } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  InvokeAction,
  SetRuntimeAgentAction,
  VendorComponentInstallSetCollectionType,
  VendorComponentInstallSetType,
  VendorMaintenanceWindowCollectionType,
  VendorMaintenanceWindowType,
  VendorUpdateTaskCollectionType,
  VendorUpdateTaskType,
} from './update-queue-types.js';

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

function taskBody(t: TaskRecord): Record<string, unknown> {
  return {
    Id: t.Id,
    Name: t.Name,
    Description: t.Command === 'Wait' ? `Wait ${t.WaitTimeSeconds} seconds` : `Apply ${t.Component}`,
    UpdatableBy: t.UpdatableBy,
    Command: t.Command,
    Component: t.Component,
    TPMOverride: t.TPMOverride,
    StartAfter: iso(t.StartAfter),
    Expire: iso(t.Expire),
    MaintenanceWindow: t.MaintenanceWindow,
    WaitTimeSeconds: t.WaitTimeSeconds,
    Targets: t.Targets,
    State: t.State,
    RunBy: t.RunBy,
    Created: toIso(t.Created),
    Modified: toIso(t.Modified),
    StartTime: iso(t.StartedAt),
    EndTime: iso(t.FinishedAt),
    Messages: t.Result,
  };
}

const REASON_TEXT: Record<QueueStatus['Reason'], string> = {
  Empty: 'no task waits',
  Running: 'a task is in progress',
  Starting: 'the controller starts the head task',
  ExceptionAtHead: 'the head task is in Exception; DELETE it to continue',
  ExpiredAtHead: 'the head task expired (its window lies in the past); DELETE it to continue',
  WindowNotOpen: 'the head task\'s StartAfter time lies in the future',
  WaitingForReboot: 'the head task waits for a server reboot (Uefi)',
  NoRuntimeAgent: 'the head task is for the RuntimeAgent and no runtime agent is installed',
  WaitingForOperatingSystem: 'the head task waits for the runtime agent, which runs only while the operating system runs',
  WaitingForRuntimeAgentPoll: 'the head task waits for the runtime agent\'s next poll',
  UpdateServiceBusy: 'the update service is busy (an upload or a firmware verification scan)',
};

function queueBody(s: Services): Record<string, unknown> {
  const area = s.updateQueue;
  const st = area.queue.status();
  const agent = area.runtimeAgent.state();
  const message =
    st.State === 'Stalled' && st.Head ? vendorMessage('UpdateQueueStalled', st.Head.Name, REASON_TEXT[st.Reason]).Message : REASON_TEXT[st.Reason];
  return collection('Update Task Queue', area.queue.list().map((t) => taskUri(t.Id)), {
    Description: 'Update tasks in processing order.',
    Oem: {
      Vendor: {
        QueueStatus: { State: st.State, Reason: st.Reason, HeadTask: st.Head ? { '@odata.id': taskUri(st.Head.Id) } : null, Message: message },
        RuntimeAgent: {
          Installed: agent.installed,
          Polling: area.runtimeAgent.active(),
          PollIntervalSeconds: RUNTIME_POLL_MS / 1000,
          LastPollTime: iso(agent.lastPoll),
        },
      },
    },
  });
}

function windowBody(w: WindowRecord): Record<string, unknown> {
  return {
    Id: w.Id,
    Name: w.Name,
    Description: w.Description,
    StartAfter: iso(w.StartAfter),
    Expire: iso(w.Expire),
    Created: toIso(w.Created),
    Modified: toIso(w.Modified),
  };
}

function installSetBody(x: InstallSetRecord): Record<string, unknown> {
  return {
    Id: x.Id,
    Name: x.Name,
    Description: x.Description,
    IsRecovery: x.IsRecovery,
    Sequence: x.Sequence,
    Targets: x.Targets,
    Created: toIso(x.Created),
    Modified: toIso(x.Modified),
  };
}

/** The recovery set's privilege, on top of the route's (SPEC Install set rule 4). */
function requireRecoveryPriv(ctx: RequestContext): void {
  if (!satisfies(ctx.principal.privileges, Priv.systemRecovery)) throw baseError('InsufficientPrivilege');
}

export function registerUpdateQueueRoutes(routes: RouteTable, s: Services): void {
  const area = () => s.updateQueue;
  const findTask = (ctx: RequestContext) => present(area().queue.get(ctx.params.TaskId ?? ''), ctx);
  const findWindow = (ctx: RequestContext) => present(area().windows.get(ctx.params.WindowId ?? ''), ctx);
  const findSet = (ctx: RequestContext) => present(area().installSets.get(ctx.params.InstallSetId ?? ''), ctx);

  // -- the task queue ------------------------------------------------------------
  routes.add({
    path: UPDATE_QUEUE_URI,
    type: VendorUpdateTaskCollectionType,
    get: { privilege: Priv.login, handler: () => queueBody(s) },
    post: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const task = area().createTask(ctx.body as unknown as TaskInput);
        return created(taskUri(task.Id), taskBody(task));
      },
    },
    actions: [
      {
        def: SetRuntimeAgentAction,
        privilege: Priv.managerConfig,
        handler: (ctx) => {
          const installed = ctx.body.Installed as boolean;
          area().runtimeAgent.setInstalled(installed);
          s.logs.write('IML', vendorMessage('RuntimeAgentChanged', installed ? 'installed' : 'absent'), UPDATE_QUEUE_URI);
          return undefined;
        },
      },
    ],
  });
  routes.add({
    path: `${UPDATE_QUEUE_URI}{TaskId}/`,
    type: VendorUpdateTaskType,
    params: { TaskId: (id) => area().queue.get(id) !== undefined },
    get: { privilege: Priv.login, handler: (ctx) => taskBody(findTask(ctx)) },
    patch: {
      privilege: Priv.managerConfig,
      // The one change a task accepts: cancel it while Pending (docs/update-queue.md).
      body: { State: t.enum(['Canceled']) },
      handler: (ctx) => {
        const task = findTask(ctx);
        if (ctx.body.State === 'Canceled') area().queue.cancel(task.Id);
        return undefined;
      },
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        area().queue.remove(findTask(ctx).Id);
        return undefined;
      },
    },
  });

  // -- maintenance windows ------------------------------------------------------------
  routes.add({
    path: MAINTENANCE_WINDOWS_URI,
    type: VendorMaintenanceWindowCollectionType,
    get: { privilege: Priv.login, handler: () => collection('Maintenance Windows', area().windows.list().map((w) => windowUri(w.Id))) },
    post: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const w = area().windows.create(ctx.body as unknown as WindowInput & { Name: string });
        return created(windowUri(w.Id), windowBody(w));
      },
    },
  });
  routes.add({
    path: `${MAINTENANCE_WINDOWS_URI}{WindowId}/`,
    type: VendorMaintenanceWindowType,
    params: { WindowId: (id) => area().windows.get(id) !== undefined },
    get: { privilege: Priv.login, handler: (ctx) => windowBody(findWindow(ctx)) },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const cur = findWindow(ctx);
        const next = area().windows.update(cur.Id, ctx.body as WindowInput);
        // A rename moves the window: tell the client where it is now.
        if (next.Id !== cur.Id) return new Reply(200, successBody(ctx.problems), { Location: windowUri(next.Id) });
        return undefined;
      },
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        area().windows.delete(findWindow(ctx).Id);
        return undefined;
      },
    },
  });

  // -- install sets ------------------------------------------------------------
  routes.add({
    path: INSTALL_SETS_URI,
    type: VendorComponentInstallSetCollectionType,
    get: { privilege: Priv.login, handler: () => collection('Install Sets', area().installSets.list().map((x) => installSetUri(x.Id))) },
    post: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        if (ctx.body.IsRecovery === true) requireRecoveryPriv(ctx);
        const x = area().installSets.create(ctx.body as unknown as InstallSetInput);
        return created(installSetUri(x.Id), installSetBody(x));
      },
    },
  });
  routes.add({
    path: `${INSTALL_SETS_URI}{InstallSetId}/`,
    type: VendorComponentInstallSetType,
    params: { InstallSetId: (id) => area().installSets.get(id) !== undefined },
    get: { privilege: Priv.login, handler: (ctx) => installSetBody(findSet(ctx)) },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const cur = findSet(ctx);
        if (cur.IsRecovery || ctx.body.IsRecovery === true) requireRecoveryPriv(ctx);
        const next = area().installSets.update(cur.Id, ctx.body);
        if (next.Id !== cur.Id) return new Reply(200, successBody(ctx.problems), { Location: installSetUri(next.Id) });
        return undefined;
      },
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const cur = findSet(ctx);
        if (cur.IsRecovery) requireRecoveryPriv(ctx);
        area().installSets.delete(cur.Id);
        return undefined;
      },
    },
    actions: [
      {
        def: InvokeAction,
        privilege: Priv.managerConfig,
        handler: (ctx) => {
          const tasks = area().installSets.invoke(findSet(ctx).Id, ctx.body as InvokeInput);
          return success(...tasks.map((task) => vendorMessage('UpdateTaskQueued', task.Name, taskUri(task.Id))));
        },
      },
    ],
  });
}
