// UpdateService: firmware and software inventory, SimpleUpdate, the vendor
// AddFromUri and StartFirmwareIntegrityCheck actions, the upload state and
// the firmware verification settings (PATCH Oem/Vendor on the service itself).
// Uploads and the component repository live in their own modules.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { requireFeature } from '../../domain/licensing/tiers.js';
import type { InventoryItem } from '../../domain/firmware/inventory.js';
import { fileNameOf, parseImageUri } from '../../domain/firmware/download.js';
import { SIMPLE_UPDATE_CLASSES, inspectPackage } from '../../domain/firmware/package.js';
import { verifyImage } from '../../domain/firmware/verify.js';
import type { TaskHandle } from '../../domain/tasks.js';
import { Priv } from '../../lib/privileges.js';
import { jsonWithoutCredentials, withoutCredentials } from '../../lib/uri-credentials.js';
import { baseError, vendorError } from '../../protocol/errors.js';
import { toIso } from '../../platform/clock.js';
import { APPLY_TIME, APPLY_TIME_SUPPORT, applyTimeSupport, requestedApplyTime } from '../../protocol/apply-time.js';
import { collection, success } from '../../protocol/reply.js';
import { action, present, type ActionContext, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { taskAccepted } from '../tasks/task-service.js';
import { COMPONENT_REPOSITORY_URI, INVALID_IMAGE_REPOSITORY_URI } from './component-repository.js';
import {
  AddFromUri,
  DeleteInstallSets,
  DeleteMaintenanceWindows,
  DeleteUnlockedComponents,
  DeleteUpdateTaskQueueItems,
  SimpleUpdate,
  SoftwareInventoryCollectionType,
  SoftwareInventoryType,
  StartFirmwareIntegrityCheck,
  UpdateServiceType,
} from './update-service-types.js';
import { UPLOAD_URI } from './upload.js';
import { requireRecoveryPriv } from './update-queue.js';
import { updateApplyTimes } from './apply-times.js';
import { OEM } from '../../protocol/naming.js';

const COMPSIG_MAX_BYTES = 64 * 1024;

/** What the update service uses. */
export type UpdateServiceDeps = Pick<Services, 'update' | 'updateQueue' | 'licenseTier' | 'tasks' | 'clock' | 'dialect'>;

type UpdateServicePath = '/redfish/v1/UpdateService/';

/** Adapter firmware sits on its adapter; the rest of the firmware on the system board. */
const onSystemBoard = (item: InventoryItem) =>
  item.kind === 'firmware' && !(ADAPTER_CLASSES as readonly (string | undefined)[]).includes(item.DeviceClass);
const ADAPTER_CLASSES = ['NIC', 'StorageController'] as const;

function inventoryBody(item: InventoryItem) {
  return {
    Id: item.Id,
    Name: item.Name,
    Description: item.kind === 'firmware' ? 'Firmware inventory item' : 'Software inventory item',
    Version: item.Version,
    Updateable: item.Updateable,
    ...(item.ReleaseDate ? { ReleaseDate: item.ReleaseDate } : {}),
    Status: { State: 'Enabled', Health: item.Corrupted ? 'Critical' : 'OK' },
    Oem: {
      [OEM]: {
        ...(item.DeviceClass ? { DeviceClass: item.DeviceClass } : {}),
        Targets: item.Targets,
        PendingVersion: item.Pending?.Version ?? null,
        ...(onSystemBoard(item) ? { DeviceContext: 'System Board' } : {}),
      },
    },
  };
}

/** A URI parameter of an action, as a URL the downloader takes (credentials and all: it moves them out). */
function imageUrl(raw: string, param: string, action: string): URL {
  const url = parseImageUri(raw);
  if (!url) throw baseError('ActionParameterValueFormatError', withoutCredentials(raw), param, action);
  return url;
}

/** The task's record of the request that started it: stored and shown to any reader, so without credentials. */
function payloadOf(ctx: { uri: string; body: unknown }) {
  return { HttpOperation: 'POST', TargetUri: ctx.uri, JsonBody: JSON.stringify(jsonWithoutCredentials(ctx.body)) };
}

function handlers(d: UpdateServiceDeps) {
  const fw = d.update;
  const applyTimes = updateApplyTimes(d);
  return {
    getUpdateService,
    patchUpdateService,
    postSimpleUpdate,
    simpleUpdateTargets,
    postAddFromUri,
    postStartFirmwareIntegrityCheck,
    postDeleteInstallSets,
    postDeleteMaintenanceWindows,
    postDeleteUnlockedComponents,
    postDeleteUpdateTaskQueueItems,
    getFirmwareInventory,
    getSoftwareInventory,
    getFirmwareItem,
    getSoftwareItem,
  };

  function getUpdateService() {
    const st = fw.status.get();
    const scan = fw.integrity.settings();
    const last = fw.integrity.lastCheck();
    const lastTime = last ? toIso(last.at) : null;
    return {
      Id: 'UpdateService',
      Name: 'Update Service',
      Description: 'Firmware and software update',
      ServiceEnabled: true,
      Status: { State: 'Enabled', Health: 'OK' },
      HttpPushUri: UPLOAD_URI,
      MultipartHttpPushUri: UPLOAD_URI,
      ...(applyTimes.length > 1 ? { [`MultipartHttpPushUri${APPLY_TIME_SUPPORT}`]: applyTimeSupport(applyTimes) } : {}),
      MaxImageSizeBytes: fw.repository.totalBytes,
      FirmwareInventory: { '@odata.id': '/redfish/v1/UpdateService/FirmwareInventory/' },
      SoftwareInventory: { '@odata.id': '/redfish/v1/UpdateService/SoftwareInventory/' },
      Oem: {
        [OEM]: {
          State: st.state,
          Result: st.result ?? null,
          UploadCurrentEtag: st.uploadCurrentEtag ?? null,
          ComponentRepository: { '@odata.id': COMPONENT_REPOSITORY_URI },
          // Served by the update task queue, maintenance window and install set area (update-queue.ts).
          UpdateTaskQueue: { '@odata.id': '/redfish/v1/UpdateService/UpdateTaskQueue/' },
          MaintenanceWindows: { '@odata.id': '/redfish/v1/UpdateService/MaintenanceWindows/' },
          InstallSets: { '@odata.id': '/redfish/v1/UpdateService/InstallSets/' },
          InvalidImageRepository: { '@odata.id': INVALID_IMAGE_REPOSITORY_URI },
          EnableBackgroundScan: scan.EnableBackgroundScan,
          OnIntegrityFailure: scan.OnIntegrityFailure,
          ScanEveryDays: scan.ScanEveryDays,
          FirmwareIntegrityScanInProgress: fw.integrity.isRunning(),
          FirmwareIntegrityScanPercentComplete: fw.integrity.percentComplete(),
          LastIntegrityScanTime: lastTime,
          LastIntegrityScanResult: last?.result ?? null,
          FirmwareIntegrity: {
            EnableBackgroundScan: scan.EnableBackgroundScan,
            OnIntegrityFailure: scan.OnIntegrityFailure,
            ScanEveryDays: scan.ScanEveryDays,
            LastScanTime: lastTime,
            LastScanResult: last?.result ?? null,
          },
          CurrentTime: toIso(d.clock.now()),
          Capabilities: { UpdateFWPKG: true, PLDMFirmwareUpdate: false },
          Accept3rdPartyFirmware: false,
          DowngradePolicy: 'AllowDowngrade',
        },
      },
    };
  }

  /** The firmware verification settings: the writable members of Oem/Vendor, only those sent. */
  function patchUpdateService(ctx: PatchContext<UpdateServicePath, typeof UpdateServiceType.properties>): void {
    const { FirmwareIntegrity, ...flat } = ctx.body.Oem?.[OEM] ?? {};
    fw.integrity.configure({ ...flat, ...FirmwareIntegrity });
  }

  function postStartFirmwareIntegrityCheck() {
    requireFeature(d.licenseTier, 'FirmwareIntegrityScan');
    fw.status.assertIdle();
    void fw.integrity.start();
    return success();
  }

  function postDeleteInstallSets(ctx: ActionContext<UpdateServicePath, typeof DeleteInstallSets>) {
    const sets = d.updateQueue.installSets;
    const all = ctx.body.IncludeRecoverySet === true;
    if (all) requireRecoveryPriv(ctx);
    for (const x of sets.list()) if (all || !x.IsRecovery) sets.delete(x.Id);
    return success();
  }

  function postDeleteMaintenanceWindows() {
    const windows = d.updateQueue.windows;
    for (const w of windows.list()) windows.delete(w.Id);
    return success();
  }

  function postDeleteUnlockedComponents() {
    for (const c of fw.repository.list()) if (c.LockedBy.length === 0) fw.repository.delete(c.Filename);
    return success();
  }

  function postDeleteUpdateTaskQueueItems() {
    const queue = d.updateQueue.queue;
    for (const t of queue.list()) queue.remove(t.Id);
    return success();
  }

  function getFirmwareInventory() {
    return collection(
      'Firmware Inventory',
      fw.inventory.list('firmware').map((i) => fw.inventory.uri(i)),
      { Description: 'Firmware installed on the server and the controller' },
    );
  }

  function getSoftwareInventory() {
    return collection(
      'Software Inventory',
      fw.inventory.list('software').map((i) => fw.inventory.uri(i)),
    );
  }

  function getFirmwareItem(ctx: Context<'/redfish/v1/UpdateService/FirmwareInventory/{InventoryId}/'>) {
    return inventoryBody(present(fw.inventory.get('firmware', ctx.params.InventoryId), ctx));
  }

  function getSoftwareItem(ctx: Context<'/redfish/v1/UpdateService/SoftwareInventory/{InventoryId}/'>) {
    return inventoryBody(present(fw.inventory.get('software', ctx.params.InventoryId), ctx));
  }

  /**
   * SimpleUpdate: download, verify, accept only controller/UEFI binaries, flash; 202 with a task.
   * OnTargetReset stages the image instead: the task stays Pending until its target resets.
   */
  function postSimpleUpdate(ctx: ActionContext<UpdateServicePath, typeof SimpleUpdate>) {
    const applyTime = requestedApplyTime(ctx.annotations?.[APPLY_TIME], applyTimes, SimpleUpdate.name);
    const url = imageUrl(ctx.body.ImageURI, 'ImageURI', SimpleUpdate.name);
    const protocol = ctx.body.TransferProtocol;
    if (protocol && `${protocol.toLowerCase()}:` !== url.protocol) {
      throw baseError('ActionParameterValueConflict', 'TransferProtocol', 'ImageURI');
    }
    const targets = checkedTargets(ctx.body.Targets, SimpleUpdate.name);
    const op = fw.status.begin('Uploading');
    const task = d.tasks.run('SimpleUpdate', payloadOf(ctx), async (task) => {
      const tmp = fw.repository.incomingPath();
      try {
        const filename = fileNameOf(url);
        const got = await fw.downloader.fetch(url.href, tmp, undefined, downloadProgress(task));
        task.progress(40);
        op.set('Verifying');
        // Before the signature check: a package's missing compsig is not what stands in its way.
        if ((await inspectPackage(tmp, filename)).kind !== 'bin') throw vendorError('SimpleUpdatePackageNotSupported', filename);
        const info = await verifyImage(fw.signingKey, tmp, filename, got.sha256, undefined);
        const cls = info.devices[0]?.DeviceClass ?? 'unknown';
        if (!SIMPLE_UPDATE_CLASSES.some((c) => c === cls)) throw vendorError('SimpleUpdateImageNotSupported', filename, `a ${cls} image`);
        task.progress(60);
        const result = await fw.flasher.apply({ path: tmp, filename, info }, { op, applyTime, task, targets });
        op.complete(result.messages[0]);
        // Staged: the flasher completes the task when the image activates.
        if (applyTime === 'Immediate') task.complete(result.messages);
      } catch (e) {
        op.fail(e);
        throw e;
      } finally {
        rmSync(tmp, { force: true });
      }
    });
    return taskAccepted(task);
  }

  /** Targets as sent, each a FirmwareInventory member (else 400 before anything starts); undefined when none. */
  function checkedTargets(targets: readonly string[] | undefined, actionName: string): string[] | undefined {
    for (const target of targets ?? []) {
      const id = /^\/redfish\/v1\/UpdateService\/FirmwareInventory\/([^/]+)\/?$/i.exec(target)?.[1];
      if (!id || !fw.inventory.get('firmware', decodeURIComponent(id))) throw baseError('ActionParameterValueError', 'Targets', actionName);
    }
    return targets?.length ? [...targets] : undefined;
  }

  /** What SimpleUpdate can flash: the updateable controller firmware and system ROM, as FirmwareInventory URIs. */
  function simpleUpdateTargets(): Record<string, readonly string[]> {
    const items = fw.inventory.list('firmware').filter((i) => i.Updateable && SIMPLE_UPDATE_CLASSES.some((c) => c === i.DeviceClass));
    return { Targets: items.map((i) => fw.inventory.uri(i)) };
  }

  /** AddFromUri: download (and its compsig), verify, store in the repository and/or flash the targets. */
  function postAddFromUri(ctx: ActionContext<UpdateServicePath, typeof AddFromUri>) {
    const actionName = AddFromUri.name;
    const url = imageUrl(ctx.body.ImageURI, 'ImageURI', actionName);
    const sigUrl = ctx.body.CompSigURI !== undefined ? imageUrl(ctx.body.CompSigURI, 'CompSigURI', actionName) : undefined;
    const targets = checkedTargets(ctx.body.Targets, actionName) ?? [];
    const op = fw.status.begin('Uploading');
    const task = d.tasks.run('AddFromUri', payloadOf(ctx), async (task) => {
      const tmp = fw.repository.incomingPath();
      const sigTmp = fw.repository.incomingPath();
      let stored = false;
      try {
        const filename = fileNameOf(url);
        const room = fw.repository.freeBytes() + (fw.repository.get(filename)?.SizeBytes ?? 0);
        const got = await fw.downloader.fetch(url.href, tmp, room, downloadProgress(task));
        let compsig: string | undefined;
        if (sigUrl) {
          await fw.downloader.fetch(sigUrl.href, sigTmp, COMPSIG_MAX_BYTES);
          compsig = await readFile(sigTmp, 'utf8');
        }
        task.progress(40);
        op.set('Verifying');
        const info = await verifyImage(fw.signingKey, tmp, filename, got.sha256, compsig);
        const passive = info.type === 'C' || info.type === 'D';
        const toRepository = passive || ctx.body.UpdateRepository !== false;
        const toTarget = !passive && ctx.body.UpdateTarget === true;
        if (toTarget) fw.flasher.check(info, targets.length ? targets : undefined);
        task.progress(60);
        let path = tmp;
        if (toRepository) {
          op.set('Writing');
          path = fw.repository.pathOf(fw.repository.add(tmp, filename, got.size, got.sha256.toString('hex'), info, d.clock.now()));
          stored = true;
        }
        task.progress(80);
        const messages = toTarget
          ? (await fw.flasher.apply({ path, filename, info }, { op, targets: targets.length ? targets : undefined })).messages
          : [];
        op.complete(messages[0]);
        task.complete(messages);
      } catch (e) {
        op.fail(e);
        throw e;
      } finally {
        if (!stored) rmSync(tmp, { force: true });
        rmSync(sigTmp, { force: true });
      }
    });
    return taskAccepted(task);
  }
}

export function registerUpdateServiceRoutes(routes: RouteTable, d: UpdateServiceDeps): void {
  const h = handlers(d);
  const applyTimes = updateApplyTimes(d);
  const inventory = d.update.inventory;

  routes.add({
    path: '/redfish/v1/UpdateService/',
    type: UpdateServiceType,
    get: { privilege: Priv.login, handler: h.getUpdateService },
    patch: { privilege: Priv.managerConfig, handler: h.patchUpdateService },
    actions: [
      action(SimpleUpdate, Priv.managerConfig, h.postSimpleUpdate, {
        allowable: h.simpleUpdateTargets,
        annotations: applyTimes.length > 1 ? { [APPLY_TIME_SUPPORT]: applyTimeSupport(applyTimes) } : undefined,
      }),
      action(AddFromUri, Priv.managerConfig, h.postAddFromUri),
      action(StartFirmwareIntegrityCheck, Priv.managerConfig, h.postStartFirmwareIntegrityCheck),
      action(DeleteInstallSets, Priv.managerConfig, h.postDeleteInstallSets),
      action(DeleteMaintenanceWindows, Priv.managerConfig, h.postDeleteMaintenanceWindows),
      action(DeleteUnlockedComponents, Priv.managerConfig, h.postDeleteUnlockedComponents),
      action(DeleteUpdateTaskQueueItems, Priv.managerConfig, h.postDeleteUpdateTaskQueueItems),
    ],
  });
  routes.add({
    path: '/redfish/v1/UpdateService/FirmwareInventory/',
    type: SoftwareInventoryCollectionType,
    get: { privilege: Priv.login, handler: h.getFirmwareInventory },
  });
  routes.add({
    path: '/redfish/v1/UpdateService/FirmwareInventory/{InventoryId}/',
    type: SoftwareInventoryType,
    params: { InventoryId: (id) => inventory.get('firmware', id) !== undefined },
    get: { privilege: Priv.login, handler: h.getFirmwareItem },
  });
  routes.add({
    path: '/redfish/v1/UpdateService/SoftwareInventory/',
    type: SoftwareInventoryCollectionType,
    get: { privilege: Priv.login, handler: h.getSoftwareInventory },
  });
  routes.add({
    path: '/redfish/v1/UpdateService/SoftwareInventory/{InventoryId}/',
    type: SoftwareInventoryType,
    params: { InventoryId: (id) => inventory.get('software', id) !== undefined },
    get: { privilege: Priv.login, handler: h.getSoftwareItem },
  });
}

/** The download is the first 40 % of a SimpleUpdate/AddFromUri task: PercentComplete follows the bytes, in steps of 5 %. */
function downloadProgress(task: TaskHandle): (received: number, total: number | undefined) => void {
  let shown = 0;
  return (received, total) => {
    if (!total) return;
    const percent = Math.floor((40 * Math.min(received, total)) / total / 5) * 5;
    if (percent > shown && percent < 40) {
      shown = percent;
      task.progress(percent);
    }
  };
}
