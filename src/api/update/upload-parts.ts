// The parts of an HttpPushUri upload besides the streaming itself: the
// sessionKey cookie, the `parameters` part, small parts read whole, and the
// assembly of a large file sent in sections.
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UpdateApplyTime } from '../../domain/firmware/flasher.js';
import type { ComponentRepository } from '../../domain/firmware/repository.js';
import { sha256File, type SectionSignature } from '../../domain/firmware/signing.js';
import { baseError, vendorError } from '../../protocol/errors.js';
import { APPLY_TIME, requestedApplyTime } from '../../protocol/apply-time.js';
import { unauthorized } from '../../protocol/auth.js';
import type { Setting } from '../../store/documents.js';

/** The largest `parameters` or `compsig` part. */
export const SMALL_PART_MAX = 64 * 1024;
const FORBIDDEN_PARAMS = ['ExecutionParameters', 'Configuration'];

export interface UploadParams {
  /** DMTF's `@Redfish.OperationApplyTime` of UpdateParameters; Immediate when absent. */
  applyTime?: UpdateApplyTime;
  UpdateRepository?: boolean;
  UpdateTarget?: boolean;
  UploadCurrentEtag?: string;
  Section?: number;
  /** The component also replaces its device's image in the recovery install set (stored for it). */
  UpdateRecoverySet?: boolean;
}

/** A multi-section upload being assembled; persisted so sections survive a restart. */
export interface SectionAssembly {
  Filename: string;
  next: number;
  bytes: number;
  /** Sections signed one by one (a compsig each): how many, and the whole file's signed digest. */
  Count?: number;
  FileSha256?: string;
}

/** A received file: where it is, its size and digest. */
export interface ReceivedFile {
  path: string;
  size: number;
  sha256: Buffer;
}

/** A cookie's value; one that is not valid percent-encoding is a bad credential (NoValidSession). */
export function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        throw unauthorized();
      }
    }
  }
  return undefined;
}

/** The `parameters` part: a JSON object of the allowed upload parameters (iLO's `ETag` is UploadCurrentEtag), each of its type. */
export function parseUploadParams(text: string | undefined): UploadParams {
  if (text === undefined) return {};
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch {
    throw baseError('MalformedJSON');
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw baseError('UnrecognizedRequestBody');
  const out: UploadParams = {};
  for (const [k, v] of Object.entries(p)) {
    if (FORBIDDEN_PARAMS.includes(k)) throw vendorError('UploadParameterNotAllowed', k);
    const wrongType = () => baseError('ActionParameterValueTypeError', JSON.stringify(v), k, 'upload');
    switch (k) {
      case 'Section':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw wrongType();
        out.Section = v;
        break;
      case 'UploadCurrentEtag':
      case 'ETag': // what ilorest and HPE's examples send
        if (typeof v !== 'string') throw wrongType();
        if (out.UploadCurrentEtag !== undefined && out.UploadCurrentEtag !== v) {
          throw baseError('ActionParameterValueConflict', 'ETag', 'UploadCurrentEtag');
        }
        out.UploadCurrentEtag = v;
        break;
      case 'UpdateRepository':
      case 'UpdateTarget':
      case 'UpdateRecoverySet':
        if (typeof v !== 'boolean') throw wrongType();
        out[k] = v;
        break;
      default:
        throw baseError('ActionParameterUnknown', 'upload', k);
    }
  }
  return out;
}

/**
 * DMTF's `UpdateParameters` part (MultipartHttpPushUri): `Targets` (firmware inventory URIs; as on
 * iLO, the image itself decides what it updates, so they are checked for form only),
 * `@Redfish.OperationApplyTime` (one of `applyTimes`: Immediate applies the upload as it completes,
 * OnTargetReset stages it) and the upload parameters of the `parameters` part under `Oem.<oemKey>`
 * (the vendor namespace served).
 */
export function parseUpdateParameters(
  text: string,
  applyTimes: readonly [UpdateApplyTime, ...UpdateApplyTime[]],
  oemKey: string,
): UploadParams {
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch {
    throw baseError('MalformedJSON');
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw baseError('UnrecognizedRequestBody');
  let vendor: unknown;
  let applyTime: UpdateApplyTime | undefined;
  for (const [k, v] of Object.entries(p)) {
    switch (k) {
      case 'Targets':
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.startsWith('/redfish/v1/UpdateService/FirmwareInventory/'))) {
          throw baseError('ActionParameterValueFormatError', JSON.stringify(v), 'Targets', 'MultipartHttpPushUri');
        }
        break;
      case APPLY_TIME:
        applyTime = requestedApplyTime(v, applyTimes, 'MultipartHttpPushUri');
        break;
      case 'Oem': {
        const oem = v as Record<string, unknown> | null;
        if (typeof oem !== 'object' || oem === null || Array.isArray(oem) || Object.keys(oem).some((x) => x !== oemKey)) {
          throw baseError('ActionParameterValueFormatError', JSON.stringify(v), 'Oem', 'MultipartHttpPushUri');
        }
        vendor = oem[oemKey];
        break;
      }
      default:
        throw baseError('ActionParameterUnknown', 'MultipartHttpPushUri', k);
    }
  }
  return { ...parseUploadParams(vendor === undefined ? undefined : JSON.stringify(vendor)), ...(applyTime ? { applyTime } : {}) };
}

/** A small part's text; undefined when it is too large or cut short. */
export async function collect(file: Readable): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of file as AsyncIterable<Buffer>) {
      n += c.length;
      if (n <= SMALL_PART_MAX) chunks.push(c);
    }
  } catch {
    return undefined;
  }
  return n > SMALL_PART_MAX ? undefined : Buffer.concat(chunks).toString('utf8');
}

/**
 * Append section `n` of `name` (received at `tmp`); returns the assembled file once the last
 * section arrived, undefined while more are expected. `last` says whether this one is, or tells
 * from the file assembled so far.
 */
export async function appendSection(
  repo: ComponentRepository,
  partial: Setting<SectionAssembly | null>,
  n: number,
  name: string,
  tmp: string,
  last: boolean | ((assembled: string) => Promise<boolean>),
  signed?: SectionSignature,
): Promise<ReceivedFile | undefined> {
  const partialPath = repo.partialPath();
  const cur = partial.get();
  if (n === 0) {
    rmSync(partialPath, { force: true });
    renameSync(tmp, partialPath);
  } else {
    if (!cur || cur.Filename !== name || cur.next !== n || cur.Count !== signed?.Count || cur.FileSha256 !== signed?.FileSha256) {
      rmSync(tmp, { force: true });
      throw vendorError('UploadSectionOutOfOrder', n, name, cur?.Filename === name ? cur.next : 0);
    }
    await pipeline(createReadStream(tmp), createWriteStream(partialPath, { flags: 'a' }));
    rmSync(tmp, { force: true });
  }
  const bytes = statSync(partialPath).size;
  if (!(typeof last === 'function' ? await last(partialPath) : last)) {
    partial.set({ Filename: name, next: n + 1, bytes, ...(signed ? { Count: signed.Count, FileSha256: signed.FileSha256 } : {}) });
    return undefined;
  }
  partial.set(null);
  const assembled = repo.incomingPath();
  renameSync(partialPath, assembled);
  return { path: assembled, size: bytes, sha256: await sha256File(assembled) };
}
