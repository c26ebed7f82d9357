// undici, loaded on first use: the outbound HTTP client costs ~8 MiB of memory,
// which a service that never downloads an image or delivers an event does not pay.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
  return (loaded ??= createRequire(import.meta.url)('undici') as typeof Undici);
}
