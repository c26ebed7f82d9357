// Who may do what: standard Redfish privileges, the vendor's account
// privileges, the predefined roles, and how one maps onto the other.

export const STANDARD_PRIVILEGES = ['Login', 'ConfigureManager', 'ConfigureUsers', 'ConfigureSelf', 'ConfigureComponents'] as const;
export type StandardPrivilege = (typeof STANDARD_PRIVILEGES)[number];

export const VENDOR_PRIVILEGES = [
  'LoginPriv',
  'RemoteConsolePriv',
  'UserConfigPriv',
  'VirtualMediaPriv',
  'VirtualPowerAndResetPriv',
  'ManagerConfigPriv',
  'HostBIOSConfigPriv',
  'HostNICConfigPriv',
  'HostStorageConfigPriv',
  'SystemRecoveryConfigPriv',
] as const;
export type VendorPrivilege = (typeof VENDOR_PRIVILEGES)[number];

export type Privilege = StandardPrivilege | VendorPrivilege;

/** A route's requirement: any one of the alternatives, each needing all its privileges. */
export type PrivilegeRule = readonly (readonly Privilege[])[];

export type VendorPrivileges = Record<VendorPrivilege, boolean>;

export const ROLE_IDS = ['Administrator', 'Operator', 'ReadOnly'] as const;
export type RoleId = (typeof ROLE_IDS)[number];

export interface RoleDefinition {
  readonly id: RoleId;
  readonly assigned: readonly StandardPrivilege[];
  readonly oem: readonly VendorPrivilege[];
}

export const ROLES: Readonly<Record<RoleId, RoleDefinition>> = {
  Administrator: {
    id: 'Administrator',
    assigned: ['Login', 'ConfigureManager', 'ConfigureUsers', 'ConfigureSelf', 'ConfigureComponents'],
    oem: [...VENDOR_PRIVILEGES],
  },
  Operator: {
    id: 'Operator',
    assigned: ['Login', 'ConfigureSelf', 'ConfigureComponents'],
    oem: [
      'LoginPriv',
      'RemoteConsolePriv',
      'VirtualMediaPriv',
      'VirtualPowerAndResetPriv',
      'HostBIOSConfigPriv',
      'HostNICConfigPriv',
      'HostStorageConfigPriv',
    ],
  },
  ReadOnly: {
    id: 'ReadOnly',
    assigned: ['Login', 'ConfigureSelf'],
    oem: ['LoginPriv'],
  },
};

export function vendorPrivilegesOfRole(role: RoleId): VendorPrivileges {
  const granted = new Set<VendorPrivilege>(ROLES[role].oem);
  return Object.fromEntries(VENDOR_PRIVILEGES.map((p) => [p, granted.has(p)])) as VendorPrivileges;
}

/**
 * The vendor privileges whose rights together make up ConfigureComponents: power and reset, virtual
 * media, and the host's BIOS, NIC and storage configuration. Each grants only its own part.
 */
const COMPONENT_PRIVILEGES: readonly VendorPrivilege[] = [
  'VirtualPowerAndResetPriv',
  'VirtualMediaPriv',
  'HostBIOSConfigPriv',
  'HostNICConfigPriv',
  'HostStorageConfigPriv',
];

/**
 * The effective privilege set of an account. The vendor booleans are the truth; a standard
 * privilege follows from them only when the account holds everything it covers, so no vendor
 * privilege alone grants more than what the vendor documents for it (iLO: VirtualMediaPriv is
 * virtual media only, never the power limit or the UID light).
 */
export function effectivePrivileges(vendor: VendorPrivileges): Set<Privilege> {
  const set = new Set<Privilege>();
  for (const p of VENDOR_PRIVILEGES) if (vendor[p]) set.add(p);
  if (!vendor.LoginPriv) return set;
  set.add('Login');
  set.add('ConfigureSelf');
  if (vendor.ManagerConfigPriv) set.add('ConfigureManager');
  if (vendor.UserConfigPriv) set.add('ConfigureUsers');
  if (COMPONENT_PRIVILEGES.every((p) => vendor[p])) set.add('ConfigureComponents');
  return set;
}

/** The role that best describes a set of vendor privileges (the vendor derives RoleId this way). */
export function roleOf(vendor: VendorPrivileges): RoleId {
  if (vendor.UserConfigPriv && vendor.ManagerConfigPriv) return 'Administrator';
  if (vendor.VirtualPowerAndResetPriv || vendor.HostBIOSConfigPriv) return 'Operator';
  return 'ReadOnly';
}

export function satisfies(held: ReadonlySet<Privilege>, rule: PrivilegeRule): boolean {
  // Loops, not some/every: asked on every request, and per member of an $expand.
  for (const alternative of rule) {
    let all = true;
    for (const p of alternative) {
      if (!held.has(p)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/** Named requirements, so routes read like bmcweb's privilege registry. */
export const Priv = {
  none: [[]] as PrivilegeRule,
  login: [['Login']] as PrivilegeRule,
  configureManager: [['ConfigureManager']] as PrivilegeRule,
  configureUsers: [['ConfigureUsers']] as PrivilegeRule,
  configureComponents: [['ConfigureComponents']] as PrivilegeRule,
  configureSelf: [['ConfigureSelf']] as PrivilegeRule,
  /** Account administration: the vendor's UserConfigPriv. */
  userConfig: [['UserConfigPriv']] as PrivilegeRule,
  /** Manager settings: the vendor's ManagerConfigPriv. */
  managerConfig: [['ManagerConfigPriv']] as PrivilegeRule,
  powerAndReset: [['VirtualPowerAndResetPriv']] as PrivilegeRule,
  /** The power limit (capping throttles the host): iLO's power settings, or the power privilege. */
  powerLimit: [['ManagerConfigPriv'], ['VirtualPowerAndResetPriv']] as PrivilegeRule,
  /** BIOS, boot and the server's identity (AssetTag, HostName, the UID light): the vendor's HostBIOSConfigPriv. */
  hostBios: [['HostBIOSConfigPriv']] as PrivilegeRule,
  /** Inserting and ejecting virtual media: the vendor's VirtualMediaPriv. */
  virtualMedia: [['VirtualMediaPriv']] as PrivilegeRule,
  /** Array controller configuration (volumes, drive LEDs, secure erase): the vendor's HostStorageConfigPriv. */
  hostStorage: [['HostStorageConfigPriv']] as PrivilegeRule,
  systemRecovery: [['SystemRecoveryConfigPriv']] as PrivilegeRule,
} as const;
