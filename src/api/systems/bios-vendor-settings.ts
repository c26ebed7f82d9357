// The vendor BIOS resources with a current and a pending area, linked from
// Bios/Oem/Vendor/Links: server configuration lock, key management (KMS) and
// UEFI HTTPS boot TLS. The current area is read-only; its SettingsObject is the
// pending area, which the ROM takes in at the next server reset. Bios.ResetBios
// leaves them alone.
import type { VendorBiosSettings, VendorValues } from '../../domain/bios/vendor-settings.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { defineType, ro, t, commonProps, type Props } from '../../protocol/description.js';
import { messages } from '../../protocol/reply.js';
import type { PatchContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { settingsAnnotation } from './bios-vendor-types.js';
import { OEM, oemType } from '../../protocol/naming.js';

export const ServerConfigLockType = defineType({
  name: oemType('ServerConfigLock'),
  version: '1.0.0',
  owner: OEM,
  description: 'Server configuration lock of the system ROM: at POST it checks the configuration against the digest it recorded.',
  properties: {
    ...commonProps,
    ServerConfigLockStatus: t.enum(['Enabled', 'Disabled'] as const),
    ServerConfigLockPassword: t.string({ writeOnly: true, secret: true, nullable: true, maxLength: 32, pattern: '^[\\x20-\\x7E]*$' }),
    ServerConfigLockExcludeFwRevs: t.boolean(),
    ServerConfigLockDigest: ro(
      t.string({ nullable: true, description: 'Digest of the locked configuration, recorded at POST; null while unlocked.' }),
    ),
  },
});

export const KmsConfigType = defineType({
  name: oemType('KmsConfig'),
  version: '1.0.0',
  owner: OEM,
  description: 'Key management servers (KMIP) the system ROM uses for drive and memory encryption keys.',
  properties: {
    ...commonProps,
    PrimaryKmsServer: t.string({ maxLength: 255 }),
    PrimaryKmsPort: t.integer({ minimum: 1, maximum: 65535 }),
    SecondaryKmsServer: t.string({ maxLength: 255 }),
    SecondaryKmsPort: t.integer({ minimum: 1, maximum: 65535 }),
    KmsAccountName: t.string({ maxLength: 64 }),
    KmsPassword: t.string({ writeOnly: true, secret: true, nullable: true, maxLength: 64 }),
    KmsRequireRedundancy: t.boolean(),
  },
});

export const TlsConfigType = defineType({
  name: oemType('TlsConfig'),
  version: '1.0.0',
  owner: OEM,
  description: 'TLS settings of UEFI HTTPS boot.',
  properties: {
    ...commonProps,
    ProtocolVersion: t.enum(['AUTO', 'TLS1.2', 'TLS1.3'] as const),
    Ciphers: t.string({ maxLength: 1024, description: 'OpenSSL cipher list, colon-separated.' }),
    VerifyMode: t.enum(['NONE', 'PEER'] as const),
    HostnameCheck: t.enum(['ENABLED', 'DISABLED'] as const),
  },
});

/** What these resources use. */
export type BiosVendorSettingsDeps = Pick<Services, 'uris' | 'vendorBios'>;

type Base = '/redfish/v1/Systems/{SystemId}/Bios/';

interface Area {
  /** Path segment under Bios/, as linked. */
  segment: string;
  name: string;
  description: string;
  settings: VendorBiosSettings<VendorValues>;
}

function handlers(d: BiosVendorSettingsDeps) {
  const lock: Area = {
    segment: 'ServerConfigLock',
    name: 'Server Configuration Lock',
    description: 'Server configuration lock of the system ROM',
    settings: d.vendorBios.lock,
  };
  const kms: Area = {
    segment: 'KmsConfig',
    name: 'Key Management Settings',
    description: 'Key management servers of the system ROM',
    settings: d.vendorBios.kms,
  };
  const tls: Area = {
    segment: 'Tlsconfig',
    name: 'UEFI HTTPS Boot TLS Settings',
    description: 'TLS settings of UEFI HTTPS boot',
    settings: d.vendorBios.tls,
  };

  const current = (a: Area) => () => {
    const uri = `${d.uris.system()}Bios/${a.segment}/`;
    return {
      Id: a.segment,
      Name: `${a.name} (current)`,
      Description: a.description,
      ...a.settings.current(),
      '@Redfish.Settings': settingsAnnotation(`${uri}Settings/`),
    };
  };
  const pending = (a: Area) => () => ({
    Id: 'Settings',
    Name: `${a.name} (pending)`,
    Description: `${a.description}, applied at the next server reset`,
    ...a.settings.pending(),
  });
  const patch = (a: Area) => (ctx: { body: object; problems: ExtendedInfo[] }) => {
    if (Object.keys(ctx.body).length) a.settings.setPending(ctx.body);
    // The ROM reads these settings at POST.
    return messages(vendorMessage('SystemResetRequired'), ...ctx.problems);
  };

  return {
    getLock: current(lock),
    getLockPending: pending(lock),
    patchLockPending: (ctx: PatchContext<`${Base}ServerConfigLock/Settings/`, typeof ServerConfigLockType.properties>) => patch(lock)(ctx),
    getKms: current(kms),
    getKmsPending: pending(kms),
    patchKmsPending: (ctx: PatchContext<`${Base}KmsConfig/Settings/`, typeof KmsConfigType.properties>) => patch(kms)(ctx),
    getTls: current(tls),
    getTlsPending: pending(tls),
    patchTlsPending: (ctx: PatchContext<`${Base}Tlsconfig/Settings/`, typeof TlsConfigType.properties>) => patch(tls)(ctx),
  };
}

/** The links Bios/Oem/Vendor/Links adds for these resources. */
export const VendorSettingsLinks = {
  ServerConfigLock: t.link({ readOnly: true }),
  KmsConfig: t.link({ readOnly: true }),
  TlsConfig: t.link({ readOnly: true }),
} satisfies Props;

export function vendorSettingsLinks(systemUri: string): Record<keyof typeof VendorSettingsLinks, { '@odata.id': string }> {
  return {
    ServerConfigLock: { '@odata.id': `${systemUri}Bios/ServerConfigLock/` },
    KmsConfig: { '@odata.id': `${systemUri}Bios/KmsConfig/` },
    TlsConfig: { '@odata.id': `${systemUri}Bios/Tlsconfig/` },
  };
}

export function registerBiosVendorSettingsRoutes(routes: RouteTable, d: BiosVendorSettingsDeps): void {
  const h = handlers(d);
  const read = { privilege: Priv.login };
  const write = { privilege: Priv.hostBios };
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/ServerConfigLock/',
    type: ServerConfigLockType,
    get: { ...read, handler: h.getLock },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/ServerConfigLock/Settings/',
    type: ServerConfigLockType,
    get: { ...read, handler: h.getLockPending },
    patch: { ...write, handler: h.patchLockPending },
  });
  routes.add({ path: '/redfish/v1/Systems/{SystemId}/Bios/KmsConfig/', type: KmsConfigType, get: { ...read, handler: h.getKms } });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/KmsConfig/Settings/',
    type: KmsConfigType,
    get: { ...read, handler: h.getKmsPending },
    patch: { ...write, handler: h.patchKmsPending },
  });
  routes.add({ path: '/redfish/v1/Systems/{SystemId}/Bios/Tlsconfig/', type: TlsConfigType, get: { ...read, handler: h.getTls } });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/Tlsconfig/Settings/',
    type: TlsConfigType,
    get: { ...read, handler: h.getTlsPending },
    patch: { ...write, handler: h.patchTlsPending },
  });
}
