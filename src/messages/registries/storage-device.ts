// The vendor's storage-device registry: events of the array controllers'
// drives and logical drives (the keys the vendor's Smart Array firmware reports).
import type { RegistryDef } from '../registry-types.js';

export const STORAGE_DEVICE_REGISTRY = {
  prefix: 'StorageDevice',
  version: '2.1.0',
  name: 'Storage Device Message Registry',
  description: 'Events of the storage controllers, their physical drives and logical drives.',
  owningEntity: 'Vendor',
  language: 'en',
  messages: {
    DrvArrLogDrvEraseComplete: {
      description: 'A logical drive finished erasing.',
      message: 'The logical drive %1 of the array controller in %2 finished erasing.',
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    DrvArrLogDrvErasing: {
      description: 'A logical drive is being erased; its data is not available until the erase completes.',
      message: 'The logical drive %1 of the array controller in %2 is erasing.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Wait for the erase to complete before using the logical drive.',
    },
    DrvArrLogDrvStatusChange: {
      description: 'The status of a logical drive changed.',
      message: 'The logical drive %1 of the array controller in %2 changed status to %3.',
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Check the logical drive and its physical drives.',
    },
    DrvArrPhyDrvStatusChange: {
      description: 'The status of a physical drive changed.',
      message: 'The physical drive in bay %1 of the array controller in %2 changed status to %3.',
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Replace the drive if it failed.',
    },
  },
} as const satisfies RegistryDef;
