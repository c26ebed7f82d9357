// undici, loaded on first use: the outbound HTTP client costs ~8 MiB of memory,
// which a service that never downloads an image or delivers an event does not pay.
import type * as Undici from 'undici';
import { lazyRequire } from './lazy-require.js';

export const undici = lazyRequire<typeof Undici>('undici');
