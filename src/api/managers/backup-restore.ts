// The vendor's BackupRestoreService of the manager (ilorest backuprestore):
// POST to BackupFileLocation (a multipart form: sessionKey, optional password)
// makes a backup of the controller's settings and answers its bytes; the
// controller keeps it as its one BackupFile, which GET on the same location
// downloads and its Restore action restores. A backup file POSTed to
// HttpPushUri (multipart: file, optional password) is restored; either
// restore ends with a controller reset. What a backup holds is the domain's
// (../../domain/manager/backup.ts).
import type Busboy from 'busboy';
import type { Readable } from 'node:stream';
import type { BackupFile } from '../../domain/manager/backup.js';
import { Priv } from '../../lib/privileges.js';
import { lazyRequire } from '../../lib/lazy-require.js';
import { vendorMessage } from '../../messages/errors.js';
import { serverIdentity } from '../../platform/identity.js';
import { toIso } from '../../platform/clock.js';
import { baseError } from '../../protocol/errors.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf, defineAction, defineType, oem, ro, t } from '../../protocol/description.js';
import { RawReply, success } from '../../protocol/reply.js';
import { action, missing, type ActionContext, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

const busboy = lazyRequire<typeof Busboy>('busboy');

export type BackupRestoreDeps = Pick<Services, 'managerFeatures' | 'uris' | 'clock' | 'logs' | 'hardware' | 'serviceUuid'>;

const BACKUP_DIR = '/bkupdata/';
const RESTORE_URI = '/cgi-bin/uploadRestoreFile';
/** A backup is a few kilobytes; anything much larger is not one. */
const MAX_BACKUP_BYTES = 4 * 1024 * 1024;
const FILE_NAME = /^[A-Za-z0-9_.-]{1,64}\.bak$/;

const RestoreAction = defineAction({
  name: `${controllerType('BackupFile')}.Restore`,
  description: 'Restore the controller settings this backup holds, then restart the controller.',
  parameters: { BackupFilePassword: t.string({ secret: true, maxLength: 64 }) },
});

export const VendorMCBackupRestoreServiceType = defineType({
  name: controllerType('BackupRestoreService'),
  version: '2.2.0',
  owner: OEM,
  description: "Backup and restore of the management controller's settings.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    BackupFileLocation: ro(t.string({ volatile: true, description: 'POST here (multipart, optional `password`) for a new backup file.' })),
    HttpPushUri: ro(t.string({ description: 'POST a backup file here (multipart `file`, optional `password`) to restore it.' })),
    CustomBackupandRestore: ro(t.boolean()),
    BackupFiles: t.link({ readOnly: true }),
  },
});

export const VendorMCBackupFilesInformationType = defineType({
  name: controllerType('BackupFilesInformation'),
  version: '1.0.0',
  owner: OEM,
  description: 'How many backup files the controller keeps.',
  properties: { BackupFileCount: ro(t.integer()), BackupFilesAllowed: ro(t.integer()) },
});

export const VendorMCBackupFileType = defineType({
  name: controllerType('BackupFile'),
  version: '1.0.0',
  owner: OEM,
  description: 'A backup of the controller settings kept by the controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Created: ro(t.dateTime()),
    FileSize: ro(t.integer()),
    FirmwareVersion: ro(t.string()),
    Links: t.object(
      { Download: t.object({ extref: ro(t.string()) }, { typeName: 'ExtRef', description: 'Where GET downloads the file.' }) },
      { readOnly: true, typeName: 'Links' },
    ),
  },
  actions: [RestoreAction],
});

const BackupFileCollectionType = defineType({
  ...collectionOf(VendorMCBackupFileType, 'The backup files the controller keeps.'),
  properties: { ...collectionOf(VendorMCBackupFileType).properties, Oem: oem(VendorMCBackupFilesInformationType, { readOnly: true }) },
});

/** The small multipart forms of backup and restore: their fields, and the file part's bytes. */
async function readForm(
  stream: Readable | undefined,
  headers: Context<string>['headers'],
): Promise<{ fields: Record<string, string>; file?: Buffer }> {
  if (!stream) return { fields: {} };
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  let tooLarge = false;
  await new Promise<void>((resolve, reject) => {
    let bb: Busboy.Busboy;
    try {
      bb = busboy()({ headers, limits: { fieldSize: 64 * 1024, fields: 8, files: 1, fileSize: MAX_BACKUP_BYTES } });
    } catch {
      reject(baseError('MalformedJSON'));
      return;
    }
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (_name, s) => {
      const chunks: Buffer[] = [];
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('limit', () => (tooLarge = true));
      s.on('end', () => (file = Buffer.concat(chunks)));
    });
    bb.on('close', resolve);
    bb.on('error', () => reject(baseError('PropertyValueFormatError', '<form>', 'file')));
    stream.pipe(bb);
  });
  if (tooLarge) throw baseError('PropertyValueFormatError', '<file>', 'file').about('file');
  return { fields, file };
}

function handlers(d: BackupRestoreDeps) {
  const backups = d.managerFeatures.backups;

  /** The name the next backup gets: the server's serial number and the controller's time, as the vendor names them. */
  function nextName(): string {
    const serial = serverIdentity(d.serviceUuid, d.hardware.system).SerialNumber;
    const at = toIso(d.clock.now()).replace(/[-:]/g, '');
    return `${serial}_${at.slice(0, 8)}_${at.slice(9, 13)}.bak`;
  }

  function getService(ctx: Context<'/redfish/v1/Managers/{ManagerId}/BackupRestoreService/'>) {
    return {
      Id: 'BackupRestoreService',
      Name: 'Backup Restore Service',
      BackupFileLocation: `${BACKUP_DIR}${nextName()}`,
      HttpPushUri: RESTORE_URI,
      CustomBackupandRestore: false,
      BackupFiles: { '@odata.id': `${ctx.uri}BackupFiles/` },
    };
  }

  function fileBody(f: Readonly<BackupFile>) {
    return {
      Id: '1',
      Name: f.Name,
      Created: toIso(f.Created),
      FileSize: Buffer.byteLength(f.content),
      FirmwareVersion: f.FirmwareVersion,
      Links: { Download: { extref: `${BACKUP_DIR}${f.Name}` } },
    };
  }

  async function postBackup(ctx: Context<'/bkupdata/{BackupFile}/'>) {
    const name = ctx.params.BackupFile;
    if (!FILE_NAME.test(name)) throw missing(ctx);
    const { fields } = await readForm(ctx.stream, ctx.headers);
    const file = backups.create(name, fields.password || undefined);
    d.logs.write('IEL', vendorMessage('ControllerBackupCreated', name, ctx.principal.userName), d.uris.manager('BackupRestoreService'));
    return new RawReply(200, 'application/octet-stream', file.content, { 'Content-Disposition': `attachment; filename="${name}"` });
  }

  function getBackup(ctx: Context<'/bkupdata/{BackupFile}/'>) {
    const f = backups.stored();
    if (!f || f.Name !== ctx.params.BackupFile) throw missing(ctx);
    return new RawReply(200, 'application/octet-stream', f.content, { 'Content-Disposition': `attachment; filename="${f.Name}"` });
  }

  async function restore(content: string, password: string | undefined, name: string, by: string) {
    // Recorded first: the restore ends with a controller reset, recorded after it.
    await backups.restore(content, password, () =>
      d.logs.write('IEL', vendorMessage('ControllerBackupRestored', name, by), d.uris.manager('BackupRestoreService')),
    );
  }

  async function postRestoreUpload(ctx: Context<'/cgi-bin/uploadRestoreFile/'>) {
    const { fields, file } = await readForm(ctx.stream, ctx.headers);
    if (!file) throw baseError('PropertyMissing', 'file').about('file');
    await restore(file.toString('utf8'), fields.password || undefined, 'uploaded file', ctx.principal.userName);
    return success();
  }

  async function postRestore(
    ctx: ActionContext<'/redfish/v1/Managers/{ManagerId}/BackupRestoreService/BackupFiles/{BackupFileId}/', typeof RestoreAction>,
  ) {
    const f = backups.stored();
    if (!f) throw missing(ctx);
    await restore(f.content, ctx.body.BackupFilePassword, f.Name, ctx.principal.userName);
    return success();
  }

  return { getService, fileBody, postBackup, getBackup, postRestoreUpload, postRestore, backups };
}

export function registerBackupRestoreRoutes(routes: RouteTable, d: BackupRestoreDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/BackupRestoreService/',
    type: VendorMCBackupRestoreServiceType,
    get: { privilege: Priv.login, handler: h.getService },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/BackupRestoreService/BackupFiles/',
    member: '/redfish/v1/Managers/{ManagerId}/BackupRestoreService/BackupFiles/{BackupFileId}/',
    type: VendorMCBackupFileType,
    collectionType: BackupFileCollectionType,
    name: 'Backup Files',
    extra: () => ({
      Description: 'Backup File Collection',
      Oem: { [OEM]: { BackupFileCount: h.backups.stored() ? 1 : 0, BackupFilesAllowed: 1 } },
    }),
    store: {
      list: () => {
        const f = h.backups.stored();
        return f ? [f] : [];
      },
      get: (id: string) => (id === '1' ? h.backups.stored() : undefined),
      id: () => '1',
    },
    show: h.fileBody,
    privileges: { read: Priv.managerConfig, write: Priv.managerConfig },
    remove: () => {
      h.backups.deleteStored();
    },
    memberActions: [action(RestoreAction, Priv.managerConfig, h.postRestore)],
  });
  routes.add({
    path: '/bkupdata/{BackupFile}/',
    outside: true,
    params: { BackupFile: (name) => FILE_NAME.test(name) },
    get: { privilege: Priv.managerConfig, handler: h.getBackup },
    post: { privilege: Priv.managerConfig, stream: true, contentTypes: ['multipart/form-data'], handler: h.postBackup },
  });
  routes.add({
    path: '/cgi-bin/uploadRestoreFile/',
    outside: true,
    post: { privilege: Priv.managerConfig, stream: true, contentTypes: ['multipart/form-data'], handler: h.postRestoreUpload },
  });
}
