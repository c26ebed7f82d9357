// The firmware update domain, built once by the composition root
// (src/compose/firmware.ts) and shared with the update areas (uploads,
// repository, task queue, install sets).
import type { Downloader } from './download.js';
import type { Flasher } from './flasher.js';
import type { IntegrityScanner } from './integrity.js';
import type { InvalidImages } from './invalid-images.js';
import type { Inventory } from './inventory.js';
import type { ComponentRepository } from './repository.js';
import type { VendorSigningKey } from './signing.js';
import type { UpdateStatus } from './update-state.js';

export interface FirmwareServices {
  inventory: Inventory;
  repository: ComponentRepository;
  flasher: Flasher;
  /** Oem/Vendor/State of the update service, and the Busy rule. */
  status: UpdateStatus;
  integrity: IntegrityScanner;
  /** The corrupted images the integrity checks found (InvalidImageRepository). */
  invalidImages: InvalidImages;
  signingKey: VendorSigningKey;
  downloader: Downloader;
}
