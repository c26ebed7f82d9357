// The registry files the service serves (message registries, the BIOS
// attribute registry): kept gzip-compressed once, served as stored.
import { gzipSync } from 'node:zlib';
import { registryId } from '../messages/messages.js';
import type { RegistryDef } from '../messages/registry-types.js';

export interface RegistryFile {
  /** Its member id in the Registries collection: the registry name ("Base"). */
  id: string;
  /** "Base.1.12" for message registries; the attribute registry's full name otherwise. */
  registry: string;
  /** Its file name in the registry store (the api serves it under RegistryStore/registries/en/). */
  fileName: string;
  description: string;
  /** Where the owner publishes it, when public (DMTF). */
  publicationUri?: string;
  gz: Buffer;
  /** Message registry prefix as the service's messages carry it, when the file is one (for EventService.RegistryPrefixes). */
  prefix?: string;
}

/** Compressed once per process: every controller of a fleet serves the same bytes (registry documents are constants). */
const compressed = new WeakMap<object, Buffer>();

function gzipOnce(content: object): Buffer {
  let gz = compressed.get(content);
  if (!gz) compressed.set(content, (gz = gzipSync(JSON.stringify(content))));
  return gz;
}

const documents = new WeakMap<RegistryDef, object>();

function documentOf(reg: RegistryDef): object {
  let doc = documents.get(reg);
  if (!doc) documents.set(reg, (doc = messageRegistryDocument(reg)));
  return doc;
}

/** A message registry's file as served, made once per process (a registry as served is one object per naming). */
const messageRegistryFiles = new WeakMap<RegistryDef, RegistryFile>();

export class RegistryFiles {
  private readonly files = new Map<string, RegistryFile>();

  /** served: a message registry as the service shows it (the vendor's under the --oem-name prefix). */
  constructor(private readonly served: (reg: RegistryDef) => RegistryDef = (reg) => reg) {}

  add(file: Omit<RegistryFile, 'gz'>, content: object): void {
    this.files.set(file.id.toLowerCase(), { ...file, gz: gzipOnce(content) });
  }

  addMessageRegistry(def: RegistryDef): void {
    const reg = this.served(def);
    let file = messageRegistryFiles.get(reg);
    if (!file) {
      file = Object.freeze({
        id: reg.prefix,
        registry: registryId(reg),
        fileName: `${reg.prefix}.json`,
        description: reg.description,
        prefix: def.prefix,
        publicationUri: reg.owningEntity === 'DMTF' ? `http://redfish.dmtf.org/registries/${reg.prefix}.${reg.version}.json` : undefined,
        gz: gzipOnce(documentOf(reg)),
      });
      messageRegistryFiles.set(reg, file);
    }
    this.files.set(file.id.toLowerCase(), file);
  }

  /** A registry by its id as served. */
  get(id: string): RegistryFile | undefined {
    return this.files.get(id.toLowerCase());
  }

  /** A message registry by the prefix the service's messages carry. */
  byPrefix(prefix: string): RegistryFile | undefined {
    return this.list().find((f) => f.prefix === prefix);
  }

  byFileName(name: string): RegistryFile | undefined {
    const lower = name.toLowerCase();
    return [...this.files.values()].find((f) => f.fileName.toLowerCase() === lower);
  }

  list(): RegistryFile[] {
    return [...this.files.values()];
  }

  prefixes(): string[] {
    return this.list().flatMap((f) => (f.prefix ? [f.prefix] : []));
  }
}

/** A registry in DMTF's MessageRegistry JSON form. */
export function messageRegistryDocument(reg: RegistryDef): object {
  return {
    '@odata.type': '#MessageRegistry.v1_7_0.MessageRegistry',
    Id: `${reg.prefix}.${reg.version}`,
    Name: reg.name,
    Language: reg.language,
    Description: reg.description,
    RegistryPrefix: reg.prefix,
    RegistryVersion: reg.version,
    OwningEntity: reg.owningEntity,
    Messages: Object.fromEntries(
      Object.entries(reg.messages).map(([key, m]) => [
        key,
        {
          Description: m.description,
          Message: m.message,
          MessageSeverity: m.severity,
          NumberOfArgs: m.paramTypes.length,
          ...(m.paramTypes.length ? { ParamTypes: [...m.paramTypes] } : {}),
          Resolution: m.resolution,
        },
      ]),
    ),
  };
}
