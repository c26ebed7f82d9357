// The HTTPS listener's TLS policy: the listener applies it, the SecurityService reports it.
import type { SecureContextOptions } from 'node:tls';

/**
 * TLS 1.3, and TLS 1.2 only with forward-secret AEAD suites (ECDHE with AES-GCM or
 * ChaCha20-Poly1305): no CBC, no SHA-1 MAC, no RSA key exchange. The TLS 1.3 suites
 * are named too: a list without them would switch TLS 1.3 off.
 */
export const TLS_POLICY = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
  ].join(':'),
  honorCipherOrder: true,
} as const satisfies SecureContextOptions;

/** node's names of the TLS versions, oldest first. */
const TLS_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;

/** Which TLS versions the listener accepts (all from the policy's minimum up), by the vendor's names (TLS1_0 … TLS1_3). */
export const TLS_VERSIONS_ENABLED: Readonly<Record<string, boolean>> = Object.fromEntries(
  TLS_VERSIONS.map((_, i) => [`TLS1_${i}`, i >= TLS_VERSIONS.indexOf(TLS_POLICY.minVersion)]),
);
