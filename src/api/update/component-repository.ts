// The component repository collection and its members (docs/firmware-packages.md), the
// invalid-image repository (images the integrity checks found corrupted) and iLO's /fwrepo/ downloads.
// Only Criticality, Configuration and ExecutionParameters are writable;
// a Locked component cannot be deleted.
import { Representations } from '../../lib/memo.js';
import { createReadStream } from 'node:fs';
import { CRITICALITIES, UPDATERS } from '../../domain/firmware/package.js';
import type { ComponentRecord, ComponentRepository } from '../../domain/firmware/repository.js';
import type { InvalidImageRecord } from '../../domain/firmware/invalid-images.js';
import { addCollection } from '../../protocol/collections.js';
import { targetGuid } from '../../domain/firmware/inventory.js';
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, oem, ro, t } from '../../protocol/description.js';
import { RawReply, collection } from '../../protocol/reply.js';
import { present, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export const COMPONENT_REPOSITORY_URI = '/redfish/v1/UpdateService/ComponentRepository/';

export const ComponentType = defineType({
  name: oemType('Component'),
  version: '1.0.0',
  owner: OEM,
  description: 'A signed firmware or software component kept in the repository.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Filename: ro(t.string({ description: 'Unique key of the component.' })),
    Version: ro(t.string()),
    SizeBytes: ro(t.integer({ units: 'By' })),
    Criticality: t.enum(CRITICALITIES),
    Created: ro(t.dateTime()),
    Locked: ro(t.boolean({ description: 'True while a task or install set references the component.' })),
    ComponentUri: ro(t.string({ format: 'uri-reference', description: 'URI of the component binary.' })),
    Activates: ro(t.string({ description: 'When the component activates once flashed.' })),
    Configuration: t.string({ maxLength: 4096, description: 'Free-form, for the host-side update manager.' }),
    ExecutionParameters: t.string({ maxLength: 4096, description: 'Command line passed to the component when launched.' }),
    Filepath: ro(t.string({ description: 'Where the component is kept in the repository (its file name).' })),
    UpdatableBy: ro(t.array(t.enum(UPDATERS), { description: 'Updaters that may apply it.' })),
    Targets: ro(t.array(t.string(), { description: 'Target GUIDs of the devices it is for (firmware inventory Targets).' })),
    ComponentType: ro(t.enum(['A', 'B', 'C', 'D'])),
    DeviceClasses: ro(t.array(t.string())),
    Sha256: ro(t.string()),
  },
});

const VendorComponentCollectionType = defineType({
  name: oemType('ComponentCollectionExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Space of the component repository.',
  properties: {
    ComponentCount: ro(t.integer()),
    FreeSizeBytes: ro(t.integer({ units: 'By' })),
    TotalSizeBytes: ro(t.integer({ units: 'By' })),
  },
});

const ComponentCollectionType = defineType({
  ...collectionOf(ComponentType),
  properties: { ...collectionOf(ComponentType).properties, Oem: oem(VendorComponentCollectionType, { readOnly: true }) },
});

/** iLO's download place of a stored component (ilorest downloadcomp): /fwrepo/<Filename>. */
export const FWREPO_PREFIX = '/fwrepo/';

const memberUri = (c: ComponentRecord) => `${COMPONENT_REPOSITORY_URI}${c.Id}/`;
const fileUri = (c: ComponentRecord) => `${FWREPO_PREFIX}${encodeURIComponent(c.Filename)}`;

function componentBody(c: ComponentRecord, repo: ComponentRepository) {
  return {
    Id: c.Id,
    Name: c.Name,
    Filename: c.Filename,
    Filepath: c.Filename,
    UpdatableBy: repo.updatableBy(c),
    Targets: c.DeviceClasses.map(targetGuid),
    Version: c.Version,
    SizeBytes: c.SizeBytes,
    Criticality: c.Criticality,
    Created: toIso(c.Created),
    Locked: c.LockedBy.length > 0,
    ComponentUri: fileUri(c),
    Activates: c.Activates,
    Configuration: c.Configuration,
    ExecutionParameters: c.ExecutionParameters,
    ComponentType: c.ComponentType,
    DeviceClasses: c.DeviceClasses,
    Sha256: c.Sha256,
  };
}

export const INVALID_IMAGE_REPOSITORY_URI = '/redfish/v1/UpdateService/InvalidImageRepository/';

const InvalidImageType = defineType({
  name: oemType('InvalidImage'),
  version: '1.0.0',
  owner: OEM,
  description: 'A firmware image the integrity checks found corrupted, kept until deleted.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Filename: ro(t.string({ description: 'The unique name the image is kept under.' })),
    Filepath: ro(t.string()),
    DeviceClass: ro(t.string({ description: 'Target GUID of the device whose image it was.' })),
    Created: ro(t.dateTime({ description: 'When the corruption was found.' })),
    Version: ro(t.string({ description: 'The version the corrupted image was meant to be.' })),
    FirmwareInventory: t.link({ readOnly: true }),
  },
});

function invalidImageBody(x: InvalidImageRecord, d: ComponentRepositoryDeps) {
  const item = d.update.inventory.get(x.Item.kind, x.Item.Id);
  return {
    Id: x.Id,
    Name: 'Invalid firmware image',
    Filename: x.Filename,
    Filepath: x.Filename,
    DeviceClass: x.DeviceClass,
    Created: toIso(x.Created),
    Version: x.Version,
    ...(item ? { FirmwareInventory: { '@odata.id': d.update.inventory.uri(item) } } : {}),
  };
}

/** What the component repository reads. */
export type ComponentRepositoryDeps = Pick<Services, 'update' | 'store'>;

type ComponentPath = '/redfish/v1/UpdateService/ComponentRepository/{ComponentId}/';

function handlers(d: ComponentRepositoryDeps) {
  const repo = d.update.repository;
  const views = new Representations(1);
  return { getComponentRepository, getComponent, patchComponent, deleteComponent, getFwrepoFile };

  /** Rebuilt when the stored components or the free space (uploads in progress reserve some) change. */
  function getComponentRepository() {
    const free = repo.freeBytes();
    return views.get('repository', [d.store.generation, free], () =>
      collection('Component Repository', repo.list().map(memberUri), {
        Description: 'Firmware and software components stored on the controller',
        Oem: { [OEM]: { ComponentCount: repo.list().length, FreeSizeBytes: free, TotalSizeBytes: repo.totalBytes } },
      }),
    );
  }

  function getComponent(ctx: Context<ComponentPath>) {
    return componentBody(present(repo.getById(ctx.params.ComponentId), ctx), repo);
  }

  function patchComponent(ctx: PatchContext<ComponentPath, typeof ComponentType.properties>): void {
    repo.update(present(repo.getById(ctx.params.ComponentId), ctx).Filename, ctx.body);
  }

  function deleteComponent(ctx: Context<ComponentPath>): void {
    d.update.status.assertIdle();
    repo.delete(present(repo.getById(ctx.params.ComponentId), ctx).Filename);
  }

  /** The binary itself, streamed from disk, where iLO serves it: by file name under /fwrepo/. */
  function getFwrepoFile(ctx: Context<'/fwrepo/{Filename}'>) {
    const c = present(repo.get(ctx.params.Filename), ctx);
    return new RawReply(200, 'application/octet-stream', createReadStream(repo.pathOf(c)), {
      'Content-Length': String(c.SizeBytes),
      'Content-Disposition': `attachment; filename="${c.Filename.replace(/["\\]/g, '_')}"`,
    });
  }
}

export function registerComponentRepositoryRoutes(routes: RouteTable, d: ComponentRepositoryDeps): void {
  const h = handlers(d);
  const ComponentId = (id: string) => d.update.repository.getById(id) !== undefined;

  routes.add({
    path: '/redfish/v1/UpdateService/ComponentRepository/',
    type: ComponentCollectionType,
    get: { privilege: Priv.login, handler: h.getComponentRepository },
  });
  routes.add({
    path: '/redfish/v1/UpdateService/ComponentRepository/{ComponentId}/',
    type: ComponentType,
    params: { ComponentId },
    get: { privilege: Priv.login, handler: h.getComponent },
    patch: { privilege: Priv.managerConfig, handler: h.patchComponent },
    delete: { privilege: Priv.managerConfig, handler: h.deleteComponent },
  });
  const invalid = d.update.invalidImages;
  addCollection(routes, {
    collection: INVALID_IMAGE_REPOSITORY_URI,
    member: `${INVALID_IMAGE_REPOSITORY_URI}{InvalidImageId}/`,
    type: InvalidImageType,
    name: 'Invalid Image Repository',
    extra: () => ({ Description: 'Images that failed verification, kept until deleted' }),
    store: { list: () => invalid.list(), get: (id) => invalid.get(id), id: (x) => x.Id },
    show: (x) => invalidImageBody(x, d),
    privileges: { read: Priv.login, write: Priv.managerConfig },
    remove: (x) => void invalid.delete(x.Id),
  });
  routes.add({
    path: '/fwrepo/{Filename}',
    params: { Filename: (name) => d.update.repository.get(name) !== undefined },
    outside: true,
    file: true,
    get: { privilege: Priv.login, handler: h.getFwrepoFile },
  });
}
