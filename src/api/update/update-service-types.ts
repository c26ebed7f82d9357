// Descriptions of the UpdateService resources: the service with its vendor
// extension (upload state, links, firmware verification settings), the
// inventory items, and the service's actions.
import { collectionOf, commonProps, defineAction, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { controllerType, OEM, oemType } from '../../protocol/naming.js';

const VendorSoftwareInventoryType = defineType({
  name: oemType('SoftwareInventory'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of an inventory item.',
  properties: {
    DeviceClass: ro(t.string({ description: 'Device class a component names to apply here.' })),
    Targets: ro(t.array(t.string(), { description: 'Target GUIDs components match against.' })),
    PendingVersion: ro(t.string({ nullable: true, description: 'Version written and activated at the next server boot.' })),
    DeviceContext: ro(t.string({ description: 'Where the firmware sits: the system board for the platform firmware.' })),
  },
});

export const SoftwareInventoryType = defineType({
  name: 'SoftwareInventory',
  version: '1.13.0',
  owner: 'DMTF',
  description: 'A firmware or software item and its version.',
  properties: {
    ...commonProps,
    Version: ro(t.string()),
    Updateable: ro(t.boolean()),
    ReleaseDate: ro(t.dateTime()),
    Status: statusProp,
    Oem: oem(VendorSoftwareInventoryType, { readOnly: true }),
  },
});

const link = () => t.link({ readOnly: true });

const VendorMCUpdateServiceExtType = defineType({
  name: controllerType('UpdateServiceExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the update service: upload state, repository, queue and firmware verification.',
  properties: {
    State: ro(t.enum(['Idle', 'Uploading', 'Verifying', 'Writing', 'Updating', 'Complete', 'Error'])),
    Result: ro(t.any({ nullable: true, description: 'Message describing the outcome of the last operation; null before the first.' })),
    UploadCurrentEtag: ro(t.string({ nullable: true, description: 'The UploadCurrentEtag parameter of the last upload.' })),
    ComponentRepository: link(),
    UpdateTaskQueue: link(),
    MaintenanceWindows: link(),
    InstallSets: link(),
    InvalidImageRepository: link(),
    EnableBackgroundScan: t.boolean({ description: 'Scan installed firmware for corruption in the background.' }),
    OnIntegrityFailure: t.enum(['LogOnly', 'LogAndRepairAutomatically']),
    ScanEveryDays: t.integer({ minimum: 1, maximum: 365, description: 'Days between background scans.' }),
    FirmwareIntegrityScanInProgress: ro(t.boolean()),
    FirmwareIntegrityScanPercentComplete: ro(
      t.integer({
        nullable: true,
        minimum: 0,
        maximum: 100,
        units: '%',
        volatile: true,
        description: 'How far the running scan has come; null when none runs.',
      }),
    ),
    LastIntegrityScanTime: ro(t.dateTime({ nullable: true })),
    LastIntegrityScanResult: ro(t.enum(['OK', 'Failed', 'Repaired'], { nullable: true })),
    FirmwareIntegrity: t.object(
      {
        EnableBackgroundScan: t.boolean({ description: 'Scan installed firmware for corruption in the background.' }),
        OnIntegrityFailure: t.enum(['LogOnly', 'LogAndRepairAutomatically']),
        ScanEveryDays: t.integer({ minimum: 1, maximum: 365, description: 'Days between background scans.' }),
        LastScanTime: ro(t.dateTime({ nullable: true, description: "The last check of the firmware: a scan's, or the one made at boot." })),
        LastScanResult: ro(t.enum(['OK', 'Failed', 'Repaired'], { nullable: true })),
      },
      { typeName: 'FirmwareIntegrity', description: 'Firmware verification, as iLO groups it (the same settings as the members above).' },
    ),
    CurrentTime: ro(t.dateTime({ volatile: true, description: "The controller's clock." })),
    Capabilities: ro(
      t.object(
        {
          UpdateFWPKG: ro(t.boolean({ description: 'Uploads and the task queue take .fwpkg packages.' })),
          PLDMFirmwareUpdate: ro(t.boolean({ description: 'Whether devices are updated over PLDM for MCTP (they are not).' })),
        },
        { typeName: 'Capabilities' },
      ),
    ),
    Accept3rdPartyFirmware: ro(t.boolean({ description: 'Whether images not signed by the vendor are accepted (they are not).' })),
    DowngradePolicy: ro(t.enum(['AllowDowngrade'], { description: 'Older firmware versions may be flashed.' })),
    Actions: ro(t.object({}, { additionalProperties: true })),
  },
});

export const UpdateServiceType = defineType({
  name: 'UpdateService',
  version: '1.17.0',
  owner: 'DMTF',
  description: 'Firmware and software update.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    HttpPushUri: ro(t.string({ format: 'uri-reference', deprecated: 'MultipartHttpPushUri' })),
    MultipartHttpPushUri: ro(
      t.string({ format: 'uri-reference', description: 'The same upload, with the parts DMTF names: UpdateParameters and UpdateFile.' }),
    ),
    MaxImageSizeBytes: ro(t.integer({ units: 'By' })),
    FirmwareInventory: link(),
    SoftwareInventory: link(),
    Oem: oem(VendorMCUpdateServiceExtType),
  },
});

export const SimpleUpdate = defineAction({
  name: 'UpdateService.SimpleUpdate',
  description: 'Download a controller or UEFI firmware binary and flash it.',
  parameters: {
    ImageURI: t.string({ required: true, description: 'HTTP or HTTPS URI of the image.' }),
    TransferProtocol: t.enum(['HTTP', 'HTTPS']),
    Targets: t.array(t.string(), {
      maxItems: 10,
      description:
        'FirmwareInventory URIs to update (the controller firmware or the system ROM); each must be what the image is for. Left out: whatever the image is for.',
    }),
  },
});
export const AddFromUri = defineAction({
  name: `${controllerType('UpdateServiceExt')}.AddFromUri`,
  oem: true,
  description: 'Download a component into the repository and optionally flash it to targets.',
  parameters: {
    ImageURI: t.string({ required: true }),
    CompSigURI: t.string(),
    Targets: t.array(t.string(), { maxItems: 10, description: 'Firmware inventory URIs.' }),
    UpdateTarget: t.boolean(),
    UpdateRepository: t.boolean(),
  },
});
export const DeleteInstallSets = defineAction({
  name: `${controllerType('UpdateServiceExt')}.DeleteInstallSets`,
  oem: true,
  description: 'Delete every install set; the recovery set too only when asked (SystemRecoveryConfigPriv).',
  parameters: { IncludeRecoverySet: t.boolean() },
});
export const DeleteMaintenanceWindows = defineAction({
  name: `${controllerType('UpdateServiceExt')}.DeleteMaintenanceWindows`,
  oem: true,
  description: 'Delete every maintenance window; the tasks that named one wait for none.',
  parameters: {},
});
export const DeleteUnlockedComponents = defineAction({
  name: `${controllerType('UpdateServiceExt')}.DeleteUnlockedComponents`,
  oem: true,
  description: 'Delete every repository component no task or install set holds.',
  parameters: {},
});
export const DeleteUpdateTaskQueueItems = defineAction({
  name: `${controllerType('UpdateServiceExt')}.DeleteUpdateTaskQueueItems`,
  oem: true,
  description: 'Delete every update task queue item, the running one included.',
  parameters: {},
});
export const StartFirmwareIntegrityCheck = defineAction({
  name: `${controllerType('UpdateServiceExt')}.StartFirmwareIntegrityCheck`,
  oem: true,
  description: 'Run a firmware verification scan now (PremiumSecurity license).',
  parameters: {},
});

export const SoftwareInventoryCollectionType = collectionOf(SoftwareInventoryType);
