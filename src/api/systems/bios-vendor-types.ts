// The vendor's own BIOS resources linked from Bios/Oem/Vendor/Links: the boot
// order, the UEFI iSCSI software initiator, their defaults (BaseConfigs) and the
// PCI settings map. Bios.ResetBios leaves them alone.
import { defineType, oem, ro, t, commonProps, type Props } from '../../protocol/description.js';
import { ISCSI_ATTEMPTS } from '../../domain/bios/iscsi.js';
import { DESIRED_BOOT_DEVICES } from '../../domain/bios/boot.js';
import { OEM, oemType } from '../../protocol/naming.js';

/**
 * The @Redfish.Settings of a current area: its pending area, which the ROM takes in at the next
 * server reset and at no other time (SupportedApplyTimes, as Ironic reads it).
 */
export function settingsAnnotation(settingsUri: string) {
  return { '@odata.type': '#Settings.v1_4_0.Settings', SettingsObject: { '@odata.id': settingsUri }, SupportedApplyTimes: ['OnReset'] };
}

/** The vendor extension of Bios and of each vendor BIOS resource's current area: links to the others and to its defaults. */
export const VendorBiosExtType = defineType({
  name: oemType('BiosExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the Bios resource and of the vendor BIOS resources: links to the vendor BIOS resources and defaults.',
  properties: {
    Links: ro(
      t.object(
        {
          BaseConfigs: t.link({ readOnly: true }),
          Boot: t.link({ readOnly: true }),
          iScsi: t.link({ readOnly: true }),
          Mappings: t.link({ readOnly: true }),
          ServerConfigLock: t.link({ readOnly: true }),
          KmsConfig: t.link({ readOnly: true }),
          TlsConfig: t.link({ readOnly: true }),
        },
        { typeName: 'Links' },
      ),
    ),
  },
});

/** What every vendor BIOS resource with a current and a pending area shows besides its values. */
export const vendorAreaProps = { ...commonProps, Oem: oem(VendorBiosExtType, { readOnly: true }) } satisfies Props;

const DesiredBootDeviceProp = t.object(
  {
    CorrelatableID: t.string({ maxLength: 256 }),
    Lun: t.string({ maxLength: 32 }),
    Wwn: t.string({ maxLength: 32 }),
    iScsiTargetName: t.string({ maxLength: 223 }),
  },
  { typeName: 'DesiredBootDevice' },
);

export const VendorServerBootSettingsType = defineType({
  name: oemType('ServerBootSettings'),
  version: '1.1.0',
  owner: OEM,
  description:
    'UEFI boot sources found by the system ROM and the persistent boot order, as structured boot strings; the pending area takes a new order.',
  properties: {
    ...vendorAreaProps,
    BootSources: ro(
      t.array(
        t.object(
          {
            BootOptionNumber: ro(t.string()),
            BootOptionReference: ro(t.string()),
            BootString: ro(t.string()),
            CorrelatableID: ro(t.string()),
            StructuredBootString: ro(t.string()),
            UEFIDevicePath: ro(t.string()),
            Index: ro(t.integer()),
          },
          { typeName: 'BootSource' },
        ),
      ),
    ),
    PersistentBootConfigOrder: t.array(t.string(), { description: 'Structured boot strings, first tried first.' }),
    DesiredBootDevices: t.array(DesiredBootDeviceProp, { maxItems: DESIRED_BOOT_DEVICES }),
    DefaultBootOrder: ro(t.array(t.string())),
  },
});

const IscsiSourceProp = t.object(
  {
    iSCSIAttemptInstance: t.integer({
      minimum: 0,
      maximum: ISCSI_ATTEMPTS,
      description: 'The attempt this entry is, 1 upwards; 0 while unconfigured.',
    }),
    iSCSIAttemptName: t.string({ maxLength: 96 }),
    iSCSIConnection: t.enum(['Enabled', 'Disabled']),
    iSCSINicSource: t.string({ maxLength: 32 }),
    iSCSITargetName: t.string({ maxLength: 223, pattern: '^$|^(iqn\\.[0-9]{4}-[0-9]{2}\\.[a-z0-9.-]+(:.+)?|eui\\.[0-9A-Fa-f]{16})$' }),
    iSCSITargetIpAddress: t.string({ maxLength: 39 }),
    iSCSITargetTcpPort: t.integer({ minimum: 1, maximum: 65535 }),
    iSCSILUN: t.string({ maxLength: 20, pattern: '^[0-9]{1,20}$' }),
    iSCSIConnectRetry: t.integer({ minimum: 0, maximum: 16 }),
    iSCSIConnectTimeoutMS: t.integer({ minimum: 100, maximum: 20000 }),
    iSCSIAuthenticationMethod: t.enum(['None', 'Chap', 'MutualChap']),
    iSCSIChapUsername: t.string({ maxLength: 126 }),
    iSCSIChapSecret: t.string({ writeOnly: true, secret: true, nullable: true, maxLength: 16 }),
  },
  { typeName: 'iSCSISource' },
);

export const IscsiType = defineType({
  // iLO spells it HpeiSCSISoftwareInitiator; a vendor type name goes on with a capital (naming.ts), and clients match it case-blind.
  name: oemType('IscsiSoftwareInitiator'),
  version: '1.1.0',
  owner: OEM,
  description: 'The UEFI iSCSI software initiator of the system ROM and its boot attempts; the pending area is read at POST.',
  properties: {
    ...vendorAreaProps,
    iSCSIInitiatorName: t.string({ maxLength: 223, pattern: '^(iqn\\.[0-9]{4}-[0-9]{2}\\.[a-z0-9.-]+(:.+)?|eui\\.[0-9A-Fa-f]{16})$' }),
    iSCSISources: t.array(IscsiSourceProp, { maxItems: ISCSI_ATTEMPTS }),
    iSCSINicSources: ro(t.array(t.string(), { description: 'The NIC ports an attempt may use (iSCSINicSource values).' })),
  },
});

export const BaseConfigsType = defineType({
  name: oemType('BaseConfigs'),
  version: '1.0.0',
  owner: OEM,
  description: 'The defaults a vendor BIOS resource returns to: one named set ("default") of its settings.',
  properties: {
    ...commonProps,
    BaseConfigs: ro(
      t.array(
        t.object(
          {
            default: ro(
              t.object({}, { additionalProperties: true, typeName: 'BaseConfigValues', description: 'The settings and their defaults.' }),
            ),
          },
          { typeName: 'BaseConfig' },
        ),
      ),
    ),
    Capabilities: ro(t.object({ BaseConfig: ro(t.boolean()), BaseConfigs: ro(t.boolean()) }, { typeName: 'Capabilities' })),
  },
});

const MappingSubinstanceProp = t.object(
  {
    Subinstance: ro(t.integer()),
    CorrelatableID: ro(t.string()),
    Associations: ro(t.array(t.string())),
  },
  { typeName: 'Subinstance' },
);

export const BiosMappingType = defineType({
  name: oemType('BiosMapping'),
  version: '1.0.0',
  owner: OEM,
  description: 'Which BIOS attributes act on which PCI device (by its UEFI device path), as the system ROM maps them.',
  properties: {
    ...commonProps,
    BiosPciSettingsMappings: ro(
      t.array(
        t.object(
          {
            Instance: ro(t.integer()),
            CorrelatableID: ro(t.string()),
            Associations: ro(t.array(t.string())),
            Subinstances: ro(t.array(MappingSubinstanceProp)),
          },
          { typeName: 'BiosPciSettingsMapping' },
        ),
      ),
    ),
  },
});
