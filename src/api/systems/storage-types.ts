// Resource descriptions of the storage area: Storage, StorageController, Drive,
// Volume and SimpleStorage (DMTF), with the vendor extension of a volume.
import { pcieInterfaceProp } from '../chassis/hardware-types.js';
import { SANITIZATION_TYPES } from '../../domain/storage/storage.js';
import { RAID_TYPES, VOLUME_TYPES } from '../../domain/storage/raid.js';
import { collectionOf, commonProps, defineAction, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const PROTOCOLS = ['PCIe', 'SAS', 'SATA', 'NVMe'] as const;

const locationProp = ro(
  t.object(
    {
      PartLocation: ro(
        t.object(
          {
            ServiceLabel: ro(t.string()),
            LocationType: ro(t.enum(['Slot', 'Bay', 'Connector', 'Socket', 'Backplane', 'Embedded'])),
            LocationOrdinalValue: ro(t.integer()),
          },
          { typeName: 'PartLocation' },
        ),
      ),
    },
    { typeName: 'Location' },
  ),
);

const identifiersProp = ro(
  t.array(
    t.object(
      { DurableName: ro(t.string()), DurableNameFormat: ro(t.enum(['NAA', 'iQN', 'UUID', 'EUI', 'NQN', 'NSID', 'NGUID'])) },
      { typeName: 'Identifier' },
    ),
  ),
);

const operationsProp = ro(
  t.array(
    t.object(
      {
        Operation: ro(t.enum(['Initialize', 'Delete', 'Sanitize'])),
        OperationName: ro(t.string()),
        PercentageComplete: ro(t.integer({ volatile: true })),
        AssociatedTask: t.link({ readOnly: true }),
      },
      { typeName: 'Operations', volatile: true },
    ),
  ),
);

export const StorageControllerType = defineType({
  name: 'StorageController',
  version: '1.11.0',
  owner: 'DMTF',
  description: 'An array (or NVMe) controller of the server.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SerialNumber: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    SpeedGbps: ro(t.number({ units: 'Gbit/s' })),
    SupportedControllerProtocols: ro(t.array(t.enum(PROTOCOLS))),
    SupportedDeviceProtocols: ro(t.array(t.enum(PROTOCOLS))),
    SupportedRAIDTypes: ro(t.array(t.enum(RAID_TYPES))),
    Location: locationProp,
    PCIeInterface: pcieInterfaceProp,
    Ports: t.link({ readOnly: true }),
    Links: ro(t.object({ PCIeFunctions: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

/** One entry of Storage's deprecated StorageControllers array (older clients read it). */
const storageControllerEntry = t.object(
  {
    '@odata.id': ro(t.string({ format: 'uri-reference' })),
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    Status: statusProp,
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SerialNumber: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    SpeedGbps: ro(t.number({ units: 'Gbit/s' })),
    SupportedControllerProtocols: ro(t.array(t.enum(PROTOCOLS))),
    SupportedDeviceProtocols: ro(t.array(t.enum(PROTOCOLS))),
    SupportedRAIDTypes: ro(t.array(t.enum(RAID_TYPES))),
    Location: locationProp,
    PCIeInterface: pcieInterfaceProp,
    Ports: t.link({ readOnly: true }),
  },
  { typeName: 'StorageController' },
);

export const StorageType = defineType({
  name: 'Storage',
  version: '1.21.0',
  owner: 'DMTF',
  description: 'A storage subsystem: one array controller with its drives and volumes.',
  properties: {
    ...commonProps,
    Status: statusProp,
    Controllers: t.link({ readOnly: true }),
    StorageControllers: ro(t.array(storageControllerEntry, { deprecated: 'Controllers' })),
    'StorageControllers@odata.count': ro(t.integer()),
    Drives: t.links({ readOnly: true }),
    'Drives@odata.count': ro(t.integer()),
    Volumes: t.link({ readOnly: true }),
    Links: ro(t.object({ Enclosures: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

export const SecureEraseAction = defineAction({
  name: 'Drive.SecureErase',
  description: "Securely erases the drive; answered 202 with a task that follows the erase's progress.",
  parameters: {
    SanitizationType: t.enum(SANITIZATION_TYPES),
    OverwritePasses: t.integer({ minimum: 1, maximum: 7, description: 'Passes of an Overwrite sanitization (default 1).' }),
  },
});

/** What the array controllers do with the drives' own write caches: off, as the P408i-a reports (not modelled). */
export const DRIVE_WRITE_CACHE: 'Enabled' | 'Disabled' = 'Disabled';

/** How a drive's bay LED reads (DMTF StatusIndicator): its own failure first, then that of an array it is in. */
export const DRIVE_INDICATORS = ['OK', 'Fail', 'PredictiveFailureAnalysis', 'InACriticalArray', 'InAFailedArray'] as const;

export const DriveType = defineType({
  name: 'Drive',
  version: '1.22.0',
  owner: 'DMTF',
  description: 'A physical drive attached to an array controller.',
  properties: {
    ...commonProps,
    Status: statusProp,
    MediaType: ro(t.enum(['HDD', 'SSD', 'SMR'])),
    Protocol: ro(t.enum(PROTOCOLS)),
    CapacityBytes: ro(t.integer({ units: 'By' })),
    BlockSizeBytes: ro(t.integer({ units: 'By' })),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SerialNumber: ro(t.string()),
    Revision: ro(t.string()),
    RotationSpeedRPM: ro(t.number({ nullable: true, units: 'RPM' })),
    CapableSpeedGbs: ro(t.number({ units: 'Gbit/s' })),
    NegotiatedSpeedGbs: ro(t.number({ units: 'Gbit/s' })),
    EncryptionAbility: ro(t.enum(['None', 'SelfEncryptingDrive', 'Other'])),
    EncryptionStatus: ro(t.enum(['Unecrypted', 'Unlocked', 'Locked', 'Foreign', 'Unencrypted'])),
    FailurePredicted: ro(t.boolean()),
    StatusIndicator: ro(t.enum(DRIVE_INDICATORS)),
    WriteCacheEnabled: ro(t.boolean()),
    HotspareType: ro(t.enum(['None', 'Global', 'Chassis', 'Dedicated'])),
    Identifiers: identifiersProp,
    PhysicalLocation: locationProp,
    LocationIndicatorActive: t.boolean({ description: 'The drive bay locate LED is lit (blinking).' }),
    // A bay LED blinks to locate; it has no steady 'Lit' state.
    IndicatorLED: t.enum(['Blinking', 'Off'], { description: 'Blinking while locating.', deprecated: 'LocationIndicatorActive' }),
    Operations: operationsProp,
    Links: ro(
      t.object(
        {
          Volumes: t.links({ readOnly: true }),
          'Volumes@odata.count': ro(t.integer()),
          Chassis: t.link({ readOnly: true }),
          Storage: t.link({ readOnly: true }),
        },
        { typeName: 'Links' },
      ),
    ),
  },
  actions: [SecureEraseAction],
});

export const VendorVolumeExtType = defineType({
  name: oemType('VolumeExt'),
  version: '1.0.0',
  owner: OEM,
  description: "Vendor extension of a volume (logical drive): where it stands in the controller's configuration.",
  properties: {
    ConfigurationState: ro(
      t.enum(['PendingCreate', 'Active', 'PendingDelete'], {
        description: 'PendingCreate and PendingDelete are applied by the controller at the next POST of the server.',
      }),
    ),
    LogicalDriveNumber: ro(t.integer()),
  },
});

export const VolumeType = defineType({
  name: 'Volume',
  version: '1.10.2',
  owner: 'DMTF',
  description: 'A logical drive an array controller builds from its drives.',
  properties: {
    Id: ro(t.string()),
    Name: t.string({ createOnly: true, maxLength: 64 }),
    Description: ro(t.string()),
    DisplayName: t.string({ maxLength: 64, description: 'A name the user gives the volume.' }),
    Status: statusProp,
    RAIDType: t.enum(RAID_TYPES, { createOnly: true }),
    VolumeType: t.enum(VOLUME_TYPES, {
      createOnly: true,
      description: 'Deprecated in favour of RAIDType; accepted when it agrees with it.',
    }),
    CapacityBytes: t.integer({
      createOnly: true,
      minimum: 1,
      units: 'By',
      description: 'On create: the size wanted (default: all the layout gives).',
    }),
    BlockSizeBytes: ro(t.integer({ units: 'By' })),
    StripSizeBytes: ro(t.integer({ units: 'By' })),
    VolumeUsage: ro(t.enum(['Data', 'SystemData', 'CacheOnly', 'SystemReserve', 'ReplicationReserve'])),
    Encrypted: t.boolean({ createOnly: true, description: 'Controller encryption is not available: only false is accepted.' }),
    Identifiers: identifiersProp,
    Operations: operationsProp,
    Links: t.object(
      {
        Drives: t.links({ createOnly: true, description: 'On create: the drives the volume spans, of this controller.' }),
        'Drives@odata.count': ro(t.integer()),
      },
      { typeName: 'Links' },
    ),
    Oem: oem(VendorVolumeExtType, { readOnly: true }),
  },
});

export const SimpleStorageType = defineType({
  name: 'SimpleStorage',
  version: '1.3.2',
  owner: 'DMTF',
  description: 'A storage controller and its devices, as older clients read them.',
  properties: {
    ...commonProps,
    Status: statusProp,
    UefiDevicePath: ro(t.string()),
    Devices: ro(
      t.array(
        t.object(
          {
            Name: ro(t.string()),
            Manufacturer: ro(t.string()),
            Model: ro(t.string()),
            CapacityBytes: ro(t.integer({ units: 'By' })),
            Status: statusProp,
          },
          { typeName: 'Device' },
        ),
      ),
    ),
    Links: ro(t.object({ Chassis: t.link({ readOnly: true }), Storage: t.link({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

export const VolumeCollectionType = collectionOf(VolumeType);
