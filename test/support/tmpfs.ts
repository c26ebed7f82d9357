// A small file system for tests of a full or read-only disk: a tmpfs, which root may mount here.
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Mount a tmpfs of `size` (e.g. '4m') on dir; false when mounting is not permitted (not root, no mount). */
export function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir]);
}

export function unmount(dir: string): void {
  execFileSync('umount', [dir]);
}

/** Fill the file system of dir to the last byte with the file `name`; returns its path (remove it to free the space). */
export function fillUp(dir: string, name = 'filler'): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
  // What the last 64 KiB block left, in halving blocks.
  for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
    try {
      appendFileSync(path, Buffer.alloc(size));
      size *= 2;
    } catch {
      // Full at this size: a smaller one may still fit.
    }
  }
  return path;
}
