// The DMTF Certificate (1.11.0): one description for every certificate the service shows
// (Secure Boot databases, the HTTPS certificate, the manager's identity certificates).
import type { CertificateInfo } from '../../platform/certificate-info.js';
import { collectionOf, commonProps, defineType, ro, t } from '../../protocol/description.js';

/** A UEFI GUID, as a signature owner is written. */
export const GUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const identifier = t.object(
  {
    CommonName: ro(t.string()),
    Organization: ro(t.string()),
    OrganizationalUnit: ro(t.string()),
    City: ro(t.string()),
    State: ro(t.string()),
    Country: ro(t.string()),
    Email: ro(t.string()),
  },
  { readOnly: true, typeName: 'Identifier' },
);

export const CertificateType = defineType({
  name: 'Certificate',
  version: '1.11.0',
  owner: 'DMTF',
  description: 'An X.509 certificate.',
  properties: {
    ...commonProps,
    CertificateString: ro(t.string({ nullable: true })),
    CertificateType: ro(t.enum(['PEM', 'PEMchain', 'PKCS7', 'PKCS12'], { nullable: true })),
    Issuer: identifier,
    Subject: identifier,
    ValidNotBefore: ro(t.dateTime()),
    ValidNotAfter: ro(t.dateTime()),
    SerialNumber: ro(t.string()),
    Fingerprint: ro(t.string()),
    FingerprintHashAlgorithm: ro(t.string()),
    SignatureAlgorithm: ro(t.string()),
    UefiSignatureOwner: ro(t.string({ nullable: true, pattern: GUID })),
    KeyUsage: ro(t.array(t.string())),
  },
});

/** The Certificate properties every certificate resource shows, from its parsed PEM. */
export function certificateProperties(info: CertificateInfo): Record<string, unknown> {
  return {
    CertificateString: info.pem,
    CertificateType: 'PEM',
    Issuer: { ...info.issuer },
    Subject: { ...info.subject },
    ValidNotBefore: info.validNotBefore,
    ValidNotAfter: info.validNotAfter,
    SerialNumber: info.serialNumber,
    Fingerprint: info.fingerprint,
    FingerprintHashAlgorithm: 'TPM_ALG_SHA256',
    SignatureAlgorithm: info.signatureAlgorithm,
    ...(info.keyUsage.length ? { KeyUsage: [...info.keyUsage] } : {}),
  };
}

export const CertificateCollectionType = collectionOf(CertificateType);
