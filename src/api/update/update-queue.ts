// The update task queue, maintenance windows and install sets under
// /redfish/v1/UpdateService/ (docs/update-queue.md): three collections declared
// with addCollection. Writes need ManagerConfigPriv like the rest of the update
// service; the recovery install set also needs SystemRecoveryConfigPriv,
// checked per request because it depends on the data.
import type { UpdateQueueArea } from '../../domain/update-queue/area.js';
import { APPLY_MS, type QueueStatus } from '../../domain/update-queue/queue.js';
import type { InstallSetRecord, TaskRecord, WindowRecord } from '../../domain/update-queue/records.js';
import { RUNTIME_POLL_MS } from '../../domain/update-queue/updaters.js';
import { Priv, satisfies } from '../../lib/privileges.js';
import { serviceUris } from '../../lib/resource-uris.js';
import { successBody, vendorMessage } from '../../messages/errors.js';
import { baseError } from '../../protocol/errors.js';
import { toIso } from '../../platform/clock.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { t } from '../../protocol/description.js';
import type { Principal } from '../../protocol/principal.js';
import { Reply, success } from '../../protocol/reply.js';
import {
  action,
  present,
  type ActionContext,
  type Context,
  type PatchContext,
  type PostContext,
  type RouteTable,
} from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  InvokeAction,
  SetRuntimeAgentAction,
  VendorComponentInstallSetType,
  VendorMaintenanceWindowType,
  VendorUpdateTaskCollectionType,
  VendorUpdateTaskType,
} from './update-queue-types.js';
import { OEM } from '../../protocol/naming.js';

/** What the update queue area reads. */
export type UpdateQueueDeps = Pick<Services, 'updateQueue' | 'logs' | 'clock'>;

type WindowPath = '/redfish/v1/UpdateService/MaintenanceWindows/{WindowId}/';
type InstallSetPath = '/redfish/v1/UpdateService/InstallSets/{InstallSetId}/';
type WindowProps = typeof VendorMaintenanceWindowType.properties;
type InstallSetProps = typeof VendorComponentInstallSetType.properties;

/** The one change a task accepts: cancel it while Pending (docs/update-queue.md). */
const TaskCancel = { State: t.enum(['Canceled']) };

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

/**
 * How far a task has come: an InProgress task moves with the controller clock over its wait
 * or its updater's apply time (the write ends it); a Complete one is 100, the others 0.
 */
function percentComplete(t: TaskRecord, now: number): number {
  if (t.State === 'Complete') return 100;
  if (t.State !== 'InProgress' || t.StartedAt === null) return 0;
  if (t.Command === 'ResetServer' || t.Command === 'ResetBmc') return 0;
  const duration = t.Command === 'Wait' ? t.WaitTimeSeconds * 1000 : APPLY_MS[t.RunBy ?? 'Bmc'];
  if (duration <= 0) return 99;
  return Math.max(0, Math.min(99, Math.floor((100 * (now - t.StartedAt)) / duration)));
}

const TASK_DESCRIPTION: Record<TaskRecord['Command'], (t: TaskRecord) => string> = {
  Wait: (t) => `Wait ${t.WaitTimeSeconds} seconds`,
  ApplyUpdate: (t) => `Apply ${t.Component}`,
  ResetServer: () => 'Reset the server',
  ResetBmc: () => 'Reset the management controller',
};

function taskBody(t: TaskRecord, now: number): Record<string, unknown> {
  return {
    Id: t.Id,
    Name: t.Name,
    Description: TASK_DESCRIPTION[t.Command](t),
    UpdatableBy: t.UpdatableBy,
    Command: t.Command,
    Component: t.Component,
    Filename: t.Component,
    TPMOverride: t.TPMOverride,
    UpdateRecoverySet: t.UpdateRecoverySet ?? false,
    StartAfter: iso(t.StartAfter),
    Expire: iso(t.Expire),
    MaintenanceWindow: t.MaintenanceWindow,
    WaitTimeSeconds: t.WaitTimeSeconds,
    Targets: t.Targets,
    State: t.State,
    PercentComplete: percentComplete(t, now),
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
  WindowNotOpen: "the head task's StartAfter time lies in the future",
  WaitingForReboot: 'the head task waits for a server reboot (Uefi)',
  NoRuntimeAgent: 'the head task is for the RuntimeAgent and no runtime agent is installed',
  WaitingForOperatingSystem: 'the head task waits for the runtime agent, which runs only while the operating system runs',
  WaitingForRuntimeAgentPoll: "the head task waits for the runtime agent's next poll",
  UpdateServiceBusy: 'the update service is busy (an upload or a firmware verification scan)',
};

/** The queue collection's properties besides its members: why it moves or not, and the runtime agent. */
function queueExtra(area: UpdateQueueArea): Record<string, unknown> {
  const st = area.queue.status();
  const agent = area.runtimeAgent.state();
  const message =
    st.State === 'Stalled' && st.Head
      ? vendorMessage('UpdateQueueStalled', st.Head.Name, REASON_TEXT[st.Reason]).Message
      : REASON_TEXT[st.Reason];
  return {
    Description: 'Update tasks in processing order.',
    Oem: {
      [OEM]: {
        QueueStatus: {
          State: st.State,
          Reason: st.Reason,
          HeadTask: st.Head ? { '@odata.id': serviceUris.updateQueueTask(st.Head.Id) } : null,
          Message: message,
        },
        RuntimeAgent: {
          Installed: agent.installed,
          Polling: area.runtimeAgent.active(),
          PollIntervalSeconds: RUNTIME_POLL_MS / 1000,
          LastPollTime: iso(agent.lastPoll),
        },
      },
    },
  };
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

/** The recovery set's privilege, on top of the route's (docs/update-queue.md). */
export function requireRecoveryPriv(ctx: { principal: Principal }): void {
  if (!satisfies(ctx.principal.privileges, Priv.systemRecovery)) throw baseError('InsufficientPrivilege');
}

function handlers(d: UpdateQueueDeps) {
  const area = () => d.updateQueue;
  const tasks: MemberStore<TaskRecord, unknown> = {
    list: () => area().queue.list(),
    get: (id) => area().queue.get(id),
    peek: (id) => area().queue.peek(id),
    id: (x) => x.Id,
  };
  const windows: MemberStore<WindowRecord, unknown> = {
    list: () => area().windows.list(),
    get: (id) => area().windows.get(id),
    id: (x) => x.Id,
  };
  const installSets: MemberStore<InstallSetRecord, unknown> = {
    list: () => area().installSets.list(),
    get: (id) => area().installSets.get(id),
    id: (x) => x.Id,
  };
  return {
    tasks,
    windows,
    installSets,
    queueExtra: () => queueExtra(area()),
    postTask,
    patchTask,
    deleteTask,
    postSetRuntimeAgent,
    postWindow,
    patchWindow,
    deleteWindow,
    postInstallSet,
    patchInstallSet,
    deleteInstallSet,
    postInvoke,
  };

  function postTask(ctx: PostContext<'/redfish/v1/UpdateService/UpdateTaskQueue/', typeof VendorUpdateTaskType.properties>): TaskRecord {
    if (ctx.body.UpdateRecoverySet === true) requireRecoveryPriv(ctx);
    return area().createTask(ctx.body);
  }

  function patchTask(task: TaskRecord, ctx: PatchContext<'/redfish/v1/UpdateService/UpdateTaskQueue/{TaskId}/', typeof TaskCancel>): void {
    if (ctx.body.State === 'Canceled') area().queue.cancel(task.Id);
  }

  function deleteTask(task: TaskRecord): void {
    area().queue.remove(task.Id);
  }

  function postSetRuntimeAgent(ctx: ActionContext<'/redfish/v1/UpdateService/UpdateTaskQueue/', typeof SetRuntimeAgentAction>): void {
    const installed = ctx.body.Installed;
    area().runtimeAgent.setInstalled(installed);
    d.logs.write(
      'IML',
      vendorMessage('RuntimeAgentChanged', installed ? 'installed' : 'absent'),
      '/redfish/v1/UpdateService/UpdateTaskQueue/',
    );
  }

  function postWindow(ctx: PostContext<'/redfish/v1/UpdateService/MaintenanceWindows/', WindowProps>): WindowRecord {
    return area().windows.create(ctx.body);
  }

  function patchWindow(w: WindowRecord, ctx: PatchContext<WindowPath, WindowProps>) {
    const next = area().windows.update(w.Id, ctx.body);
    // A rename moves the window: tell the client where it is now.
    if (next.Id !== w.Id) return new Reply(200, successBody(ctx.problems), { Location: serviceUris.maintenanceWindow(next.Id) });
    return undefined;
  }

  function deleteWindow(w: WindowRecord): void {
    area().windows.delete(w.Id);
  }

  function postInstallSet(ctx: PostContext<'/redfish/v1/UpdateService/InstallSets/', InstallSetProps>): InstallSetRecord {
    if (ctx.body.IsRecovery === true) requireRecoveryPriv(ctx);
    return area().installSets.create(ctx.body);
  }

  function patchInstallSet(x: InstallSetRecord, ctx: PatchContext<InstallSetPath, InstallSetProps>) {
    if (x.IsRecovery || ctx.body.IsRecovery === true) requireRecoveryPriv(ctx);
    const next = area().installSets.update(x.Id, ctx.body);
    if (next.Id !== x.Id) return new Reply(200, successBody(ctx.problems), { Location: serviceUris.installSet(next.Id) });
    return undefined;
  }

  function deleteInstallSet(x: InstallSetRecord, ctx: Context<InstallSetPath>): void {
    if (x.IsRecovery) requireRecoveryPriv(ctx);
    area().installSets.delete(x.Id);
  }

  function postInvoke(ctx: ActionContext<InstallSetPath, typeof InvokeAction>) {
    const x = present(area().installSets.get(ctx.params.InstallSetId), ctx);
    if (ctx.body.UpdateRecoverySet === true) requireRecoveryPriv(ctx);
    const queued = area().installSets.invoke(x.Id, ctx.body);
    return success(...queued.map((task) => vendorMessage('UpdateTaskQueued', task.Name, serviceUris.updateQueueTask(task.Id))));
  }
}

export function registerUpdateQueueRoutes(routes: RouteTable, d: UpdateQueueDeps): void {
  const h = handlers(d);
  const privileges = { read: Priv.login, write: Priv.managerConfig };

  addCollection(routes, {
    collection: '/redfish/v1/UpdateService/UpdateTaskQueue/',
    member: '/redfish/v1/UpdateService/UpdateTaskQueue/{TaskId}/',
    type: VendorUpdateTaskType,
    collectionType: VendorUpdateTaskCollectionType,
    name: 'Update Task Queue',
    extra: h.queueExtra,
    store: h.tasks,
    show: (t: TaskRecord) => taskBody(t, d.clock.now()),
    moving: (t: TaskRecord) => [percentComplete(t, d.clock.now())],
    privileges,
    create: { handler: h.postTask },
    update: { body: TaskCancel, handler: h.patchTask },
    remove: h.deleteTask,
    collectionActions: [action(SetRuntimeAgentAction, Priv.managerConfig, h.postSetRuntimeAgent)],
  });
  addCollection(routes, {
    collection: '/redfish/v1/UpdateService/MaintenanceWindows/',
    member: '/redfish/v1/UpdateService/MaintenanceWindows/{WindowId}/',
    type: VendorMaintenanceWindowType,
    name: 'Maintenance Windows',
    extra: () => ({ Description: 'Time windows in which queued updates may run' }),
    store: h.windows,
    show: windowBody,
    privileges,
    create: { handler: h.postWindow },
    update: { handler: h.patchWindow },
    remove: h.deleteWindow,
  });
  addCollection(routes, {
    collection: '/redfish/v1/UpdateService/InstallSets/',
    member: '/redfish/v1/UpdateService/InstallSets/{InstallSetId}/',
    type: VendorComponentInstallSetType,
    name: 'Install Sets',
    extra: () => ({ Description: 'Named sequences of updates to queue together' }),
    store: h.installSets,
    show: installSetBody,
    privileges,
    create: { handler: h.postInstallSet },
    update: { handler: h.patchInstallSet },
    remove: h.deleteInstallSet,
    memberActions: [action(InvokeAction, Priv.managerConfig, h.postInvoke)],
  });
}
