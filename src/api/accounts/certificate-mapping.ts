// UserCertificateMapping: which client certificate logs in as which user.
// POST {UserName, Fingerprint} where Fingerprint carries the user's PEM
// certificate (or its SHA-256 fingerprint); only the fingerprint is kept.
import { canonicalFingerprint, fingerprintOf, type CertificateMapping } from '../../domain/accounts/certificate-login.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, vendorError } from '../../messages/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { CertificateError, parseCertificates } from '../../platform/x509-verify.js';
import { collection, created } from '../../protocol/reply.js';
import { missing, present, type RouteTable } from '../../protocol/routes.js';
import { VendorCertificateMappingCollectionType, VendorCertificateMappingType } from './account-types.js';
import type { Services } from '../services.js';

export const CERT_MAPPING_URI = '/redfish/v1/AccountService/UserCertificateMapping/';

const mappingUri = (id: string) => `${CERT_MAPPING_URI}${id}/`;

function mappingBody(m: CertificateMapping): Record<string, unknown> {
  return {
    Id: m.Id,
    Name: 'User Certificate Mapping',
    UserName: m.UserName,
    Fingerprint: m.Fingerprint,
    FingerprintHashAlgorithm: 'TLS_HASH_ALG_SHA256',
    Links: { Account: { '@odata.id': `/redfish/v1/AccountService/Accounts/${m.AccountId}/` } },
  };
}

/** The SHA-256 fingerprint a POST names: from the PEM it carries, or given as hex. */
function fingerprintFrom(text: string): string {
  if (!text.includes('-----BEGIN')) {
    const fp = canonicalFingerprint(text);
    if (!fp) throw vendorError(400, 'CertificateInvalid', 'Fingerprint', 'it is neither a PEM certificate nor a SHA-256 fingerprint').about('Fingerprint');
    return fp;
  }
  try {
    const certs = parseCertificates(text);
    if (certs.length !== 1) throw new CertificateError('send exactly one user certificate');
    return fingerprintOf(certs[0] as NonNullable<(typeof certs)[0]>);
  } catch (e) {
    if (e instanceof CertificateError) throw vendorError(400, 'CertificateInvalid', 'Fingerprint', e.message).about('Fingerprint');
    throw e;
  }
}

export function registerCertificateMappingRoutes(routes: RouteTable, s: Services): void {
  const cl = s.certificateLogin;

  routes.add({
    path: CERT_MAPPING_URI,
    type: VendorCertificateMappingCollectionType,
    get: {
      privilege: Priv.login,
      handler: () => collection('User Certificate Mappings', cl.listMappings().map((m) => mappingUri(m.Id))),
    },
    post: {
      privilege: Priv.userConfig,
      handler: (ctx) => {
        const { UserName, Fingerprint } = ctx.body as { UserName: string; Fingerprint: string };
        const account = s.accounts.findByUserName(UserName);
        if (!account) throw baseError('PropertyValueIncorrect', 'UserName', UserName).about('UserName');
        const fp = fingerprintFrom(Fingerprint);
        if (cl.findMapping(fp)) throw baseError('ResourceAlreadyExists', 'VendorCertificateMapping', 'Fingerprint', fp);
        const m = cl.addMapping(account, fp);
        s.events.publish(resourceEvent('ResourceCreated'), mappingUri(m.Id), 'ResourceAdded');
        return created(mappingUri(m.Id), mappingBody(m));
      },
    },
  });

  routes.add({
    path: `${CERT_MAPPING_URI}{MappingId}/`,
    type: VendorCertificateMappingType,
    params: { MappingId: (id) => cl.getMapping(id) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => mappingBody(present(cl.getMapping(ctx.params.MappingId ?? ''), ctx)),
    },
    delete: {
      privilege: Priv.userConfig,
      handler: (ctx) => {
        if (!cl.deleteMapping(ctx.params.MappingId ?? '')) throw missing(ctx);
        s.events.publish(resourceEvent('ResourceRemoved'), mappingUri(ctx.params.MappingId ?? ''), 'ResourceRemoved');
      },
    },
  });
}
