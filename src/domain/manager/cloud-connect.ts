// The controller's connection to the vendor's cloud management service. The
// simulated controller has no route to that service: an enable request with an
// activation key is accepted and fails the way a controller behind a firewall
// does (ConnectionFailed, ProxyOrFirewallError_COM); without a key it fails
// ActivationKeyRequired. Disable returns to NotEnabled. Kept across resets.
import type { DocumentStore } from '../../store/documents.js';

export const CLOUD_CONNECT_STATUSES = [
  'NotEnabled',
  'ConnectionInProgress',
  'ConnectionFailed',
  'Connected',
  'RetryInProgress',
  'NotConnected',
] as const;

export interface CloudConnectState {
  CloudConnectStatus: (typeof CLOUD_CONNECT_STATUSES)[number];
  FailReason?: string;
}

const SETTING = 'manager.cloudConnect';
const DEFAULT_CLOUD_CONNECT: CloudConnectState = { CloudConnectStatus: 'NotEnabled' };

export class CloudConnect {
  constructor(private readonly store: DocumentStore) {}

  state(): Readonly<CloudConnectState> {
    return this.store.setting<CloudConnectState>(SETTING, DEFAULT_CLOUD_CONNECT).peek();
  }

  enable(activationKey: string | undefined): Readonly<CloudConnectState> {
    const next: CloudConnectState = activationKey
      ? { CloudConnectStatus: 'ConnectionFailed', FailReason: 'ProxyOrFirewallError_COM' }
      : { CloudConnectStatus: 'ConnectionFailed', FailReason: 'ActivationKeyRequired' };
    this.store.setting<CloudConnectState>(SETTING, DEFAULT_CLOUD_CONNECT).set(next);
    return next;
  }

  disable(): void {
    this.store.setting<CloudConnectState>(SETTING, DEFAULT_CLOUD_CONNECT).set(DEFAULT_CLOUD_CONNECT);
  }
}
