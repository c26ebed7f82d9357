// Maintenance windows: named time ranges tasks can refer to instead of their
// own StartAfter/Expire. A PATCH reschedules every Pending task that refers to
// the window (and a rename moves the reference to the new Id). A DELETE
// detaches the referring tasks: they keep the times they had.
import type { Clock } from '../../platform/clock.js';
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { checkOrder, duplicateName, parseTime, Violations } from './checks.js';
import { idFromName } from './names.js';
import type { UpdateQueue } from './queue.js';
import type { WindowRecord } from './records.js';
import { oemType } from '../../lib/oem-token.js';

export const WINDOW_TYPE = oemType('MaintenanceWindow');

export interface WindowInput {
  Name?: string;
  Description?: string;
  StartAfter?: string | null;
  Expire?: string | null;
}

export class MaintenanceWindows {
  private readonly docs: DocumentCollection<WindowRecord>;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly queue: UpdateQueue,
  ) {
    this.docs = store.collection('updatequeue.window');
  }

  list(): WindowRecord[] {
    return this.docs.list();
  }

  get(id: string): WindowRecord | undefined {
    return this.docs.get(id);
  }

  create(input: WindowInput & { Name: string }): WindowRecord {
    const v = new Violations();
    this.checkName(v, input.Name);
    const rec: WindowRecord = {
      Id: idFromName(input.Name),
      Name: input.Name,
      Description: input.Description ?? '',
      StartAfter: parseTime(input.StartAfter),
      Expire: parseTime(input.Expire),
      Created: this.clock.now(),
      Modified: this.clock.now(),
    };
    checkOrder(v, rec.StartAfter, rec.Expire);
    v.done();
    this.docs.put(rec.Id, rec);
    return rec;
  }

  /** Returns the window as stored, under its new Id when renamed. */
  update(id: string, patch: WindowInput): WindowRecord {
    const cur = this.docs.get(id);
    if (!cur) throw new Error(`no window ${id}`);
    const v = new Violations();
    const renamed = patch.Name !== undefined && patch.Name !== cur.Name;
    if (renamed) this.checkName(v, patch.Name as string, id);
    const next: WindowRecord = {
      ...cur,
      Id: renamed ? idFromName(patch.Name as string) : cur.Id,
      Name: patch.Name ?? cur.Name,
      Description: patch.Description ?? cur.Description,
      StartAfter: patch.StartAfter !== undefined ? parseTime(patch.StartAfter) : cur.StartAfter,
      Expire: patch.Expire !== undefined ? parseTime(patch.Expire) : cur.Expire,
      Modified: this.clock.now(),
    };
    checkOrder(v, next.StartAfter, next.Expire);
    v.done();
    if (next.Id !== id) this.docs.rename(id, next.Id, next);
    else this.docs.put(id, next);
    this.queue.rescheduleWindow(id, next);
    return next;
  }

  delete(id: string): boolean {
    if (!this.docs.delete(id)) return false;
    this.queue.detachWindow(id);
    return true;
  }

  private checkName(v: Violations, name: string, except?: string): void {
    const id = idFromName(name);
    const clash = this.docs.list().find((w) => w.Id !== except && (w.Name === name || w.Id === id));
    if (clash) duplicateName(v, WINDOW_TYPE, 'Name', name);
  }
}
