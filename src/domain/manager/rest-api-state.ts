// VendorMC.ClearRestApiState: the "REST API state" is the data the host
// reports to the controller during POST (firmware versions read from the
// system ROM, BIOS data and the like). The action only arms the clear; the
// next controller reset discards every registered part, and the host reports
// it again at its next POST. Controller settings, accounts, logs and licenses
// are not part of it.
import type { ControllerLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';

export class RestApiState {
  private readonly parts = new Map<string, () => void>();
  private readonly armed: { get(): boolean; set(v: boolean): void };
  private readonly cleared: (() => void)[] = [];

  constructor(store: DocumentStore, controller: ControllerLifecycle) {
    this.armed = store.setting('manager.clearRestApiStatePending', false);
    controller.onReset(() => this.applyPending());
  }

  /** An area's host-reported data, and how to discard it. */
  register(name: string, clear: () => void): void {
    if (this.parts.has(name)) throw new Error(`REST API state part ${name} registered twice`);
    this.parts.set(name, clear);
  }

  /** Names of the registered parts (what a clear discards). */
  partNames(): string[] {
    return [...this.parts.keys()];
  }

  arm(): void {
    this.armed.set(true);
  }

  pending(): boolean {
    return this.armed.get();
  }

  /** Called after a clear was carried out at a controller reset. */
  onCleared(fn: () => void): void {
    this.cleared.push(fn);
  }

  private applyPending(): void {
    if (!this.armed.get()) return;
    for (const clear of this.parts.values()) clear();
    this.armed.set(false);
    for (const fn of this.cleared) fn();
  }
}
