// License keys for tests: issued with the vendor key of the service's data dir,
// the way `npm run cli -- license issue` does.
import { ensureVendorLicenseKey, issueLicenseKey, newSerial, type IssuableTier } from '../../src/domain/licensing/license-keys.js';
import type { TestService } from './service.js';

export function issueTestLicense(svc: TestService, tier: IssuableTier, o: { expires?: string; licensee?: string } = {}): string {
  const { privateKey } = ensureVendorLicenseKey(svc.dataDir);
  const issued = new Date(svc.clock.now()).toISOString();
  return issueLicenseKey(privateKey, { tier, licensee: o.licensee ?? 'Test Licensee', serial: newSerial(), issued, expires: o.expires });
}

/** Install a license of the tier through the LicenseService, as an administrator. */
export async function installLicense(svc: TestService, tier: IssuableTier): Promise<void> {
  const managerId = svc.running.services.config.managerId;
  const r = await svc.req('POST', `/redfish/v1/Managers/${managerId}/LicenseService/`, {
    body: { LicenseKey: issueTestLicense(svc, tier) },
  });
  if (r.status !== 201) throw new Error(`license install failed: ${r.status} ${r.text}`);
}
