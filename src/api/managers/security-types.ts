// Resource descriptions of the manager's SecurityService: certificate login
// (its switch and trusted CA certificates) and the HTTPS certificate.
import { collectionOf, defineAction, defineType, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const certInfo = t.object(
  {
    Subject: t.string(),
    Issuer: t.string(),
    SerialNumber: t.string(),
    ValidNotBefore: t.dateTime(),
    ValidNotAfter: t.dateTime(),
    Fingerprint: t.string(),
    FingerprintHashAlgorithm: t.string(),
  },
  { readOnly: true, typeName: 'X509CertificateInformation' },
);

export const VendorSecurityServiceType = defineType({
  name: oemType('SecurityService'),
  version: '1.0.0',
  owner: OEM,
  description: 'Security settings of the management controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Links: t.object({ CertificateAuthentication: t.link(), HttpsCert: t.link() }, { readOnly: true, typeName: 'Links' }),
  },
});

export const VendorCACertificateType = defineType({
  name: oemType('CACertificate'),
  version: '1.0.0',
  owner: OEM,
  description: 'A trusted CA certificate for certificate login.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    CertificateString: ro(t.string()),
    X509CertificateInformation: certInfo,
  },
});

export const VendorCACertificateCollectionType = collectionOf(VendorCACertificateType);

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
