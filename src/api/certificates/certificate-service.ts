// CertificateService (DSP0266 "Certificates"): where the service's certificates
// are, a CSR for a new HTTPS key, and replacement of the HTTPS certificate;
// the HTTPS certificate itself under the manager's network protocol. The
// vendor HttpsCert resource (security-service.ts) drives the same key and CSR.
import { hostname } from 'node:os';
import { Priv } from '../../lib/privileges.js';
import { DEFAULT_DATABASES, USER_DATABASES } from '../../domain/secure-boot/databases.js';
import { baseError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { parsePemCertificate } from '../../platform/certificate-info.js';
import { commonProps, defineAction, defineType, t } from '../../protocol/description.js';
import { collection, json } from '../../protocol/reply.js';
import { action, type ActionContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { CertificateCollectionType, CertificateType, certificateProperties } from './certificate-types.js';

export type CertificateServiceDeps = Pick<Services, 'uris' | 'httpsCertificate' | 'secureBoot' | 'events' | 'log' | 'routes'>;

type CertificateServicePath = '/redfish/v1/CertificateService/';

/** The HTTPS certificate has one slot, as on the vendor's controllers. */
const HTTPS_CERT_ID = '1';

const GenerateCsrAction = defineAction({
  name: 'CertificateService.GenerateCSR',
  description: 'Make a new key for the HTTPS certificate on the controller and return a signing request for it.',
  parameters: {
    CertificateCollection: t.link({ required: true, description: 'The HTTPS certificate collection of the manager.' }),
    CommonName: t.string({ required: true, minLength: 1, maxLength: 64 }),
    AlternativeNames: t.array(t.string({ pattern: '^[A-Za-z0-9.-]{1,253}$' })),
    Organization: t.string({ maxLength: 64 }),
    OrganizationalUnit: t.string({ maxLength: 64 }),
    City: t.string({ maxLength: 128 }),
    State: t.string({ maxLength: 128 }),
    Country: t.string({ pattern: '^[A-Z]{2}$' }),
    // The controller makes EC P-256 keys; these say so, and nothing else is accepted.
    KeyPairAlgorithm: t.enum(['TPM_ALG_ECDSA']),
    KeyCurveId: t.enum(['TPM_ECC_NIST_P256']),
    KeyBitLength: t.integer({ minimum: 256, maximum: 256 }),
  },
});

const ReplaceCertificateAction = defineAction({
  name: 'CertificateService.ReplaceCertificate',
  description:
    'Serve a new HTTPS certificate: one signed for the last GenerateCSR, or one followed by its own private key in the same PEM text.',
  parameters: {
    CertificateUri: t.link({ required: true }),
    CertificateString: t.string({ required: true }),
    CertificateType: t.enum(['PEM', 'PEMchain'], { required: true }),
  },
});

export const CertificateServiceType = defineType({
  name: 'CertificateService',
  version: '1.2.1',
  owner: 'DMTF',
  description: 'Certificates of the service: where they are, new keys and replacement.',
  properties: {
    ...commonProps,
    CertificateLocations: t.link({ readOnly: true }),
  },
  actions: [GenerateCsrAction, ReplaceCertificateAction],
});

export const CertificateLocationsType = defineType({
  name: 'CertificateLocations',
  version: '1.0.4',
  owner: 'DMTF',
  description: 'Every certificate installed on the service.',
  properties: {
    ...commonProps,
    Links: t.object({ Certificates: t.links({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});

/** A link parameter naming something this action cannot work on. */
function certificateTargetError(parameter: string, action: string) {
  return baseError('ActionParameterValueError', parameter, action).about(parameter);
}

function handlers(d: CertificateServiceDeps) {
  const collectionUri = d.uris.manager('NetworkProtocol', 'HTTPS', 'Certificates');
  const httpsCertUri = d.uris.manager('NetworkProtocol', 'HTTPS', 'Certificates', HTTPS_CERT_ID);
  /** The canonical form of a link a client sent, so case and a missing slash do not matter. */
  const canonical = (uri: string) => d.routes.match(uri.endsWith('/') ? uri : `${uri}/`)?.uri;

  function getCertificateService() {
    return {
      Id: 'CertificateService',
      Name: 'Certificate Service',
      Description: 'Certificates of the management controller',
      CertificateLocations: { '@odata.id': '/redfish/v1/CertificateService/CertificateLocations/' },
    };
  }

  async function postGenerateCsr(ctx: ActionContext<CertificateServicePath, typeof GenerateCsrAction>) {
    const b = ctx.body;
    if (canonical(b.CertificateCollection['@odata.id']) !== collectionUri) {
      throw certificateTargetError('CertificateCollection', GenerateCsrAction.name);
    }
    const names = [b.CommonName, ...(b.AlternativeNames ?? []), hostname()].filter((n) => /^[A-Za-z0-9.-]+$/.test(n));
    const subject = {
      CommonName: b.CommonName,
      OrgName: b.Organization,
      OrgUnit: b.OrganizationalUnit,
      City: b.City,
      State: b.State,
      Country: b.Country,
    };
    const csr = await d.httpsCertificate.generateCsr(subject, [...new Set(names)], [], {
      name: GenerateCsrAction.name,
      parameters: { OrgName: 'Organization', OrgUnit: 'OrganizationalUnit' },
    });
    return json(200, { CSRString: csr, CertificateCollection: { '@odata.id': collectionUri } });
  }

  function postReplaceCertificate(ctx: ActionContext<CertificateServicePath, typeof ReplaceCertificateAction>): void {
    const b = ctx.body;
    if (canonical(b.CertificateUri['@odata.id']) !== httpsCertUri) {
      throw certificateTargetError('CertificateUri', ReplaceCertificateAction.name);
    }
    const leaf = d.httpsCertificate.install(b.CertificateString, 'CertificateString');
    d.log.info({ subject: leaf.subject.replace(/\n/g, ', '), fingerprint: leaf.fingerprint256 }, 'HTTPS certificate replaced');
    d.events.publish(resourceEvent('ResourceChanged'), httpsCertUri, 'ResourceUpdated');
  }

  async function getCertificateLocations() {
    // The factory keys are made on first use (secure-boot.ts); they are installed certificates too.
    await d.secureBoot.ready();
    const secureBoot = [...USER_DATABASES, ...DEFAULT_DATABASES].flatMap((db) =>
      d.secureBoot.certificates(db).map((c) => d.uris.system('SecureBoot', 'SecureBootDatabases', db, 'Certificates', c.Id)),
    );
    return {
      Id: 'CertificateLocations',
      Name: 'Certificate Locations',
      Description: 'Every certificate the service holds',
      Links: { Certificates: [httpsCertUri, ...secureBoot].map((uri) => ({ '@odata.id': uri })) },
    };
  }

  function getHttpsCertificates() {
    return collection('HTTPS Certificates', [httpsCertUri], { Description: 'The certificate the controller serves over HTTPS' });
  }

  function getHttpsCertificate() {
    const pem = d.httpsCertificate.currentPem();
    return {
      Id: HTTPS_CERT_ID,
      Name: 'HTTPS Certificate',
      Description: 'The certificate the controller serves over HTTPS, with its chain',
      ...certificateProperties(parsePemCertificate(d.httpsCertificate.current().toString())),
      // The whole chain as served, not only the first certificate.
      CertificateString: pem,
      CertificateType: pem.split('BEGIN CERTIFICATE').length > 2 ? 'PEMchain' : 'PEM',
    };
  }

  return {
    getCertificateService,
    postGenerateCsr,
    postReplaceCertificate,
    getCertificateLocations,
    getHttpsCertificates,
    getHttpsCertificate,
  };
}

export function registerCertificateServiceRoutes(routes: RouteTable, d: CertificateServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/CertificateService/',
    type: CertificateServiceType,
    get: { privilege: Priv.login, handler: h.getCertificateService },
    actions: [
      action(GenerateCsrAction, Priv.managerConfig, h.postGenerateCsr),
      action(ReplaceCertificateAction, Priv.managerConfig, h.postReplaceCertificate),
    ],
  });
  routes.add({
    path: '/redfish/v1/CertificateService/CertificateLocations/',
    type: CertificateLocationsType,
    get: { privilege: Priv.login, handler: h.getCertificateLocations },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/HTTPS/Certificates/',
    type: CertificateCollectionType,
    get: { privilege: Priv.login, handler: h.getHttpsCertificates },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/NetworkProtocol/HTTPS/Certificates/{CertificateId}/',
    type: CertificateType,
    params: { CertificateId: (id) => id === HTTPS_CERT_ID },
    get: { privilege: Priv.login, handler: h.getHttpsCertificate },
  });
}
