// Whether the management controller's functionality is enabled. Disabled (the
// vendor's DisableiLOFunctionality), the controller stops its network
// services: the listener drops every Redfish request unanswered, as a
// controller with its network off does. Only the host enables it again (on the
// vendor's controller from its UEFI utilities; here the control API's host
// actions, which stand for the host). Kept across restarts.
import type { DocumentStore } from '../../store/documents.js';

const SETTING = 'manager.functionalityEnabled';

export class ControllerFunctionality {
  constructor(private readonly store: DocumentStore) {}

  enabled(): boolean {
    return this.store.setting<boolean>(SETTING, true).peek();
  }

  set(enabled: boolean): void {
    this.store.setting<boolean>(SETTING, true).set(enabled);
  }
}
