// Resource descriptions of the update task queue, maintenance windows and
// install sets (vendor types: the standard has no equivalent). The window and
// install set collections are collectionOf their members (addCollection makes them).
import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../domain/update-queue/names.js';
import { AGENTS, COMMANDS, LIMITS, TASK_STATES } from '../../domain/update-queue/records.js';
import { collectionOf, defineAction, defineType, oem, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const name = (what: string) =>
  t.string({
    required: true,
    minLength: 1,
    maxLength: NAME_MAX_LENGTH,
    pattern: NAME_PATTERN,
    description: `Unique name of the ${what}; the Id and URI derive from it.`,
  });
const agents = (o: { createOnly?: boolean } = {}) =>
  t.array(t.enum(AGENTS), {
    ...o,
    required: true,
    minItems: 1,
    maxItems: AGENTS.length,
    description: 'Updaters that may run it. Bmc is never listed with another; a Wait lists exactly one.',
  });
const command = (o: { createOnly?: boolean } = {}) => t.enum(COMMANDS, { ...o, required: true });
const waitTime = (o: { createOnly?: boolean } = {}) =>
  t.integer({ ...o, minimum: 0, maximum: LIMITS.maxWaitSeconds, units: 's', description: 'Seconds a Wait task waits (controller clock).' });
const targets = (o: { createOnly?: boolean } = {}) =>
  t.array(t.string({ format: 'uri-reference' }), {
    ...o,
    maxItems: LIMITS.maxTargets,
    description: 'Firmware or software inventory URIs; all applicable targets when empty.',
  });
const messages = ro(t.array(t.any(), { description: 'Messages of the outcome.' }));

export const VendorUpdateTaskType = defineType({
  name: oemType('UpdateTask'),
  version: '1.0.0',
  owner: OEM,
  description: 'A task of the update task queue, run in queue order by the updater it names.',
  properties: {
    Id: ro(t.string()),
    Name: { ...name('task'), createOnly: true },
    Description: ro(t.string()),
    UpdatableBy: agents({ createOnly: true }),
    Command: command({ createOnly: true }),
    Component: t.string({ createOnly: true, nullable: true, description: 'Filename of the repository component to apply (ApplyUpdate).' }),
    Filename: t.string({
      createOnly: true,
      nullable: true,
      description: "The component's file name, as iLO names it (the same as Component; ApplyUpdate).",
    }),
    TPMOverride: t.boolean({ createOnly: true, description: 'Must be true when a TPM is installed and in use.' }),
    UpdateRecoverySet: t.boolean({
      createOnly: true,
      description: 'Once applied, the component also replaces its device image in the recovery install set.',
    }),
    StartAfter: t.dateTime({
      createOnly: true,
      nullable: true,
      offsetOptional: true,
      description:
        "Earliest start (controller clock; without an offset: the controller's local time); the window's when MaintenanceWindow is set.",
    }),
    Expire: t.dateTime({
      createOnly: true,
      nullable: true,
      offsetOptional: true,
      description: 'A task still Pending at this time becomes Expired.',
    }),
    MaintenanceWindow: t.string({
      createOnly: true,
      nullable: true,
      description: 'Id of a maintenance window giving StartAfter and Expire.',
    }),
    WaitTimeSeconds: waitTime({ createOnly: true }),
    Targets: targets({ createOnly: true }),
    State: ro(t.enum(TASK_STATES)),
    PercentComplete: ro(
      t.integer({
        minimum: 0,
        maximum: 100,
        units: '%',
        volatile: true,
        description: 'How far the task has come (InProgress: its wait or apply time on the controller clock).',
      }),
    ),
    RunBy: ro(t.enum(AGENTS, { nullable: true, description: 'The updater that ran it.' })),
    Created: ro(t.dateTime()),
    Modified: ro(t.dateTime()),
    StartTime: ro(t.dateTime({ nullable: true })),
    EndTime: ro(t.dateTime({ nullable: true })),
    Messages: messages,
  },
});

export const SetRuntimeAgentAction = defineAction({
  name: `${oemType('UpdateTaskQueue')}.SetRuntimeAgent`,
  oem: true,
  description: 'Mark the simulated host-side update manager (RuntimeAgent) installed or absent.',
  parameters: { Installed: t.boolean({ required: true }) },
});

/** Oem/Vendor of the queue collection: whether the queue moves, and the host-side agent. */
export const VendorUpdateTaskQueueType = defineType({
  name: oemType('UpdateTaskQueue'),
  version: '1.0.0',
  owner: OEM,
  description: 'State of the update task queue and of the runtime update agent.',
  properties: {
    QueueStatus: ro(
      t.object(
        {
          State: ro(t.string()),
          Reason: ro(t.string()),
          HeadTask: t.link({ readOnly: true, nullable: true }),
          Message: ro(t.string()),
        },
        { typeName: 'QueueStatus' },
      ),
    ),
    RuntimeAgent: ro(
      t.object(
        {
          Installed: ro(t.boolean()),
          Polling: ro(t.boolean()),
          PollIntervalSeconds: ro(t.integer({ units: 's' })),
          LastPollTime: ro(t.dateTime({ nullable: true })),
        },
        { typeName: 'RuntimeAgent' },
      ),
    ),
  },
});

const queueCollection = collectionOf(VendorUpdateTaskType, 'The update task queue, in processing order.');
export const VendorUpdateTaskCollectionType = defineType({
  ...queueCollection,
  properties: { ...queueCollection.properties, Oem: oem(VendorUpdateTaskQueueType, { readOnly: true }) },
  actions: [SetRuntimeAgentAction],
});

export const VendorMaintenanceWindowType = defineType({
  name: oemType('MaintenanceWindow'),
  version: '1.0.0',
  owner: OEM,
  description: 'A named time range that update tasks can be scheduled into.',
  properties: {
    Id: ro(t.string()),
    Name: name('maintenance window'),
    Description: t.string({ maxLength: 256 }),
    StartAfter: t.dateTime({
      nullable: true,
      offsetOptional: true,
      description: "Earliest execution time (without an offset: the controller's local time); null: none.",
    }),
    Expire: t.dateTime({
      nullable: true,
      offsetOptional: true,
      description: 'Tasks still Pending at this time become Expired; null: never.',
    }),
    Created: ro(t.dateTime()),
    Modified: ro(t.dateTime()),
  },
});

const InstallSetItem = t.object(
  {
    Name: { ...name('item (the task name on invoke)'), createOnly: false },
    UpdatableBy: agents(),
    Command: command(),
    Filename: t.string({ nullable: true, description: 'File name of the repository component (ApplyUpdate).' }),
    WaitTimeSeconds: waitTime(),
  },
  { typeName: 'InstallSetItem' },
);

export const InvokeAction = defineAction({
  name: `${oemType('ComponentInstallSet')}.Invoke`,
  description: 'Append one task per Sequence item to the update task queue (cleared first only with ClearTaskQueue).',
  parameters: {
    StartAfter: t.dateTime({ nullable: true, offsetOptional: true }),
    Expire: t.dateTime({ nullable: true, offsetOptional: true }),
    MaintenanceWindow: t.string({ nullable: true, description: 'Id of a maintenance window.' }),
    TPMOverride: t.boolean({ description: 'Must be true when a TPM is installed and in use.' }),
    ClearTaskQueue: t.boolean({ description: 'Remove the queued tasks first (one in progress stays).' }),
    UpdateRecoverySet: t.boolean({
      description: 'The components the controller applies also replace their images in the recovery set (SystemRecoveryConfigPriv).',
    }),
  },
});

export const VendorComponentInstallSetType = defineType({
  name: oemType('ComponentInstallSet'),
  version: '1.0.0',
  owner: OEM,
  description: 'A named, ordered sequence of update operations.',
  properties: {
    Id: ro(t.string()),
    Name: name('install set'),
    Description: t.string({ maxLength: 256 }),
    IsRecovery: t.boolean({
      description: 'The firmware recovery set: Critical controller-flashable firmware only; changing it needs SystemRecoveryConfigPriv.',
    }),
    Sequence: t.array(InstallSetItem, { required: true, minItems: 1 }),
    Targets: targets(),
    Created: ro(t.dateTime()),
    Modified: ro(t.dateTime()),
  },
  actions: [InvokeAction],
});
