// What the simulated host's readings share: the slow workload cycle the host
// runs and a small deterministic jitter, both pure functions of controller
// time, so temperatures, fan speeds and power draw move together and a
// reading taken twice at the same instant is the same.

const WORKLOAD_PERIOD_MS = 17 * 60_000;
const JITTER_SLOT_MS = 5_000;

/** The host's workload at `now`, 0 (idle) to 1 (full), one slow sine cycle. */
export function workload(now: number): number {
  return 0.5 + 0.5 * Math.sin((2 * Math.PI * now) / WORKLOAD_PERIOD_MS);
}

/** A value in [-0.5, 0.5), stable for one key within one time slot. */
export function jitter(id: string, at: number): number {
  // FNV-1a over key and slot, then murmur3's finalizer: well spread, and cheap enough for every read.
  const key = `${id}:${Math.floor(at / JITTER_SLOT_MS)}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000 - 0.5;
}
