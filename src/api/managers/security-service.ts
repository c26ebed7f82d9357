// SecurityService of the manager: certificate login (its switch, trusted CA
// certificates and the authenticator that logs clients in by certificate) and
// the replacement of the controller's HTTPS certificate (CSR, then import).
import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import type { TLSSocket } from 'node:tls';
import type { TrustedCa } from '../../domain/accounts/certificate-login.js';
import { requireFeature } from '../../domain/licensing/tiers.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, vendorError } from '../../messages/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { CertificateError, describeCertificate } from '../../platform/x509-verify.js';
import type { AuthRequest } from '../../protocol/auth.js';
import { collectionOf, defineType, ro, t } from '../../protocol/description.js';
import { collection, json } from '../../protocol/reply.js';
import { missing, present, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

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
  name: 'VendorSecurityService',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Security settings of the management controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Links: t.object({ CertificateAuthentication: t.link(), HttpsCert: t.link() }, { readOnly: true, typeName: 'Links' }),
  },
});

export const VendorCACertificateType = defineType({
  name: 'VendorCACertificate',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'A trusted CA certificate for certificate login.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    CertificateString: ro(t.string()),
    X509CertificateInformation: certInfo,
  },
});

export const VendorCertAuthType = defineType({
  name: 'VendorCertAuth',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Certificate login: its switch, trusted CAs and whether every precondition is met.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    CertificateLoginEnabled: t.boolean(),
    CACertificates: t.link({ readOnly: true }),
    LoginReadiness: t.object(
      { Ready: t.boolean(), UnmetPreconditions: t.array(t.string()) },
      { readOnly: true, volatile: true, typeName: 'LoginReadiness', description: 'Preconditions that do not depend on the client certificate.' },
    ),
  },
  actions: [
    {
      name: 'VendorCertAuth.ImportCACertificate',
      description: 'Import a trusted CA certificate (PEM, line breaks as \\n).',
      parameters: { Action: t.string(), Certificate: t.string({ required: true }) },
    },
  ],
});

export const VendorHttpsCertType = defineType({
  name: 'VendorHttpsCert',
  version: '1.0.0',
  owner: 'Vendor',
  description: "The controller's HTTPS certificate and its replacement through a certificate signing request.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    SelfSigned: ro(t.boolean()),
    X509CertificateInformation: certInfo,
    CertificateSigningRequest: ro(t.string({ nullable: true })),
  },
  actions: [
    {
      name: 'VendorHttpsCert.GenerateCSR',
      description: 'Generate a new key on the controller and return a CSR for it.',
      parameters: {
        Action: t.string(),
        CommonName: t.string({ required: true, minLength: 1, maxLength: 64 }),
        Country: t.string({ pattern: '^[A-Z]{2}$' }),
        State: t.string({ maxLength: 128 }),
        City: t.string({ maxLength: 128 }),
        OrgName: t.string({ maxLength: 64 }),
        OrgUnit: t.string({ maxLength: 64 }),
      },
    },
    {
      name: 'VendorHttpsCert.ImportCertificate',
      description: 'Install the signed certificate (PEM, optionally followed by its chain) for the pending CSR.',
      parameters: { Action: t.string(), Certificate: t.string({ required: true }) },
    },
  ],
});

/** The certificates a TLS client presented: its own and any intermediates. */
function presentedCertificates(socket: TLSSocket): { leaf: X509Certificate; chain: X509Certificate[] } | undefined {
  const leaf = socket.getPeerX509Certificate?.();
  if (!leaf) return undefined;
  const chain: X509Certificate[] = [];
  let d = socket.getPeerCertificate(true) as { raw?: Buffer; issuerCertificate?: unknown } | undefined;
  for (let i = 0; d?.raw && i < 8; i++) {
    if (i > 0) chain.push(new X509Certificate(d.raw));
    const next = d.issuerCertificate as typeof d;
    if (!next || next === d) break;
    d = next;
  }
  return { leaf, chain };
}

export function registerSecurityServiceRoutes(routes: RouteTable, s: Services): void {
  const base = '/redfish/v1/Managers/{ManagerId}/SecurityService/';
  const cl = s.certificateLogin;
  /** Run a certificate check; what it finds wrong is a 400 naming the reason. */
  function checked<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof CertificateError) throw vendorError(400, 'CertificateInvalid', 'Certificate', e.message).about('Certificate');
      throw e;
    }
  }

  s.https.setClientCAs(cl.caPems());
  addCertificateAuthenticator(s);

  routes.add({
    path: base,
    type: VendorSecurityServiceType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        return {
          Id: 'SecurityService',
          Name: 'Security Service',
          Links: {
            CertificateAuthentication: { '@odata.id': `${ctx.uri}CertificateAuthentication/` },
            HttpsCert: { '@odata.id': `${ctx.uri}HttpsCert/` },
          },
        };
      },
    },
  });

  routes.add({
    path: `${base}CertificateAuthentication/`,
    type: VendorCertAuthType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const unmet = cl.unmetServicePreconditions();
        return {
          Id: 'CertificateAuthentication',
          Name: 'Certificate Authentication',
          CertificateLoginEnabled: cl.settings().CertificateLoginEnabled,
          CACertificates: { '@odata.id': `${ctx.uri}CACertificates/` },
          LoginReadiness: { Ready: unmet.length === 0, UnmetPreconditions: unmet },
        };
      },
    },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const enabled = ctx.body.CertificateLoginEnabled as boolean | undefined;
        if (enabled === undefined) return;
        if (enabled) requireFeature(s.licenses, 'CertificateLogin');
        cl.setEnabled(enabled);
        s.events.publish(resourceEvent('ResourceChanged'), ctx.uri, 'ResourceUpdated');
      },
    },
    actions: [
      {
        def: VendorCertAuthType.actions?.[0] as NonNullable<typeof VendorCertAuthType.actions>[0],
        privilege: Priv.managerConfig,
        handler: (ctx) => {
          const { ca, created } = checked(() => cl.importCa(String(ctx.body.Certificate)));
          s.https.setClientCAs(cl.caPems());
          const uri = `${ctx.uri.replace(/Actions\/.*$/, '')}CACertificates/${ca.Id}/`;
          if (created) s.events.publish(resourceEvent('ResourceCreated'), uri, 'ResourceAdded');
          return json(200, { '@odata.id': uri, ...caBody(ca) });
        },
      },
    ],
  });

  function caBody(ca: TrustedCa): Record<string, unknown> {
    return { Id: ca.Id, Name: 'Trusted CA Certificate', CertificateString: ca.Pem, X509CertificateInformation: ca.Info };
  }

  routes.add({
    path: `${base}CertificateAuthentication/CACertificates/`,
    type: collectionOf(VendorCACertificateType),
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        return collection('Trusted CA Certificates', cl.listCas().map((c) => `${ctx.uri}${c.Id}/`));
      },
    },
  });

  routes.add({
    path: `${base}CertificateAuthentication/CACertificates/{CertificateId}/`,
    type: VendorCACertificateType,
    params: { CertificateId: (id) => cl.getCa(id) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => caBody(present(cl.getCa(ctx.params.CertificateId ?? ''), ctx)),
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        if (!cl.deleteCa(ctx.params.CertificateId ?? '')) throw missing(ctx);
        s.https.setClientCAs(cl.caPems());
        s.events.publish(resourceEvent('ResourceRemoved'), ctx.uri, 'ResourceRemoved');
      },
    },
  });

  const [generateDef, importDef] = VendorHttpsCertType.actions ?? [];
  routes.add({
    path: `${base}HttpsCert/`,
    type: VendorHttpsCertType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        return {
          Id: 'HttpsCert',
          Name: 'HTTPS Certificate',
          SelfSigned: s.https.selfSigned,
          X509CertificateInformation: describeCertificate(s.httpsCertificate.current()),
          CertificateSigningRequest: s.httpsCertificate.pendingCsr(),
        };
      },
    },
    actions: [
      {
        def: generateDef as NonNullable<typeof generateDef>,
        privilege: Priv.managerConfig,
        handler: async (ctx) => {
          const b = ctx.body as { CommonName: string; Country?: string; State?: string; City?: string; OrgName?: string; OrgUnit?: string };
          const names = [...new Set([b.CommonName, hostname()].filter((n) => /^[A-Za-z0-9.-]+$/.test(n)))];
          return json(200, { CSRString: await s.httpsCertificate.generateCsr(b, names, [], { name: generateDef?.name ?? 'GenerateCSR' }) });
        },
      },
      {
        def: importDef as NonNullable<typeof importDef>,
        privilege: Priv.managerConfig,
        handler: (ctx) => {
          const leaf = s.httpsCertificate.install(String(ctx.body.Certificate), 'Certificate');
          s.log.info({ subject: leaf.subject.replace(/\n/g, ', '), fingerprint: leaf.fingerprint256 }, 'HTTPS certificate replaced');
          s.events.publish(resourceEvent('ResourceChanged'), ctx.uri.replace(/Actions\/.*$/, ''), 'ResourceUpdated');
        },
      },
    ],
  });
}

/**
 * Log in by client certificate when every precondition holds. A refused
 * certificate is logged (once per connection and reason) and answered 401
 * naming the precondition, unless the request carries other credentials,
 * which then decide.
 */
function addCertificateAuthenticator(s: Services): void {
  const seen = new WeakMap<object, Set<string>>();
  s.auth.addAuthenticator({
    name: 'certificate',
    authenticate: (req: AuthRequest) => {
      const presented = req.socket ? presentedCertificates(req.socket) : undefined;
      if (!presented || !req.socket) return undefined;
      const decision = s.certificateLogin.decide(presented.leaf, presented.chain);
      if (decision.ok) return s.auth.admit(decision.account, req, 'certificate');
      const reasons = seen.get(req.socket) ?? new Set<string>();
      if (!reasons.has(decision.precondition)) {
        reasons.add(decision.precondition);
        seen.set(req.socket, reasons);
        s.log.warn(
          { ip: req.clientIp, subject: presented.leaf.subject.replace(/\n/g, ', '), precondition: decision.precondition },
          'certificate login refused',
        );
      }
      if (req.headers.authorization !== undefined || req.headers['x-auth-token'] !== undefined) return undefined;
      throw vendorError(401, 'CertificateLoginUnavailable', decision.precondition);
    },
  });
}
