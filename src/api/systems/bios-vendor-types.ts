// The vendor's own BIOS resources linked from Bios/Oem/Vendor/Links: the boot
// order view and the UEFI iSCSI software initiator. Bios.ResetBios leaves them alone.
import { defineType, ro, t, commonProps } from '../../protocol/description.js';
import { ISCSI_ATTEMPTS } from '../../domain/bios/iscsi.js';
import { OEM, oemType } from '../../protocol/naming.js';

/**
 * The @Redfish.Settings of a current area: its pending area, which the ROM takes in at the next
 * server reset and at no other time (SupportedApplyTimes, as Ironic reads it).
 */
export function settingsAnnotation(settingsUri: string) {
  return { '@odata.type': '#Settings.v1_4_0.Settings', SettingsObject: { '@odata.id': settingsUri }, SupportedApplyTimes: ['OnReset'] };
}

export const VendorServerBootSettingsType = defineType({
  name: oemType('ServerBootSettings'),
  version: '1.0.0',
  owner: OEM,
  description: 'UEFI boot sources found by the system ROM and the persistent boot order, as structured boot strings.',
  properties: {
    ...commonProps,
    BootSources: ro(
      t.array(
        t.object(
          {
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
    PersistentBootConfigOrder: ro(t.array(t.string())),
    DefaultBootOrder: ro(t.array(t.string())),
  },
});

const IscsiSourceProp = t.object(
  {
    iSCSIAttemptInstance: ro(t.integer()),
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
  name: oemType('IscsiSoftwareInitiator'),
  version: '1.0.0',
  owner: OEM,
  description: 'The UEFI iSCSI software initiator of the system ROM and its boot attempts; read at POST.',
  properties: {
    ...commonProps,
    iSCSIInitiatorName: t.string({ maxLength: 223, pattern: '^(iqn\\.[0-9]{4}-[0-9]{2}\\.[a-z0-9.-]+(:.+)?|eui\\.[0-9A-Fa-f]{16})$' }),
    iSCSISources: t.array(IscsiSourceProp, { maxItems: ISCSI_ATTEMPTS }),
  },
});
