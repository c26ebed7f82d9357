// AccountService: accounts, roles, and the password and lockout policy.
// Accounts are created, changed and deleted by holders of UserConfigPriv; any
// account may change its own password (ConfigureSelf). An enabled
// administrator always remains.
import type { AccountRecord } from '../../domain/accounts/accounts.js';
import { ROLES, ROLE_IDS, Priv, roleOf, vendorPrivilegesOfRole, type RoleId, type VendorPrivileges } from '../../lib/privileges.js';
import { MAX_PASSWORD_LENGTH, type AccountPolicySettings } from '../../domain/accounts/account-policy.js';
import { baseError, vendorError } from '../../messages/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { collectionOf } from '../../protocol/description.js';
import type { Principal } from '../../protocol/principal.js';
import { collection, created } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import { AccountServiceType, ManagerAccountType, NewAccountBody, RoleType } from './account-types.js';
import { CERT_MAPPING_URI, registerCertificateMappingRoutes } from './certificate-mapping.js';
import type { Services } from '../services.js';

export { AccountServiceType, ManagerAccountType, RoleType } from './account-types.js';

export const ACCOUNT_SERVICE_URI = '/redfish/v1/AccountService/';
export const ACCOUNTS_URI = '/redfish/v1/AccountService/Accounts/';
export const ROLES_URI = '/redfish/v1/AccountService/Roles/';

export function accountUri(id: string): string {
  return `${ACCOUNTS_URI}${id}/`;
}

export function accountBody(s: Services, a: AccountRecord): Record<string, unknown> {
  const role = s.accounts.roleOf(a);
  return {
    Id: a.Id,
    Name: 'User Account',
    Description: 'Management Controller User Account',
    UserName: a.UserName,
    Password: null,
    RoleId: role,
    Enabled: a.Enabled,
    Locked: s.accountPolicy.isLocked(a),
    PasswordChangeRequired: a.PasswordChangeRequired,
    AccountTypes: ['Redfish'],
    Links: { Role: { '@odata.id': `${ROLES_URI}${role}/` } },
    Oem: { Vendor: { Privileges: { ...a.Privileges } } },
  };
}

export function roleBody(id: RoleId): Record<string, unknown> {
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

interface AccountChange {
  UserName?: string;
  Password?: string;
  RoleId?: RoleId;
  Enabled?: boolean;
  Locked?: boolean;
  PasswordChangeRequired?: boolean;
  Oem?: { Vendor?: { Privileges?: Partial<VendorPrivileges> } };
}

/**
 * The privilege booleans an account ends up with: the role's when RoleId is
 * given, then any booleans given on top. When both are given they must agree,
 * since RoleId is derived from the booleans (the vendor's rule).
 */
function privilegesFor(current: VendorPrivileges | undefined, change: AccountChange): VendorPrivileges {
  const given = change.Oem?.Vendor?.Privileges ?? {};
  const base = change.RoleId ? vendorPrivilegesOfRole(change.RoleId) : (current ?? vendorPrivilegesOfRole('ReadOnly'));
  const merged = { ...base, ...given };
  if (change.RoleId && roleOf(merged) !== change.RoleId) {
    throw baseError('PropertyValueConflict', 'RoleId', 'Oem/Vendor/Privileges');
  }
  return merged;
}

function canManageAccounts(p: Principal): boolean {
  return p.privileges.has('UserConfigPriv') && !p.passwordChangeRequired;
}

export function registerAccountServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.AccountService = ACCOUNT_SERVICE_URI;
  const find = (ctx: RequestContext): AccountRecord => present(s.accounts.get(ctx.params.AccountId ?? ''), ctx);
  /** Refuse a change that leaves no enabled administrator. */
  const keepAdministrator = (before: AccountRecord, after: AccountRecord | undefined) => {
    if (!s.accounts.isEnabledAdministrator(before)) return;
    if (s.accounts.administratorsAfter(before.Id, after).length === 0) throw vendorError(409, 'LastAdministrator', before.UserName);
  };
  const uniqueName = (name: string, except?: string) => {
    const other = s.accounts.findByUserName(name);
    if (other && other.Id !== except) throw baseError('ResourceAlreadyExists', 'ManagerAccount', 'UserName', name);
  };

  routes.add({
    path: ACCOUNT_SERVICE_URI,
    type: AccountServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'AccountService',
        Name: 'Account Service',
        Description: 'Management Controller Account Service',
        ServiceEnabled: true,
        Status: { State: 'Enabled', Health: 'OK' },
        ...s.accountPolicy.get(),
        MaxPasswordLength: MAX_PASSWORD_LENGTH,
        LocalAccountAuth: 'Enabled',
        Accounts: { '@odata.id': ACCOUNTS_URI },
        Roles: { '@odata.id': ROLES_URI },
        Oem: { Vendor: { Links: { UserCertificateMapping: { '@odata.id': CERT_MAPPING_URI } } } },
      }),
    },
    patch: {
      privilege: Priv.userConfig,
      handler: (ctx) => {
        s.accountPolicy.update(ctx.body as Partial<AccountPolicySettings>);
        s.events.publish(resourceEvent('ResourceChanged'), ACCOUNT_SERVICE_URI, 'ResourceUpdated');
      },
    },
  });

  routes.add({
    path: ACCOUNTS_URI,
    type: collectionOf(ManagerAccountType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Accounts', s.accounts.list().map((a) => accountUri(a.Id)), { Description: 'Management Controller User Accounts' }),
    },
    post: {
      privilege: Priv.userConfig,
      body: NewAccountBody,
      handler: async (ctx) => {
        const b = ctx.body as unknown as AccountChange & { UserName: string; Password: string; RoleId: RoleId };
        // At most --max-accounts accounts (default 64); checked again after the hash, as concurrent POSTs may race.
        const admissible = () => {
          if (s.accounts.list().length >= s.config.maxAccounts) throw baseError('CreateLimitReachedForResource');
          uniqueName(b.UserName);
        };
        admissible();
        s.accountPolicy.checkPassword(b.Password);
        const record = await s.accounts.create(
          {
            UserName: b.UserName,
            Password: b.Password,
            RoleId: b.RoleId,
            Enabled: b.Enabled,
            Privileges: privilegesFor(undefined, b),
            PasswordChangeRequired: b.PasswordChangeRequired,
          },
          admissible,
        );
        s.events.publish(resourceEvent('ResourceCreated'), accountUri(record.Id), 'ResourceAdded');
        return created(accountUri(record.Id), accountBody(s, record));
      },
    },
  });

  routes.add({
    path: `${ACCOUNTS_URI}{AccountId}/`,
    type: ManagerAccountType,
    params: { AccountId: (id) => s.accounts.peek(id) !== undefined },
    ownedBy: (p, params) => p.accountId === params.AccountId,
    get: {
      privilege: [['UserConfigPriv'], ['ConfigureSelf']],
      handler: (ctx) => accountBody(s, find(ctx)),
    },
    patch: {
      privilege: [['UserConfigPriv'], ['ConfigureSelf']],
      // The account as it now is (e.g. PasswordChangeRequired false after a password change, DSP0266).
      respond: 'representation',
      handler: (ctx) => patchAccount(ctx),
    },
    delete: {
      privilege: Priv.userConfig,
      handler: (ctx) => {
        const a = find(ctx);
        keepAdministrator(a, undefined);
        s.accounts.delete(a.Id); // ends its sessions and certificate mappings (onChange)
        s.events.publish(resourceEvent('ResourceRemoved'), accountUri(a.Id), 'ResourceRemoved');
      },
    },
  });

  async function patchAccount(ctx: RequestContext): Promise<void> {
    const before = find(ctx);
    const change = ctx.body as AccountChange;
    // ConfigureSelf covers one's own password only (and nothing else while a change is required).
    if (!canManageAccounts(ctx.principal) && Object.keys(change).some((k) => k !== 'Password')) {
      throw baseError('InsufficientPrivilege');
    }
    if (change.Locked === true) throw baseError('PropertyValueIncorrect', 'Locked', 'true');
    if (change.UserName !== undefined) uniqueName(change.UserName, before.Id);
    let after: AccountRecord = { ...before };
    if (change.UserName !== undefined) after.UserName = change.UserName;
    if (change.Enabled !== undefined) after.Enabled = change.Enabled;
    if (change.RoleId !== undefined || change.Oem?.Vendor?.Privileges) {
      after.Privileges = privilegesFor(before.Privileges, change);
      after.RoleId = roleOf(after.Privileges);
    }
    if (change.Locked === false) after = s.accountPolicy.unlock(after);
    keepAdministrator(before, after);
    if (change.Password !== undefined) {
      s.accountPolicy.checkPassword(change.Password);
      after = await s.accounts.withPassword(after, change.Password);
    }
    // After the password: an administrator may set a new password and require its change at once.
    if (change.PasswordChangeRequired !== undefined) after.PasswordChangeRequired = change.PasswordChangeRequired;
    s.accounts.save(after);
    // A new password or a disabled account ends the account's other sessions.
    if (change.Password !== undefined || (before.Enabled && !after.Enabled)) {
      for (const session of s.sessions.list()) {
        if (session.AccountId === after.Id && session.Id !== ctx.principal.sessionId) s.sessions.delete(session.Id, 'account');
      }
    }
    s.events.publish(resourceEvent('ResourceChanged'), accountUri(after.Id), 'ResourceUpdated');
  }

  routes.add({
    path: ROLES_URI,
    type: collectionOf(RoleType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Roles', ROLE_IDS.map((r) => `${ROLES_URI}${r}/`), { Description: 'Management Controller Roles' }),
    },
  });

  // Predefined roles have no PATCH: their privileges cannot change (405 with Allow).
  routes.add({
    path: `${ROLES_URI}{RoleId}/`,
    type: RoleType,
    params: { RoleId: (id) => ROLE_IDS.some((r) => r === id) },
    get: {
      privilege: Priv.login,
      handler: (ctx) => roleBody(present(ROLE_IDS.find((r) => r === ctx.params.RoleId), ctx)),
    },
  });

  registerCertificateMappingRoutes(routes, s);
}
