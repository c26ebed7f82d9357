// @peculiar/x509, loaded on first use. With its ASN.1 schemas it costs about
// 8 MiB of memory, which a controller that issues or inspects no certificate
// after its start does not pay (node:crypto does the checks at start).
import { createRequire } from 'node:module';
import { webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';

let loaded: typeof X509 | undefined;

export function x509lib(): typeof X509 {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    // Its dependency injection reads decorator metadata: the polyfill comes first.
    require('reflect-metadata');
    const lib = require('@peculiar/x509') as typeof X509;
    lib.cryptoProvider.set(webcrypto);
    loaded = lib;
  }
  return loaded;
}
