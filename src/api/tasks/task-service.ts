// TaskService: tasks of long operations (SimpleUpdate, AddFromUri) and their
// task monitors. A monitor answers 202 with the task while it runs, then the
// operation's own final response (DSP0266 "Asynchronous operations").
import { Priv } from '../../lib/privileges.js';
import { TASKS_URI, TASK_MONITORS_URI, taskMonitorUri, taskUri, type TaskRecord } from '../../domain/tasks.js';
import { baseError } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { Reply, collection } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const TASK_SERVICE_URI = '/redfish/v1/TaskService/';
const TASK_STATES = ['New', 'Starting', 'Running', 'Suspended', 'Interrupted', 'Pending', 'Stopping', 'Completed', 'Killed', 'Exception', 'Service', 'Cancelling', 'Cancelled'];

export const TaskType = defineType({
  name: 'Task',
  version: '1.7.3',
  owner: 'DMTF',
  description: 'A long-running operation and its outcome.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    TaskState: ro(t.enum(TASK_STATES)),
    TaskStatus: ro(t.enum(['OK', 'Warning', 'Critical'])),
    PercentComplete: ro(t.integer({ minimum: 0, maximum: 100, units: '%' })),
    StartTime: ro(t.dateTime()),
    EndTime: ro(t.dateTime()),
    Messages: ro(t.array(t.any())),
    TaskMonitor: ro(t.string({ format: 'uri-reference' })),
    Payload: ro(
      t.object(
        { HttpOperation: ro(t.string()), TargetUri: ro(t.string()), JsonBody: ro(t.string()), HttpHeaders: ro(t.array(t.string())) },
        { typeName: 'Payload' },
      ),
    ),
  },
});

export const TaskServiceType = defineType({
  name: 'TaskService',
  version: '1.2.0',
  owner: 'DMTF',
  description: 'The task service.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    ServiceEnabled: ro(t.boolean()),
    CompletedTaskOverWritePolicy: ro(t.enum(['Manual', 'Oldest'])),
    LifeCycleEventOnTaskStateChange: ro(t.boolean()),
    DateTime: ro(t.dateTime({ volatile: true })),
    Status: statusProp,
    Tasks: t.link({ readOnly: true }),
  },
});

function taskBody(task: TaskRecord) {
  return {
    Id: task.Id,
    Name: task.Name,
    TaskState: task.TaskState,
    TaskStatus: task.TaskStatus,
    PercentComplete: task.PercentComplete,
    StartTime: toIso(task.StartTime),
    ...(task.EndTime !== undefined ? { EndTime: toIso(task.EndTime) } : {}),
    Messages: task.Messages,
    TaskMonitor: taskMonitorUri(task.Id),
    Payload: { HttpOperation: task.Payload.HttpOperation, TargetUri: task.Payload.TargetUri, JsonBody: task.Payload.JsonBody, HttpHeaders: [] },
  };
}

/** The 202 answer of an operation that started `task`: Location is the task monitor. */
export function taskAccepted(task: TaskRecord): Reply {
  return new Reply(202, undefined, { Location: taskMonitorUri(task.Id), 'Retry-After': '5' }, { uri: taskUri(task.Id), body: taskBody(task) });
}

export function registerTaskServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Tasks = TASK_SERVICE_URI;
  const find = (ctx: RequestContext) => present(s.tasks.get(ctx.params.TaskId ?? ''), ctx);
  const params = { TaskId: (id: string) => s.tasks.get(id) !== undefined };

  routes.add({
    path: TASK_SERVICE_URI,
    type: TaskServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'TaskService',
        Name: 'Task Service',
        ServiceEnabled: true,
        CompletedTaskOverWritePolicy: 'Oldest',
        LifeCycleEventOnTaskStateChange: true,
        DateTime: toIso(s.clock.now()),
        Status: { State: 'Enabled', Health: 'OK' },
        Tasks: { '@odata.id': TASKS_URI },
      }),
    },
  });

  routes.add({
    path: TASKS_URI,
    type: collectionOf(TaskType),
    get: { privilege: Priv.login, handler: () => collection('Task Collection', s.tasks.list().map((x) => taskUri(x.Id))) },
  });

  routes.add({
    path: `${TASKS_URI}{TaskId}/`,
    params,
    type: TaskType,
    get: { privilege: Priv.login, handler: (ctx) => taskBody(find(ctx)) },
    delete: {
      privilege: Priv.configureManager,
      handler: (ctx) => {
        const task = find(ctx);
        // Cancelling a running firmware write is not possible; only finished tasks are removed.
        if (!s.tasks.isFinished(task)) throw baseError('ResourceInUse');
        s.tasks.delete(task.Id);
      },
    },
  });

  routes.add({
    path: `${TASK_MONITORS_URI}{TaskId}/`,
    params,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const task = find(ctx);
        if (!task.Result) return taskAccepted(task);
        return new Reply(task.Result.status, task.Result.body);
      },
    },
  });
}
