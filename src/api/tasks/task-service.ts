// TaskService: tasks of long operations (SimpleUpdate, AddFromUri) and their
// task monitors. A monitor answers 202 with the task while it runs, then the
// operation's own final response (DSP0266 "Asynchronous operations").
import { Priv } from '../../lib/privileges.js';
import type { TaskRecord, TaskResult } from '../../domain/tasks.js';
import { serviceUris } from '../../lib/resource-uris.js';
import { redfishErrorBody, successBody } from '../../messages/errors.js';
import { baseError, statusOf } from '../../protocol/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { Reply, collection } from '../../protocol/reply.js';
import { present, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

const TASK_STATES = [
  'New',
  'Starting',
  'Running',
  'Suspended',
  'Interrupted',
  'Pending',
  'Stopping',
  'Completed',
  'Killed',
  'Exception',
  'Service',
  'Cancelling',
  'Cancelled',
];

export const TaskType = defineType({
  name: 'Task',
  version: '1.7.4',
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
  version: '1.3.0',
  owner: 'DMTF',
  description: 'The task service.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
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
    TaskMonitor: serviceUris.taskMonitor(task.Id),
    Payload: {
      HttpOperation: task.Payload.HttpOperation,
      TargetUri: task.Payload.TargetUri,
      JsonBody: task.Payload.JsonBody,
      HttpHeaders: [],
    },
  };
}

/** The 202 answer of an operation that started `task`: Location is the task monitor. */
export function taskAccepted(task: TaskRecord): Reply {
  return new Reply(
    202,
    undefined,
    { Location: serviceUris.taskMonitor(task.Id), 'Retry-After': '5' },
    { uri: serviceUris.task(task.Id), body: taskBody(task) },
  );
}

/** A task that finished before outcomes were kept: the answer itself was. */
interface KeptAnswer {
  status: number;
  body: unknown;
}

/** What the operation answers once its task has finished: Success and its messages, or its failure with the status of the first message. */
function finalAnswer(result: TaskResult | KeptAnswer): Reply {
  if ('status' in result) return new Reply(result.status, result.body);
  if (!result.failed) return new Reply(200, successBody(result.messages));
  const first = result.messages[0];
  return new Reply((first && statusOf(first)) ?? 500, redfishErrorBody(result.messages));
}

/** What the task service reads. */
export type TaskServiceDeps = Pick<Services, 'tasks' | 'clock'>;

function handlers(d: TaskServiceDeps) {
  return { getTaskService, getTaskCollection, getTask, deleteTask, getTaskMonitor };

  function getTaskService() {
    return {
      Id: 'TaskService',
      Name: 'Task Service',
      Description: 'Long-running operations of the service',
      ServiceEnabled: true,
      CompletedTaskOverWritePolicy: 'Oldest',
      LifeCycleEventOnTaskStateChange: true,
      DateTime: toIso(d.clock.now()),
      Status: { State: 'Enabled', Health: 'OK' },
      Tasks: { '@odata.id': '/redfish/v1/TaskService/Tasks/' },
    };
  }

  function getTaskCollection() {
    return collection(
      'Task Collection',
      d.tasks.list().map((x) => serviceUris.task(x.Id)),
      { Description: 'The tasks of the service, running and kept' },
    );
  }

  function getTask(ctx: Context<'/redfish/v1/TaskService/Tasks/{TaskId}/'>) {
    return taskBody(present(d.tasks.get(ctx.params.TaskId), ctx));
  }

  function deleteTask(ctx: Context<'/redfish/v1/TaskService/Tasks/{TaskId}/'>): void {
    const task = present(d.tasks.get(ctx.params.TaskId), ctx);
    // Cancelling a running firmware write is not possible; only finished tasks are removed.
    if (!d.tasks.isFinished(task)) throw baseError('ResourceInUse');
    d.tasks.delete(task.Id);
  }

  /** 202 with the task while it runs, then the operation's own final answer. */
  function getTaskMonitor(ctx: Context<'/redfish/v1/TaskService/TaskMonitors/{TaskId}/'>) {
    const task = present(d.tasks.get(ctx.params.TaskId), ctx);
    if (!task.Result) return taskAccepted(task);
    return finalAnswer(task.Result);
  }
}

export function registerTaskServiceRoutes(routes: RouteTable, d: TaskServiceDeps): void {
  const h = handlers(d);
  const TaskId = (id: string) => d.tasks.get(id) !== undefined;

  routes.add({
    path: '/redfish/v1/TaskService/',
    type: TaskServiceType,
    get: { privilege: Priv.login, handler: h.getTaskService },
  });
  routes.add({
    path: '/redfish/v1/TaskService/Tasks/',
    type: collectionOf(TaskType),
    get: { privilege: Priv.login, handler: h.getTaskCollection },
  });
  routes.add({
    path: '/redfish/v1/TaskService/Tasks/{TaskId}/',
    type: TaskType,
    params: { TaskId },
    get: { privilege: Priv.login, handler: h.getTask },
    delete: { privilege: Priv.configureManager, handler: h.deleteTask },
  });
  routes.add({
    path: '/redfish/v1/TaskService/TaskMonitors/{TaskId}/',
    params: { TaskId },
    get: { privilege: Priv.login, handler: h.getTaskMonitor },
  });
}
