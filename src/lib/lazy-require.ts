// Packages loaded at first use, for paths most controllers seldom take (uploads,
// firmware packages, outbound HTTP): a controller that never takes them does
// not carry their code and memory from its start.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
