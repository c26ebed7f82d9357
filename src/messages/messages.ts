// Message objects, built only from registry data.
import type { ParamType, RegistryDef } from './registry-types.js';

export interface ExtendedInfo {
  '@odata.type': '#Message.v1_3_0.Message';
  MessageId: string;
  Message: string;
  /** Always strings (DMTF Message schema), whatever the registry's ParamTypes say. */
  MessageArgs: string[];
  MessageSeverity: string;
  Severity: string;
  Resolution: string;
  RelatedProperties?: string[];
}

type ArgsOf<P extends readonly ParamType[]> = { -readonly [I in keyof P]: P[I] extends 'number' ? number : string };
export type MessageKey<R extends RegistryDef> = keyof R['messages'] & string;
export type MessageArgs<R extends RegistryDef, K extends MessageKey<R>> = ArgsOf<R['messages'][K]['paramTypes']>;

export function registryId(reg: RegistryDef): string {
  const [major, minor] = reg.version.split('.');
  return `${reg.prefix}.${major}.${minor}`;
}

/** Fill %1..%n of a registry text. */
export function formatMessage(text: string, args: readonly (string | number)[]): string {
  return text.replace(/%(\d+)/g, (whole, n: string) => {
    const v = args[Number(n) - 1];
    return v === undefined ? whole : String(v);
  });
}

/** Each registry's message ids, each made once: every write's event has one, and the same string is hashed once wherever it is a key. */
const messageIds = new WeakMap<RegistryDef, Map<string, string>>();

export function makeMessage(reg: RegistryDef, key: string, args: readonly (string | number)[], relatedProperties?: string[]): ExtendedInfo {
  const def = reg.messages[key];
  if (!def) throw new Error(`unknown message ${reg.prefix}.${key}`);
  if (def.paramTypes.length !== args.length) {
    throw new Error(`${reg.prefix}.${key} takes ${def.paramTypes.length} arguments, got ${args.length}`);
  }
  let ids = messageIds.get(reg);
  if (!ids) messageIds.set(reg, (ids = new Map()));
  let messageId = ids.get(key);
  if (messageId === undefined) ids.set(key, (messageId = `${registryId(reg)}.${key}`));
  const info: ExtendedInfo = {
    '@odata.type': '#Message.v1_3_0.Message',
    MessageId: messageId,
    Message: args.length ? formatMessage(def.message, args) : def.message,
    // A `number` ParamType says what the text shows; the argument itself is a string (DMTF Message schema).
    MessageArgs: args.map(String),
    MessageSeverity: def.severity,
    Severity: def.severity,
    Resolution: def.resolution,
  };
  if (relatedProperties?.length) info.RelatedProperties = relatedProperties.map(toJsonPointer);
  return info;
}

/** "Boot/BootOrder" or "Boot.BootOrder" -> "#/Boot/BootOrder" */
export function toJsonPointer(p: string): string {
  return p.startsWith('#') ? p : `#/${p.replace(/\./g, '/')}`;
}

/** Typed message builder for one registry: argument count and types come from the data. */
export function messagesOf<R extends RegistryDef>(reg: R) {
  return <K extends MessageKey<R>>(key: K, ...args: MessageArgs<R, K>): ExtendedInfo => makeMessage(reg, key, args);
}

export const EXTENDED_INFO_HINT = 'See @Message.ExtendedInfo for more information.';

/** The `{error: {...}}` body, used for failures and for success messages alike. */
export function errorBody(infos: readonly ExtendedInfo[], code: string): object {
  return {
    error: {
      code,
      // As iLO does: the message invites the reader to the extended info, which carries the texts.
      message: EXTENDED_INFO_HINT,
      '@Message.ExtendedInfo': infos,
    },
  };
}
