// Resource descriptions of the Secure Boot area (DMTF SecureBoot 1.1.0,
// SecureBootDatabase 1.0.0, Signature 1.0.2; Certificate is api/certificates').
import type { Props } from '../../protocol/description.js';
import { collectionOf, defineAction, defineType, ro, t, commonProps } from '../../protocol/description.js';
import { GUID } from '../certificates/certificate-types.js';

export const SecureBootResetKeys = defineAction({
  name: 'SecureBoot.ResetKeys',
  description: 'Resets the UEFI Secure Boot key databases: to the platform defaults, all deleted, or the PK deleted.',
  parameters: {
    ResetKeysType: t.enum(['ResetAllKeysToDefault', 'DeleteAllKeys', 'DeletePK'], { required: true }),
  },
});

export const SecureBootDatabaseResetKeys = defineAction({
  name: 'SecureBootDatabase.ResetKeys',
  description: 'Resets this UEFI Secure Boot database to its platform default content, or deletes its content.',
  parameters: {
    ResetKeysType: t.enum(['ResetAllKeysToDefault', 'DeleteAllKeys'], { required: true }),
  },
});

export const SecureBootType = defineType({
  name: 'SecureBoot',
  version: '1.1.2',
  owner: 'DMTF',
  description: 'UEFI Secure Boot of a computer system.',
  properties: {
    ...commonProps,
    SecureBootEnable: t.boolean({ description: 'Whether UEFI Secure Boot takes effect at the next boot.' }),
    SecureBootCurrentBoot: ro(t.enum(['Enabled', 'Disabled'], { nullable: true })),
    SecureBootMode: ro(t.enum(['SetupMode', 'UserMode', 'AuditMode', 'DeployedMode'], { nullable: true })),
    SecureBootDatabases: t.link({ readOnly: true }),
  },
  actions: [SecureBootResetKeys],
});

export const SecureBootDatabaseType = defineType({
  name: 'SecureBootDatabase',
  version: '1.0.3',
  owner: 'DMTF',
  description: 'A UEFI Secure Boot database: its certificates and signatures.',
  properties: {
    ...commonProps,
    DatabaseId: ro(t.string()),
    Certificates: t.link({ readOnly: true }),
    Signatures: t.link({ readOnly: true }),
  },
  actions: [SecureBootDatabaseResetKeys],
});

/** What a client sends to enroll a certificate (the schema's required-on-create properties). */
export const CertificateEnrollBody = {
  CertificateString: t.string({ required: true }),
  // PEM is the one format a UEFI database enrollment takes here.
  CertificateType: t.enum(['PEM'], { required: true }),
  UefiSignatureOwner: t.string({ pattern: GUID }),
} satisfies Props;

export const SignatureType = defineType({
  name: 'Signature',
  version: '1.0.3',
  owner: 'DMTF',
  description: 'A signature (hash) in a UEFI Secure Boot database.',
  properties: {
    ...commonProps,
    SignatureString: ro(t.string({ nullable: true })),
    SignatureTypeRegistry: ro(t.enum(['UEFI'], { nullable: true })),
    SignatureType: ro(t.string({ nullable: true })),
    UefiSignatureOwner: ro(t.string({ nullable: true, pattern: GUID })),
  },
});

export const SignatureAddBody = {
  SignatureString: t.string({ required: true, pattern: '^[0-9A-Fa-f]{64}$' }),
  SignatureTypeRegistry: t.enum(['UEFI'], { required: true }),
  SignatureType: t.enum(['EFI_CERT_SHA256_GUID'], { required: true }),
  UefiSignatureOwner: t.string({ pattern: GUID }),
} satisfies Props;

export const SecureBootDatabaseCollectionType = collectionOf(SecureBootDatabaseType);
