// License key verification: a key the vendor key signed can still be malformed.
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { LicenseKeyError, issueLicenseKey, verifyLicenseKey } from '../../../src/domain/licensing/license-keys.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

/** A key whose payload is any JSON text, properly signed. */
function signedKey(payloadJson: string): string {
  const payload = Buffer.from(payloadJson).toString('base64url');
  const signature = sign(null, Buffer.from(`VND1.${payload}`), privateKey).toString('base64url');
  return `VND1.${payload}.${signature}`;
}

describe('verifyLicenseKey', () => {
  it('accepts a key it issued', () => {
    const key = issueLicenseKey(privateKey, { tier: 'Advanced', licensee: 'ACME', serial: 'S1', issued: '2026-11-23T08:00:00Z' });
    assert.equal(verifyLicenseKey(publicKey, key).tier, 'Advanced');
  });

  const malformed: [string, string][] = [
    ['null', 'not an object'],
    ['[1,2]', 'not an object'],
    ['"text"', 'not an object'],
    ['42', 'not an object'],
    ['{"tier":"Gold","licensee":"a","serial":"s","issued":"2026-11-23T08:00:00Z"}', 'no known tier'],
    ['{"tier":"Advanced","licensee":1,"serial":"s","issued":"2026-11-23T08:00:00Z"}', 'lacks licensee'],
    ['{"tier":"Advanced","licensee":"a","serial":"s","issued":"2026-11-23T08:00:00Z","expires":"never"}', 'expiry date'],
    ['{"tier":"toString","licensee":"a","serial":"s","issued":"2026-11-23T08:00:00Z"}', 'no known tier'],
  ];
  for (const [json, reason] of malformed) {
    it(`refuses a signed key whose payload is ${json}`, () => {
      assert.throws(
        () => verifyLicenseKey(publicKey, signedKey(json)),
        (e: unknown) => e instanceof LicenseKeyError && e.message.includes(reason),
      );
    });
  }
});
