// Resource descriptions of the AccountService area: the service, accounts,
// roles and user certificate mappings.
import { MAX_PASSWORD_LENGTH } from '../../domain/accounts/account-policy.js';
import { AUTHENTICATION_TYPES, MAX_BASE_DNS, MAX_ROLE_MAPPINGS, MAX_SERVICE_ADDRESSES } from '../../domain/accounts/directory-settings.js';
import { ROLE_IDS, type VendorPrivilege } from '../../lib/privileges.js';
import { collectionOf, commonProps, defineType, oem, ro, statusProp, t, type Prop } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

/** One switch per vendor privilege (every one, checked by `satisfies`). */
export const VendorAccountPrivilegesProps = {
  LoginPriv: t.boolean(),
  RemoteConsolePriv: t.boolean(),
  UserConfigPriv: t.boolean(),
  VirtualMediaPriv: t.boolean(),
  VirtualPowerAndResetPriv: t.boolean(),
  ManagerConfigPriv: t.boolean(),
  HostBIOSConfigPriv: t.boolean(),
  HostNICConfigPriv: t.boolean(),
  HostStorageConfigPriv: t.boolean(),
  SystemRecoveryConfigPriv: t.boolean(),
} satisfies Record<VendorPrivilege, Prop>;

export const VendorManagerAccountType = defineType({
  name: oemType('ManagerAccount'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of an account: its descriptive name and privilege switches. RoleId follows from the switches.',
  properties: {
    LoginName: t.string({
      minLength: 1,
      maxLength: 39,
      description: 'A descriptive name of the account; its UserName unless one is given.',
    }),
    Privileges: t.object(VendorAccountPrivilegesProps, { typeName: 'Privileges' }),
  },
});

export const ManagerAccountType = defineType({
  name: 'ManagerAccount',
  version: '1.14.1',
  owner: 'DMTF',
  description: 'A user account of the management controller.',
  properties: {
    ...commonProps,
    UserName: t.string({ required: true, minLength: 1, maxLength: 39, pattern: '^[^\\s:]+$' }),
    Password: t.string({ required: true, writeOnly: true, secret: true, nullable: true, maxLength: MAX_PASSWORD_LENGTH }),
    RoleId: t.enum(ROLE_IDS, { description: 'Given on create, or derived from Oem privileges (ReadOnly without either).' }),
    Enabled: t.boolean(),
    Locked: t.boolean({ description: 'True while the account is locked out after failed logins; PATCH false to unlock.' }),
    PasswordChangeRequired: t.boolean(),
    AccountTypes: ro(t.array(t.string())),
    Links: t.object({ Role: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
    Oem: oem(VendorManagerAccountType),
  },
});

/** What a POST to the accounts collection may carry (Locked is not for creation). */
export const NewAccountBody = (({ Locked: _locked, ...rest }) => rest)(ManagerAccountType.properties);

export const RoleType = defineType({
  name: 'Role',
  version: '1.3.3',
  owner: 'DMTF',
  description: 'A predefined role and the privileges it grants. Predefined roles cannot be changed.',
  properties: {
    ...commonProps,
    RoleId: ro(t.string()),
    IsPredefined: ro(t.boolean()),
    AssignedPrivileges: ro(t.array(t.string())),
    OemPrivileges: ro(t.array(t.string())),
  },
});

export const VendorAccountServiceType = defineType({
  name: oemType('AccountService'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the account service.',
  properties: {
    MinPasswordLength: ro(t.integer({ description: "The password policy's minimum length, where iLO's clients read it." })),
    Links: t.object({ UserCertificateMapping: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
    EnforcePasswordComplexity: ro(t.boolean()),
    AuthFailureDelayTimeSeconds: ro(t.integer()),
    AuthFailureLoggingThreshold: ro(t.integer()),
    AuthFailuresBeforeDelay: ro(t.integer()),
    DefaultUserName: ro(t.string({ nullable: true })),
    DefaultPassword: ro(t.string({ nullable: true })),
    DirectorySettings: t.object(
      {
        LdapAuthenticationMode: ro(t.enum(['Disabled', 'DefaultSchema', 'ExtendedSchema'])),
        LdapCaCertificateLoaded: ro(t.boolean()),
        LdapCaCertificates: t.link({ readOnly: true }),
        LdapServerPort: ro(t.integer()),
      },
      { readOnly: true, typeName: 'DirectorySettings' },
    ),
    KerberosSettings: t.object(
      { KDCServerPort: ro(t.integer()), KerberosRealm: ro(t.string({ nullable: true })) },
      { readOnly: true, typeName: 'KerberosSettings' },
    ),
    DirectoryTest: t.link({ readOnly: true }),
  },
});

/** LDAP and ActiveDirectory: the same shape (DMTF ExternalAccountProvider); settings stored only, no directory behind them. */
const ExternalAccountProviderProp = t.object(
  {
    AccountProviderType: ro(
      t.enum(['LDAPService', 'ActiveDirectoryService'], { deprecated: 'the property that holds the provider (LDAP, ActiveDirectory)' }),
    ),
    ServiceEnabled: t.boolean({ description: 'Stored only: logins stay local, no directory server is contacted.' }),
    ServiceAddresses: t.array(t.string({ maxLength: 255 }), {
      description: `Up to ${MAX_SERVICE_ADDRESSES} directory servers: host names or IP addresses (with an optional :port), or ldap:// or ldaps:// URIs.`,
    }),
    PasswordSet: ro(t.boolean({ description: 'True when a bind password is stored.' })),
    Certificates: t.link({ readOnly: true, description: "LDAP's: the CA certificates a connection to the directory trusts." }),
    Authentication: t.object(
      {
        AuthenticationType: t.enum(AUTHENTICATION_TYPES),
        Username: t.string({ maxLength: 255, description: 'The bind DN or user name.' }),
        Password: t.string({
          nullable: true,
          writeOnly: true,
          secret: true,
          maxLength: 255,
          description: 'The bind password; sealed at rest.',
        }),
      },
      { typeName: 'Authentication' },
    ),
    LDAPService: t.object(
      {
        SearchSettings: t.object(
          {
            BaseDistinguishedNames: t.array(t.string({ maxLength: 255 }), { description: `Up to ${MAX_BASE_DNS} search bases.` }),
            UsernameAttribute: t.string({ maxLength: 64 }),
            GroupsAttribute: t.string({ maxLength: 64 }),
          },
          { typeName: 'LDAPSearchSettings' },
        ),
      },
      { typeName: 'LDAPService' },
    ),
    RemoteRoleMapping: t.array(
      t.object(
        {
          RemoteGroup: t.string({ maxLength: 255, description: 'A directory group (name or DN).' }),
          LocalRole: t.string({ description: 'The RoleId its members get: one of the roles in Roles.' }),
        },
        { typeName: 'RoleMapping' },
      ),
      { description: `Up to ${MAX_ROLE_MAPPINGS} group mappings.` },
    ),
  },
  { typeName: 'ExternalAccountProvider' },
);

export const AccountServiceType = defineType({
  name: 'AccountService',
  version: '1.18.1',
  owner: 'DMTF',
  description: 'Account management: accounts, roles, the password and lockout policy, and the directory (LDAP, Active Directory) settings.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    MinPasswordLength: t.integer({ minimum: 1, maximum: MAX_PASSWORD_LENGTH }),
    MaxPasswordLength: ro(t.integer()),
    AccountLockoutThreshold: t.integer({ minimum: 0, maximum: 100, description: 'Failed logins before lockout; 0 disables lockout.' }),
    AccountLockoutDuration: t.integer({
      minimum: 0,
      maximum: 86400,
      units: 's',
      description: 'Seconds an account stays locked; 0 disables lockout.',
    }),
    AccountLockoutCounterResetAfter: t.integer({ minimum: 0, maximum: 86400, units: 's' }),
    AccountLockoutCounterResetEnabled: ro(
      t.boolean({ description: 'Failures older than AccountLockoutCounterResetAfter no longer count: always so.' }),
    ),
    HTTPBasicAuth: ro(
      t.enum(['Enabled', 'Unadvertised', 'Disabled'], { description: 'HTTP Basic authentication is accepted: always so.' }),
    ),
    LocalAccountAuth: ro(t.enum(['Enabled', 'Disabled', 'Fallback', 'LocalFirst'])),
    LDAP: ExternalAccountProviderProp,
    ActiveDirectory: ExternalAccountProviderProp,
    Accounts: t.link({ readOnly: true }),
    Roles: t.link({ readOnly: true }),
    Oem: oem(VendorAccountServiceType, { readOnly: true }),
  },
});

export const VendorCertificateMappingType = defineType({
  name: oemType('CertificateMapping'),
  version: '1.0.0',
  owner: OEM,
  description: 'Maps a client certificate (by its SHA-256 fingerprint) to the account it logs in as.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    UserName: t.string({ required: true, createOnly: true }),
    Fingerprint: t.string({
      required: true,
      createOnly: true,
      description: "On creation the user's PEM certificate (or its SHA-256 fingerprint); read back as the SHA-256 fingerprint.",
    }),
    FingerprintHashAlgorithm: ro(t.string()),
    Links: t.object({ Account: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});

export const VendorCertificateMappingCollectionType = collectionOf(VendorCertificateMappingType);
