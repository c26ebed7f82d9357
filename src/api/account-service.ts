// AccountService: accounts and roles. The core serves them read-only; the
// accounts area adds creation, changes, lockout and certificate mapping.
import { ROLES, ROLE_IDS, VENDOR_PRIVILEGES, Priv, type RoleId } from '../domain/privileges.js';
import type { AccountRecord } from '../domain/accounts.js';
import { baseError } from '../messages/errors.js';
import { collectionOf, defineType, oem, ro, statusProp, t, type Props } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const ACCOUNT_SERVICE_URI = '/redfish/v1/AccountService/';
export const ACCOUNTS_URI = '/redfish/v1/AccountService/Accounts/';
export const ROLES_URI = '/redfish/v1/AccountService/Roles/';

export const VendorAccountPrivilegesProps: Props = Object.fromEntries(VENDOR_PRIVILEGES.map((p) => [p, t.boolean()]));

export const VendorManagerAccountType = defineType({
  name: 'VendorManagerAccount',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Vendor extension of an account: its privilege switches.',
  properties: {
    Privileges: t.object(VendorAccountPrivilegesProps, { typeName: 'Privileges' }),
  },
});

export const ManagerAccountType = defineType({
  name: 'ManagerAccount',
  version: '1.10.0',
  owner: 'DMTF',
  description: 'A user account of the management controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
    UserName: t.string({ required: true, minLength: 1, maxLength: 39, pattern: '^[^\\s:]+$' }),
    Password: t.string({ required: true, writeOnly: true, nullable: true, maxLength: 39 }),
    RoleId: t.enum(ROLE_IDS, { required: true }),
    Enabled: t.boolean(),
    Locked: t.boolean(),
    PasswordChangeRequired: t.boolean(),
    AccountTypes: ro(t.array(t.string())),
    Links: t.object({ Role: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
    Oem: oem(VendorManagerAccountType),
  },
});

export const RoleType = defineType({
  name: 'Role',
  version: '1.3.1',
  owner: 'DMTF',
  description: 'A predefined role and the privileges it grants.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
    RoleId: ro(t.string()),
    IsPredefined: ro(t.boolean()),
    AssignedPrivileges: ro(t.array(t.string())),
    OemPrivileges: ro(t.array(t.string())),
  },
});

export const AccountServiceType = defineType({
  name: 'AccountService',
  version: '1.13.0',
  owner: 'DMTF',
  description: 'Account management: accounts, roles and the password and lockout policy.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    MinPasswordLength: t.integer({ minimum: 0, maximum: 39 }),
    MaxPasswordLength: ro(t.integer()),
    AccountLockoutThreshold: t.integer({ minimum: 0, maximum: 100 }),
    AccountLockoutDuration: t.integer({ minimum: 0, maximum: 86400, units: 's' }),
    AccountLockoutCounterResetAfter: t.integer({ minimum: 0, maximum: 86400, units: 's' }),
    LocalAccountAuth: ro(t.enum(['Enabled', 'Disabled', 'Fallback', 'LocalFirst'])),
    Accounts: t.link({ readOnly: true }),
    Roles: t.link({ readOnly: true }),
  },
});

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
    Locked: a.Locked,
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

export function registerAccountServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.AccountService = ACCOUNT_SERVICE_URI;

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
        MinPasswordLength: 8,
        MaxPasswordLength: 39,
        AccountLockoutThreshold: 0,
        AccountLockoutDuration: 0,
        AccountLockoutCounterResetAfter: 0,
        LocalAccountAuth: 'Enabled',
        Accounts: { '@odata.id': ACCOUNTS_URI },
        Roles: { '@odata.id': ROLES_URI },
      }),
    },
  });

  routes.add({
    path: ACCOUNTS_URI,
    type: collectionOf(ManagerAccountType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Accounts', s.accounts.list().map((a) => accountUri(a.Id)), { Description: 'Management Controller User Accounts' }),
    },
  });

  routes.add({
    path: `${ACCOUNTS_URI}{AccountId}/`,
    type: ManagerAccountType,
    ownedBy: (p, params) => p.accountId === params.AccountId,
    get: {
      privilege: [['ConfigureUsers'], ['ConfigureSelf']],
      handler: (ctx) => {
        const a = s.accounts.get(ctx.params.AccountId ?? '');
        if (!a) throw baseError('ResourceNotFound', 'ManagerAccount', ctx.params.AccountId ?? '');
        return accountBody(s, a);
      },
    },
  });

  routes.add({
    path: ROLES_URI,
    type: collectionOf(RoleType),
    get: {
      privilege: Priv.login,
      handler: () => collection('Roles', ROLE_IDS.map((r) => `${ROLES_URI}${r}/`), { Description: 'Management Controller Roles' }),
    },
  });

  routes.add({
    path: `${ROLES_URI}{RoleId}/`,
    type: RoleType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const id = ROLE_IDS.find((r) => r === ctx.params.RoleId);
        if (!id) throw baseError('ResourceNotFound', 'Role', ctx.params.RoleId ?? '');
        return roleBody(id);
      },
    },
  });
}
