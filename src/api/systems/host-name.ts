// The server's host name: the one a client (a provisioning tool) set on the
// ComputerSystem, kept across restarts, else the one its OS reports
// (host-<serial>). The system and its Ethernet interfaces show the same name.
import { serverIdentity } from '../../platform/identity.js';
import type { Services } from '../services.js';

export function hostNames(d: Pick<Services, 'store' | 'serviceUuid' | 'hardware'>) {
  const set = d.store.setting<string | null>('system.hostName', null);
  const reported = `host-${serverIdentity(d.serviceUuid, d.hardware.system).SerialNumber.toLowerCase()}`;
  return {
    /** The name a client set, or null (PATCH HostName null clears it). */
    set,
    /** The name the running OS uses. */
    os: (): string => set.get() ?? reported,
  };
}
