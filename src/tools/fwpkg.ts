// `npm run cli -- fwpkg build ...`: builds and signs firmware packages with the
// vendor signing key of a data dir, so a service on that data dir accepts them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ACTIVATIONS,
  COMPONENT_TYPES,
  CRITICALITIES,
  defaultActivation,
  ILO_PACKAGE_FORMAT,
  iloUpdatableBy,
  PAYLOAD_FORMAT,
  writeBin,
  writeFwpkg,
  type Activation,
  type ComponentType,
  type Criticality,
} from '../domain/firmware/package.js';
import { targetGuid } from '../domain/firmware/inventory.js';
import {
  makeCompsig,
  makeSectionCompsig,
  SECTION_BYTES,
  sectionDigests,
  sha256File,
  VendorSigningKey,
} from '../domain/firmware/signing.js';
import { readWithProgress, sha256WithProgress } from './progress.js';
import type { Tool } from './tool.js';

const USAGE = `Usage: npm run cli -- fwpkg build --data-dir <dir> --target <DeviceClass>[,<DeviceClass>...] --version <v> --out <file.fwpkg|file.bin>
  [--type A|B|C|D] [--activation Immediate|AfterControllerReset|AfterServerReboot]
  [--criticality Recommended|Optional|Critical] [--name <text>] [--image <file>] [--size <bytes>]
  [--layout vendor|ilo]

Writes <out> and, beside it, <out without extension>.compsig, signed with the key in <data-dir>
(created there if absent). An --out ending in .bin makes a raw image for one controller-flashable
device (SimpleUpdate accepts BMC and SystemROM images); anything else makes a .fwpkg package.
The image bytes come from --image, or are generated (--size bytes, default 64 KiB).
--layout ilo writes iLO's payload.json (PackageFormat FWPKG-v2, UpdatableBy, Devices/Device[] with
FirmwareImages[] and their DirectFlashOk, ResetRequired, UefiFlashable), as ilorest's flashfwpkg reads
it; the images of a Type A package are signed raw images, so each can be uploaded on its own.
`;

const LAYOUTS = ['vendor', 'ilo'] as const;

export interface BuildOptions {
  dataDir: string;
  targets: string[];
  version: string;
  out: string;
  type?: ComponentType;
  activation?: Activation;
  criticality?: Criticality;
  name?: string;
  image?: Buffer;
  /** payload.json as the project writes it (default) or as iLO does. */
  layout?: 'vendor' | 'ilo';
}

/** Builds a package and its compsig; returns the compsig path. */
export async function buildPackage(o: BuildOptions): Promise<string> {
  const key = VendorSigningKey.loadOrCreate(o.dataDir);
  const name = o.name ?? `${o.targets.join('/')} firmware ${o.version}`;
  const image = o.image ?? Buffer.concat([Buffer.from(`${name}\n`), randomBytes(64 * 1024)]);
  if (o.out.endsWith('.bin')) {
    if (o.targets.length !== 1) throw new Error('a .bin image is for exactly one --target');
    await writeBin(o.out, { DeviceClass: o.targets[0] as string, Version: o.version, Name: name }, [image], key);
  } else if (o.layout === 'ilo') {
    await writeIloFwpkg(o, key, name, image);
  } else {
    const images: Record<string, Buffer> = {};
    const devices = o.targets.map((t) => {
      const file = `${t.toLowerCase()}.bin`;
      images[file] = Buffer.concat([Buffer.from(`${t}:`), image]);
      return { DeviceClass: t, Image: file };
    });
    await writeFwpkg(
      o.out,
      {
        PayloadFormat: PAYLOAD_FORMAT,
        Name: name,
        Version: o.version,
        ComponentType: o.type ?? 'A',
        Activation: o.activation,
        Criticality: o.criticality,
        Devices: devices,
      },
      images,
    );
  }
  const base = o.out.replace(/\.[^./]*$/, '');
  const sigPath = `${base}.compsig`;
  const large = statSync(o.out).size > SECTION_BYTES;
  const digest = large ? await writeSectionCompsigs(key, o.out, base) : await sha256File(o.out);
  writeFileSync(sigPath, makeCompsig(key, basename(o.out), digest));
  return sigPath;
}

/**
 * A file larger than a section gets a compsig per SECTION_BYTES section beside its own,
 * `<base>_part<N>.compsig`: ilorest uploads it in sections, each with the compsig of that name.
 * Returns the whole file's digest.
 */
async function writeSectionCompsigs(key: VendorSigningKey, out: string, base: string): Promise<Buffer> {
  const { sections, file } = await sectionDigests(out);
  sections.forEach((digest, i) => {
    const section = { Index: i, Count: sections.length, FileSha256: file.toString('hex') };
    writeFileSync(`${base}_part${i + 1}.compsig`, makeSectionCompsig(key, basename(out), digest, section));
  });
  return file;
}

/**
 * iLO's layout: one image per device, named after its device class and version; a Type A image is a
 * signed raw image (ilorest's flashfwpkg uploads it alone, to be flashed at once).
 */
async function writeIloFwpkg(o: BuildOptions, key: VendorSigningKey, name: string, image: Buffer): Promise<void> {
  const type = o.type ?? 'A';
  const images: Record<string, Buffer> = {};
  const tmp = mkdtempSync(join(tmpdir(), 'fwpkg-'));
  try {
    const devices = [];
    for (const target of o.targets) {
      const file = `${target.toLowerCase()}_${o.version.replace(/[^A-Za-z0-9.]+/g, '_')}.bin`;
      if (type === 'A') {
        await writeBin(join(tmp, file), { DeviceClass: target, Version: o.version, Name: name }, [image], key);
        images[file] = readFileSync(join(tmp, file));
      } else {
        images[file] = Buffer.concat([Buffer.from(`${target}:`), image]);
      }
      const activation = o.activation ?? defaultActivation(target) ?? 'Immediate';
      devices.push({
        DeviceName: name,
        DeviceClass: target,
        Target: targetGuid(target),
        Version: o.version,
        FirmwareImages: [
          {
            FileName: file,
            DirectFlashOk: type === 'A',
            ResetRequired: type === 'B' || (type === 'A' && activation === 'AfterServerReboot'),
            UefiFlashable: type === 'B',
          },
        ],
      });
    }
    await writeFwpkg(
      o.out,
      {
        PackageFormat: ILO_PACKAGE_FORMAT,
        Name: name,
        Description: name,
        Version: o.version,
        UpdatableBy: iloUpdatableBy(type),
        ...(o.criticality ? { Criticality: o.criticality } : {}),
        Devices: { Device: devices },
      },
      images,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw new Error(`--${flag} must be one of ${allowed.join(', ')}`);
  return v as T;
}

export const fwpkgTool: Tool = {
  summary: 'build and sign firmware packages (.fwpkg / .bin) and their .compsig',
  async run(argv) {
    const [cmd, ...rest] = argv;
    if (cmd !== 'build') {
      process.stdout.write(USAGE);
      if (cmd !== undefined && cmd !== '--help') process.exitCode = 2;
      return;
    }
    const { values: v } = parseArgs({
      args: rest,
      options: Object.fromEntries(
        ['data-dir', 'target', 'version', 'out', 'type', 'activation', 'criticality', 'name', 'image', 'size', 'layout'].map((f) => [
          f,
          { type: 'string' as const },
        ]),
      ),
      strict: true,
    }) as { values: Record<string, string | undefined> };
    try {
      for (const f of ['data-dir', 'target', 'version', 'out']) if (!v[f]) throw new Error(`--${f} is required`);
      const size = v.size !== undefined ? Number(v.size) : undefined;
      if (size !== undefined && (!Number.isInteger(size) || size < 0)) throw new Error('--size must be a whole number of bytes');
      const sig = await buildPackage({
        dataDir: v['data-dir'] as string,
        targets: (v.target as string)
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
        version: v.version as string,
        out: v.out as string,
        type: oneOf(v.type, COMPONENT_TYPES, 'type'),
        activation: oneOf(v.activation, ACTIVATIONS, 'activation'),
        criticality: oneOf(v.criticality, CRITICALITIES, 'criticality'),
        name: v.name,
        layout: oneOf(v.layout, LAYOUTS, 'layout'),
        image: v.image ? await readWithProgress(v.image, 'reading image') : size !== undefined ? randomBytes(size) : undefined,
      });
      const digest = await sha256WithProgress(v.out as string, 'hashing package');
      process.stdout.write(`wrote ${v.out} (sha256 ${digest})\nwrote ${sig}\n`);
    } catch (e) {
      process.stderr.write(`${(e as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
    }
  },
};
