// The license key format. A key is `VND1.<payload>.<signature>`: the payload
// is base64url JSON {tier, licensee, serial, issued, expires?} and the
// signature is Ed25519 over `VND1.<payload>` by the vendor license key.
// The vendor key pair is generated into the data dir on first start (a real
// vendor keeps the private half; here the CLI needs it to issue test keys).
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPrivateKeyFile } from '../../lib/key-file.js';
import { LICENSE_TIERS, type LicenseTier } from './tiers.js';

export const LICENSE_SIGNING_KEY_FILE = 'license-signing-key.pem';
const PREFIX = 'VND1';

export type IssuableTier = Exclude<LicenseTier, 'None'>;
export const ISSUABLE_TIERS = LICENSE_TIERS.filter((t): t is IssuableTier => t !== 'None');

export interface LicensePayload {
  tier: IssuableTier;
  licensee: string;
  serial: string;
  /** ISO 8601 times. */
  issued: string;
  expires?: string;
}

export class LicenseKeyError extends Error {}

export interface VendorLicenseKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The vendor key pair of this data dir, made on first use. */
export function ensureVendorLicenseKey(dataDir: string): VendorLicenseKey {
  const file = join(dataDir, LICENSE_SIGNING_KEY_FILE);
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  }
  const privateKey = readPrivateKeyFile(file, 'license keys issued with the old key can no longer be installed');
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

export function newSerial(): string {
  return randomBytes(6).toString('hex').toUpperCase();
}

export function issueLicenseKey(key: KeyObject, payload: LicensePayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const signed = `${PREFIX}.${body}`;
  return `${signed}.${sign(null, Buffer.from(signed), key).toString('base64url')}`;
}

/** The payload of a genuine key; throws LicenseKeyError saying what is wrong (never echoing the key). */
export function verifyLicenseKey(publicKey: KeyObject, text: string): LicensePayload {
  const key = text.trim();
  const parts = key.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) {
    throw new LicenseKeyError(`it is not of the form ${PREFIX}.<payload>.<signature>`);
  }
  const signature = Buffer.from(parts[2], 'base64url');
  if (!verify(null, Buffer.from(`${PREFIX}.${parts[1]}`), publicKey, signature)) {
    throw new LicenseKeyError('its signature does not verify against the vendor license key');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    throw new LicenseKeyError('its payload is not JSON');
  }
  // Signed is not the same as well formed: a payload that is not an object is refused, not an internal error.
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new LicenseKeyError('its payload is not an object');
  const p: Record<string, unknown> = { ...payload };
  const tier = ISSUABLE_TIERS.find((t) => t === p.tier);
  if (!tier) throw new LicenseKeyError('it names no known tier');
  if (
    typeof p.licensee !== 'string' ||
    typeof p.serial !== 'string' ||
    typeof p.issued !== 'string' ||
    Number.isNaN(Date.parse(p.issued))
  ) {
    throw new LicenseKeyError('its payload lacks licensee, serial or issue date');
  }
  if (p.expires !== undefined && (typeof p.expires !== 'string' || Number.isNaN(Date.parse(p.expires)))) {
    throw new LicenseKeyError('its expiry date is not a date');
  }
  return { tier, licensee: p.licensee, serial: p.serial, issued: p.issued, expires: p.expires };
}

/** What may be shown of a key: its format and the last five characters. */
export function maskLicenseKey(key: string): string {
  return `${PREFIX}-XXXXX-XXXXX-XXXXX-${key.trim().slice(-5)}`;
}
