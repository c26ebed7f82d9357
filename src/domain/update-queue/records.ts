// What the update queue area keeps in the store. Times are controller-clock
// milliseconds; null means "not given".
import type { ExtendedInfo } from '../../messages/messages.js';
import { UPDATERS, type Updater } from '../firmware/package.js';

/** The updaters: the controller, UEFI at POST, the host's update agent (the components' UpdatableBy). */
export const AGENTS = UPDATERS;
export type Agent = Updater;

/** iLO's task commands: apply a component, wait, reset the server or the controller. */
export const COMMANDS = ['ApplyUpdate', 'Wait', 'ResetServer', 'ResetBmc'] as const;
export type Command = (typeof COMMANDS)[number];

export const TASK_STATES = ['Pending', 'InProgress', 'Complete', 'Canceled', 'Expired', 'Exception'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** Where queued tasks and install sets are, which events, logs and component locks name (lib/resource-uris.ts, handed in). */
export interface UpdateQueueUris {
  updateQueueTask(id: string): string;
  installSet(id: string): string;
}

/** The update service's limits, iLO's (docs/update-queue.md). */
export const LIMITS = {
  maxTargets: 10,
  maxWaitSeconds: 3600,
  maxInstallSets: 8,
  /** Complete tasks are removed this long after they finished. */
  completeRetentionMs: 24 * 3600 * 1000,
} as const;

export interface TaskRecord {
  Id: string;
  Name: string;
  UpdatableBy: Agent[];
  Command: Command;
  /** Filename of a repository component (ApplyUpdate). */
  Component: string | null;
  TPMOverride: boolean;
  /** Once applied by the controller, the component also replaces its device's image in the recovery install set (absent: false). */
  UpdateRecoverySet?: boolean;
  /** Effective times: the task's own, or copied from its maintenance window. */
  StartAfter: number | null;
  Expire: number | null;
  MaintenanceWindow: string | null;
  WaitTimeSeconds: number;
  Targets: string[];
  State: TaskState;
  Created: number;
  Modified: number;
  StartedAt: number | null;
  FinishedAt: number | null;
  /** The updater that moved it to InProgress. */
  RunBy: Agent | null;
  /** Messages of the outcome (Complete, Exception, Expired, Canceled). */
  Result: ExtendedInfo[];
}

export interface WindowRecord {
  Id: string;
  Name: string;
  Description: string;
  StartAfter: number | null;
  Expire: number | null;
  Created: number;
  Modified: number;
}

export interface InstallSetItem {
  Name: string;
  UpdatableBy: Agent[];
  Command: Command;
  Filename: string | null;
  WaitTimeSeconds: number;
}

export interface InstallSetRecord {
  Id: string;
  Name: string;
  Description: string;
  IsRecovery: boolean;
  Sequence: InstallSetItem[];
  Targets: string[];
  Created: number;
  Modified: number;
}
