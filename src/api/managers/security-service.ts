// SecurityService of the manager: certificate login (its switch, trusted CA
// certificates and the authenticator that logs clients in by certificate) and
// the replacement of the controller's HTTPS certificate (CSR, then import).
import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { TrustedCa } from '../../domain/accounts/certificate-login.js';
import { requireFeature } from '../../domain/licensing/tiers.js';
import { Priv } from '../../lib/privileges.js';
import { vendorError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { CertificateError, describeCertificate } from '../../platform/x509-verify.js';
import type { AuthRequest, Authenticator } from '../../protocol/auth.js';
import { collection, created, existing, json } from '../../protocol/reply.js';
import {
  action,
  missing,
  present,
  resourceOfAction,
  type ActionContext,
  type Context,
  type PatchContext,
  type RouteTable,
} from '../../protocol/routes.js';
import type { Services } from '../services.js';
import {
  GenerateCsrAction,
  ImportCACertificateAction,
  ImportCertificateAction,
  VendorCACertificateCollectionType,
  VendorCACertificateType,
  VendorCertAuthType,
  VendorHttpsCertType,
  VendorSecurityServiceType,
} from './security-types.js';

export type SecurityServiceDeps = Pick<
  Services,
  'certificateLogin' | 'licenseTier' | 'https' | 'httpsCertificate' | 'auth' | 'events' | 'log'
>;

type SecurityServicePath = '/redfish/v1/Managers/{ManagerId}/SecurityService/';
type CertAuthPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/';
type CaCertificatesPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/';
type CaCertificatePath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/{CertificateId}/';
type HttpsCertPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/HttpsCert/';

/** The certificates a TLS client presented: its own and any intermediates. */
function presentedCertificates(socket: TLSSocket): { leaf: X509Certificate; chain: X509Certificate[] } | undefined {
  const leaf = socket.getPeerX509Certificate?.();
  if (!leaf) return undefined;
  const chain: X509Certificate[] = [];
  // Without a certificate the object is empty, whatever its type says: hence the checks of raw and issuerCertificate.
  let d: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  for (let i = 0; d?.raw && i < 8; i++) {
    if (i > 0) chain.push(new X509Certificate(d.raw));
    const next: DetailedPeerCertificate | undefined = d.issuerCertificate;
    if (!next || next === d) break;
    d = next;
  }
  return { leaf, chain };
}

const presentedBySocket = new WeakMap<TLSSocket, ReturnType<typeof presentedCertificates> | null>();

/** A connection's certificates are read once: they cannot change (renegotiation is refused). */
function presentedOn(socket: TLSSocket): ReturnType<typeof presentedCertificates> {
  let known = presentedBySocket.get(socket);
  if (known === undefined) presentedBySocket.set(socket, (known = presentedCertificates(socket) ?? null));
  return known ?? undefined;
}

/** Run a certificate check; what it finds wrong is a 400 naming the reason. */
function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof CertificateError) throw vendorError('CertificateInvalid', 'Certificate', e.message).about('Certificate');
    throw e;
  }
}

function caBody(ca: TrustedCa) {
  return { Id: ca.Id, Name: 'Trusted CA Certificate', CertificateString: ca.Pem, X509CertificateInformation: ca.Info };
}

function handlers(d: SecurityServiceDeps) {
  const cl = d.certificateLogin;

  function getSecurityService(ctx: Context<SecurityServicePath>) {
    return {
      Id: 'SecurityService',
      Name: 'Security Service',
      Links: {
        CertificateAuthentication: { '@odata.id': `${ctx.uri}CertificateAuthentication/` },
        HttpsCert: { '@odata.id': `${ctx.uri}HttpsCert/` },
      },
    };
  }

  function getCertAuth(ctx: Context<CertAuthPath>) {
    const unmet = cl.unmetServicePreconditions();
    return {
      Id: 'CertificateAuthentication',
      Name: 'Certificate Authentication',
      CertificateLoginEnabled: cl.settings().CertificateLoginEnabled,
      CACertificates: { '@odata.id': `${ctx.uri}CACertificates/` },
      LoginReadiness: { Ready: unmet.length === 0, UnmetPreconditions: unmet },
    };
  }

  function patchCertAuth(ctx: PatchContext<CertAuthPath, typeof VendorCertAuthType.properties>): void {
    const enabled = ctx.body.CertificateLoginEnabled;
    if (enabled === undefined) return;
    if (enabled) requireFeature(d.licenseTier, 'CertificateLogin');
    cl.setEnabled(enabled);
  }

  function postImportCaCertificate(ctx: ActionContext<CertAuthPath, typeof ImportCACertificateAction>) {
    const { ca, created: isNew } = checked(() => cl.importCa(ctx.body.Certificate));
    d.https.setClientCAs(cl.caPems());
    const uri = `${resourceOfAction(ctx.uri)}CACertificates/${ca.Id}/`;
    // Answered like a POST to a collection: the new member with Location; the same CA again changes nothing.
    if (!isNew) return existing(uri, caBody(ca));
    d.events.publish(resourceEvent('ResourceCreated'), uri, 'ResourceAdded');
    return created(uri, caBody(ca));
  }

  function getCaCertificates(ctx: Context<CaCertificatesPath>) {
    return collection(
      'Trusted CA Certificates',
      cl.listCas().map((c) => `${ctx.uri}${c.Id}/`),
    );
  }

  function getCaCertificate(ctx: Context<CaCertificatePath>) {
    return caBody(present(cl.getCa(ctx.params.CertificateId), ctx));
  }

  function deleteCaCertificate(ctx: Context<CaCertificatePath>): void {
    if (!cl.deleteCa(ctx.params.CertificateId)) throw missing(ctx);
    d.https.setClientCAs(cl.caPems());
  }

  function getHttpsCert(_ctx: Context<HttpsCertPath>) {
    return {
      Id: 'HttpsCert',
      Name: 'HTTPS Certificate',
      SelfSigned: d.https.selfSigned,
      X509CertificateInformation: describeCertificate(d.httpsCertificate.current()),
      CertificateSigningRequest: d.httpsCertificate.pendingCsr(),
    };
  }

  async function postGenerateCsr(ctx: ActionContext<HttpsCertPath, typeof GenerateCsrAction>) {
    const names = [...new Set([ctx.body.CommonName, hostname()].filter((n) => /^[A-Za-z0-9.-]+$/.test(n)))];
    return json(200, { CSRString: await d.httpsCertificate.generateCsr(ctx.body, names, [], { name: GenerateCsrAction.name }) });
  }

  function postImportCertificate(ctx: ActionContext<HttpsCertPath, typeof ImportCertificateAction>): void {
    const leaf = d.httpsCertificate.install(ctx.body.Certificate, 'Certificate');
    d.log.info({ subject: leaf.subject.replace(/\n/g, ', '), fingerprint: leaf.fingerprint256 }, 'HTTPS certificate replaced');
    d.events.publish(resourceEvent('ResourceChanged'), resourceOfAction(ctx.uri), 'ResourceUpdated');
  }

  return {
    getSecurityService,
    getCertAuth,
    patchCertAuth,
    postImportCaCertificate,
    getCaCertificates,
    getCaCertificate,
    deleteCaCertificate,
    getHttpsCert,
    postGenerateCsr,
    postImportCertificate,
  };
}

export function registerSecurityServiceRoutes(routes: RouteTable, d: SecurityServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/',
    type: VendorSecurityServiceType,
    get: { privilege: Priv.login, handler: h.getSecurityService },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/',
    type: VendorCertAuthType,
    get: { privilege: Priv.login, handler: h.getCertAuth },
    patch: { privilege: Priv.managerConfig, handler: h.patchCertAuth },
    actions: [action(ImportCACertificateAction, Priv.managerConfig, h.postImportCaCertificate)],
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/',
    type: VendorCACertificateCollectionType,
    get: { privilege: Priv.login, handler: h.getCaCertificates },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/{CertificateId}/',
    type: VendorCACertificateType,
    params: { CertificateId: (id) => d.certificateLogin.getCa(id) !== undefined },
    get: { privilege: Priv.login, handler: h.getCaCertificate },
    delete: { privilege: Priv.managerConfig, handler: h.deleteCaCertificate },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/HttpsCert/',
    type: VendorHttpsCertType,
    get: { privilege: Priv.login, handler: h.getHttpsCert },
    actions: [
      action(GenerateCsrAction, Priv.managerConfig, h.postGenerateCsr),
      action(ImportCertificateAction, Priv.managerConfig, h.postImportCertificate),
    ],
  });
}

/** What certificate login uses. */
export type CertificateAuthenticatorDeps = Pick<Services, 'certificateLogin' | 'auth' | 'log'>;

/**
 * Log in by client certificate when every precondition holds. A refused
 * certificate is logged (once per connection and reason) and answered 401
 * naming the precondition, unless the request carries other credentials,
 * which then decide.
 */
export function certificateAuthenticator(d: CertificateAuthenticatorDeps): Authenticator {
  const seen = new WeakMap<object, Set<string>>();
  return {
    name: 'certificate',
    authenticate: (req: AuthRequest) => {
      const presented = req.socket ? presentedOn(req.socket) : undefined;
      if (!presented || !req.socket) return undefined;
      const decision = d.certificateLogin.decide(presented.leaf, presented.chain);
      if (decision.ok) return d.auth.admit(decision.account, req, 'certificate');
      const reasons = seen.get(req.socket) ?? new Set<string>();
      if (!reasons.has(decision.precondition)) {
        reasons.add(decision.precondition);
        seen.set(req.socket, reasons);
        d.log.warn(
          { ip: req.clientIp, subject: presented.leaf.subject.replace(/\n/g, ', '), precondition: decision.precondition },
          'certificate login refused',
        );
      }
      if (req.headers.authorization !== undefined || req.headers['x-auth-token'] !== undefined) return undefined;
      throw vendorError('CertificateLoginUnavailable', decision.precondition);
    },
  };
}
