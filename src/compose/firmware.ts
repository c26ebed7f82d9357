// The controller's firmware update machinery: inventory, update state, the flasher, the component
// repository, the integrity scanner, the vendor signing key and the image downloader; the virtual
// media that shares the downloader; and the update task queue on top, with its updaters,
// maintenance windows and install sets.
import type { Services } from '../api/services.js';
import { Downloader } from '../domain/firmware/download.js';
import { Flasher } from '../domain/firmware/flasher.js';
import type { FirmwareServices } from '../domain/firmware/index.js';
import { IntegrityScanner } from '../domain/firmware/integrity.js';
import { InvalidImages } from '../domain/firmware/invalid-images.js';
import { Inventory, REDUNDANT_ROM } from '../domain/firmware/inventory.js';
import { ComponentRepository } from '../domain/firmware/repository.js';
import { VendorSigningKey } from '../domain/firmware/signing.js';
import { UpdateStatus } from '../domain/firmware/update-state.js';
import { VirtualMedia } from '../domain/manager/virtual-media.js';
import { UpdateQueueArea } from '../domain/update-queue/area.js';
import { InstallSets } from '../domain/update-queue/install-sets.js';
import { UpdateQueue } from '../domain/update-queue/queue.js';
import type { Agent } from '../domain/update-queue/records.js';
import type { TaskFactoryDeps } from '../domain/update-queue/tasks.js';
import { FirmwareApplier, RuntimeAgent, attachUefiUpdater } from '../domain/update-queue/updaters.js';
import { MaintenanceWindows } from '../domain/update-queue/windows.js';
import type { Base } from './base.js';
import type { Host, Lifecycles } from './host.js';

export type Firmware = Pick<Services, 'update' | 'virtualMedia' | 'updateQueue' | 'firmware'>;

export function buildFirmware(b: Base, { host, controller }: Lifecycles, p: Host & Pick<Services, 'events'>): Firmware {
  const { config, store, clock, log, uris } = b;
  const { logs, tasks } = p;
  const { events } = p;
  const inventory = new Inventory(store, uris, b.seat?.factory.firmware);
  const status = new UpdateStatus(store);
  const flasher = new Flasher({
    clock,
    log,
    inventory,
    status,
    controller,
    host,
    logs,
    events,
    tasks,
    resetActions: {
      controller: uris.manager('Actions', 'Manager.Reset'),
      server: uris.system('Actions', 'ComputerSystem.Reset'),
    },
  });
  const invalidImages = new InvalidImages(store);
  const update: FirmwareServices = {
    inventory,
    status,
    flasher,
    repository: new ComponentRepository(store, b.dataDir, config.repositoryBytes),
    integrity: new IntegrityScanner(store, clock, inventory, flasher, logs, events, status, log, invalidImages),
    invalidImages,
    signingKey: b.seat?.firmwareKey ?? VendorSigningKey.loadOrCreate(b.dataDir),
    downloader: new Downloader({
      clock,
      maxBytes: config.repositoryBytes,
      timeoutMs: config.downloadTimeout * 1000,
      caFile: config.downloadCa,
    }),
  };
  // The controller checks its firmware as it boots: now, and at every controller reset.
  update.integrity.verifyAtBoot();
  controller.onReset(() => update.integrity.verifyAtBoot());
  const virtualMedia = new VirtualMedia({
    store,
    downloader: update.downloader,
    maxBytes: config.virtualMediaBytes,
    logs,
    events,
    uris,
  });
  return {
    update,
    virtualMedia,
    updateQueue: buildUpdateQueue(b, { host, controller }, { ...p, update }),
    firmware: {
      controllerVersion: () => inventory.controllerVersion(),
      biosVersion: () => inventory.byDeviceClass('SystemROM')[0]?.Version ?? 'unknown',
      backupBiosVersion: () => inventory.list('firmware').find((i) => i.Name === REDUNDANT_ROM)?.Version,
      installedVersion: (deviceClass: string) => inventory.byDeviceClass(deviceClass)[0]?.Version,
    },
  };
}

/** The queue and its three updaters (firmware, UEFI at POST, the host's runtime agent), maintenance windows and install sets. */
function buildUpdateQueue(
  b: Base,
  { host, controller }: Lifecycles,
  p: Pick<Services, 'logs' | 'events' | 'update' | 'server'>,
): UpdateQueueArea {
  const { store, clock } = b;
  const { repository, inventory, flasher, integrity, status } = p.update;
  const queue = new UpdateQueue({
    store,
    clock,
    host,
    controller,
    events: p.events,
    logs: p.logs,
    status,
    log: b.log,
    uris: b.uris,
    // A task holds its component in the repository while it exists.
    lock: (f, holder) => repository.lock(f, holder),
    unlock: (f, holder) => repository.unlock(f, holder),
    resetServer: (by) => resetServer(p.server, by),
  });
  queue.applier = new FirmwareApplier(repository, flasher, inventory);
  const windows = new MaintenanceWindows(store, clock, queue);
  const factory: TaskFactoryDeps = {
    clock,
    queue,
    repository,
    inventory,
    tpm: () => host.tpm(),
    window: (id) => windows.get(id),
  };
  const installSets = new InstallSets(store, clock, factory, queue, b.uris);
  queue.recoverySet = installSets;
  attachUefiUpdater(host, queue);
  // --runtime-agent sets the agent's state at start; otherwise the stored state stays.
  const runtimeAgent = new RuntimeAgent(store, clock, host, queue, b.config.runtimeAgent as 'installed' | 'absent' | undefined);
  // The recovery install set is the integrity scanner's recovery source.
  integrity.recoveryImageFor = (deviceClass) => installSets.recoveryImageFor(deviceClass);
  // The Bmc updater picks up whatever is due after a restart.
  queue.kick();
  return new UpdateQueueArea(queue, windows, installSets, runtimeAgent, factory);
}

/**
 * A ResetServer task: the host's update agent restarts the operating system; the controller restarts
 * a running server and powers on one that is off.
 */
function resetServer(server: Services['server'], by: Agent): void {
  if (by === 'RuntimeAgent') server.reset('GracefulRestart');
  else server.reset(server.powerState() === 'Off' ? 'On' : 'ForceRestart');
}
