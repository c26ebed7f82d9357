// The controller's external key manager settings (the vendor's ESKM) and its
// event log. No key server is reachable from the simulation: a connection test
// checks what can be checked here (that servers are configured) and logs the
// outcome, as the vendor's controller logs its tests.
import { isIP } from 'node:net';
import { isHostName } from '../../lib/network-names.js';
import type { Clock } from '../../platform/clock.js';
import { baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export interface KeyManagerSettings {
  PrimaryKeyServerAddress: string | null;
  PrimaryKeyServerPort: number | null;
  SecondaryKeyServerAddress: string | null;
  SecondaryKeyServerPort: number | null;
  KeyServerRedundancyReq: boolean;
  AccountGroup: string;
  ESKMLocalCACertificateName: string;
}

export interface KeyManagerEvent {
  Timestamp: number;
  Event: string;
}

const SETTING = 'manager.keyManager';
const EVENTS = 'manager.keyManager.events';
/** Events the log keeps, oldest dropped first. */
const MAX_EVENTS = 100;

export const DEFAULT_KEY_MANAGER: KeyManagerSettings = {
  PrimaryKeyServerAddress: null,
  PrimaryKeyServerPort: null,
  SecondaryKeyServerAddress: null,
  SecondaryKeyServerPort: null,
  KeyServerRedundancyReq: false,
  AccountGroup: '',
  ESKMLocalCACertificateName: '',
};

export type KeyManagerChange = Partial<KeyManagerSettings>;

export class KeyManager {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  settings(): KeyManagerSettings {
    return { ...DEFAULT_KEY_MANAGER, ...this.store.setting<KeyManagerSettings>(SETTING, DEFAULT_KEY_MANAGER).get() };
  }

  change(c: KeyManagerChange): void {
    for (const key of ['PrimaryKeyServerAddress', 'SecondaryKeyServerAddress'] as const) {
      const v = c[key];
      if (v && isIP(v) === 0 && !isHostName(v)) throw baseRefusal('PropertyValueFormatError', v, key).about(key);
    }
    this.store.setting<KeyManagerSettings>(SETTING, DEFAULT_KEY_MANAGER).set({ ...this.settings(), ...c });
  }

  events(): readonly Readonly<KeyManagerEvent>[] {
    return this.store.setting<KeyManagerEvent[]>(EVENTS, []).peek();
  }

  private log(event: string): void {
    const s = this.store.setting<KeyManagerEvent[]>(EVENTS, []);
    s.set([...s.get(), { Timestamp: this.clock.now(), Event: event }].slice(-MAX_EVENTS));
  }

  /** The outcome of a connection test, also logged: without a configured server there is nothing to reach. */
  testConnections(): { ok: boolean; outcome: string } {
    const s = this.settings();
    const servers = [s.PrimaryKeyServerAddress, s.SecondaryKeyServerAddress].filter((a): a is string => Boolean(a));
    const outcome = servers.length
      ? `Connection test failed: key server ${servers.join(', ')} is not reachable from this controller.`
      : 'Connection test not run: no key server is configured.';
    this.log(outcome);
    return { ok: false, outcome };
  }

  clearLog(): void {
    this.store.setting<KeyManagerEvent[]>(EVENTS, []).set([]);
  }

  /** Back to the factory settings (factory defaults). */
  reset(): void {
    this.store.setting<KeyManagerSettings>(SETTING, DEFAULT_KEY_MANAGER).set(DEFAULT_KEY_MANAGER);
    this.clearLog();
  }
}
