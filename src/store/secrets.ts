// Secrets at rest: credentials the service must be able to read back (event
// listener headers, iSCSI CHAP secrets, license keys) are kept in the database
// sealed with AES-256-GCM. The key is 32 random bytes in <data-dir>/secrets.key
// (0600), made on first start. A sealed value reads `enc:v1:<base64 iv|tag|ciphertext>`;
// a value without that prefix was written by an older version and is plain text.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DataFileError, readDataFile } from '../lib/data-file-error.js';

export const SECRETS_KEY_FILE = 'secrets.key';
const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretsError extends Error {}

export class Secrets {
  private constructor(private readonly key: Buffer) {}

  /** The key of a data dir, made on first use (written to a temp file, fsynced, then renamed). */
  static loadOrCreate(dataDir: string): Secrets {
    const file = join(dataDir, SECRETS_KEY_FILE);
    if (!existsSync(file)) {
      const tmp = `${file}.tmp`;
      rmSync(tmp, { force: true });
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        writeSync(fd, `${randomBytes(KEY_BYTES).toString('base64')}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
      fsyncDir(dataDir);
    }
    chmodSync(file, 0o600);
    const key = Buffer.from(readDataFile(file).toString('utf8').trim(), 'base64');
    if (key.length !== KEY_BYTES) {
      throw new DataFileError(
        file,
        'damaged',
        `does not hold a ${KEY_BYTES}-byte base64 key`,
        'Restore it from a backup: without it the secrets sealed in the database cannot be read',
      );
    }
    return new Secrets(key);
  }

  /** A key that lives only as long as the process (in-memory databases). */
  static ephemeral(): Secrets {
    return new Secrets(randomBytes(KEY_BYTES));
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(text: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The text of a sealed value; a value without the prefix is returned as it is (plain, from an older version). */
  open(stored: string): string {
    if (!Secrets.isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretsError('a stored secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretsError(`a stored secret does not open with this data dir's ${SECRETS_KEY_FILE} (replaced or from another data dir?)`);
    }
  }

  /** A JSON value sealed as one string. */
  sealJson(value: unknown): string {
    return this.seal(JSON.stringify(value));
  }

  openJson<T>(stored: string): T {
    return JSON.parse(this.open(stored)) as T;
  }
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not every platform can fsync a directory; the file itself is synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
