// A file the service cannot start with: which file, what is wrong with it, and what the operator
// can do. The command line prints it as one line and exits with the code of its kind (docs/durability.md,
// "Exit codes"), without a stack trace.
import { readFileSync } from 'node:fs';

/** What is wrong with the file; each kind has an exit code of its own. */
export type DataFileProblem =
  /** It cannot be read as what it must be (a damaged database, WAL or key), or it is missing while the rest of the controller is there. */
  | 'damaged'
  /** The file system refuses the write: read-only, or not this user's. */
  | 'unwritable'
  /** Something else than a file is at that path (a directory). */
  | 'not-a-file'
  /** The file system is full. */
  | 'no-space';

export class DataFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: DataFileProblem,
    /** What is wrong, in words. */
    readonly detail: string,
    /** What to do about it. */
    readonly remedy: string = REMEDIES[problem],
  ) {
    super(`${file}: ${detail}. ${remedy}`);
  }
}

const REMEDIES: Record<DataFileProblem, string> = {
  damaged: 'Restore the data dir from a backup, or move it aside to start a new controller; the file is left as it is',
  unwritable: 'Make the data dir writable for the user the service runs as (or choose another with --data-dir)',
  'not-a-file': 'Move what is at that path aside: the service keeps a file there',
  'no-space': 'Free space on that file system, then start again',
};

/** The kind of a file system error (its errno code); undefined for codes that are not about the file itself. */
export function fileProblemOf(code: string | undefined): DataFileProblem | undefined {
  switch (code) {
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return 'unwritable';
    case 'EISDIR':
    case 'ENOTDIR':
      return 'not-a-file';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no-space';
    case 'EIO':
      return 'damaged';
    default:
      return undefined;
  }
}

/** A Node file system error (it names its path) as a DataFileError; undefined for anything else. */
export function asDataFileError(e: unknown): DataFileError | undefined {
  if (e instanceof DataFileError) return e;
  const err = e as Partial<NodeJS.ErrnoException> | undefined;
  if (typeof err?.path !== 'string') return undefined;
  const problem = fileProblemOf(err.code);
  if (!problem) return undefined;
  return new DataFileError(err.path, problem, describe(err.code ?? ''));
}

/** A data-dir file's bytes; an error names the file (reading a directory fails in read(2), whose error has no path). */
export function readDataFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (typeof err.code === 'string' && err.path === undefined) err.path = file;
    throw err;
  }
}

/** The disk is full, as SQLite (SQLITE_FULL) or the file system (ENOSPC, EDQUOT) says it. */
export function isStorageFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT';
}

function describe(code: string): string {
  const what: Record<string, string> = {
    EROFS: 'the file system is read-only',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'a directory, where the service keeps a file',
    ENOTDIR: 'a part of the path is not a directory',
    ENOSPC: 'no space left on the file system',
    EDQUOT: 'the disk quota is used up',
    EIO: 'an I/O error',
  };
  return `${what[code] ?? code} (${code})`;
}
