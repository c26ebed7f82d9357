// The DMTF Certificate (1.11.0): one description for every certificate the service shows
// (Secure Boot databases, the HTTPS certificate, the manager's identity certificates); and the
// vendor's trusted CA certificate, of certificate login and of event delivery.
import type { EventBus } from '../../domain/events/bus.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { nameText, type CertificateInfo, type NameParts } from '../../platform/certificate-info.js';
import type { TrustedCa, TrustedCas } from '../../platform/trusted-cas.js';
import { CertificateError } from '../../platform/x509-verify.js';
import { collectionOf, commonProps, defineType, ro, t } from '../../protocol/description.js';
import { vendorError } from '../../protocol/errors.js';
import { OEM, oemType } from '../../protocol/naming.js';
import { created, existing } from '../../protocol/reply.js';

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
    DisplayString: ro(t.string()),
  },
  { readOnly: true, typeName: 'Identifier' },
);

/** A certificate's Identifier: the name's parts and the name as one line. */
function identifierBody(name: NameParts): Record<string, string> {
  const line = nameText(name);
  return { ...name, ...(line ? { DisplayString: line } : {}) };
}

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
    CertificateUsageTypes: ro(
      t.array(t.enum(['User', 'Web', 'SSH', 'Device', 'Platform', 'BIOS', 'IDevID', 'LDevID', 'IAK', 'LAK', 'EK'])),
    ),
  },
});

/** The Certificate properties every certificate resource shows, from its parsed PEM. */
export function certificateProperties(info: CertificateInfo): Record<string, unknown> {
  return {
    CertificateString: info.pem,
    CertificateType: 'PEM',
    Issuer: identifierBody(info.issuer),
    Subject: identifierBody(info.subject),
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

export const certInfo = t.object(
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

export const VendorCACertificateType = defineType({
  name: oemType('CACertificate'),
  version: '1.0.0',
  owner: OEM,
  description: 'A trusted CA certificate (of certificate login, or of event delivery).',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    CertificateString: ro(t.string()),
    X509CertificateInformation: certInfo,
  },
});

export const VendorCACertificateCollectionType = collectionOf(VendorCACertificateType);

export function caBody(ca: TrustedCa) {
  return { Id: ca.Id, Name: 'Trusted CA Certificate', CertificateString: ca.Pem, X509CertificateInformation: ca.Info };
}

/** Run a certificate check; what it finds wrong is a 400 naming the reason and the property. */
export function checkedCertificate<T>(property: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CertificateError) throw vendorError('CertificateInvalid', property, e.message).about(property);
    throw e;
  }
}

/**
 * An ImportCACertificate action, answered like a POST to the collection: the new member with
 * Location; the same CA again changes nothing. What is wrong with the certificate is a 400 naming it.
 */
export function importTrustedCa(cas: TrustedCas, pem: string, collectionUri: string, events: EventBus) {
  const imported = checkedCertificate('Certificate', () => cas.import(pem));
  const uri = `${collectionUri}${imported.ca.Id}/`;
  if (!imported.created) return existing(uri, caBody(imported.ca));
  events.publish(resourceEvent('ResourceCreated'), uri, 'ResourceAdded');
  return created(uri, caBody(imported.ca));
}
