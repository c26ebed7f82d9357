// Remote support: the controller's call home to the vendor (Direct Connect) or to a remote support
// server on the site (Central Connect), and the maintenance mode that holds back service events.
// The simulated controller has no route to either: a registration is accepted and fails as a
// controller behind a firewall does, recorded as the last transmission; remote support stays
// disabled, so no service event is ever sent (the service event log stays empty). The maintenance
// mode is kept. Kept across resets; a factory reset clears it.
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../store/documents.js';

export const CONNECTION_TYPES = ['DirectConnect', 'CentralConnect'] as const;
export const MAINTENANCE_MODES = ['Set', 'Clear'] as const;
export const TRANSMISSION_TYPES = ['NoTransmission', 'Registration'] as const;

export interface RemoteSupportState {
  MaintenanceModeEnabled: boolean;
  LastTransmissionType: (typeof TRANSMISSION_TYPES)[number];
  LastTransmissionError: string;
  /** Controller time of the last transmission, or null before the first. */
  LastTransmissionAt: number | null;
}

const SETTING = 'manager.remoteSupport';
const DEFAULT_REMOTE_SUPPORT: RemoteSupportState = {
  MaintenanceModeEnabled: false,
  LastTransmissionType: 'NoTransmission',
  LastTransmissionError: 'No error',
  LastTransmissionAt: null,
};

export class RemoteSupport {
  private readonly setting;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.setting = store.setting<RemoteSupportState>(SETTING, DEFAULT_REMOTE_SUPPORT);
  }

  state(): Readonly<RemoteSupportState> {
    return this.setting.peek();
  }

  /** Try to register; the destination cannot be reached, which the last transmission records. */
  register(type: (typeof CONNECTION_TYPES)[number], destination: string | undefined): void {
    const where = type === 'CentralConnect' ? `the remote support server ${destination ?? ''}` : "the vendor's remote support service";
    this.setting.set({
      ...this.setting.get(),
      LastTransmissionType: 'Registration',
      LastTransmissionError: `Registration failed: ${where} cannot be reached from the controller's network`,
      LastTransmissionAt: this.clock.now(),
    });
  }

  setMaintenance(mode: (typeof MAINTENANCE_MODES)[number]): void {
    this.setting.set({ ...this.setting.get(), MaintenanceModeEnabled: mode === 'Set' });
  }

  reset(): void {
    this.setting.set(DEFAULT_REMOTE_SUPPORT);
  }
}
