// Whether the management controller's functionality is enabled. Disabled (the
// vendor's DisableiLOFunctionality), the controller stops its network
// services: the listener drops every Redfish request unanswered, as a
// controller with its network off does. Only the host enables it again (on the
// vendor's controller from its UEFI utilities; here the control API's host
// actions, which stand for the host). Kept across restarts.
import type { DocumentStore, Setting } from '../../store/documents.js';

const SETTING = 'manager.functionalityEnabled';

export class ControllerFunctionality {
  // Made once: the listener asks at every request, and a Setting made anew parses (or clones) its value at its first peek.
  private readonly stored: Setting<boolean>;

  constructor(store: DocumentStore) {
    this.stored = store.setting<boolean>(SETTING, true);
  }

  enabled(): boolean {
    return this.stored.peek();
  }

  set(enabled: boolean): void {
    this.stored.set(enabled);
  }
}
