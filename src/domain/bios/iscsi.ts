// The UEFI iSCSI software initiator of the system ROM and its boot attempts,
// read at POST. CHAP secrets are sealed at rest (store/secrets.ts); a secret an
// older version stored in plain text reads as it is and is sealed at start.
import { Secrets } from '../../store/secrets.js';
import type { DocumentStore, Setting } from '../../store/documents.js';

/** Boot attempts the initiator has. */
export const ISCSI_ATTEMPTS = 4;

export interface IscsiSource {
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
    iSCSISources: Array.from({ length: ISCSI_ATTEMPTS }, (_, i) => ({
      iSCSIAttemptInstance: i + 1,
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

  constructor(
    private readonly store: DocumentStore,
    serialNumber: string,
  ) {
    this.stored = store.setting<IscsiState>('bios.iscsi', defaultIscsi(serialNumber));
    if (this.stored.peek().iSCSISources.some((x) => x.iSCSIChapSecret !== null && !Secrets.isSealed(x.iSCSIChapSecret)))
      this.set(this.get());
  }

  /** The settings, CHAP secrets opened. */
  get(): IscsiState {
    return mapSecrets(this.stored.get(), (x) => this.store.secrets.open(x));
  }

  set(v: IscsiState): void {
    this.stored.set(mapSecrets(v, (x) => this.store.secrets.seal(x)));
  }
}

function mapSecrets(v: IscsiState, f: (secret: string) => string): IscsiState {
  return {
    ...v,
    iSCSISources: v.iSCSISources.map((x) => (x.iSCSIChapSecret === null ? x : { ...x, iSCSIChapSecret: f(x.iSCSIChapSecret) })),
  };
}
