// The firmware update domain, built once by the composition root and shared
// with the update areas (uploads, repository, task queue, install sets).
import type { Logger } from 'pino';
import type { EventBus } from '../events/bus.js';
import type { Logs } from '../logs/logs.js';
import type { Clock } from '../../platform/clock.js';
import type { ControllerLifecycle, HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import { Downloader } from './download.js';
import { Flasher, type FlasherDeps } from './flasher.js';
import { IntegrityScanner } from './integrity.js';
import { Inventory, type InventoryUris } from './inventory.js';
import { ComponentRepository } from './repository.js';
import { VendorSigningKey } from './signing.js';
import { UpdateStatus } from './update-state.js';

export interface FirmwareServices {
  inventory: Inventory;
  repository: ComponentRepository;
  flasher: Flasher;
  /** Oem/Vendor/State of the update service, and the Busy rule. */
  status: UpdateStatus;
  integrity: IntegrityScanner;
  signingKey: VendorSigningKey;
  downloader: Downloader;
}

export interface FirmwareDeps {
  store: DocumentStore;
  clock: Clock;
  dataDir: string;
  repositoryBytes: number;
  downloadTimeoutSeconds: number;
  downloadCa?: string;
  /** The vendor key packages are signed with; default the data dir's own. */
  signingKey?: VendorSigningKey;
  /** Versions a new controller leaves the factory with, by device class (a fleet manifest's). */
  factoryVersions?: Readonly<Record<string, string>>;
  controller: ControllerLifecycle;
  host: HostLifecycle;
  logs: Logs;
  events: EventBus;
  log: Logger;
  uris: InventoryUris;
  /** Where OnTargetReset updates keep their tasks, and the resets they wait for. */
  tasks: FlasherDeps['tasks'];
  resetActions: FlasherDeps['resetActions'];
}

export function createFirmwareServices(d: FirmwareDeps): FirmwareServices {
  const inventory = new Inventory(d.store, d.uris, d.factoryVersions);
  const status = new UpdateStatus(d.store);
  const flasher = new Flasher({
    inventory,
    status,
    controller: d.controller,
    host: d.host,
    logs: d.logs,
    events: d.events,
    tasks: d.tasks,
    resetActions: d.resetActions,
  });
  return {
    inventory,
    status,
    flasher,
    repository: new ComponentRepository(d.store, d.dataDir, d.repositoryBytes),
    integrity: new IntegrityScanner(d.store, d.clock, inventory, flasher, d.logs, d.events, status, d.log),
    signingKey: d.signingKey ?? VendorSigningKey.loadOrCreate(d.dataDir),
    downloader: new Downloader({
      clock: d.clock,
      maxBytes: d.repositoryBytes,
      timeoutMs: d.downloadTimeoutSeconds * 1000,
      caFile: d.downloadCa,
    }),
  };
}
