// SecurityService of the manager: certificate login (its switch, trusted CA
// certificates and the authenticator that logs clients in by certificate) and
// the replacement of the controller's HTTPS certificate (CSR, then import).
import type { FactoryIdentity } from '../../domain/manager/factory-identity.js';
import { X509Certificate } from 'node:crypto';
import { hostname } from 'node:os';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { requireFeature } from '../../domain/licensing/tiers.js';
import { Priv, vendorPrivilegesOfRole } from '../../lib/privileges.js';
import { baseError, vendorError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { describeCertificate } from '../../platform/x509-verify.js';
import type { AuthRequest, Authenticator } from '../../protocol/auth.js';
import { collection, json } from '../../protocol/reply.js';
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
import { TLS_VERSIONS_ENABLED } from '../../lib/tls-policy.js';
import { securityParams, type SecurityParam } from '../../domain/manager/security-dashboard.js';
import { toIso } from '../../platform/clock.js';
import { managerMacAddress } from '../../platform/identity.js';
import { vendorMessage } from '../../messages/errors.js';
import { addCollection } from '../../protocol/collections.js';
import { success } from '../../protocol/reply.js';
import {
  ClearKeyManagerLogAction,
  DeleteAllSsoRecordsAction,
  DeleteSsoRecordAction,
  ImportDnsNameAction,
  ImportSsoCertificateAction,
  TestKeyManagerAction,
  VendorESKMType,
  VendorMCSSOType,
  VendorMCSecurityDashboardType,
  VendorMCSecurityParamType,
  GenerateCsrAction,
  ImportCACertificateAction,
  ImportCertificateAction,
  VendorCertAuthType,
  VendorHttpsCertType,
  VendorSecurityServiceType,
  IDENTITY_CERTIFICATES,
  RELEASE_6_IDENTITY_CERTIFICATES,
} from './security-types.js';
import { parsePemCertificate, type CertificateInfo } from '../../platform/certificate-info.js';
import {
  CertificateCollectionType,
  CertificateType,
  certificateProperties,
  VendorCACertificateCollectionType,
  VendorCACertificateType,
  caBody,
  importTrustedCa,
} from '../certificates/certificate-types.js';

export type SecurityServiceDeps = Pick<
  Services,
  | 'certificateLogin'
  | 'licenseTier'
  | 'https'
  | 'httpsCertificate'
  | 'auth'
  | 'events'
  | 'log'
  | 'managerFeatures'
  | 'accountPolicy'
  | 'secureBoot'
  | 'update'
  | 'vendorBios'
  | 'clock'
  | 'serviceUuid'
  | 'factoryIdentity'
>;

type SecurityServicePath = '/redfish/v1/Managers/{ManagerId}/SecurityService/';
type IdentityCertificatePath = '/redfish/v1/Managers/{ManagerId}/SecurityService/iLOIDevID/Certificates/{CertificateId}/';
type CertAuthPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/';
type CaCertificatesPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/';
type CaCertificatePath = '/redfish/v1/Managers/{ManagerId}/SecurityService/CertificateAuthentication/CACertificates/{CertificateId}/';
type HttpsCertPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/HttpsCert/';
type SsoPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/SSO/';
type KeyManagerPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/ESKM/';
type DashboardPath = '/redfish/v1/Managers/{ManagerId}/SecurityService/SecurityDashboard/';

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

function handlers(d: SecurityServiceDeps) {
  const cl = d.certificateLogin;

  function getSecurityService(ctx: Context<SecurityServicePath>) {
    const certAuth = { '@odata.id': `${ctx.uri}CertificateAuthentication/` };
    return {
      Id: 'SecurityService',
      Name: 'Security Service',
      SecurityState: 'Production',
      // The vendor's controller reports the cipher suite of the connection reading it, by OpenSSL's name.
      ...(ctx.socket ? { CurrentCipher: ctx.socket.getCipher().name } : {}),
      LoginSecurityBanner: { IsEnabled: false },
      // The listener's policy, which no setting changes.
      TLSVersion: Object.fromEntries(Object.entries(TLS_VERSIONS_ENABLED).map(([v, on]) => [v, on ? 'Enabled' : 'Disabled'])),
      DisableWeakCiphers: true,
      ...Object.fromEntries(IDENTITY_CERTIFICATES.map((n) => [n, { Certificates: { '@odata.id': `${ctx.uri}${n}/Certificates/` } }])),
      ...(d.factoryIdentity
        ? Object.fromEntries(
            Object.entries(RELEASE_6_IDENTITY_CERTIFICATES).map(([n, at]) => [
              n,
              { Certificates: { '@odata.id': `${ctx.uri}${at}/Certificates/` } },
            ]),
          )
        : {}),
      Links: {
        CertificateAuthentication: certAuth,
        CertAuth: certAuth,
        HttpsCert: { '@odata.id': `${ctx.uri}HttpsCert/` },
        SSO: { '@odata.id': `${ctx.uri}SSO/` },
        ESKM: { '@odata.id': `${ctx.uri}ESKM/` },
        SecurityDashboard: { '@odata.id': `${ctx.uri}SecurityDashboard/` },
      },
    };
  }

  /**
   * The certificates of an identity set: the factory identity's, on a controller whose release
   * carries one (iLO 6); none on iLO 5, which has the slots and nothing in them, as the real one
   * shows. The locally provisioned sets (LDevID, LAK) and the platform's stay empty: no owner
   * provisioned them, and the platform certificate is the server maker's.
   */
  const FILLED: Readonly<Record<string, (id: FactoryIdentity) => string>> = {
    iLOIDevID: (id) => id.idevid,
    BMCIDevIDPca: (id) => id.issuingCa,
    BMCIAK: (id) => id.iak,
  };
  /** How many certificates a set holds, known without making the identity. */
  const identityCount = (set: string): number => (d.factoryIdentity && FILLED[set] ? 1 : 0);
  const USAGE: Readonly<Record<string, string>> = { iLOIDevID: 'IDevID', BMCIAK: 'IAK' };
  const parsed = new Map<string, CertificateInfo>();
  const infoOf = (pem: string) => parsed.get(pem) ?? parsed.set(pem, parsePemCertificate(pem)).get(pem)!;
  const setOf = (uri: string, up: number) => uri.split('/').at(-up)!;

  function getIdentityCertificates(ctx: Context<SecurityServicePath>) {
    const set = setOf(ctx.uri, 3);
    return collection(
      `${set} Certificate Collection`,
      Array.from({ length: identityCount(set) }, (_, i) => `${ctx.uri}${i + 1}/`),
      { Description: `The ${set} certificates of the management controller` },
    );
  }

  /** A set's member ids: 1, 2… */
  const identityCertificateExists = (set: string, id: string) => /^[1-9]\d*$/.test(id) && Number(id) <= identityCount(set);

  async function getIdentityCertificate(ctx: Context<IdentityCertificatePath>) {
    const set = setOf(ctx.uri, 4);
    const id = ctx.params.CertificateId;
    const pem = FILLED[set]!(await d.factoryIdentity!.read());
    const usage = USAGE[set];
    return {
      Id: id,
      Name: `${set} Certificate`,
      ...certificateProperties(infoOf(pem)),
      ...(usage ? { CertificateUsageTypes: [usage] } : {}),
    };
  }

  const sso = d.managerFeatures.sso;

  function getSso(_ctx: Context<SsoPath>) {
    const s = sso.state();
    const { Administrator, Operator, ReadOnly } = {
      Administrator: vendorPrivilegesOfRole('Administrator'),
      Operator: vendorPrivilegesOfRole('Operator'),
      ReadOnly: vendorPrivilegesOfRole('ReadOnly'),
    };
    return {
      Id: 'SSO',
      Name: 'Single Sign-On',
      SSOsettings: { SSOTrustMode: s.SSOTrustMode, AdminPrivilege: Administrator, OperatorPrivilege: Operator, UserPrivilege: ReadOnly },
      ManagerTrustedCertificates: s.records.map((r, i) => ({ ...r, SerialNumber: i + 1, Status: 'OK' })),
    };
  }

  function patchSso(ctx: PatchContext<SsoPath, typeof VendorMCSSOType.properties>): void {
    const mode = ctx.body.SSOsettings?.SSOTrustMode;
    if (mode !== undefined) sso.setTrustMode(mode);
  }

  function postImportDnsName(ctx: ActionContext<SsoPath, typeof ImportDnsNameAction>) {
    sso.importDnsName(ctx.body.DNSName);
    return success();
  }

  function postImportSsoCertificate(ctx: ActionContext<SsoPath, typeof ImportSsoCertificateAction>) {
    sso.importCertificate(ctx.body.CertInput, ImportSsoCertificateAction.name);
    return success();
  }

  function postDeleteSsoRecord(ctx: ActionContext<SsoPath, typeof DeleteSsoRecordAction>) {
    const n = ctx.body.RecordNumber;
    if (!sso.deleteRecord(n))
      throw baseError('ActionParameterValueNotInList', String(n), 'RecordNumber', DeleteSsoRecordAction.name).about('RecordNumber');
    return success();
  }

  function postDeleteAllSsoRecords(_ctx: ActionContext<SsoPath, typeof DeleteAllSsoRecordsAction>) {
    sso.deleteAll();
    return success();
  }

  const keyManager = d.managerFeatures.keyManager;

  function getKeyManager(_ctx: Context<KeyManagerPath>) {
    const s = keyManager.settings();
    const mac = managerMacAddress(d.serviceUuid, 0).replace(/:/g, '').toLowerCase();
    return {
      Id: 'ESKM',
      Name: 'Enterprise Secure Key Manager',
      PrimaryKeyServerAddress: s.PrimaryKeyServerAddress,
      PrimaryKeyServerPort: s.PrimaryKeyServerPort,
      SecondaryKeyServerAddress: s.SecondaryKeyServerAddress,
      SecondaryKeyServerPort: s.SecondaryKeyServerPort,
      KeyServerRedundancyReq: s.KeyServerRedundancyReq,
      KeyManagerConfig: {
        AccountGroup: s.AccountGroup,
        // The controller's key manager account is named after its dedicated NIC's MAC address.
        AccountName: `ilo-${mac}`,
        ESKMLocalCACertificateName: s.ESKMLocalCACertificateName,
      },
      ESKMEvents: keyManager.events().map((e) => ({ Timestamp: toIso(e.Timestamp), Event: e.Event })),
    };
  }

  function patchKeyManager(ctx: PatchContext<KeyManagerPath, typeof VendorESKMType.properties>): void {
    const { KeyManagerConfig, ...rest } = ctx.body;
    keyManager.change({
      ...rest,
      ...(KeyManagerConfig?.AccountGroup !== undefined ? { AccountGroup: KeyManagerConfig.AccountGroup } : {}),
      ...(KeyManagerConfig?.ESKMLocalCACertificateName !== undefined
        ? { ESKMLocalCACertificateName: KeyManagerConfig.ESKMLocalCACertificateName }
        : {}),
    });
  }

  function postTestKeyManager(_ctx: ActionContext<KeyManagerPath, typeof TestKeyManagerAction>) {
    return success(vendorMessage('KeyManagerTestOutcome', keyManager.testConnections().outcome));
  }

  function postClearKeyManagerLog(_ctx: ActionContext<KeyManagerPath, typeof ClearKeyManagerLogAction>) {
    keyManager.clearLog();
    return success();
  }

  const dashboard = d.managerFeatures.securityDashboard;

  function currentParams(): SecurityParam[] {
    return securityParams({
      minPasswordLength: d.accountPolicy.get().MinPasswordLength,
      secureBootEnabled: d.secureBoot.status().enable,
      snmpV1Enabled: d.managerFeatures.snmp.settings().SNMPv1Enabled,
      selfSignedCertificate: d.https.selfSigned,
      lastScanResult: d.update.integrity.settings().lastResult,
      authFailureLogging: true,
    });
  }

  function paramBody(p: SecurityParam) {
    const ignored = dashboard.ignored()[p.Id];
    return {
      ...p,
      Ignore: Boolean(ignored),
      ...(ignored ? { IgnoredBy: ignored.by, IgnoredTime: toIso(ignored.at) } : {}),
    };
  }

  function getDashboard(ctx: Context<DashboardPath>) {
    return {
      Id: 'SecurityDashboard',
      Name: 'Security Dashboard',
      OverallSecurityStatus: dashboard.overall(currentParams()),
      ServerConfigurationLockStatus: String(d.vendorBios.lock.current().ServerConfigLockStatus ?? 'Disabled'),
      SecurityParameters: { '@odata.id': `${ctx.uri}SecurityParams/` },
    };
  }

  function getCertAuth(ctx: Context<CertAuthPath>) {
    const unmet = cl.unmetServicePreconditions();
    return {
      Id: 'CertificateAuthentication',
      Name: 'Certificate Authentication',
      CertificateLoginEnabled: cl.settings().CertificateLoginEnabled,
      CACertificates: { '@odata.id': `${ctx.uri}CACertificates/` },
      Links: { UserCertificateMapping: { '@odata.id': '/redfish/v1/AccountService/UserCertificateMapping/' } },
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
    const answer = importTrustedCa(cl.cas, ctx.body.Certificate, `${resourceOfAction(ctx.uri)}CACertificates/`, d.events);
    d.https.setClientCAs(cl.caPems());
    return answer;
  }

  function getCaCertificates(ctx: Context<CaCertificatesPath>) {
    return collection(
      'Trusted CA Certificates',
      cl.listCas().map((c) => `${ctx.uri}${c.Id}/`),
      { Description: 'The CA certificates certificate login trusts' },
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
    getIdentityCertificates,
    identityCertificateExists,
    getIdentityCertificate,
    getCertAuth,
    patchCertAuth,
    postImportCaCertificate,
    getCaCertificates,
    getCaCertificate,
    deleteCaCertificate,
    getHttpsCert,
    postGenerateCsr,
    postImportCertificate,
    getSso,
    patchSso,
    postImportDnsName,
    postImportSsoCertificate,
    postDeleteSsoRecord,
    postDeleteAllSsoRecords,
    getKeyManager,
    patchKeyManager,
    postTestKeyManager,
    postClearKeyManagerLog,
    currentParams,
    paramBody,
    getDashboard,
  };
}

export function registerSecurityServiceRoutes(routes: RouteTable, d: SecurityServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/',
    type: VendorSecurityServiceType,
    get: { privilege: Priv.login, handler: h.getSecurityService },
  });
  for (const path of [
    '/redfish/v1/Managers/{ManagerId}/SecurityService/iLOIDevID/Certificates/',
    '/redfish/v1/Managers/{ManagerId}/SecurityService/iLOLDevID/Certificates/',
    '/redfish/v1/Managers/{ManagerId}/SecurityService/SystemIDevID/Certificates/',
    '/redfish/v1/Managers/{ManagerId}/SecurityService/SystemIAK/Certificates/',
    '/redfish/v1/Managers/{ManagerId}/SecurityService/PlatformCert/Certificates/',
    '/redfish/v1/Managers/{ManagerId}/SecurityService/PlatformCertUpdate/Certificates/',
    ...(d.factoryIdentity
      ? ([
          '/redfish/v1/Managers/{ManagerId}/SecurityService/BMCIDevIDPca/Certificates/',
          '/redfish/v1/Managers/{ManagerId}/SecurityService/BMCIAK/Certificates/',
          '/redfish/v1/Managers/{ManagerId}/SecurityService/BMCLAK/Certificates/',
          '/redfish/v1/Managers/{ManagerId}/SecurityService/SystemLAK/Certificates/',
          '/redfish/v1/Managers/{ManagerId}/SecurityService/SystemLDevID/Certificates/',
        ] as const)
      : []),
  ] as const)
    routes.add({ path, type: CertificateCollectionType, get: { privilege: Priv.login, handler: h.getIdentityCertificates } });
  // Only the sets a factory identity fills have members.
  for (const [set, path] of d.factoryIdentity
    ? ([
        ['iLOIDevID', '/redfish/v1/Managers/{ManagerId}/SecurityService/iLOIDevID/Certificates/{CertificateId}/'],
        ['BMCIDevIDPca', '/redfish/v1/Managers/{ManagerId}/SecurityService/BMCIDevIDPca/Certificates/{CertificateId}/'],
        ['BMCIAK', '/redfish/v1/Managers/{ManagerId}/SecurityService/BMCIAK/Certificates/{CertificateId}/'],
      ] as const)
    : [])
    routes.add({
      path,
      type: CertificateType,
      params: { CertificateId: (id) => h.identityCertificateExists(set, id) },
      get: { privilege: Priv.login, handler: h.getIdentityCertificate },
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
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/SSO/',
    type: VendorMCSSOType,
    get: { privilege: Priv.login, handler: h.getSso },
    patch: { privilege: Priv.managerConfig, handler: h.patchSso },
    actions: [
      action(ImportDnsNameAction, Priv.managerConfig, h.postImportDnsName),
      action(ImportSsoCertificateAction, Priv.managerConfig, h.postImportSsoCertificate),
      action(DeleteSsoRecordAction, Priv.managerConfig, h.postDeleteSsoRecord),
      action(DeleteAllSsoRecordsAction, Priv.managerConfig, h.postDeleteAllSsoRecords),
    ],
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/ESKM/',
    type: VendorESKMType,
    get: { privilege: Priv.login, handler: h.getKeyManager },
    patch: { privilege: Priv.managerConfig, handler: h.patchKeyManager },
    actions: [
      action(TestKeyManagerAction, Priv.managerConfig, h.postTestKeyManager),
      action(ClearKeyManagerLogAction, Priv.managerConfig, h.postClearKeyManagerLog),
    ],
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SecurityService/SecurityDashboard/',
    type: VendorMCSecurityDashboardType,
    get: { privilege: Priv.login, handler: h.getDashboard },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/SecurityService/SecurityDashboard/SecurityParams/',
    member: '/redfish/v1/Managers/{ManagerId}/SecurityService/SecurityDashboard/SecurityParams/{SecurityParamId}/',
    type: VendorMCSecurityParamType,
    name: 'Security Parameters',
    extra: () => ({ Description: 'The security settings the dashboard rates' }),
    store: {
      list: () => h.currentParams(),
      get: (id: string) => h.currentParams().find((p) => p.Id === id),
      id: (p: SecurityParam) => p.Id,
    },
    show: h.paramBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    update: {
      handler: (p, ctx) => {
        if (ctx.body.Ignore !== undefined)
          d.managerFeatures.securityDashboard.setIgnored(p.Id, ctx.body.Ignore, ctx.principal.userName, d.clock.now());
      },
    },
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
