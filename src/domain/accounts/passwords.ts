// Salted scrypt password hashes, self-describing so the cost can change later.
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const KEY_LENGTH = 32;

/** log2 of the scrypt cost N; 15 = 32 MiB and tens of milliseconds per hash. */
export const DEFAULT_SCRYPT_LOG_N = 15;

export async function hashPassword(password: string, logN = DEFAULT_SCRYPT_LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** logN;
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
  return `scrypt$${logN}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A hash no password matches (random salt and key), of the same cost as a real one: verifying
 * against it takes as long as a real check, without paying for a hash (and its 32 MiB) to make it.
 */
export function unmatchableHash(logN = DEFAULT_SCRYPT_LOG_N): string {
  return `scrypt$${logN}$8$1$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;
}

/** Matches seen in this process, as keyed digests of (stored hash, password): never the password itself. */
const MATCHES_MAX = 4096;
const matchKey = randomBytes(32);
const matched = new Set<string>();
const pending = new Map<string, Promise<boolean>>();

/**
 * Whether the password matches the stored hash. A match already seen in this process answers at
 * once (the stored hash holds its salt, so a changed password is a new key): a fleet's controllers
 * share one hash of the administrator's password, and pay scrypt once between them. Checks of the
 * same pair that overlap share one hash. A mismatch is never remembered: a wrong password or an
 * unknown user (checked against a dummy hash) always pays the whole cost.
 */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  const id = createHmac('sha256', matchKey).update(stored).update('\0').update(password).digest('base64');
  if (matched.has(id)) return Promise.resolve(true);
  let check = pending.get(id);
  if (!check) {
    check = scryptVerify(password, stored).finally(() => pending.delete(id));
    void check.then(
      (ok) => {
        if (!ok) return;
        if (matched.size >= MATCHES_MAX) matched.clear();
        matched.add(id);
      },
      () => undefined,
    );
    pending.set(id, check);
  }
  return check;
}

async function scryptVerify(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const N = 2 ** Number(logN);
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * N * Number(r),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A random password for the first administrator: 20 characters, ~119 bits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
