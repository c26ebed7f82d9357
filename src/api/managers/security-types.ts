// Resource descriptions of the manager's SecurityService: certificate login
// (its switch and trusted CA certificates) and the HTTPS certificate.
import { SSO_TRUST_MODES } from '../../domain/manager/single-sign-on.js';
import { defineAction, defineType, ro, t } from '../../protocol/description.js';
import { OEM, controllerType, oemType } from '../../protocol/naming.js';
import { VendorAccountPrivilegesProps } from '../accounts/account-types.js';
import { certInfo } from '../certificates/certificate-types.js';

/**
 * The controller's and the platform's identity certificates (DICE/SPDM device identities, TPM
 * attestation keys, the platform certificate), each a certificate collection, by iLO 5's names.
 */
export const IDENTITY_CERTIFICATES = ['iLOIDevID', 'iLOLDevID', 'SystemIDevID', 'SystemIAK', 'PlatformCert', 'PlatformCertUpdate'] as const;

/**
 * The sets iLO 6 adds, by the SecurityService property that links each (and the path segment
 * under it): the controller's IDevID issuing CA ("PCA"), its attestation keys, the platform's
 * locally provisioned identities.
 */
export const RELEASE_6_IDENTITY_CERTIFICATES = {
  BMCIDevIDPca: 'BMCIDevIDPca',
  BMCIAK: 'BMCIAK',
  BMCLAK: 'BMCLAK',
  SystemLAKCert: 'SystemLAK',
  SystemLDevID: 'SystemLDevID',
} as const;

const certificateSet = t.object({ Certificates: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'CertificateSet' });
const identityCertificateProps = Object.fromEntries(
  [...IDENTITY_CERTIFICATES, ...Object.keys(RELEASE_6_IDENTITY_CERTIFICATES)].map((n) => [n, certificateSet]),
) as Record<(typeof IDENTITY_CERTIFICATES)[number] | keyof typeof RELEASE_6_IDENTITY_CERTIFICATES, typeof certificateSet>;

export const VendorSecurityServiceType = defineType({
  name: oemType('SecurityService'),
  version: '1.0.0',
  owner: OEM,
  description: 'Security settings of the management controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    SecurityState: ro(t.enum(['Production', 'HighSecurity', 'FIPS'])),
    CurrentCipher: ro(t.string({ volatile: true, description: 'The cipher suite of the connection that asks.' })),
    LoginSecurityBanner: t.object({ IsEnabled: ro(t.boolean()) }, { readOnly: true, typeName: 'LoginSecurityBanner' }),
    TLSVersion: ro(
      t.object(Object.fromEntries(['TLS1_0', 'TLS1_1', 'TLS1_2', 'TLS1_3'].map((v) => [v, ro(t.enum(['Enabled', 'Disabled']))])), {
        typeName: 'TLSVersion',
        description: 'The TLS versions the HTTPS listener accepts.',
      }),
    ),
    DisableWeakCiphers: ro(t.boolean({ description: 'The listener offers no weak cipher suite (CBC, SHA-1 MAC, RSA key exchange).' })),
    ...identityCertificateProps,
    Links: t.object(
      {
        CertificateAuthentication: t.link(),
        CertAuth: t.link(),
        HttpsCert: t.link(),
        SSO: t.link(),
        ESKM: t.link(),
        SecurityDashboard: t.link(),
      },
      { readOnly: true, typeName: 'Links' },
    ),
  },
});

export const ImportCACertificateAction = defineAction({
  name: `${oemType('CertAuth')}.ImportCACertificate`,
  description: 'Import a trusted CA certificate (PEM, line breaks as \\n).',
  parameters: { Certificate: t.string({ required: true }) },
});

export const VendorCertAuthType = defineType({
  name: oemType('CertAuth'),
  version: '1.0.0',
  owner: OEM,
  description: 'Certificate login: its switch, trusted CAs and whether every precondition is met.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    CertificateLoginEnabled: t.boolean(),
    CACertificates: t.link({ readOnly: true }),
    Links: t.object(
      { UserCertificateMapping: t.link({ readOnly: true, description: 'The user certificates mapped to accounts.' }) },
      { readOnly: true, typeName: 'Links' },
    ),
    LoginReadiness: t.object(
      { Ready: t.boolean(), UnmetPreconditions: t.array(t.string()) },
      {
        readOnly: true,
        volatile: true,
        typeName: 'LoginReadiness',
        description: 'Preconditions that do not depend on the client certificate.',
      },
    ),
  },
  actions: [ImportCACertificateAction],
});

export const GenerateCsrAction = defineAction({
  name: `${oemType('HttpsCert')}.GenerateCSR`,
  description: 'Generate a new key on the controller and return a CSR for it.',
  parameters: {
    CommonName: t.string({ required: true, minLength: 1, maxLength: 64 }),
    Country: t.string({ pattern: '^[A-Z]{2}$' }),
    State: t.string({ maxLength: 128 }),
    City: t.string({ maxLength: 128 }),
    OrgName: t.string({ maxLength: 64 }),
    OrgUnit: t.string({ maxLength: 64 }),
  },
});

export const ImportCertificateAction = defineAction({
  name: `${oemType('HttpsCert')}.ImportCertificate`,
  description: 'Install the signed certificate (PEM, optionally followed by its chain) for the pending CSR.',
  parameters: { Certificate: t.string({ required: true }) },
});

export const VendorHttpsCertType = defineType({
  name: oemType('HttpsCert'),
  version: '1.0.0',
  owner: OEM,
  description: "The controller's HTTPS certificate and its replacement through a certificate signing request.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    SelfSigned: ro(t.boolean()),
    X509CertificateInformation: certInfo,
    CertificateSigningRequest: ro(t.string({ nullable: true })),
  },
  actions: [GenerateCsrAction, ImportCertificateAction],
});

const privilegeSwitches = t.object(VendorAccountPrivilegesProps, { readOnly: true, typeName: 'Privileges' });

export const ImportDnsNameAction = defineAction({
  name: `${controllerType('SSO')}.ImportDNSName`,
  description: 'Trust a management server for single sign-on by its DNS name.',
  parameters: { DNSName: t.string({ required: true, minLength: 1, maxLength: 253 }) },
});

export const ImportSsoCertificateAction = defineAction({
  name: `${controllerType('SSO')}.ImportCertificate`,
  description: 'Trust a management server for single sign-on by its certificate (PEM, given directly).',
  parameters: {
    CertType: t.enum(['DirectImportCert'], { required: true }),
    CertInput: t.string({ required: true, minLength: 1 }),
  },
});

export const DeleteSsoRecordAction = defineAction({
  name: `${controllerType('SSO')}.DeleteSSORecordbyNumber`,
  description: 'Delete one trusted record by its number (1 is the first).',
  parameters: { RecordNumber: t.integer({ required: true, minimum: 1 }) },
});

export const DeleteAllSsoRecordsAction = defineAction({
  name: `${controllerType('SSO')}.DeleteAllSSORecords`,
  description: 'Delete every trusted record.',
  parameters: {},
});

export const VendorMCSSOType = defineType({
  name: controllerType('SSO'),
  version: '2.0.0',
  owner: OEM,
  description: 'Single sign-on: the management servers the controller trusts, and the privileges their users get.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    SSOsettings: t.object(
      {
        SSOTrustMode: t.enum(SSO_TRUST_MODES),
        AdminPrivilege: privilegeSwitches,
        OperatorPrivilege: privilegeSwitches,
        UserPrivilege: privilegeSwitches,
      },
      { typeName: 'SSOsettings' },
    ),
    ManagerTrustedCertificates: ro(
      t.array(
        t.object(
          {
            RecordType: t.string(),
            SerialNumber: t.integer(),
            ServerName: t.string(),
            Status: t.string(),
            Certificate: t.string(),
            CertificateDetails: t.object(
              { Issuer: t.string(), Subject: t.string(), ValidNotAfter: t.dateTime(), ValidNotBefore: t.dateTime() },
              { typeName: 'CertificateDetails' },
            ),
          },
          { typeName: 'ManagerTrustedCertificate' },
        ),
      ),
    ),
  },
  actions: [ImportDnsNameAction, ImportSsoCertificateAction, DeleteSsoRecordAction, DeleteAllSsoRecordsAction],
});

export const TestKeyManagerAction = defineAction({
  name: `${oemType('ESKM')}.TestESKMConnections`,
  description: 'Test the connection to the configured key servers; the outcome is logged (ESKMEvents).',
  parameters: {},
});

export const ClearKeyManagerLogAction = defineAction({
  name: `${oemType('ESKM')}.ClearESKMLog`,
  description: 'Clear the key manager event log.',
  parameters: {},
});

const serverAddress = t.string({ nullable: true, maxLength: 253 });
const serverPort = t.integer({ nullable: true, minimum: 1, maximum: 65535 });

export const VendorESKMType = defineType({
  name: oemType('ESKM'),
  version: '2.0.0',
  owner: OEM,
  description: "The controller's external key manager: its key servers, account and event log.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    PrimaryKeyServerAddress: serverAddress,
    PrimaryKeyServerPort: serverPort,
    SecondaryKeyServerAddress: serverAddress,
    SecondaryKeyServerPort: serverPort,
    KeyServerRedundancyReq: t.boolean(),
    KeyManagerConfig: t.object(
      {
        AccountGroup: t.string({ maxLength: 64 }),
        AccountName: ro(t.string()),
        ESKMLocalCACertificateName: t.string({ maxLength: 64 }),
        ImportedCertificateIssuer: ro(t.string()),
        ImportedCertificateSubject: ro(t.string()),
      },
      { typeName: 'KeyManagerConfig' },
    ),
    ESKMEvents: ro(t.array(t.object({ Timestamp: t.dateTime(), Event: t.string() }, { typeName: 'ESKMEvent' }))),
  },
  actions: [TestKeyManagerAction, ClearKeyManagerLogAction],
});

export const VendorMCSecurityParamType = defineType({
  name: controllerType('SecurityParam'),
  version: '1.1.0',
  owner: OEM,
  description: 'One security setting of the controller as the security dashboard rates it.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
    SecurityStatus: ro(t.enum(['Ok', 'Risk'])),
    State: ro(t.string()),
    RecommendedAction: ro(t.string()),
    Ignore: t.boolean({ description: 'Leave this setting out of OverallSecurityStatus.' }),
    IgnoredBy: ro(t.string()),
    IgnoredTime: ro(t.dateTime()),
  },
});

export const VendorMCSecurityDashboardType = defineType({
  name: controllerType('SecurityDashboard'),
  version: '1.0.0',
  owner: OEM,
  description: "The controller's security settings rated at a glance.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    OverallSecurityStatus: ro(t.enum(['Ok', 'Risk', 'Ignored'])),
    ServerConfigurationLockStatus: ro(t.string()),
    SecurityParameters: t.link({ readOnly: true }),
  },
});
