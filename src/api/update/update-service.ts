// UpdateService: firmware and software inventory, SimpleUpdate, the vendor
// AddFromUri and StartFirmwareIntegrityCheck actions, the upload state and
// the firmware verification settings (PATCH Oem/Vendor on the service itself).
// Uploads and the component repository live in their own modules.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { requireFeature } from '../../domain/licensing/tiers.js';
import { inventoryUri, type InventoryItem, type InventoryKind } from '../../domain/firmware/inventory.js';
import { fileNameOf, parseImageUri } from '../../domain/firmware/download.js';
import { SIMPLE_UPDATE_CLASSES } from '../../domain/firmware/package.js';
import { verifyImage } from '../../domain/firmware/verify.js';
import { Priv } from '../../lib/privileges.js';
import { baseError, vendorError } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { present, type RequestContext, type RouteTable } from '../../protocol/routes.js';
import { COMPONENT_REPOSITORY_URI, registerComponentRepositoryRoutes } from './component-repository.js';
import type { Services } from '../services.js';
import { taskAccepted } from '../tasks/task-service.js';
import { UPLOAD_URI, registerUploadRoutes } from './upload.js';

export const UPDATE_SERVICE_URI = '/redfish/v1/UpdateService/';
const FIRMWARE_INVENTORY_URI = `${UPDATE_SERVICE_URI}FirmwareInventory/`;
const SOFTWARE_INVENTORY_URI = `${UPDATE_SERVICE_URI}SoftwareInventory/`;
/** Served by the update task queue, maintenance window and install set area. */
const ISSUE7_LINKS = ['UpdateTaskQueue', 'MaintenanceWindows', 'InstallSets'] as const;
const COMPSIG_MAX_BYTES = 64 * 1024;

const VendorSoftwareInventoryType = defineType({
  name: 'VendorSoftwareInventory',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Vendor extension of an inventory item.',
  properties: {
    DeviceClass: ro(t.string({ description: 'Device class a component names to apply here.' })),
    Targets: ro(t.array(t.string(), { description: 'Target GUIDs components match against.' })),
    PendingVersion: ro(t.string({ nullable: true, description: 'Version written and activated at the next server boot.' })),
  },
});

export const SoftwareInventoryType = defineType({
  name: 'SoftwareInventory',
  version: '1.10.0',
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
  name: 'VendorMCUpdateServiceExt',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Vendor extension of the update service: upload state, repository, queue and firmware verification.',
  properties: {
    State: ro(t.enum(['Idle', 'Uploading', 'Verifying', 'Writing', 'Updating', 'Complete', 'Error'])),
    Result: ro(t.any({ nullable: true, description: 'Message describing the outcome of the last operation; null before the first.' })),
    UploadCurrentEtag: ro(t.string({ nullable: true, description: 'The UploadCurrentEtag parameter of the last upload.' })),
    ComponentRepository: link(),
    UpdateTaskQueue: link(),
    MaintenanceWindows: link(),
    InstallSets: link(),
    EnableBackgroundScan: t.boolean({ description: 'Scan installed firmware for corruption in the background.' }),
    OnIntegrityFailure: t.enum(['LogOnly', 'LogAndRepairAutomatically']),
    ScanEveryDays: t.integer({ minimum: 1, maximum: 365, description: 'Days between background scans.' }),
    FirmwareIntegrityScanInProgress: ro(t.boolean()),
    LastIntegrityScanTime: ro(t.dateTime({ nullable: true })),
    LastIntegrityScanResult: ro(t.enum(['OK', 'Failed', 'Repaired'], { nullable: true })),
    Actions: ro(t.object({}, { additionalProperties: true })),
  },
});

export const UpdateServiceType = defineType({
  name: 'UpdateService',
  version: '1.11.0',
  owner: 'DMTF',
  description: 'Firmware and software update.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    HttpPushUri: ro(t.string({ format: 'uri-reference' })),
    MaxImageSizeBytes: ro(t.integer({ units: 'By' })),
    FirmwareInventory: link(),
    SoftwareInventory: link(),
    Oem: oem(VendorMCUpdateServiceExtType),
  },
});

const SimpleUpdate = {
  name: 'UpdateService.SimpleUpdate',
  description: 'Download a controller or UEFI firmware binary and flash it.',
  parameters: {
    ImageURI: t.string({ required: true, description: 'HTTP or HTTPS URI of the image.' }),
    TransferProtocol: t.enum(['HTTP', 'HTTPS']),
  },
};
const AddFromUri = {
  name: 'VendorMCUpdateServiceExt.AddFromUri',
  oem: true,
  description: 'Download a component into the repository and optionally flash it to targets.',
  parameters: {
    ImageURI: t.string({ required: true }),
    CompSigURI: t.string(),
    Targets: t.array(t.string(), { maxItems: 10, description: 'Firmware inventory URIs.' }),
    UpdateTarget: t.boolean(),
    UpdateRepository: t.boolean(),
  },
};
const StartFirmwareIntegrityCheck = {
  name: 'VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck',
  oem: true,
  description: 'Run a firmware verification scan now (PremiumSecurity license).',
  parameters: {},
};

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
      Vendor: {
        ...(item.DeviceClass ? { DeviceClass: item.DeviceClass } : {}),
        Targets: item.Targets,
        PendingVersion: item.Pending?.Version ?? null,
      },
    },
  };
}

export function registerUpdateServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.UpdateService = UPDATE_SERVICE_URI;
  const fw = s.update;

  routes.add({
    path: UPDATE_SERVICE_URI,
    type: UpdateServiceType,
    get: {
      privilege: Priv.login,
      handler: () => {
        const st = fw.status.get();
        const scan = fw.integrity.settings();
        return {
          Id: 'UpdateService',
          Name: 'Update Service',
          Description: 'Firmware and software update',
          ServiceEnabled: true,
          Status: { State: 'Enabled', Health: 'OK' },
          HttpPushUri: UPLOAD_URI,
          MaxImageSizeBytes: fw.repository.totalBytes,
          FirmwareInventory: { '@odata.id': FIRMWARE_INVENTORY_URI },
          SoftwareInventory: { '@odata.id': SOFTWARE_INVENTORY_URI },
          Oem: {
            Vendor: {
              State: st.state,
              Result: st.result ?? null,
              UploadCurrentEtag: st.uploadCurrentEtag ?? null,
              ComponentRepository: { '@odata.id': COMPONENT_REPOSITORY_URI },
              ...Object.fromEntries(ISSUE7_LINKS.map((n) => [n, { '@odata.id': `${UPDATE_SERVICE_URI}${n}/` }])),
              EnableBackgroundScan: scan.EnableBackgroundScan,
              OnIntegrityFailure: scan.OnIntegrityFailure,
              ScanEveryDays: scan.ScanEveryDays,
              FirmwareIntegrityScanInProgress: fw.integrity.isRunning(),
              LastIntegrityScanTime: scan.lastScanAt !== undefined ? toIso(scan.lastScanAt) : null,
              LastIntegrityScanResult: scan.lastResult ?? null,
            },
          },
        };
      },
    },
    patch: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const v = ((ctx.body.Oem as Record<string, unknown> | undefined)?.Vendor ?? {}) as Record<string, unknown>;
        const patch: Record<string, unknown> = {};
        for (const k of ['EnableBackgroundScan', 'OnIntegrityFailure', 'ScanEveryDays']) if (k in v) patch[k] = v[k];
        fw.integrity.configure(patch);
      },
    },
    actions: [
      { def: SimpleUpdate, privilege: Priv.managerConfig, handler: (ctx) => simpleUpdate(s, ctx) },
      { def: AddFromUri, privilege: Priv.managerConfig, handler: (ctx) => addFromUri(s, ctx) },
      {
        def: StartFirmwareIntegrityCheck,
        privilege: Priv.managerConfig,
        handler: () => {
          requireFeature(s.licenseTier, 'FirmwareIntegrityScan');
          fw.status.assertIdle();
          void fw.integrity.start();
          return success();
        },
      },
    ],
  });

  for (const [kind, uri, title] of [
    ['firmware', FIRMWARE_INVENTORY_URI, 'Firmware Inventory'],
    ['software', SOFTWARE_INVENTORY_URI, 'Software Inventory'],
  ] as const) {
    routes.add({
      path: uri,
      type: collectionOf(SoftwareInventoryType),
      get: { privilege: Priv.login, handler: () => collection(title, fw.inventory.list(kind).map(inventoryUri)) },
    });
    routes.add({
      path: `${uri}{InventoryId}/`,
      params: { InventoryId: (id) => s.update.inventory.get(kind, id) !== undefined },
      type: SoftwareInventoryType,
      get: { privilege: Priv.login, handler: (ctx) => inventoryBody(findItem(s, kind, ctx)) },
    });
  }

  registerUploadRoutes(routes, s);
  registerComponentRepositoryRoutes(routes, s);
}

function findItem(s: Services, kind: InventoryKind, ctx: RequestContext): InventoryItem {
  return present(s.update.inventory.get(kind, ctx.params.InventoryId ?? ''), ctx);
}

function imageUrl(ctx: RequestContext, param: string, action: string): URL {
  const raw = ctx.body[param] as string;
  const url = parseImageUri(raw);
  if (!url) throw baseError('ActionParameterValueFormatError', raw, param, action);
  return url;
}

function payloadOf(ctx: RequestContext) {
  return { HttpOperation: 'POST', TargetUri: ctx.uri, JsonBody: JSON.stringify(ctx.body) };
}

/** SimpleUpdate: download, verify, accept only controller/UEFI binaries, flash; 202 with a task. */
function simpleUpdate(s: Services, ctx: RequestContext) {
  const fw = s.update;
  const url = imageUrl(ctx, 'ImageURI', SimpleUpdate.name);
  const protocol = ctx.body.TransferProtocol as string | undefined;
  if (protocol && `${protocol.toLowerCase()}:` !== url.protocol) {
    throw baseError('ActionParameterValueConflict', 'TransferProtocol', 'ImageURI');
  }
  const op = fw.status.begin('Uploading');
  const task = s.tasks.run('SimpleUpdate', payloadOf(ctx), async (task) => {
    const tmp = fw.repository.incomingPath();
    try {
      const filename = fileNameOf(url);
      const got = await fw.downloader.fetch(url.href, tmp);
      task.progress(40);
      op.set('Verifying');
      const info = await verifyImage(fw.signingKey, tmp, filename, got.sha256, undefined);
      const cls = info.devices[0]?.DeviceClass ?? 'unknown';
      if (info.kind !== 'bin' || !(SIMPLE_UPDATE_CLASSES as readonly string[]).includes(cls)) {
        throw vendorError(400, 'SimpleUpdateImageNotSupported', filename, info.kind === 'bin' ? `a ${cls} image` : 'a component package');
      }
      task.progress(60);
      const result = await fw.flasher.apply({ path: tmp, filename, info }, { op });
      op.complete(result.messages[0]);
      task.complete(result.messages);
    } catch (e) {
      op.fail(e);
      throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
  });
  return taskAccepted(task);
}

/** AddFromUri: download (and its compsig), verify, store in the repository and/or flash the targets. */
function addFromUri(s: Services, ctx: RequestContext) {
  const fw = s.update;
  const action = AddFromUri.name;
  const url = imageUrl(ctx, 'ImageURI', action);
  const sigUrl = ctx.body.CompSigURI !== undefined ? imageUrl(ctx, 'CompSigURI', action) : undefined;
  const targets = (ctx.body.Targets as string[] | undefined) ?? [];
  for (const target of targets) {
    const id = /^\/redfish\/v1\/UpdateService\/FirmwareInventory\/([^/]+)\/?$/i.exec(target)?.[1];
    if (!id || !fw.inventory.get('firmware', decodeURIComponent(id))) throw baseError('ActionParameterValueError', 'Targets', action);
  }
  const op = fw.status.begin('Uploading');
  const task = s.tasks.run('AddFromUri', payloadOf(ctx), async (task) => {
    const tmp = fw.repository.incomingPath();
    const sigTmp = fw.repository.incomingPath();
    let stored = false;
    try {
      const filename = fileNameOf(url);
      const got = await fw.downloader.fetch(url.href, tmp, fw.repository.freeBytes() + (fw.repository.get(filename)?.SizeBytes ?? 0));
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
        path = fw.repository.pathOf(fw.repository.add(tmp, filename, got.size, got.sha256.toString('hex'), info, s.clock.now()));
        stored = true;
      }
      task.progress(80);
      const messages = toTarget ? (await fw.flasher.apply({ path, filename, info }, { op, targets: targets.length ? targets : undefined })).messages : [];
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
