// `npm run cli -- fwpkg build ...`: builds and signs firmware packages with the
// vendor signing key of a data dir, so a service on that data dir accepts them.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ACTIVATIONS,
  COMPONENT_TYPES,
  CRITICALITIES,
  PAYLOAD_FORMAT,
  writeBin,
  writeFwpkg,
  type Activation,
  type ComponentType,
  type Criticality,
} from '../domain/firmware/package.js';
import { makeCompsig, sha256File, VendorSigningKey } from '../domain/firmware/signing.js';
import { readWithProgress, sha256WithProgress } from './progress.js';
import type { Tool } from './tool.js';

const USAGE = `Usage: npm run cli -- fwpkg build --data-dir <dir> --target <DeviceClass>[,<DeviceClass>...] --version <v> --out <file.fwpkg|file.bin>
  [--type A|B|C|D] [--activation Immediate|AfterControllerReset|AfterServerReboot]
  [--criticality Recommended|Optional|Critical] [--name <text>] [--image <file>] [--size <bytes>]

Writes <out> and, beside it, <out without extension>.compsig, signed with the key in <data-dir>
(created there if absent). An --out ending in .bin makes a raw image for one controller-flashable
device (SimpleUpdate accepts BMC and SystemROM images); anything else makes a .fwpkg package.
The image bytes come from --image, or are generated (--size bytes, default 64 KiB).
`;

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
}

/** Builds a package and its compsig; returns the compsig path. */
export async function buildPackage(o: BuildOptions): Promise<string> {
  const key = VendorSigningKey.loadOrCreate(o.dataDir);
  const name = o.name ?? `${o.targets.join('/')} firmware ${o.version}`;
  const image = o.image ?? Buffer.concat([Buffer.from(`${name}\n`), randomBytes(64 * 1024)]);
  if (o.out.endsWith('.bin')) {
    if (o.targets.length !== 1) throw new Error('a .bin image is for exactly one --target');
    await writeBin(o.out, { DeviceClass: o.targets[0] as string, Version: o.version, Name: name }, [image], key);
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
  const sigPath = o.out.replace(/\.[^./]*$/, '') + '.compsig';
  writeFileSync(sigPath, makeCompsig(key, basename(o.out), await sha256File(o.out)));
  return sigPath;
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
        ['data-dir', 'target', 'version', 'out', 'type', 'activation', 'criticality', 'name', 'image', 'size'].map((f) => [
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
