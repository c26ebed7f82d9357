// Directory (LDAP and Active Directory) settings of the AccountService: stored
// and validated only. No directory server is ever contacted and logins stay
// local (docs/accounts.md). The bind password is sealed at rest (store/secrets.ts) and
// never read back.
import { isIP } from 'node:net';
import { ROLE_IDS } from '../../lib/privileges.js';
import { type ExtendedInfo } from '../../messages/errors.js';
import { Refusal, baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';
import { isHostName } from '../../lib/network-names.js';

export const DIRECTORY_KINDS = ['LDAP', 'ActiveDirectory'] as const;
export type DirectoryKind = (typeof DIRECTORY_KINDS)[number];

export const AUTHENTICATION_TYPES = ['UsernameAndPassword'] as const;
/** As many directory servers and group mappings as the vendor's controller keeps. */
export const MAX_SERVICE_ADDRESSES = 4;
export const MAX_ROLE_MAPPINGS = 6;
export const MAX_BASE_DNS = 6;

export interface RoleMapping {
  RemoteGroup: string;
  LocalRole: string;
}

export interface DirectorySettings {
  ServiceEnabled: boolean;
  ServiceAddresses: string[];
  Authentication: { AuthenticationType: (typeof AUTHENTICATION_TYPES)[number]; Username: string; Password: string | null };
  LDAPService: { SearchSettings: { BaseDistinguishedNames: string[]; UsernameAttribute: string; GroupsAttribute: string } };
  RemoteRoleMapping: RoleMapping[];
}

/** What a client sends: every part optional, the password in clear (null clears it). */
export interface DirectoryChange {
  readonly ServiceEnabled?: boolean;
  readonly ServiceAddresses?: readonly string[];
  readonly Authentication?: {
    readonly AuthenticationType?: (typeof AUTHENTICATION_TYPES)[number];
    readonly Username?: string;
    readonly Password?: string | null;
  };
  readonly LDAPService?: {
    readonly SearchSettings?: {
      readonly BaseDistinguishedNames?: readonly string[];
      readonly UsernameAttribute?: string;
      readonly GroupsAttribute?: string;
    };
  };
  readonly RemoteRoleMapping?: readonly { readonly RemoteGroup?: string; readonly LocalRole?: string }[];
}

const defaults = (usernameAttribute: string): DirectorySettings => ({
  ServiceEnabled: false,
  ServiceAddresses: [],
  Authentication: { AuthenticationType: 'UsernameAndPassword', Username: '', Password: null },
  LDAPService: { SearchSettings: { BaseDistinguishedNames: [], UsernameAttribute: usernameAttribute, GroupsAttribute: 'memberOf' } },
  RemoteRoleMapping: [],
});

export const DEFAULT_DIRECTORY: Readonly<Record<DirectoryKind, DirectorySettings>> = {
  LDAP: defaults('uid'),
  ActiveDirectory: defaults('sAMAccountName'),
};

const SETTING: Record<DirectoryKind, string> = { LDAP: 'accounts.ldap', ActiveDirectory: 'accounts.activeDirectory' };

const PORT = '(?::(\\d{1,5}))?';
const URI = new RegExp(`^ldaps?://(\\[[0-9A-Fa-f:.]+\\]|[^/:\\[\\]]+)${PORT}/?$`);
const HOST_PORT = new RegExp(`^(\\[[0-9A-Fa-f:.]+\\]|[^/:\\[\\]]+)${PORT}$`);

/**
 * A directory server address: a host name or IP address, optionally with a
 * port (an IPv6 address in brackets then), or an ldap:// or ldaps:// URI of
 * that form. A bare IPv6 address is taken whole.
 */
export function isDirectoryAddress(v: string): boolean {
  if (isIP(v) === 6) return true;
  const m = URI.exec(v) ?? HOST_PORT.exec(v);
  if (!m) return false;
  const host = m[1]!;
  const port = m[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6;
  return isIP(host) === 4 || isHostName(host);
}

const ATTRIBUTE = /^[A-Za-z][A-Za-z0-9-]*$/;
// attr=value pairs separated by commas; a value may hold escaped characters (RFC 4514).
const DN = /^\s*[A-Za-z][A-Za-z0-9-]*=(?:\\.|[^,\\])+(?:,\s*[A-Za-z][A-Za-z0-9-]*=(?:\\.|[^,\\])+)*$/;

export function isDistinguishedName(v: string): boolean {
  return DN.test(v);
}

/** The settings as stored (the password sealed). */
export class DirectorySettingsStore {
  constructor(private readonly store: DocumentStore) {}

  get(kind: DirectoryKind): DirectorySettings {
    const def = DEFAULT_DIRECTORY[kind];
    const s = this.store.setting<DirectorySettings>(SETTING[kind], def).get();
    return {
      ...def,
      ...s,
      Authentication: { ...def.Authentication, ...s.Authentication },
      LDAPService: { SearchSettings: { ...def.LDAPService.SearchSettings, ...s.LDAPService?.SearchSettings } },
    };
  }

  /** True when a bind password is stored. */
  passwordSet(kind: DirectoryKind): boolean {
    return this.get(kind).Authentication.Password !== null;
  }

  /** Every given change checked first (all problems refused at once); then all are written. */
  change(changes: Partial<Record<DirectoryKind, DirectoryChange>>): void {
    const next: [DirectoryKind, DirectorySettings][] = [];
    const problems: ExtendedInfo[] = [];
    for (const kind of DIRECTORY_KINDS) {
      const c = changes[kind];
      if (c === undefined) continue;
      const r = changedDirectory(kind, this.get(kind), c);
      problems.push(...r.problems);
      next.push([kind, r.settings]);
    }
    if (problems.length) throw new Refusal(problems);
    for (const [kind, settings] of next) {
      // Only a new password arrives in clear; a kept one is sealed already.
      const given = changes[kind]?.Authentication?.Password;
      const sealed = typeof given === 'string' ? this.store.secrets.seal(given) : settings.Authentication.Password;
      this.store
        .setting<DirectorySettings>(SETTING[kind], DEFAULT_DIRECTORY[kind])
        .set({ ...settings, Authentication: { ...settings.Authentication, Password: sealed } });
    }
  }

  /** Back to the factory settings (Manager.ResetToDefaults). */
  reset(): void {
    for (const kind of DIRECTORY_KINDS)
      this.store.setting<DirectorySettings>(SETTING[kind], DEFAULT_DIRECTORY[kind]).set(DEFAULT_DIRECTORY[kind]);
  }
}

/**
 * One provider's settings after a change, and the problems of it: addresses
 * must be host names, IP addresses or ldap(s) URIs; base DNs distinguished
 * names; attributes LDAP attribute names; a mapping names a remote group and
 * an existing local role; an enabled service needs an address.
 */
export function changedDirectory(
  kind: DirectoryKind,
  current: DirectorySettings,
  c: DirectoryChange,
): { settings: DirectorySettings; problems: ExtendedInfo[] } {
  const problems: ExtendedInfo[] = [];
  const refuse = (e: Refusal) => problems.push(...e.infos);
  const search = c.LDAPService?.SearchSettings;
  const settings: DirectorySettings = {
    ServiceEnabled: c.ServiceEnabled ?? current.ServiceEnabled,
    ServiceAddresses: c.ServiceAddresses ? c.ServiceAddresses.filter((a) => a.trim() !== '') : current.ServiceAddresses,
    Authentication: {
      AuthenticationType: c.Authentication?.AuthenticationType ?? current.Authentication.AuthenticationType,
      Username: c.Authentication?.Username ?? current.Authentication.Username,
      Password: c.Authentication?.Password !== undefined ? c.Authentication.Password : current.Authentication.Password,
    },
    LDAPService: {
      SearchSettings: {
        BaseDistinguishedNames: search?.BaseDistinguishedNames
          ? [...search.BaseDistinguishedNames]
          : current.LDAPService.SearchSettings.BaseDistinguishedNames,
        UsernameAttribute: search?.UsernameAttribute ?? current.LDAPService.SearchSettings.UsernameAttribute,
        GroupsAttribute: search?.GroupsAttribute ?? current.LDAPService.SearchSettings.GroupsAttribute,
      },
    },
    RemoteRoleMapping: current.RemoteRoleMapping,
  };

  const addresses = settings.ServiceAddresses;
  const badAddress = addresses.find((a) => !isDirectoryAddress(a));
  if (badAddress !== undefined)
    refuse(baseRefusal('PropertyValueFormatError', badAddress, `${kind}/ServiceAddresses`).about(`${kind}/ServiceAddresses`));
  else if (addresses.length > MAX_SERVICE_ADDRESSES) {
    refuse(baseRefusal('PropertyValueOutOfRange', JSON.stringify(addresses), `${kind}/ServiceAddresses`).about(`${kind}/ServiceAddresses`));
  }

  const dnPath = `${kind}/LDAPService/SearchSettings/BaseDistinguishedNames`;
  const dns = settings.LDAPService.SearchSettings.BaseDistinguishedNames;
  const badDn = dns.find((d) => !isDistinguishedName(d));
  if (badDn !== undefined) refuse(baseRefusal('PropertyValueFormatError', badDn, dnPath).about(dnPath));
  else if (dns.length > MAX_BASE_DNS) refuse(baseRefusal('PropertyValueOutOfRange', JSON.stringify(dns), dnPath).about(dnPath));

  for (const attr of ['UsernameAttribute', 'GroupsAttribute'] as const) {
    const v = settings.LDAPService.SearchSettings[attr];
    const path = `${kind}/LDAPService/SearchSettings/${attr}`;
    if (!ATTRIBUTE.test(v)) refuse(baseRefusal('PropertyValueFormatError', v, path).about(path));
  }

  if (c.RemoteRoleMapping !== undefined) {
    const mappings: RoleMapping[] = [];
    c.RemoteRoleMapping.forEach((m, i) => {
      const at = `${kind}/RemoteRoleMapping/${i}`;
      if (m.RemoteGroup === undefined || m.RemoteGroup.trim() === '') {
        refuse(baseRefusal('PropertyMissing', `${at}/RemoteGroup`).about(`${at}/RemoteGroup`));
      } else if (m.LocalRole === undefined) {
        refuse(baseRefusal('PropertyMissing', `${at}/LocalRole`).about(`${at}/LocalRole`));
      } else if (!ROLE_IDS.some((r) => r === m.LocalRole)) {
        refuse(baseRefusal('PropertyValueNotInList', m.LocalRole, `${at}/LocalRole`).about(`${at}/LocalRole`));
      } else {
        mappings.push({ RemoteGroup: m.RemoteGroup, LocalRole: m.LocalRole });
      }
    });
    if (c.RemoteRoleMapping.length > MAX_ROLE_MAPPINGS) {
      refuse(
        baseRefusal('PropertyValueOutOfRange', String(c.RemoteRoleMapping.length), `${kind}/RemoteRoleMapping`).about(
          `${kind}/RemoteRoleMapping`,
        ),
      );
    }
    settings.RemoteRoleMapping = mappings;
  }

  if (settings.ServiceEnabled && addresses.length === 0 && !problems.length) {
    refuse(baseRefusal('PropertyValueConflict', `${kind}/ServiceEnabled`, `${kind}/ServiceAddresses`).about(`${kind}/ServiceEnabled`));
  }
  return { settings, problems };
}
