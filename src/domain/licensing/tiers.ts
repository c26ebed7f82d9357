// License tiers and which feature needs which. The licensing area owns key
// verification and installation; others only ask requireFeature().
import { vendorRefusal } from '../../messages/refusal.js';

export const LICENSE_TIERS = ['None', 'Standard', 'Advanced', 'PremiumSecurity'] as const;
export type LicenseTier = (typeof LICENSE_TIERS)[number];

/** Features gated by a license, and the lowest tier that grants each. */
export const FEATURE_TIER = {
  CertificateLogin: 'Advanced',
  FirmwareIntegrityScan: 'PremiumSecurity',
} as const satisfies Record<string, LicenseTier>;
export type LicensedFeature = keyof typeof FEATURE_TIER;

export function tierAtLeast(have: LicenseTier, need: LicenseTier): boolean {
  return LICENSE_TIERS.indexOf(have) >= LICENSE_TIERS.indexOf(need);
}

export interface LicenseState {
  /** The installed tier ('None' when no license is installed). */
  tier(): LicenseTier;
}

/** Refuses (LicenseRequired-class) when the installed tier does not grant the feature. */
export function requireFeature(licenseTier: LicenseState, feature: LicensedFeature): void {
  const need = FEATURE_TIER[feature];
  const have = licenseTier.tier();
  if (!tierAtLeast(have, need)) throw vendorRefusal('FeatureRequiresLicense', feature, need, have);
}
