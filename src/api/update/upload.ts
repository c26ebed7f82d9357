// The HttpPushUri upload: multipart/form-data streamed straight to disk.
// Credentials come from the headers, the `sessionKey` cookie, or a
// `sessionKey` part sent before the file; no file byte is written before the
// request is authenticated. Parts: the component file (any part with a file
// name), optional `compsig` and `parameters` (UpdateRepository, UpdateTarget,
// UploadCurrentEtag, Section). Sections of one large file are appended in
// order; the section carrying the compsig is the last one.
import type Busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Socket } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { printableFilename, validFilename } from '../../domain/firmware/repository.js';
import type { FlashSource } from '../../domain/firmware/flasher.js';
import type { UpdateOperation } from '../../domain/firmware/update-state.js';
import { checkSectionCompsig, sectionOf, type SectionSignature } from '../../domain/firmware/signing.js';
import { isSignedImage, verifyImage } from '../../domain/firmware/verify.js';
import { Priv, satisfies, type PrivilegeRule } from '../../lib/privileges.js';
import { isStorageFull } from '../../lib/data-file-error.js';
import { vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { Refusal } from '../../messages/refusal.js';
import { baseError, storageFull, vendorError } from '../../protocol/errors.js';
import { unauthorized } from '../../protocol/auth.js';
import type { Principal } from '../../protocol/principal.js';
import { success, type Reply } from '../../protocol/reply.js';
import type { Context, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { taskAccepted } from '../tasks/task-service.js';
import { updateApplyTimes } from './apply-times.js';
import {
  SMALL_PART_MAX,
  appendSection,
  collect,
  cookie,
  parseUpdateParameters,
  parseUploadParams,
  type SectionAssembly,
  type UploadParams,
} from './upload-parts.js';
import { lazyRequire } from '../../lib/lazy-require.js';

const busboy = lazyRequire<typeof Busboy>('busboy');

export const UPLOAD_URI = '/redfish/v1/UpdateService/upload/';
/** What an upload needs, whether its credentials came with the headers or later in the form. */
const UPLOAD_PRIVILEGE = Priv.managerConfig;
/** Multipart framing and the small parts, on top of the file itself. */
const FRAMING_SLACK = 1024 * 1024;

/** What the upload reads. */
export type UploadDeps = Pick<Services, 'update' | 'updateQueue' | 'store' | 'auth' | 'clock' | 'tasks' | 'dialect' | 'naming'>;

type UploadContext = Context<'/redfish/v1/UpdateService/upload/'>;

function handlers(d: UploadDeps) {
  return { postUpload };

  function postUpload(ctx: UploadContext) {
    return new Upload(d, ctx, UPLOAD_PRIVILEGE).run();
  }
}

/** Where iLO takes the same upload (its HttpPushUri; HPE's scripting examples post there). */
export const ILO_UPLOAD_URI = '/cgi-bin/uploadFile';

export function registerUploadRoutes(routes: RouteTable, d: UploadDeps): void {
  const h = handlers(d);
  const post = { privilege: UPLOAD_PRIVILEGE, stream: true, contentTypes: ['multipart/form-data'], handler: h.postUpload };
  routes.add({ path: '/redfish/v1/UpdateService/upload/', deferAuth: true, post });
  routes.add({ path: ILO_UPLOAD_URI, outside: true, file: true, deferAuth: true, post });
}

class Upload {
  private principal?: Principal;
  private error?: unknown;
  private op?: UpdateOperation;
  private file?: { name: string; tmp: string; size: number; sha256: Buffer };
  private fileDone?: Promise<void>;
  private paramsText?: string;
  /** The UpdateParameters part of a MultipartHttpPushUri upload. */
  private updateParameters?: string;
  private compsig?: string;
  private releaseSpace?: () => void;
  /** Ends the reading of the form (set while it is read). */
  private stopReading?: () => void;
  private readonly smallParts: Promise<void>[] = [];
  private readonly fw;
  private readonly partial;

  constructor(
    private readonly d: UploadDeps,
    private readonly ctx: UploadContext,
    /** The route's privilege, checked here when the credentials come late (cookie or form part). */
    private readonly privilege: PrivilegeRule,
  ) {
    this.fw = d.update;
    this.partial = d.store.setting<SectionAssembly | null>('update.upload.partial', null);
    if (ctx.principal.method !== 'none') this.principal = ctx.principal;
  }

  async run(): Promise<unknown> {
    const stream = this.ctx.stream as Readable;
    try {
      if (!this.principal) {
        const token = cookie(this.ctx.headers.cookie, 'sessionKey');
        if (token) this.authenticate(token);
      }
      // Refuse early what is refused anyway, before reading the body.
      if (this.principal) this.fw.status.assertIdle();
      await this.parse(stream);
      if (this.error) throw this.error;
      if (!this.principal) throw unauthorized();
      if (!this.file || !this.op) throw vendorError('UploadMissingFile');
      return await this.finish(this.op, this.file);
    } catch (e) {
      if (this.file) rmSync(this.file.tmp, { force: true });
      // What is left of the body is not read: the answer closes the connection.
      try {
        this.op?.fail(e);
      } catch {
        // Recording the failure failed too (a full disk): the operation is over all the same, and e says why.
      }
      throw e;
    } finally {
      this.releaseSpace?.();
    }
  }

  /** A session token sent in the form or a cookie: the same session check as X-Auth-Token, then the route's privilege. */
  private authenticate(token: string): void {
    const principal = this.d.auth.principalOfToken(token, this.ctx);
    if (!satisfies(principal.privileges, this.privilege)) throw baseError('InsufficientPrivilege');
    this.principal = principal;
  }

  /** The upload parameters: iLO's `parameters` part, or DMTF's `UpdateParameters` (MultipartHttpPushUri). */
  private params(): UploadParams {
    if (this.paramsText !== undefined && this.updateParameters !== undefined) {
      throw baseError('ActionParameterDuplicate', 'upload', 'UpdateParameters');
    }
    return this.updateParameters !== undefined
      ? parseUpdateParameters(this.updateParameters, updateApplyTimes(this.d), this.d.naming.key)
      : parseUploadParams(this.paramsText);
  }

  /** The first failure is the answer: the form is read no further (nothing after it changes the answer). */
  private fail(e: unknown): void {
    this.error ??= e;
    this.stopReading?.();
  }

  /** A full disk: the answer, whatever the form's parts reported when the write under them failed. */
  private failForSpace(e: unknown): void {
    this.error = e;
    this.stopReading?.();
  }

  /**
   * Reads the form. Every stream involved has an error handler: a form cut
   * short (no closing boundary), a malformed part or a request that fails
   * midway ends the parse with UnrecognizedRequestBody, never an unhandled
   * 'error' event.
   */
  private parse(stream: Readable): Promise<void> {
    return new Promise<void>((resolve) => {
      let bb: Busboy.Busboy;
      try {
        bb = busboy()({
          headers: this.ctx.headers,
          // File names are UTF-8 (RFC 7578 4.2), not latin1.
          defParamCharset: 'utf8',
          limits: { fieldSize: SMALL_PART_MAX, fields: 16, files: 4, parts: 24 },
        });
      } catch {
        this.fail(baseError('UnrecognizedRequestBody'));
        resolve();
        return;
      }
      // A request that fails or whose connection goes away midway: the form ends there, as a
      // malformed one. The connection is watched too: a request answered early by the server
      // (a framing error, a stalled body) is not destroyed when its connection closes.
      const req = stream as Readable & { complete?: boolean; socket?: Socket };
      const cutShort = () => {
        if (!req.complete && !bb.destroyed) bb.destroy(new Error('the request ended before the form'));
      };
      req.on('error', cutShort);
      req.once('close', cutShort);
      req.socket?.once('close', cutShort);
      const done = () => {
        this.stopReading = undefined;
        req.socket?.off('close', cutShort);
        resolve();
      };
      bb.on('field', (name, value, info) => {
        if (info.valueTruncated) return this.fail(baseError('UnrecognizedRequestBody'));
        if (name === 'sessionKey' && !this.principal) {
          try {
            this.authenticate(value);
          } catch (e) {
            this.fail(e);
          }
        } else if (name === 'parameters') this.paramsText = value;
        else if (name === 'UpdateParameters') this.updateParameters = value;
        else if (name === 'compsig') this.compsig = value;
      });
      // Parts still being read: a form that fails ends them, so nobody waits for their end.
      const open = new Set<Readable>();
      let failed = false;
      bb.on('file', (name, file, info) => {
        // Every part, read, collected or only resumed, may end in an error (cut short): it fails the form.
        file.on('error', () => this.fail(baseError('UnrecognizedRequestBody')));
        // busboy goes on parsing after an error: parts that follow it are not read.
        if (failed) {
          file.destroy(new Error('the form failed before this part'));
          return;
        }
        open.add(file);
        file.once('close', () => open.delete(file));
        if (name === 'parameters' || name === 'UpdateParameters' || name === 'compsig') {
          this.smallParts.push(
            collect(file).then((text) => {
              if (text === undefined) this.fail(baseError('UnrecognizedRequestBody'));
              else if (name === 'parameters') this.paramsText = text;
              else if (name === 'UpdateParameters') this.updateParameters = text;
              else this.compsig = text;
            }),
          );
          return;
        }
        if (this.error || this.file || this.fileDone) {
          if (!this.error && (this.file || this.fileDone)) this.fail(baseError('ActionParameterDuplicate', 'upload', 'file'));
          file.resume();
          return;
        }
        this.fileDone = this.receive(file, info.filename);
      });
      this.stopReading = () => {
        this.stopReading = undefined;
        failed = true;
        for (const part of open) part.destroy(new Error('the form failed'));
        stream.unpipe(bb);
        done();
      };
      bb.on('error', () => this.fail(baseError('UnrecognizedRequestBody')));
      bb.on('close', done);
      stream.pipe(bb);
    }).then(async () => {
      await Promise.all(this.smallParts);
      await this.fileDone;
    });
  }

  /** The file system may hold less than the repository's quota leaves: a Content-Length it cannot hold is 507. */
  private checkDisk(): void {
    const declared = Number(this.ctx.headers['content-length']);
    const onDisk = this.fw.repository.diskFreeBytes();
    if (Number.isFinite(declared) && declared > onDisk + FRAMING_SLACK)
      // The disk, not the repository's quota (the table's 413), is what cannot hold it.
      throw vendorError('RepositoryInsufficientSpace', declared, onDisk).withStatus(507);
  }

  /** Stream the component file to a temp file, hashing on the way; never buffered. */
  private async receive(file: Readable, rawName: string | undefined): Promise<void> {
    const name = (rawName ?? '').split(/[\\/]/).pop() ?? '';
    try {
      if (!this.principal) throw unauthorized();
      if (!validFilename(name)) throw baseError('ActionParameterValueFormatError', printableFilename(rawName ?? ''), 'filename', 'upload');
      const params = this.params();
      if (params.UpdateRecoverySet === true && !satisfies(this.principal.privileges, Priv.systemRecovery)) {
        throw baseError('InsufficientPrivilege');
      }
      if (params.Section === undefined || params.Section === 0) this.fw.repository.checkReplaceable(name);
      this.checkDisk();
      this.op = this.fw.status.begin('Uploading', params.UploadCurrentEtag);
    } catch (e) {
      this.fail(isStorageFull(e) ? storageFull(`the upload of ${name}`) : e);
      file.resume();
      return;
    }
    const repo = this.fw.repository;
    const declared = Number(this.ctx.headers['content-length']);
    const limit = repo.freeBytes() + (repo.get(name)?.SizeBytes ?? 0);
    if (Number.isFinite(declared) && declared > limit + FRAMING_SLACK) {
      this.fail(vendorError('RepositoryInsufficientSpace', declared, limit));
      file.resume();
      return;
    }
    const tmp = repo.incomingPath();
    let size = 0;
    let over = false;
    const hash = createHash('sha256');
    const space = repo.reserve(`upload:${tmp}`);
    this.releaseSpace = space.release;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > limit) over = true;
        if (over) return cb(); // keep draining, stop writing
        space.set(size);
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const out = createWriteStream(tmp, { mode: 0o600 });
    try {
      await pipeline(file, meter, out);
    } catch (e) {
      // pipeline may give up before the temp file is even open: remove it once the stream let go of it.
      await new Promise<void>((done) => (out.closed ? done() : out.once('close', () => done())));
      rmSync(tmp, { force: true });
      // The disk filled up under the upload: answered at once (the slot is released with it).
      if (isStorageFull(e)) this.failForSpace(storageFull(`the upload of ${name}`));
      else this.fail(e instanceof Refusal ? e : baseError('UnrecognizedRequestBody'));
      return;
    }
    if (over) {
      rmSync(tmp, { force: true });
      this.fail(vendorError('RepositoryInsufficientSpace', size, limit));
      return;
    }
    this.file = { name, tmp, size, sha256: hash.digest() };
  }

  private async finish(op: UpdateOperation, file: NonNullable<Upload['file']>): Promise<unknown> {
    const params = this.params();
    let path = file.tmp;
    let size = file.size;
    let sha256 = file.sha256;
    let compsig = this.compsig;
    let digestSigned = false;
    if (params.Section !== undefined) {
      // The last section: the one its section compsig places last; else the one carrying the compsig of the whole;
      // without any, the one that completes a raw image (it carries its own signature; ilorest sends Section 0 with it).
      const signed = compsig !== undefined ? this.signedSection(compsig, params.Section, file) : undefined;
      const last = signed
        ? signed.Index === signed.Count - 1
        : compsig !== undefined || ((path: string) => isSignedImage(path, this.fw.signingKey));
      const assembled = await appendSection(this.fw.repository, this.partial, params.Section, file.name, file.tmp, last, signed);
      if (!assembled) {
        const m = vendorMessage('UploadSectionReceived', params.Section, file.name);
        op.complete(m);
        return success(m);
      }
      ({ path, size, sha256 } = assembled);
      if (signed) {
        // Each section was signed with the digest of the whole: the whole is signed when it has that digest.
        if (sha256.toString('hex') !== signed.FileSha256) {
          rmSync(path, { force: true });
          throw vendorError('ComponentSignatureInvalid', file.name, 'the sections do not make up the file their compsigs sign');
        }
        compsig = undefined;
        digestSigned = true;
      }
    }
    const repo = this.fw.repository;
    let stored = false;
    try {
      op.set('Verifying');
      const info = await verifyImage(this.fw.signingKey, path, file.name, sha256, compsig, digestSigned);
      // Type C and D components are only ever stored (docs/firmware-packages.md).
      const passive = info.type === 'C' || info.type === 'D';
      // The recovery set refers to repository components: one put there is stored too.
      const toRepository = passive || params.UpdateRepository !== false || params.UpdateRecoverySet === true;
      const toTarget = !passive && params.UpdateTarget !== false;
      if (toTarget) this.fw.flasher.check(info);
      const messages: ExtendedInfo[] = [];
      if (toRepository) {
        op.set('Writing');
        this.releaseSpace?.();
        this.releaseSpace = undefined;
        path = repo.pathOf(repo.add(path, file.name, size, sha256.toString('hex'), info, this.d.clock.now()));
        stored = true;
      }
      const src = { path, filename: file.name, info };
      if (params.UpdateRecoverySet === true) this.d.updateQueue.installSets.adoptIntoRecoverySet(file.name);
      if (toTarget && params.applyTime === 'OnTargetReset') return await this.stage(op, src);
      if (toTarget) messages.push(...(await this.fw.flasher.apply(src, { op })).messages);
      op.complete(messages[0]);
      return success(...messages);
    } finally {
      if (!stored) rmSync(path, { force: true });
    }
  }

  /**
   * A section compsig (one per section, as ilorest sends a large component): checked against the
   * section's digest and place; undefined for a compsig of the whole file (sent with the last section).
   */
  private signedSection(compsig: string, n: number, file: NonNullable<Upload['file']>): SectionSignature | undefined {
    const signed = sectionOf(compsig);
    if (!signed) return undefined;
    const why = checkSectionCompsig(this.fw.signingKey, compsig, file.sha256);
    if (why) throw vendorError('ComponentSignatureInvalid', file.name, why);
    if (signed.Index !== n) throw baseError('ActionParameterValueConflict', 'Section', 'compsig');
    return signed;
  }

  /** OnTargetReset: the image is staged for its targets' resets; 202 with the task, Pending until they activate it. */
  private async stage(op: UpdateOperation, src: FlashSource): Promise<Reply> {
    const payload = { HttpOperation: 'POST', TargetUri: this.ctx.uri, JsonBody: this.updateParameters ?? '{}' };
    let outcome: { messages: ExtendedInfo[] } | { failure: unknown } = { messages: [] };
    const task = this.d.tasks.run('Update on target reset', payload, async (handle) => {
      try {
        outcome = await this.fw.flasher.apply(src, { op, applyTime: 'OnTargetReset', task: handle });
      } catch (e) {
        outcome = { failure: e };
        throw e;
      }
    });
    // The staging reads the image: done before the request ends (an image not kept in the repository goes then).
    await this.d.tasks.whenDone(task.Id);
    if ('failure' in outcome) op.fail(outcome.failure);
    else op.complete(outcome.messages[0]);
    return taskAccepted(this.d.tasks.get(task.Id) ?? task);
  }
}
