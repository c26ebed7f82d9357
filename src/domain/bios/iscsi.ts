// The UEFI iSCSI software initiator of the system ROM and its boot attempts:
// the current area the ROM runs with, and the pending area clients write, which
// the ROM takes in at POST (step ApplyBiosSettings). CHAP secrets are sealed at
// rest (store/secrets.ts); a secret an older version stored in plain text reads
// as it is and is sealed at start.
import type { BootInfo, HostLifecycle } from '../../platform/lifecycle.js';
import { Secrets } from '../../store/secrets.js';
import { settingsApplied, type SettingsApplied } from './settings-applied.js';
import type { DocumentStore, Setting } from '../../store/documents.js';

/** Boot attempts the initiator has. */
export const ISCSI_ATTEMPTS = 4;

export interface IscsiSource {
  /** Which attempt this entry is, 1 upwards; 0 while it is not configured (as iLO's ROM shows a free entry). */
  iSCSIAttemptInstance: number;
  iSCSIAttemptName: string;
  iSCSIConnection: 'Enabled' | 'Disabled';
  iSCSINicSource: string;
  iSCSITargetName: string;
  iSCSITargetIpAddress: string;
  iSCSITargetTcpPort: number;
  iSCSILUN: string;
  iSCSIConnectRetry: number;
  iSCSIConnectTimeoutMS: number;
  iSCSIAuthenticationMethod: 'None' | 'Chap' | 'MutualChap';
  iSCSIChapUsername: string;
  iSCSIChapSecret: string | null;
}

export interface IscsiState {
  iSCSIInitiatorName: string;
  iSCSISources: IscsiSource[];
}

export function defaultIscsi(serial: string): IscsiState {
  return {
    iSCSIInitiatorName: `iqn.2015-02.com.vendor:uefi-u30-${serial.toLowerCase()}`,
    iSCSISources: Array.from({ length: ISCSI_ATTEMPTS }, () => ({
      iSCSIAttemptInstance: 0,
      iSCSIAttemptName: '',
      iSCSIConnection: 'Disabled',
      iSCSINicSource: 'EmbNicPort1',
      iSCSITargetName: '',
      iSCSITargetIpAddress: '',
      iSCSITargetTcpPort: 3260,
      iSCSILUN: '0',
      iSCSIConnectRetry: 3,
      iSCSIConnectTimeoutMS: 1000,
      iSCSIAuthenticationMethod: 'None',
      iSCSIChapUsername: '',
      iSCSIChapSecret: null,
    })),
  };
}

export class IscsiSettings {
  private readonly stored: Setting<IscsiState>;
  /** The pending area; null while nothing is pending. */
  private readonly pendingStored: Setting<IscsiState | null>;
  readonly defaults: IscsiState;
  /** When POST last took the pending changes in. */
  readonly applied: SettingsApplied;

  constructor(
    private readonly store: DocumentStore,
    host: HostLifecycle,
    serialNumber: string,
  ) {
    this.defaults = defaultIscsi(serialNumber);
    this.stored = store.setting<IscsiState>('bios.iscsi', this.defaults);
    this.applied = settingsApplied(store, 'bios.iscsi');
    this.pendingStored = store.setting<IscsiState | null>('bios.iscsi.pending', null);
    if (this.stored.peek().iSCSISources.some((x) => x.iSCSIChapSecret !== null && !Secrets.isSealed(x.iSCSIChapSecret)))
      this.stored.set(this.sealed(this.get()));
    host.onPost('ApplyBiosSettings', (boot) => this.applyPending(boot));
  }

  /** The settings the ROM runs with, CHAP secrets opened. */
  get(): IscsiState {
    return mapSecrets(this.stored.get(), (x) => this.store.secrets.open(x));
  }

  /** The pending area: the current settings where nothing is pending. CHAP secrets opened. */
  pending(): IscsiState {
    const p = this.pendingStored.get();
    return p ? mapSecrets(p, (x) => this.store.secrets.open(x)) : this.get();
  }

  /** Store the pending area, taken in at the next POST. */
  setPending(v: IscsiState): void {
    this.pendingStored.set(this.sealed(v));
  }

  private applyPending(boot: BootInfo): void {
    const p = this.pendingStored.get();
    if (!p) return;
    this.stored.set(p);
    this.pendingStored.set(null);
    this.applied.mark(boot);
  }

  private sealed(v: IscsiState): IscsiState {
    return mapSecrets(v, (x) => this.store.secrets.seal(x));
  }
}

function mapSecrets(v: IscsiState, f: (secret: string) => string): IscsiState {
  return {
    ...v,
    iSCSISources: v.iSCSISources.map((x) => (x.iSCSIChapSecret === null ? x : { ...x, iSCSIChapSecret: f(x.iSCSIChapSecret) })),
  };
}
