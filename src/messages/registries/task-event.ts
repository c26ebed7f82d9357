// DMTF's Task Event message registry 1.0 (TaskEvent.1.0.5, DSP8011) expressed as data.
import type { RegistryDef } from '../registry-types.js';

export const TASK_EVENT_REGISTRY = {
  prefix: 'TaskEvent',
  version: '1.0.5',
  name: 'Task Event Message Registry',
  description: 'This registry defines the messages for task related events.',
  owningEntity: 'DMTF',
  language: 'en',
  messages: {
    TaskAborted: {
      description: 'A task has completed with errors.',
      message: "The task with Id '%1' has completed with errors.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskCancelled: {
      description: 'A task was cancelled.',
      message: "Work on the task with Id '%1' was halted prior to completion due to an explicit request.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskCompletedOK: {
      description: 'A task has completed.',
      message: "The task with Id '%1' has completed.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskCompletedWarning: {
      description: 'A task has completed with warnings.',
      message: "The task with Id '%1' has completed with warnings.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskPaused: {
      description: 'A task was paused.',
      message: "The task with Id '%1' was paused.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskProgressChanged: {
      description: 'A task has changed progress.',
      message: "The task with Id '%1' has changed to progress %2 percent complete.",
      severity: 'OK',
      paramTypes: ['string', 'number'],
      resolution: 'None.',
    },
    TaskRemoved: {
      description: 'A task was removed.',
      message: "The task with Id '%1' was removed.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskResumed: {
      description: 'A task was resumed.',
      message: "The task with Id '%1' was resumed.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    TaskStarted: {
      description: 'A task has started.',
      message: "The task with Id '%1' has started.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
  },
} as const satisfies RegistryDef;
