// AccountService: accounts, roles, the password and lockout policy, and the
// LDAP and Active Directory settings (stored and validated only: no directory
// server is contacted, directory-settings.ts).
// Accounts are created, changed and deleted by holders of UserConfigPriv; any
// account may change its own password (ConfigureSelf). The rules of a change
// (an enabled administrator always remains...) are the domain's (account-change.ts).
import { Representations } from '../../lib/memo.js';
import {
  changedAccount,
  privilegesFor,
  requireAdministratorLeft,
  requireRoomForAccount,
  type AccountChange,
} from '../../domain/accounts/account-change.js';
import { MAX_PASSWORD_LENGTH } from '../../domain/accounts/account-policy.js';
import type { DirectoryKind } from '../../domain/accounts/directory-settings.js';
import type { AccountRecord } from '../../domain/accounts/accounts.js';
import { Priv, ROLES, ROLE_IDS, roleOf, type RoleId } from '../../lib/privileges.js';
import { baseError } from '../../protocol/errors.js';
import { collectionOf, t, type Props } from '../../protocol/description.js';
import { addCollection } from '../../protocol/collections.js';
import type { TrustedCa } from '../../platform/trusted-cas.js';
import { parsePemCertificate } from '../../platform/certificate-info.js';
import { CertificateType, certificateProperties, checkedCertificate } from '../certificates/certificate-types.js';
import type { Principal } from '../../protocol/principal.js';
import { collection, created } from '../../protocol/reply.js';
import { present, type Context, type PatchContext, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { AccountServiceType, ManagerAccountType, NewAccountBody, RoleType } from './account-types.js';
import { OEM } from '../../protocol/naming.js';

export type AccountServiceDeps = Pick<
  Services,
  'config' | 'store' | 'accounts' | 'accountPolicy' | 'sessions' | 'directories' | 'ldapCas' | 'events'
>;

type AccountPath = '/redfish/v1/AccountService/Accounts/{AccountId}/';
type RolePath = '/redfish/v1/AccountService/Roles/{RoleId}/';
type AccountBody = PatchContext<AccountPath, typeof ManagerAccountType.properties>['body'];

const accountUri = (id: string) => `/redfish/v1/AccountService/Accounts/${id}/`;
const LDAP_CERTIFICATES_URI = '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/';

/** What a client sends to add an LDAP CA certificate. */
const LdapCertificateBody = {
  CertificateString: t.string({ required: true }),
  CertificateType: t.enum(['PEM'], { required: true }),
} satisfies Props;

function ldapCertificateBody(ca: TrustedCa) {
  return { Id: ca.Id, Name: 'LDAP CA Certificate', ...certificateProperties(parsePemCertificate(ca.Pem)) };
}

function accountBody(d: AccountServiceDeps, a: AccountRecord) {
  const role = d.accounts.roleOf(a);
  return {
    Id: a.Id,
    Name: 'User Account',
    Description: 'Management Controller User Account',
    UserName: a.UserName,
    Password: null,
    RoleId: role,
    Enabled: a.Enabled,
    Locked: d.accountPolicy.isLocked(a),
    PasswordChangeRequired: a.PasswordChangeRequired,
    AccountTypes: ['Redfish'],
    Links: { Role: { '@odata.id': `/redfish/v1/AccountService/Roles/${role}/` } },
    Oem: { [OEM]: { LoginName: a.LoginName ?? a.UserName, Privileges: { ...a.Privileges } } },
  };
}

function roleBody(id: RoleId) {
  const r = ROLES[id];
  return {
    Id: id,
    Name: `${id} Role`,
    Description: `${id} User Role`,
    RoleId: id,
    IsPredefined: true,
    AssignedPrivileges: [...r.assigned],
    OemPrivileges: [...r.oem],
  };
}

/** The domain's change from a validated body: the vendor privilege switches (Oem/Vendor/Privileges) become its Privileges. */
function accountChange(body: AccountBody): AccountChange {
  const { Oem, ...rest } = body;
  const vendor = Oem?.[OEM];
  return vendor === undefined
    ? rest
    : { ...rest, Privileges: { ...vendor.Privileges }, ...(vendor.LoginName !== undefined ? { LoginName: vendor.LoginName } : {}) };
}

function mayManageAccounts(p: Principal): boolean {
  return p.privileges.has('UserConfigPriv') && !p.passwordChangeRequired;
}

function handlers(d: AccountServiceDeps) {
  const { directories } = d;
  const views = new Representations();
  function getAccountService() {
    const policy = d.accountPolicy.get();
    return {
      Id: 'AccountService',
      Name: 'Account Service',
      Description: 'Management Controller Account Service',
      ServiceEnabled: true,
      Status: { State: 'Enabled', Health: 'OK' },
      ...policy,
      MaxPasswordLength: MAX_PASSWORD_LENGTH,
      // The lockout counter always starts again after AccountLockoutCounterResetAfter (account-policy.ts).
      AccountLockoutCounterResetEnabled: true,
      HTTPBasicAuth: 'Enabled',
      LocalAccountAuth: 'Enabled',
      LDAP: directoryBody('LDAP'),
      ActiveDirectory: directoryBody('ActiveDirectory'),
      Accounts: { '@odata.id': '/redfish/v1/AccountService/Accounts/' },
      Roles: { '@odata.id': '/redfish/v1/AccountService/Roles/' },
      Oem: { [OEM]: vendorAccountService(policy.MinPasswordLength) },
    };
  }

  /** What the vendor's controller adds: the values it shows for settings the service keeps elsewhere, or does not model (its factory ones). */
  function vendorAccountService(minPasswordLength: number) {
    const ldap = directories.get('LDAP');
    const port = /:(\d+)\/?$/.exec(ldap.ServiceAddresses[0] ?? '')?.[1];
    return {
      Links: { UserCertificateMapping: { '@odata.id': '/redfish/v1/AccountService/UserCertificateMapping/' } },
      MinPasswordLength: minPasswordLength,
      EnforcePasswordComplexity: false,
      AuthFailureDelayTimeSeconds: 10,
      AuthFailureLoggingThreshold: 3,
      AuthFailuresBeforeDelay: 1,
      DefaultUserName: null,
      DefaultPassword: null,
      DirectorySettings: {
        LdapAuthenticationMode: ldap.ServiceEnabled ? 'DefaultSchema' : 'Disabled',
        LdapCaCertificateLoaded: d.ldapCas.count() > 0,
        LdapCaCertificates: { '@odata.id': LDAP_CERTIFICATES_URI },
        LdapServerPort: port ? Number(port) : 636,
      },
      KerberosSettings: { KDCServerPort: 88, KerberosRealm: null },
      DirectoryTest: { '@odata.id': '/redfish/v1/AccountService/DirectoryTest/' },
    };
  }

  function directoryBody(kind: DirectoryKind) {
    const { Authentication, ServiceAddresses, ...rest } = directories.get(kind);
    return {
      AccountProviderType: kind === 'LDAP' ? 'LDAPService' : 'ActiveDirectoryService',
      ...(kind === 'LDAP' ? { Certificates: { '@odata.id': LDAP_CERTIFICATES_URI } } : {}),
      ...rest,
      // An unset server reads as one empty address, as on the vendor's controller (clients read the first).
      ServiceAddresses: ServiceAddresses.length ? ServiceAddresses : [''],
      PasswordSet: Authentication.Password !== null,
      Authentication: { ...Authentication, Password: null },
    };
  }

  function patchAccountService(ctx: PatchContext<'/redfish/v1/AccountService/', typeof AccountServiceType.properties>): void {
    const { LDAP, ActiveDirectory, ...policy } = ctx.body;
    // One transaction: a refused part changes nothing of the others.
    d.store.transaction(() => {
      directories.change({ LDAP, ActiveDirectory });
      d.accountPolicy.update(policy);
    });
  }

  function getAccounts() {
    return views.get('/redfish/v1/AccountService/Accounts/', [d.accounts.generation], () =>
      collection(
        'Accounts',
        d.accounts.list().map((a) => accountUri(a.Id)),
        { Description: 'Management Controller User Accounts' },
      ),
    );
  }

  async function postAccount(ctx: PostContext<'/redfish/v1/AccountService/Accounts/', typeof NewAccountBody>) {
    const b = ctx.body;
    // At most --max-accounts accounts (default 64); checked again after the hash, as concurrent POSTs may race.
    const admissible = () => requireRoomForAccount(d.accounts.list(), b.UserName, d.config.maxAccounts);
    admissible();
    d.accountPolicy.checkPassword(b.Password);
    // Without a RoleId the role follows from the privileges (ReadOnly's and those given), as on iLO.
    const privileges = privilegesFor(undefined, b.RoleId, b.Oem?.[OEM]?.Privileges);
    const input = {
      UserName: b.UserName,
      Password: b.Password,
      RoleId: b.RoleId ?? roleOf(privileges),
      Enabled: b.Enabled,
      Privileges: privileges,
      PasswordChangeRequired: b.PasswordChangeRequired,
      LoginName: b.Oem?.[OEM]?.LoginName,
    };
    const record = await d.accounts.create(input, admissible);
    return created(accountUri(record.Id), accountBody(d, record));
  }

  /** Rebuilt when anything stored changes (the account, its login bookkeeping) or its lockout ends. */
  function getAccount(ctx: Context<AccountPath>) {
    const a = present(d.accounts.peek(ctx.params.AccountId), ctx);
    return views.get(ctx.uri, [d.store.generation, d.accountPolicy.isLocked(a)], () => accountBody(d, a));
  }

  async function patchAccount(ctx: PatchContext<AccountPath, typeof ManagerAccountType.properties>): Promise<void> {
    const id = ctx.params.AccountId;
    const change = accountChange(ctx.body);
    const rules = (current: AccountRecord, accounts: readonly AccountRecord[], hash?: string) =>
      changedAccount(current, change, { accounts, mayManageAccounts: mayManageAccounts(ctx.principal) }, hash);
    // A change refused as things are costs no hash...
    const seen = present(d.accounts.get(id), ctx);
    rules(seen, d.accounts.list());
    if (change.Password !== undefined) d.accountPolicy.checkPassword(change.Password);
    const hash = change.Password !== undefined ? await d.accounts.hashPassword(change.Password) : undefined;
    // ...and every rule is checked again on the accounts as they are once it is made, in the same step
    // as the write: a concurrent change is neither lost nor able to leave no enabled administrator.
    // The If-Match the dispatcher checked still holds then: the account shows what it showed.
    const conditional = ctx.headers['if-match'] !== undefined;
    const shown = (a: AccountRecord) => JSON.stringify(accountBody(d, a));
    const { before, after } = present(
      d.accounts.update(id, (current, accounts) => {
        if (conditional && current !== seen && shown(current) !== shown(seen)) throw baseError('PreconditionFailed');
        return rules(current, accounts, hash);
      }),
      ctx,
    );
    // A new password or a disabled account ends the account's other sessions.
    if (change.Password !== undefined || (before.Enabled && !after.Enabled)) {
      for (const session of d.sessions.list()) {
        if (session.AccountId === after.Id && session.Id !== ctx.principal.sessionId) d.sessions.delete(session.Id, 'account');
      }
    }
  }

  function deleteAccount(ctx: Context<AccountPath>): void {
    const a = present(d.accounts.get(ctx.params.AccountId), ctx);
    requireAdministratorLeft(d.accounts.list(), a, undefined);
    d.accounts.delete(a.Id); // ends its sessions and certificate mappings (onChange)
  }

  function getRoles() {
    return collection(
      'Roles',
      ROLE_IDS.map((r) => `/redfish/v1/AccountService/Roles/${r}/`),
      { Description: 'Management Controller Roles' },
    );
  }

  function getRole(ctx: Context<RolePath>) {
    return roleBody(
      present(
        ROLE_IDS.find((r) => r === ctx.params.RoleId),
        ctx,
      ),
    );
  }

  return { getAccountService, patchAccountService, getAccounts, postAccount, getAccount, patchAccount, deleteAccount, getRoles, getRole };
}

export function registerAccountServiceRoutes(routes: RouteTable, d: AccountServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/AccountService/',
    type: AccountServiceType,
    get: { privilege: Priv.login, handler: h.getAccountService },
    patch: { privilege: Priv.userConfig, handler: h.patchAccountService },
  });
  routes.add({
    path: '/redfish/v1/AccountService/Accounts/',
    type: collectionOf(ManagerAccountType),
    get: { privilege: Priv.login, handler: h.getAccounts },
    post: { privilege: Priv.userConfig, body: NewAccountBody, handler: h.postAccount },
  });
  routes.add({
    path: '/redfish/v1/AccountService/Accounts/{AccountId}/',
    type: ManagerAccountType,
    params: { AccountId: (id) => d.accounts.peek(id) !== undefined },
    ownedBy: (p, params) => p.accountId === params.AccountId,
    get: { privilege: [['UserConfigPriv'], ['ConfigureSelf']], handler: h.getAccount },
    // The account as it now is (e.g. PasswordChangeRequired false after a password change, DSP0266).
    patch: { privilege: [['UserConfigPriv'], ['ConfigureSelf']], respond: 'representation', handler: h.patchAccount },
    delete: { privilege: Priv.userConfig, handler: h.deleteAccount },
  });
  addCollection(routes, {
    collection: '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/',
    member: '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/{CertificateId}/',
    type: CertificateType,
    name: 'LDAP CA Certificates',
    extra: () => ({ Description: 'The CA certificates a connection to the LDAP directory trusts (stored only)' }),
    store: { list: () => d.ldapCas.list(), get: (id: string) => d.ldapCas.get(id), id: (ca: TrustedCa) => ca.Id },
    show: ldapCertificateBody,
    privileges: { read: Priv.login, write: Priv.userConfig },
    create: {
      body: LdapCertificateBody,
      handler: (ctx) => checkedCertificate('CertificateString', () => d.ldapCas.import(ctx.body.CertificateString).ca),
    },
    remove: (ca) => {
      d.ldapCas.delete(ca.Id);
    },
  });
  routes.add({
    path: '/redfish/v1/AccountService/Roles/',
    type: collectionOf(RoleType),
    get: { privilege: Priv.login, handler: h.getRoles },
  });
  // Predefined roles have no PATCH: their privileges cannot change (405 with Allow).
  routes.add({
    path: '/redfish/v1/AccountService/Roles/{RoleId}/',
    type: RoleType,
    params: { RoleId: (id) => ROLE_IDS.some((r) => r === id) },
    get: { privilege: Priv.login, handler: h.getRole },
  });
}
