// The firmware package formats the controller understands (docs/firmware-packages.md):
//  - a raw image `.bin`: magic, a JSON header naming device class and version,
//    the image, and an embedded Ed25519 signature trailer (self-verifying);
//  - a component package `.fwpkg`: a zip with `payload.json` and raw images,
//    signed by a detached `.compsig`.
import { createReadStream, createWriteStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type * as Yauzl from 'yauzl';
import type * as Yazl from 'yazl';
import { lazyRequire } from '../../lib/lazy-require.js';
import { Refusal, vendorRefusal } from '../../messages/refusal.js';
import { FACTORY_DEVICE_CLASSES, targetGuid } from './inventory.js';
import { sha256File, type VendorSigningKey } from './signing.js';
import { OEM } from '../../lib/oem-token.js';

const yauzl = lazyRequire<typeof Yauzl>('yauzl');
const yazl = lazyRequire<typeof Yazl>('yazl');

export const BIN_MAGIC = Buffer.from('VFWIMG\0\x01', 'latin1');
export const SIG_MAGIC = Buffer.from('VFWSIG\0\x01', 'latin1');
const SIG_TRAILER = 64 + SIG_MAGIC.length;
const MAX_HEADER = 64 * 1024;
// The package format's own name: fixed, whatever vendor namespace is served.
export const PAYLOAD_FORMAT = `${OEM}FwPkg/1`;

export const COMPONENT_TYPES = ['A', 'B', 'C', 'D'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];
export const ACTIVATIONS = ['Immediate', 'AfterControllerReset', 'AfterServerReboot'] as const;
export type Activation = (typeof ACTIVATIONS)[number];
export const CRITICALITIES = ['Recommended', 'Optional', 'Critical'] as const;
export type Criticality = (typeof CRITICALITIES)[number];

/** Device classes the controller flashes itself (Type A). */
export const CONTROLLER_FLASHABLE = ['BMC', 'SystemROM', 'CPLD', 'SPS', 'IE', 'PMC'] as const;
/** Device classes UEFI flashes during POST (Type B). */
export const UEFI_FLASHABLE = ['SystemROM', 'NIC', 'StorageController'] as const;
/** Raw images SimpleUpdate accepts: the controller's own firmware and the UEFI system ROM. */
export const SIMPLE_UPDATE_CLASSES = ['BMC', 'SystemROM'] as const;

/** When a device's new firmware takes effect, unless the package says otherwise. */
export const DEFAULT_ACTIVATION: Record<string, Activation> = {
  BMC: 'AfterControllerReset',
  SystemROM: 'AfterServerReboot',
  CPLD: 'AfterServerReboot',
  NIC: 'AfterServerReboot',
  StorageController: 'AfterServerReboot',
};

export interface PackageDevice {
  DeviceClass: string;
  /** Zip entry holding the image (fwpkg only). */
  Image?: string;
}

/** Who may apply a component (iLO's UpdatableBy): the controller, UEFI at POST, the host's update agent. */
export const UPDATERS = ['Bmc', 'Uefi', 'RuntimeAgent'] as const;
export type Updater = (typeof UPDATERS)[number];

/** iLO's payload.json (`PackageFormat` FWPKG-v2): what ilorest's flashfwpkg reads, and the service. */
export const ILO_PACKAGE_FORMAT = 'FWPKG-v2';

export interface PackageInfo {
  kind: 'bin' | 'fwpkg';
  /** Who may apply it: the package's own (iLO layout), else what its type implies. */
  updatableBy: Updater[];
  name: string;
  version: string;
  type: ComponentType;
  activation: Activation;
  criticality: Criticality;
  devices: PackageDevice[];
  /** bin: byte range of the image proper, and how many leading bytes the embedded signature covers. */
  payload?: { start: number; end: number };
  signedLength?: number;
}

export interface BinHeader {
  DeviceClass: string;
  Version: string;
  Name: string;
}

const invalid = (file: string, why: string) => vendorRefusal('FirmwareImageInvalid', file, why);

/** A JSON object (not null, an array or a scalar). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The default activation of a device class; undefined for names that are not in the table (`constructor`...). */
export function defaultActivation(deviceClass: string): Activation | undefined {
  return Object.hasOwn(DEFAULT_ACTIVATION, deviceClass) ? DEFAULT_ACTIVATION[deviceClass] : undefined;
}

/** Reads what a file claims to be; throws FirmwareImageInvalid when it is neither format. */
export async function inspectPackage(path: string, filename: string): Promise<PackageInfo> {
  const size = statSync(path).size;
  const head = readRange(path, 0, Math.min(size, 12));
  if (head.length >= 12 && head.subarray(0, 8).equals(BIN_MAGIC)) return inspectBin(path, filename, size);
  if (head.length >= 4 && head.readUInt32LE(0) === 0x04034b50) return inspectFwpkg(path, filename);
  throw invalid(filename, 'the file is neither a signed firmware image (.bin) nor a component package (.fwpkg)');
}

function readRange(path: string, start: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, start);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function inspectBin(path: string, filename: string, size: number): PackageInfo {
  const headerLen = readRange(path, 8, 4).readUInt32BE(0);
  if (headerLen > MAX_HEADER || 12 + headerLen + SIG_TRAILER > size) throw invalid(filename, 'the image header is truncated');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readRange(path, 12, headerLen).toString('utf8'));
  } catch {
    throw invalid(filename, 'the image header is not JSON');
  }
  if (!isObject(parsed)) throw invalid(filename, 'the image header must be a JSON object');
  const header = parsed as Partial<BinHeader>;
  if (typeof header.DeviceClass !== 'string' || typeof header.Version !== 'string' || !header.Version) {
    throw invalid(filename, 'the image header must name DeviceClass and Version');
  }
  if (!(CONTROLLER_FLASHABLE as readonly string[]).includes(header.DeviceClass)) {
    throw invalid(filename, `raw images are for controller-flashable devices, not ${header.DeviceClass}`);
  }
  if (!readRange(path, size - SIG_MAGIC.length, SIG_MAGIC.length).equals(SIG_MAGIC)) {
    throw invalid(filename, 'the image carries no signature trailer');
  }
  return {
    kind: 'bin',
    updatableBy: ['Bmc'],
    name: typeof header.Name === 'string' && header.Name ? header.Name : `${header.DeviceClass} firmware`,
    version: header.Version,
    type: 'A',
    activation: defaultActivation(header.DeviceClass) ?? 'Immediate',
    criticality: 'Recommended',
    devices: [{ DeviceClass: header.DeviceClass }],
    payload: { start: 12 + headerLen, end: size - SIG_TRAILER },
    signedLength: size - SIG_TRAILER,
  };
}

function openZip(path: string): Promise<Yauzl.ZipFile> {
  return new Promise((res, rej) => yauzl().open(path, { lazyEntries: true, autoClose: false }, (e, z) => (e || !z ? rej(e) : res(z))));
}

async function zipEntries(zip: Yauzl.ZipFile): Promise<Map<string, Yauzl.Entry>> {
  const out = new Map<string, Yauzl.Entry>();
  await new Promise<void>((res, rej) => {
    zip.on('entry', (e: Yauzl.Entry) => {
      out.set(e.fileName, e);
      zip.readEntry();
    });
    zip.on('end', () => res());
    zip.on('error', rej);
    zip.readEntry();
  });
  return out;
}

function entryStream(zip: Yauzl.ZipFile, entry: Yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((res, rej) => zip.openReadStream(entry, (e, s) => (e || !s ? rej(e) : res(s))));
}

async function inspectFwpkg(path: string, filename: string): Promise<PackageInfo> {
  let zip: Yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (e) {
    throw invalid(filename, `the zip archive is damaged (${(e as Error).message})`);
  }
  try {
    const entries = await zipEntries(zip);
    const entry = entries.get('payload.json');
    if (!entry) throw invalid(filename, 'payload.json is missing');
    if (entry.uncompressedSize > MAX_HEADER) throw invalid(filename, 'payload.json is too large');
    const chunks: Buffer[] = [];
    for await (const c of (await entryStream(zip, entry)) as AsyncIterable<Buffer>) chunks.push(c);
    let p: unknown;
    try {
      p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw invalid(filename, 'payload.json is not JSON');
    }
    if (!isObject(p)) throw invalid(filename, 'payload.json must be a JSON object');
    const names = new Set(entries.keys());
    return p.PayloadFormat === undefined && isObject(p.Devices) ? checkIloPayload(p, filename, names) : checkPayload(p, filename, names);
  } catch (e) {
    if (e instanceof Refusal) throw e;
    throw invalid(filename, `the zip archive is damaged (${(e as Error).message})`);
  } finally {
    zip.close();
  }
}

function checkPayload(p: Record<string, unknown>, filename: string, names: Set<string>): PackageInfo {
  if (p.PayloadFormat !== PAYLOAD_FORMAT) throw invalid(filename, `payload.json PayloadFormat must be ${PAYLOAD_FORMAT}`);
  const type = p.ComponentType as ComponentType;
  if (!COMPONENT_TYPES.includes(type)) throw invalid(filename, 'ComponentType must be A, B, C or D');
  if (typeof p.Version !== 'string' || !p.Version) throw invalid(filename, 'Version is missing');
  const devices = p.Devices;
  if (!Array.isArray(devices) || devices.length === 0) throw invalid(filename, 'Devices must list at least one device');
  const out: PackageDevice[] = [];
  for (const d of devices as unknown[]) {
    if (!isObject(d) || typeof d.DeviceClass !== 'string') throw invalid(filename, 'each device needs a DeviceClass');
    if (type === 'A' && !(CONTROLLER_FLASHABLE as readonly string[]).includes(d.DeviceClass)) {
      throw invalid(filename, `a Type A component cannot target ${d.DeviceClass}; the controller cannot flash it`);
    }
    if (type === 'B' && !(UEFI_FLASHABLE as readonly string[]).includes(d.DeviceClass)) {
      throw invalid(filename, `a Type B component cannot target ${d.DeviceClass}; UEFI cannot flash it`);
    }
    if ((type === 'A' || type === 'B') && (typeof d.Image !== 'string' || !names.has(d.Image))) {
      throw invalid(filename, `the image for ${d.DeviceClass} is missing from the package`);
    }
    out.push({ DeviceClass: d.DeviceClass, Image: typeof d.Image === 'string' ? d.Image : undefined });
  }
  const activation = (p.Activation ?? defaultActivation(out[0]?.DeviceClass ?? '') ?? 'Immediate') as Activation;
  if (!ACTIVATIONS.includes(activation)) throw invalid(filename, `Activation must be one of ${ACTIVATIONS.join(', ')}`);
  const criticality = (p.Criticality ?? 'Recommended') as Criticality;
  if (!CRITICALITIES.includes(criticality)) throw invalid(filename, `Criticality must be one of ${CRITICALITIES.join(', ')}`);
  return {
    kind: 'fwpkg',
    updatableBy: [...UPDATERS_OF_TYPE[type]],
    name: typeof p.Name === 'string' && p.Name ? p.Name : filename,
    version: p.Version,
    type,
    activation,
    criticality,
    devices: out,
  };
}

/** Who applies each type of component (docs/firmware-packages.md). */
const UPDATERS_OF_TYPE: Record<ComponentType, readonly Updater[]> = { A: ['Bmc'], B: ['Uefi'], C: ['RuntimeAgent'], D: ['RuntimeAgent'] };

export function updatersOf(type: ComponentType): readonly Updater[] {
  return UPDATERS_OF_TYPE[type];
}

/** An image of an iLO-layout device (Devices/Device[]/FirmwareImages[]). */
interface IloImage {
  FileName?: unknown;
  DirectFlashOk?: unknown;
  ResetRequired?: unknown;
  UefiFlashable?: unknown;
}

/**
 * iLO's payload.json: top-level `UpdatableBy`, `Name`, `Version`, and `Devices/Device[]`, each with its
 * `Target` GUID (or `DeviceClass`) and `FirmwareImages[]`. The type follows the flags as ilorest reads
 * them: Uefi with RuntimeAgent is D; an image that `DirectFlashOk` is flashed by the controller (A, activated
 * at the next server boot when it says `ResetRequired`); one `UefiFlashable` is written by UEFI (B); others
 * are for the runtime agent (C, or D).
 */
function checkIloPayload(p: Record<string, unknown>, filename: string, names: Set<string>): PackageInfo {
  const by = p.UpdatableBy;
  if (!Array.isArray(by) || by.length === 0 || !by.every((u): u is Updater => (UPDATERS as readonly unknown[]).includes(u))) {
    throw invalid(filename, `UpdatableBy must list one or more of ${UPDATERS.join(', ')}`);
  }
  if (typeof p.Version !== 'string' || !p.Version) throw invalid(filename, 'Version is missing');
  const list = (p.Devices as Record<string, unknown>).Device;
  if (!Array.isArray(list) || list.length === 0) throw invalid(filename, 'Devices/Device must list at least one device');
  const devices: PackageDevice[] = [];
  const images: IloImage[] = [];
  for (const d of list as unknown[]) {
    const deviceClass = isObject(d) ? deviceClassOf(d) : undefined;
    if (!isObject(d) || !deviceClass) throw invalid(filename, 'each device needs a Target GUID of this server or a DeviceClass');
    const firmware = d.FirmwareImages;
    if (!Array.isArray(firmware) || firmware.length === 0 || !firmware.every(isObject)) {
      throw invalid(filename, `the device ${deviceClass} lists no FirmwareImages`);
    }
    const image = firmware[0] as IloImage;
    if (typeof image.FileName !== 'string' || !names.has(image.FileName)) {
      throw invalid(filename, `the image for ${deviceClass} is missing from the package`);
    }
    if (typeof image.DirectFlashOk !== 'boolean') throw invalid(filename, `the image ${image.FileName} does not say whether DirectFlashOk`);
    devices.push({ DeviceClass: deviceClass, Image: image.FileName });
    images.push(image);
  }
  const type: ComponentType =
    by.includes('Uefi') && by.includes('RuntimeAgent')
      ? 'D'
      : images.every((i) => i.DirectFlashOk === true)
        ? 'A'
        : images.every((i) => i.UefiFlashable === true)
          ? 'B'
          : by.includes('RuntimeAgent')
            ? 'C'
            : 'D';
  const allowed: readonly string[] = type === 'A' ? CONTROLLER_FLASHABLE : type === 'B' ? UEFI_FLASHABLE : [];
  for (const { DeviceClass } of devices) {
    if ((type === 'A' || type === 'B') && !allowed.includes(DeviceClass)) {
      throw invalid(filename, `a Type ${type} component cannot target ${DeviceClass}`);
    }
  }
  // ResetRequired: a server reboot activates it; otherwise the controller's own firmware activates as it resets.
  const activation: Activation =
    type === 'B' || images.some((i) => i.ResetRequired === true)
      ? 'AfterServerReboot'
      : devices.some((d) => d.DeviceClass === 'BMC')
        ? 'AfterControllerReset'
        : 'Immediate';
  const criticality = (p.Criticality ?? 'Recommended') as Criticality;
  if (!CRITICALITIES.includes(criticality)) throw invalid(filename, `Criticality must be one of ${CRITICALITIES.join(', ')}`);
  return {
    kind: 'fwpkg',
    updatableBy: by,
    name: typeof p.Name === 'string' && p.Name ? p.Name : filename,
    version: p.Version,
    type,
    activation,
    criticality,
    devices,
  };
}

/** The device class of an iLO-layout device: its DeviceClass, or the class whose target GUID it names. */
function deviceClassOf(d: Record<string, unknown>): string | undefined {
  if (typeof d.DeviceClass === 'string' && d.DeviceClass) return d.DeviceClass;
  return typeof d.Target === 'string' ? DEVICE_CLASS_OF_TARGET.get(d.Target.toLowerCase()) : undefined;
}

/** Every device class a package may name, by its target GUID. */
const DEVICE_CLASS_OF_TARGET: ReadonlyMap<string, string> = new Map(FACTORY_DEVICE_CLASSES.map((c) => [targetGuid(c), c]));

/** Checks the embedded signature of a raw image; the reason it fails, or undefined. */
export async function checkEmbeddedSignature(path: string, info: PackageInfo, key: VendorSigningKey): Promise<string | undefined> {
  if (info.kind !== 'bin' || info.signedLength === undefined) return undefined;
  const digest = await sha256File(path, info.signedLength);
  const sig = readRange(path, info.signedLength, 64);
  return key.verify(digest, sig) ? undefined : 'the embedded image signature is not valid';
}

/** SHA-256 of the image a device receives (the integrity scan's reference). */
export async function imageDigest(path: string, info: PackageInfo, device: PackageDevice): Promise<string> {
  const hash = createHash('sha256');
  if (info.kind === 'bin' && info.payload) {
    if (info.payload.end > info.payload.start) {
      for await (const c of createReadStream(path, { start: info.payload.start, end: info.payload.end - 1 })) hash.update(c as Buffer);
    }
    return hash.digest('hex');
  }
  if (!device.Image) return hash.update(`${info.name}:${info.version}`).digest('hex');
  const zip = await openZip(path);
  try {
    const entry = (await zipEntries(zip)).get(device.Image);
    if (!entry) throw invalid(info.name, `the image for ${device.DeviceClass} is missing from the package`);
    for await (const c of (await entryStream(zip, entry)) as AsyncIterable<Buffer>) hash.update(c);
    return hash.digest('hex');
  } finally {
    zip.close();
  }
}

// -- building (CLI, tests, benchmark) ----------------------------------------

/** Writes a signed raw image; the image bytes come from an iterable so any size streams. */
export async function writeBin(
  out: string,
  header: BinHeader,
  image: Iterable<Buffer> | AsyncIterable<Buffer>,
  key: VendorSigningKey,
): Promise<void> {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(json.length);
  const hash = createHash('sha256');
  const file = createWriteStream(out);
  const put = async (b: Buffer) => {
    hash.update(b);
    if (!file.write(b)) await once(file, 'drain');
  };
  await put(BIN_MAGIC);
  await put(len);
  await put(json);
  for await (const chunk of image) await put(chunk);
  file.write(key.sign(hash.digest()));
  file.end(SIG_MAGIC);
  await once(file, 'close');
}

export interface PayloadJson {
  PayloadFormat: typeof PAYLOAD_FORMAT;
  Name: string;
  Version: string;
  ComponentType: ComponentType;
  Activation?: Activation;
  Criticality?: Criticality;
  Devices: PackageDevice[];
}

/** iLO's payload.json, as `fwpkg build --layout ilo` writes it and the service reads it (checkIloPayload). */
export interface IloPayloadJson {
  PackageFormat: typeof ILO_PACKAGE_FORMAT;
  Name: string;
  Description: string;
  Version: string;
  UpdatableBy: Updater[];
  Criticality?: Criticality;
  Devices: {
    Device: {
      DeviceName: string;
      DeviceClass: string;
      Target: string;
      Version: string;
      FirmwareImages: { FileName: string; DirectFlashOk: boolean; ResetRequired: boolean; UefiFlashable: boolean }[];
    }[];
  };
}

/** The updaters of an iLO-layout package of a type (ilorest reads Uefi with RuntimeAgent as D). */
export function iloUpdatableBy(type: ComponentType): Updater[] {
  return type === 'D' ? ['Uefi', 'RuntimeAgent'] : [...updatersOf(type)];
}

/** Writes a .fwpkg zip from payload.json and its images. */
export async function writeFwpkg(out: string, payload: PayloadJson | IloPayloadJson, images: Record<string, Buffer>): Promise<void> {
  const zip = new (yazl().ZipFile)();
  zip.addBuffer(Buffer.from(JSON.stringify(payload, null, 2)), 'payload.json');
  for (const [name, data] of Object.entries(images)) zip.addBuffer(data, name);
  zip.end();
  const file = createWriteStream(out);
  zip.outputStream.pipe(file);
  await once(file, 'close');
}
