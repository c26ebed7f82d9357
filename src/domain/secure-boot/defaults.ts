// The platform's factory Secure Boot keys: what the firmware vendor would ship
// in the ...Default databases. Generated once (RSA 2048, as UEFI firmware
// expects) and then persisted; the private keys are thrown away, as the
// controller never holds the vendor's signing keys.
import { createHash, randomBytes } from 'node:crypto';
import { issueNative } from '../../platform/x509.js';
import type { DefaultDatabaseId } from './databases.js';

/** UEFI signature owner GUID of the platform vendor (EFI_SIGNATURE_DATA.SignatureOwner). */
export const VENDOR_OWNER_GUID = '5d3c7a5e-8f4b-4e2a-9c61-0b8e2f6d4a17';

export interface DefaultContent {
  certificates: Record<DefaultDatabaseId, string[]>;
  /** SHA-256 hashes (hex) per database. */
  sha256: Record<DefaultDatabaseId, string[]>;
}

const DAY = 86_400_000;
const ORG = 'O=Vendor, OU=Platform Firmware, L=Houston, ST=Texas, C=US';

/** Make the default keys; `now` is controller time, so validity follows the controller clock. */
export async function generateDefaults(now: number): Promise<DefaultContent> {
  const notBefore = new Date(now - 120 * DAY);
  const rsa = { keyType: 'rsa' as const, ca: true, notBefore };
  const [pk, kek, rootCa] = await Promise.all([
    issueNative({ ...rsa, subject: `CN=Vendor Platform Key, ${ORG}`, days: 365 * 20 }),
    issueNative({ ...rsa, subject: `CN=Vendor KEK CA, ${ORG}`, days: 365 * 15 }),
    issueNative({ ...rsa, subject: `CN=Vendor Root Certificate Authority 2026, ${ORG}`, days: 365 * 25 }),
  ]);
  // The db certificates chain to the vendor's root, like the CAs that sign boot loaders.
  const [uefiCa, pca] = await Promise.all([
    issueNative({ ...rsa, issuer: rootCa.issuer, subject: `CN=Vendor UEFI CA 2026, ${ORG}`, days: 365 * 15 }),
    issueNative({ ...rsa, issuer: rootCa.issuer, subject: `CN=Vendor Production PCA 2026, ${ORG}`, days: 365 * 15 }),
  ]);
  // Hashes of boot images the vendor revoked (vulnerable shims and boot managers).
  const revoked = Array.from({ length: 8 }, () => createHash('sha256').update(randomBytes(4096)).digest('hex').toUpperCase());
  return {
    certificates: {
      PKDefault: [pk.certPem],
      KEKDefault: [kek.certPem],
      dbDefault: [uefiCa.certPem, pca.certPem],
      dbxDefault: [],
      dbtDefault: [],
      dbrDefault: [],
    },
    sha256: { PKDefault: [], KEKDefault: [], dbDefault: [], dbxDefault: revoked, dbtDefault: [], dbrDefault: [] },
  };
}
