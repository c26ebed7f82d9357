// The task creation and install set rules (docs/update-queue.md), checked on every input that
// becomes a task or a Sequence item. Each violation is one message naming
// the property (paths like "Sequence/2/Filename"); all are reported at once.
import { baseRefusal, refusals, vendorRefusal, type Refusal } from '../../messages/refusal.js';
import { argText } from '../../messages/args.js';
import { parseControllerTime } from '../../lib/iso-time.js';
import type { ComponentRepository } from '../firmware/repository.js';
import type { Inventory } from '../firmware/inventory.js';
import type { Agent, Command } from './records.js';

/** A task as a client describes it (POST body or an install set item plus Invoke parameters). */
export interface TaskInput {
  Name: string;
  UpdatableBy: Agent[];
  Command: Command;
  Component?: string | null;
  /** iLO's name for the component's file (the same as Component; both given, they must agree). */
  Filename?: string | null;
  TPMOverride?: boolean;
  UpdateRecoverySet?: boolean;
  StartAfter?: string | null;
  Expire?: string | null;
  MaintenanceWindow?: string | null;
  WaitTimeSeconds?: number;
  Targets?: string[];
}

export interface CheckDeps {
  repository: ComponentRepository;
  inventory: Inventory;
  tpm(): { installed: boolean; inUse: boolean };
}

/** Collects violations; `done()` throws them together (refused with the first one's rule). */
export class Violations {
  readonly list: Refusal[] = [];

  add(e: Refusal, property: string): void {
    this.list.push(e.about(property));
  }

  done(): void {
    if (this.list.length) throw refusals(this.list);
  }
}

/** A duplicate Name, reported as a refusal that names the property (uniqueness is a creation rule). */
export function duplicateName(v: Violations, type: string, property: string, name: string): void {
  v.add(
    refusals([baseRefusal('PropertyValueIncorrect', property, name), baseRefusal('ResourceAlreadyExists', type, 'Name', name)]),
    property,
  );
}

/**
 * UpdatableBy: no duplicates; Bmc never with another agent; a Wait or a reset lists exactly one;
 * only the controller resets itself (ResetBmc), and UEFI resets nothing.
 */
export function checkAgents(v: Violations, agents: readonly Agent[], command: Command, prefix = ''): void {
  const p = `${prefix}UpdatableBy`;
  const conflict = () => v.add(baseRefusal('PropertyValueConflict', p, `${prefix}Command`), p);
  if (agents.length === 0) v.add(baseRefusal('PropertyValueIncorrect', p, '[]'), p);
  else if (new Set(agents).size !== agents.length) v.add(baseRefusal('PropertyValueIncorrect', p, argText(agents)), p);
  else if (agents.includes('Bmc') && agents.length > 1) v.add(baseRefusal('PropertyValueIncorrect', p, argText(agents)), p);
  else if (command !== 'ApplyUpdate' && agents.length !== 1) conflict();
  else if (command === 'ResetBmc' && agents[0] !== 'Bmc') conflict();
  else if (command === 'ResetServer' && agents[0] === 'Uefi') conflict();
}

/**
 * The repository component a task names: by its Filename (the repository's key) or, for a task's
 * Component, by its Name when no other component has that Name.
 */
export function resolveComponent(
  repository: Pick<ComponentRepository, 'get' | 'list'>,
  ref: string,
  byName: boolean,
): { filename: string } | { missing: true } | { ambiguous: string[] } {
  if (repository.get(ref)) return { filename: ref };
  if (!byName) return { missing: true };
  const named = repository.list().filter((c) => c.Name === ref);
  if (named.length === 1 && named[0]) return { filename: named[0].Filename };
  return named.length > 1 ? { ambiguous: named.map((c) => c.Filename).sort() } : { missing: true };
}

/**
 * Checks the command's own properties (ApplyUpdate needs a stored component, Wait needs WaitTimeSeconds,
 * only ApplyUpdate names a component); for ApplyUpdate, returns the Filename of the component it names.
 */
export function checkCommand(
  v: Violations,
  d: CheckDeps,
  c: { Command: Command; component: string | null | undefined; WaitTimeSeconds?: number },
  componentProp: string,
  prefix = '',
): string | undefined {
  const p = `${prefix}${componentProp}`;
  if (c.Command === 'ApplyUpdate') {
    if (c.component === undefined || c.component === null || c.component === '') {
      v.add(baseRefusal('PropertyMissing', p), p);
      return undefined;
    }
    // Install set items name their file (Filename, as on iLO); a task's Component may also give the Name.
    const found = resolveComponent(d.repository, c.component, componentProp === 'Component');
    if ('filename' in found) return found.filename;
    if ('ambiguous' in found) {
      v.add(
        refusals([
          baseRefusal('PropertyValueNotInList', c.component, p),
          vendorRefusal('ComponentNameAmbiguous', c.component, found.ambiguous.join(', ')),
        ]),
        p,
      );
    } else {
      v.add(refusals([baseRefusal('PropertyValueNotInList', c.component, p), vendorRefusal('ComponentNotFound', c.component)]), p);
    }
  } else {
    if (c.component) v.add(baseRefusal('PropertyValueConflict', p, `${prefix}Command`), p);
    if (c.Command === 'Wait' && c.WaitTimeSeconds === undefined) {
      v.add(baseRefusal('PropertyMissing', `${prefix}WaitTimeSeconds`), `${prefix}WaitTimeSeconds`);
    }
  }
  return undefined;
}

/** Targets: firmware or software inventory URIs that exist (at most 10 is the type's maxItems). */
export function checkTargets(v: Violations, d: CheckDeps, targets: readonly string[] | undefined, prefix = ''): string[] {
  const known = new Set([...d.inventory.list('firmware'), ...d.inventory.list('software')].map((i) => d.inventory.uri(i)));
  const out: string[] = [];
  (targets ?? []).forEach((t, i) => {
    const norm = normalizeTarget(t);
    if (!known.has(norm)) v.add(baseRefusal('PropertyValueNotInList', t, `${prefix}Targets/${i}`), `${prefix}Targets/${i}`);
    else out.push(norm);
  });
  return out;
}

export function normalizeTarget(uri: string): string {
  const path = uri.replace(/^https?:\/\/[^/]+/i, '');
  return path.endsWith('/') ? path : `${path}/`;
}

/** Task creation rule 5: TPMOverride true when a TPM is installed and in use (updates change measured firmware). */
export function checkTpm(
  v: Violations,
  d: CheckDeps,
  command: Command,
  override: boolean | undefined,
  property = 'TPMOverride',
  action?: string,
): void {
  if (command !== 'ApplyUpdate') return;
  const tpm = d.tpm();
  if (!tpm.installed || !tpm.inUse || override === true) return;
  if (action) {
    v.add(
      override === undefined
        ? baseRefusal('ActionParameterMissing', action, property)
        : baseRefusal('ActionParameterValueConflict', property, String(override)),
      property,
    );
  } else {
    v.add(
      override === undefined ? baseRefusal('PropertyMissing', property) : baseRefusal('PropertyValueIncorrect', property, String(override)),
      property,
    );
  }
}

/** Parsed schedule: either own times or a window, never both; Expire after StartAfter. */
export function checkSchedule(
  v: Violations,
  s: { StartAfter?: string | null; Expire?: string | null; MaintenanceWindow?: string | null },
  window: (id: string) => { StartAfter: number | null; Expire: number | null } | undefined,
): { StartAfter: number | null; Expire: number | null; MaintenanceWindow: string | null } {
  const own = { StartAfter: parseTime(s.StartAfter), Expire: parseTime(s.Expire) };
  if (s.MaintenanceWindow) {
    if (s.StartAfter != null || s.Expire != null) {
      const p = s.StartAfter != null ? 'StartAfter' : 'Expire';
      v.add(baseRefusal('PropertyValueConflict', p, 'MaintenanceWindow'), p);
    }
    const w = window(s.MaintenanceWindow);
    if (!w) {
      v.add(baseRefusal('PropertyValueNotInList', s.MaintenanceWindow, 'MaintenanceWindow'), 'MaintenanceWindow');
      return { ...own, MaintenanceWindow: null };
    }
    return { StartAfter: w.StartAfter, Expire: w.Expire, MaintenanceWindow: s.MaintenanceWindow };
  }
  checkOrder(v, own.StartAfter, own.Expire);
  return { ...own, MaintenanceWindow: null };
}

export function checkOrder(v: Violations, start: number | null, expire: number | null): void {
  if (start !== null && expire !== null && expire <= start) v.add(baseRefusal('PropertyValueConflict', 'Expire', 'StartAfter'), 'Expire');
}

export function parseTime(iso: string | null | undefined): number | null {
  return iso === undefined || iso === null ? null : parseControllerTime(iso);
}
