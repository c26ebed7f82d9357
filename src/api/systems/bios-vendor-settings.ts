// The vendor BIOS resources with a current and a pending area, linked from
// Bios/Oem/Vendor/Links: the boot order, the UEFI iSCSI initiator, server
// configuration lock, key management (KMS) and UEFI HTTPS boot TLS, each with
// Settings/ (the pending area, taken in at the next server reset) and BaseConfigs/
// (its defaults), and the PCI settings map. They live where iLO 6 (and iLO 5 v2)
// puts them, Bios/Oem/Vendor/<Name>/, or with --vendor-bios-place bios where
// the service did before (and iLO 5 v3 does), Bios/<Name>/. Bios.ResetBios leaves them alone.
import type { BootOptionDef } from '../../domain/bios/boot.js';
import type { IscsiState } from '../../domain/bios/iscsi.js';
import { biosMappings, nicBootSources, type BiosPciMapping } from '../../domain/bios/pci-map.js';
import { tlsCaCertificate, type VendorBiosSettings, type VendorValues } from '../../domain/bios/vendor-settings.js';
import type { SettingsApplied } from '../../domain/bios/settings-applied.js';
import { mergePatch } from '../../lib/json-merge.js';
import { Priv } from '../../lib/privileges.js';
import { baseMessage, vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { baseError } from '../../protocol/errors.js';
import { defineType, ro, t, type ResourceType } from '../../protocol/description.js';
import { messages } from '../../protocol/reply.js';
import type { RouteTable } from '../../protocol/routes.js';
import { argText } from '../../messages/args.js';
import { BIOS_ATTRIBUTES } from '../../platform/bios-attributes.js';
import type { Services } from '../services.js';
import {
  BaseConfigsType,
  BiosMappingType,
  IscsiType,
  VendorServerBootSettingsType,
  settingsAnnotation,
  vendorAreaProps,
} from './bios-vendor-types.js';
import { OEM, oemType } from '../../protocol/naming.js';

export const ServerConfigLockType = defineType({
  name: oemType('ServerConfigLock'),
  version: '1.0.0',
  owner: OEM,
  description: 'Server configuration lock of the system ROM: at POST it checks the configuration against the digest it recorded.',
  properties: {
    ...vendorAreaProps,
    ServerConfigLockStatus: t.enum(['Enabled', 'Disabled'] as const),
    ServerConfigLockPassword: t.string({ writeOnly: true, secret: true, nullable: true, maxLength: 32, pattern: '^[\\x20-\\x7E]*$' }),
    ServerConfigLockExcludeFwRevs: t.boolean(),
    ServerConfigLockExcludeCpus: t.boolean({
      description: 'Leave the processors out of the digest (taken when the lock is next enabled).',
    }),
    ServerConfigLockExcludeDimms: t.boolean({ description: 'Leave the DIMMs out of the digest.' }),
    ServerConfigLockExcludePciSlots: t.boolean({ description: 'Leave the PCIe slots out of the digest.' }),
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
    ...vendorAreaProps,
    PrimaryKmsServer: t.string({ maxLength: 255 }),
    PrimaryKmsPort: t.integer({ minimum: 1, maximum: 65535 }),
    SecondaryKmsServer: t.string({ maxLength: 255 }),
    SecondaryKmsPort: t.integer({ minimum: 1, maximum: 65535 }),
    KmsAccountName: t.string({ maxLength: 64 }),
    KmsPassword: t.string({ writeOnly: true, secret: true, nullable: true, maxLength: 64 }),
    KmsRequireRedundancy: t.boolean(),
    KeyManagementType: t.enum(['Disabled', 'Local', 'Remote'] as const),
    DeleteUnusedEncryptionKeys: t.enum(['Disabled', 'Enabled'] as const),
    OpalBlockSid: t.enum(['Disabled', 'Enabled'] as const, {
      description: 'TCG Block SID: the ROM blocks taking ownership of Opal drives.',
    }),
  },
});

export const TlsConfigType = defineType({
  name: oemType('TlsConfig'),
  version: '1.0.0',
  owner: OEM,
  description: 'TLS settings of UEFI HTTPS boot.',
  properties: {
    ...vendorAreaProps,
    ProtocolVersion: t.enum(['AUTO', 'TLS1.2', 'TLS1.3'] as const),
    Ciphers: t.string({ maxLength: 1024, description: 'OpenSSL cipher list, colon-separated.' }),
    VerifyMode: t.enum(['NONE', 'PEER'] as const),
    HostnameCheck: t.enum(['ENABLED', 'DISABLED'] as const),
    Certificates: ro(
      t.array(
        t.object(
          {
            FingerPrint: ro(t.string()),
            Subject: ro(t.string()),
            Issuer: ro(t.string()),
            SerialNumber: ro(t.string()),
            ValidNotBefore: ro(t.string({ format: 'date-time' })),
            ValidNotAfter: ro(t.string({ format: 'date-time' })),
          },
          { typeName: 'TlsCertificate' },
        ),
      ),
    ),
    NewCertificates: t.array(
      t.object(
        { X509Certificate: t.string({ maxLength: 16384, description: 'A PEM CA certificate to enroll at the next POST.' }) },
        { typeName: 'NewCertificate' },
      ),
      { maxItems: 64 },
    ),
    DeleteCertificates: t.array(
      t.object(
        { FingerPrint: t.string({ maxLength: 128, description: 'The FingerPrint of a certificate to remove at the next POST.' }) },
        { typeName: 'DeleteCertificate' },
      ),
      { maxItems: 64 },
    ),
    TlsCaCertificateCount: ro(t.integer()),
  },
});

/** What these resources use. */
export type BiosVendorSettingsDeps = Pick<
  Services,
  'config' | 'naming' | 'dialect' | 'uris' | 'vendorBios' | 'boot' | 'iscsi' | 'hardware' | 'bios'
>;

/** Where the vendor BIOS resources live under Bios/, and how each is spelled there. */
interface Place {
  /** Under Bios/ in links (the canonical Oem key, renamed on the way out). */
  prefix: string;
  /** Under Bios/ in the route table (the Oem key as served). */
  routePrefix: string;
  spelling: 'segment' | 'legacy';
}

/** The place --vendor-bios-place names: Bios/Oem/Vendor/ (iLO 6, iLO 5 v2) or Bios/ itself (the earlier place, iLO 5 v3). */
function placeOf(d: Pick<Services, 'config' | 'naming'>): Place {
  return d.config.vendorBiosPlace === 'bios'
    ? { prefix: '', routePrefix: '', spelling: 'legacy' }
    : { prefix: `Oem/${OEM}/`, routePrefix: `Oem/${d.naming.key}/`, spelling: 'segment' };
}

interface Area {
  /** Path segment and link name under Bios/Oem/Vendor/. */
  segment: 'Boot' | 'iScsi' | 'ServerConfigLock' | 'KmsConfig' | 'TlsConfig';
  /** Its segment at the service's earlier place, directly under Bios/. */
  legacy: string;
  type: ResourceType;
  /** "<name> Current Settings", "… Pending Settings", "… Default Settings" (clients look for "current" and "pending"). */
  name: string;
  description: string;
  current(): object;
  pending(): object;
  defaults(): object;
  /** When POST last took the pending changes in. */
  applied: SettingsApplied;
  /** Stores a pending change; throws a RedfishError for a value the ROM would refuse. */
  setPending(body: Record<string, unknown>): void;
}

function settingsArea(
  segment: Area['segment'],
  legacy: string,
  type: ResourceType,
  name: string,
  description: string,
  settings: VendorBiosSettings<VendorValues>,
): Area {
  return {
    segment,
    legacy,
    type,
    name,
    description,
    current: () => settings.current(),
    pending: () => settings.pending(),
    defaults: () => settings.defaults(),
    applied: settings.applied,
    setPending: (body) => settings.setPending(body as Partial<VendorValues>),
  };
}

/** The annotation's outcome of the last time POST took the pending changes in; nothing before the first. */
function lastApplied(applied: SettingsApplied) {
  const at = applied.at();
  return at === null ? {} : { Time: toIso(at), Messages: [baseMessage('Success')] };
}

/** The CHAP secrets are write-only. */
const hideChap = (s: IscsiState) => ({ ...s, iSCSISources: s.iSCSISources.map((x) => ({ ...x, iSCSIChapSecret: null })) });

function handlers(d: BiosVendorSettingsDeps): { areas: Area[]; mappings: BiosPciMapping[] } {
  const { boot, iscsi, vendorBios } = d;
  const structured = (id: string) => boot.options.find((o) => o.id === id)?.structured ?? id;
  const byStructured = new Map(boot.options.map((o) => [o.structured.toLowerCase(), o]));
  const nicSources = nicBootSources(d.hardware).map((s) => s.name);
  const bootView = (order: readonly string[], desired: readonly object[]) => ({
    BootSources: boot.options.map((o: BootOptionDef, i) => ({
      BootOptionNumber: o.id.slice('Boot'.length),
      BootOptionReference: o.id,
      BootString: o.displayName,
      CorrelatableID: o.uefiDevicePath,
      StructuredBootString: o.structured,
      UEFIDevicePath: o.uefiDevicePath,
      Index: i,
    })),
    PersistentBootConfigOrder: order.map(structured),
    DesiredBootDevices: desired,
    DefaultBootOrder: DEFAULT_BOOT_ORDER,
  });
  const areas: Area[] = [
    {
      segment: 'Boot',
      legacy: 'Boot',
      type: VendorServerBootSettingsType,
      name: 'Boot Order',
      description: 'The UEFI boot sources and the persistent boot order of the system ROM',
      current: () => bootView(boot.get().BootOrder, boot.desiredBootDevices()),
      pending: () => bootView(boot.pending().BootOrder, boot.pending().DesiredBootDevices),
      defaults: () => ({ DefaultBootOrder: DEFAULT_BOOT_ORDER }),
      applied: boot.applied,
      setPending(body) {
        const order = body.PersistentBootConfigOrder as string[] | undefined;
        const ids = order?.map((s) => byStructured.get(s.toLowerCase())?.id);
        const unknown = order?.find((_, i) => ids![i] === undefined);
        if (unknown !== undefined) throw baseError('PropertyValueNotInList', argText(unknown), 'PersistentBootConfigOrder');
        const ok = boot.setPending({
          ...(ids ? { BootOrder: ids as string[] } : {}),
          ...(body.DesiredBootDevices ? { DesiredBootDevices: body.DesiredBootDevices as object[] } : {}),
        });
        if (!ok) throw baseError('PropertyValueIncorrect', 'PersistentBootConfigOrder', argText(order));
      },
    },
    {
      segment: 'iScsi',
      legacy: 'iScsi',
      type: IscsiType,
      name: 'iSCSI Software Initiator',
      description: 'UEFI iSCSI boot initiator and its boot attempts',
      current: () => ({ ...hideChap(iscsi.get()), iSCSINicSources: nicSources }),
      pending: () => ({ ...hideChap(iscsi.pending()), iSCSINicSources: nicSources }),
      defaults: () => hideChap(iscsi.defaults),
      applied: iscsi.applied,
      setPending: (body) => iscsi.setPending(mergePatch(iscsi.pending(), body)),
    },
    settingsArea(
      'ServerConfigLock',
      'ServerConfigLock',
      ServerConfigLockType,
      'Server Configuration Lock',
      'Server configuration lock of the system ROM',
      vendorBios.lock,
    ),
    settingsArea('KmsConfig', 'KmsConfig', KmsConfigType, 'Key Management', 'Key management servers of the system ROM', vendorBios.kms),
    {
      ...settingsArea('TlsConfig', 'Tlsconfig', TlsConfigType, 'UEFI HTTPS Boot TLS', 'TLS settings of UEFI HTTPS boot', vendorBios.tls),
      // A certificate the ROM could not read is refused now rather than dropped at POST.
      setPending(body) {
        const added = (body.NewCertificates ?? []) as { X509Certificate?: string }[];
        added.forEach((n, i) => {
          if (!tlsCaCertificate(n.X509Certificate ?? ''))
            throw baseError('PropertyValueFormatError', argText(n.X509Certificate ?? ''), `NewCertificates/${i}/X509Certificate`);
        });
        vendorBios.tls.setPending(body as Partial<VendorValues>);
      },
    },
  ];
  return { areas, mappings: biosMappings(d.hardware, new Set(BIOS_ATTRIBUTES.map((a) => a.AttributeName))) };
}

/** Each resource's link name (and segment at the Oem place), and its segment at the earlier place. */
const AREA_SEGMENTS: readonly (readonly [Area['segment'], string])[] = [
  ['Boot', 'Boot'],
  ['iScsi', 'iScsi'],
  ['ServerConfigLock', 'ServerConfigLock'],
  ['KmsConfig', 'KmsConfig'],
  ['TlsConfig', 'Tlsconfig'],
];

/** The ROM's default boot order, by device class. */
const DEFAULT_BOOT_ORDER = ['Cd', 'Usb', 'EmbeddedStorage', 'PcieSlotStorage', 'EmbeddedFlexLOM', 'PcieSlotNic', 'UefiShell'];

/** The links Bios/Oem/Vendor/Links carries. */
/**
 * The defaults (BaseConfigs) are maps of setting names, which DMTF's Service Validator cannot read
 * in a vendor schema: only the spec dialect (iLO's) serves them.
 */
function offersBaseConfigs(d: Pick<BiosVendorSettingsDeps, 'dialect'>): boolean {
  return d.dialect.name === 'spec';
}

export function vendorBiosLinks(
  d: Pick<BiosVendorSettingsDeps, 'config' | 'uris' | 'naming' | 'dialect'>,
): Record<string, { '@odata.id': string }> {
  const place = placeOf(d);
  const at = (segment: string) => ({ '@odata.id': `${d.uris.system()}Bios/${place.prefix}${segment}/` });
  return {
    ...(offersBaseConfigs(d) ? { BaseConfigs: at('BaseConfigs') } : {}),
    Mappings: at('Mappings'),
    ...Object.fromEntries(AREA_SEGMENTS.map(([link, legacy]) => [link, at(place.spelling === 'legacy' ? legacy : link)])),
  };
}

const forward = (problems: readonly ExtendedInfo[]) => messages(vendorMessage('SystemResetRequired'), ...problems);
const baseConfigs = (name: string, defaults: object) => ({
  Id: 'BaseConfigs',
  Name: `${name} Default Settings`,
  Description: `The defaults of the ${name} settings`,
  BaseConfigs: [{ default: defaults }],
  Capabilities: { BaseConfig: true, BaseConfigs: false },
});

export function registerBiosVendorSettingsRoutes(routes: RouteTable, d: BiosVendorSettingsDeps): void {
  const read = { privilege: Priv.login };
  const write = { privilege: Priv.hostBios };
  const place = placeOf(d);
  const bios = `/redfish/v1/Systems/{SystemId}/Bios/${place.routePrefix}`;
  const h = handlers(d);
  for (const a of h.areas) {
    const segment = place.spelling === 'legacy' ? a.legacy : a.segment;
    const here = `${d.uris.system()}Bios/${place.prefix}${segment}/`;
    const patchPending = (ctx: { body: object; problems: ExtendedInfo[] }) => {
      if (Object.keys(ctx.body).length) a.setPending(ctx.body as Record<string, unknown>);
      // The ROM reads these settings at POST.
      return forward(ctx.problems);
    };
    routes.add({
      path: `${bios}${segment}/`,
      type: a.type,
      get: {
        ...read,
        handler: () => ({
          Id: a.segment,
          Name: `${a.name} Current Settings`,
          Description: a.description,
          ...a.current(),
          '@Redfish.Settings': { ...settingsAnnotation(d.naming.listedUri(`${here}Settings/`)), ...lastApplied(a.applied) },
          ...(offersBaseConfigs(d) ? { Oem: { [OEM]: { Links: { BaseConfigs: { '@odata.id': `${here}BaseConfigs/` } } } } } : {}),
        }),
      },
      // The earlier iSCSI resource takes writes itself: they go to the pending area, which the ROM reads at POST.
      ...(a.segment === 'iScsi' && place.spelling === 'legacy' ? { patch: { ...write, handler: patchPending } } : {}),
    });
    routes.add({
      path: d.naming.listedUri(`${bios}${segment}/Settings/`),
      type: a.type,
      get: {
        ...read,
        handler: () => ({
          Id: 'Settings',
          Name: `${a.name} Pending Settings`,
          Description: `${a.description}, applied at the next server reset`,
          ...a.pending(),
        }),
      },
      patch: { ...write, handler: patchPending },
    });
    routes.add({
      path: `${bios}${segment}/BaseConfigs/`,
      type: BaseConfigsType,
      get: { ...read, handler: () => baseConfigs(a.name, a.defaults()) },
    });
  }
  if (offersBaseConfigs(d))
    routes.add({
      path: `${bios}BaseConfigs/`,
      type: BaseConfigsType,
      get: { ...read, handler: () => baseConfigs('BIOS', d.bios.defaultValues()) },
    });
  routes.add({
    path: `${bios}Mappings/`,
    type: BiosMappingType,
    get: {
      ...read,
      handler: () => ({
        Id: 'Mappings',
        Name: 'BIOS mappings',
        Description: 'BIOS attributes of each PCI device',
        BiosPciSettingsMappings: h.mappings,
      }),
    },
  });
}
