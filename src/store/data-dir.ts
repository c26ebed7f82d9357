// The data dir holds the database, keys and firmware images: only the
// service's own user may enter it. Directories are 0700 and files 0600; what
// an older version left wider (0755/0644) is tightened at start.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Create the data dir (0700), or narrow an existing one to 0700. */
export function prepareDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  narrow(dir, DIR_MODE);
}

/**
 * Narrow the entries of the data dir the service owns (`owned`: names in it or
 * absolute paths; a directory all the way down) to 0600 files and 0700
 * directories. Anything else a user keeps in the data dir is left alone.
 */
export function tightenDataDir(dir: string, owned: readonly string[]): void {
  for (const name of owned) {
    const path = resolve(dir, name);
    if (existsSync(path)) tighten(path);
  }
}

function tighten(path: string): void {
  const st = lstatSync(path);
  // Symbolic links are left alone: what they point to is not the service's.
  if (st.isFile()) narrow(path, FILE_MODE);
  else if (st.isDirectory()) {
    narrow(path, DIR_MODE);
    for (const entry of readdirSync(path)) tighten(join(path, entry));
  }
}

function narrow(path: string, allowed: number): void {
  const mode = lstatSync(path).mode & 0o777;
  if ((mode & ~allowed) !== 0) chmodSync(path, mode & allowed);
}
