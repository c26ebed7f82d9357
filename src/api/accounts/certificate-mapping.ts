// UserCertificateMapping: which client certificate logs in as which user.
// POST {UserName, Fingerprint} where Fingerprint carries the user's PEM
// certificate (or its SHA-256 fingerprint); only the fingerprint is kept.
import { canonicalFingerprint, type CertificateMapping } from '../../domain/accounts/certificate-login.js';
import { fingerprintOf } from '../../platform/trusted-cas.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, vendorError } from '../../protocol/errors.js';
import { CertificateError, parseCertificates } from '../../platform/x509-verify.js';
import { collection, created } from '../../protocol/reply.js';
import { missing, present, type Context, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { VendorCertificateMappingCollectionType, VendorCertificateMappingType } from './account-types.js';
import { oemType } from '../../protocol/naming.js';

export type CertificateMappingDeps = Pick<Services, 'certificateLogin' | 'accounts'>;

type MappingPath = '/redfish/v1/AccountService/UserCertificateMapping/{MappingId}/';

const mappingUri = (id: string) => `/redfish/v1/AccountService/UserCertificateMapping/${id}/`;

function mappingBody(m: CertificateMapping) {
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
    if (!fp)
      throw vendorError('CertificateInvalid', 'Fingerprint', 'it is neither a PEM certificate nor a SHA-256 fingerprint').about(
        'Fingerprint',
      );
    return fp;
  }
  try {
    const [cert, ...more] = parseCertificates(text);
    if (!cert || more.length) throw new CertificateError('send exactly one user certificate');
    return fingerprintOf(cert);
  } catch (e) {
    if (e instanceof CertificateError) throw vendorError('CertificateInvalid', 'Fingerprint', e.message).about('Fingerprint');
    throw e;
  }
}

function handlers(d: CertificateMappingDeps) {
  const cl = d.certificateLogin;

  function getMappings() {
    return collection(
      'User Certificate Mappings',
      cl.listMappings().map((m) => mappingUri(m.Id)),
      { Description: 'The client certificates mapped to local accounts for certificate login' },
    );
  }

  function postMapping(
    ctx: PostContext<'/redfish/v1/AccountService/UserCertificateMapping/', typeof VendorCertificateMappingType.properties>,
  ) {
    const { UserName, Fingerprint } = ctx.body;
    const account = d.accounts.findByUserName(UserName);
    if (!account) throw baseError('PropertyValueIncorrect', 'UserName', UserName).about('UserName');
    const fp = fingerprintFrom(Fingerprint);
    if (cl.findMapping(fp)) throw baseError('ResourceAlreadyExists', oemType('CertificateMapping'), 'Fingerprint', fp);
    const m = cl.addMapping(account, fp);
    return created(mappingUri(m.Id), mappingBody(m));
  }

  function getMapping(ctx: Context<MappingPath>) {
    return mappingBody(present(cl.getMapping(ctx.params.MappingId), ctx));
  }

  function deleteMapping(ctx: Context<MappingPath>): void {
    if (!cl.deleteMapping(ctx.params.MappingId)) throw missing(ctx);
  }

  return { getMappings, postMapping, getMapping, deleteMapping };
}

export function registerCertificateMappingRoutes(routes: RouteTable, d: CertificateMappingDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/AccountService/UserCertificateMapping/',
    type: VendorCertificateMappingCollectionType,
    get: { privilege: Priv.login, handler: h.getMappings },
    post: { privilege: Priv.userConfig, handler: h.postMapping },
  });
  routes.add({
    path: '/redfish/v1/AccountService/UserCertificateMapping/{MappingId}/',
    type: VendorCertificateMappingType,
    params: { MappingId: (id) => d.certificateLogin.getMapping(id) !== undefined },
    get: { privilege: Priv.login, handler: h.getMapping },
    delete: { privilege: Priv.userConfig, handler: h.deleteMapping },
  });
}
