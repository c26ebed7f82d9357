// The vendor signing key and detached component signatures (compsig).
// The key pair is generated into the data dir at first start; the CLI signs
// with it, the service verifies with it. A signature covers the SHA-256 of
// the signed bytes, so verifying a large file never holds it in memory.
import { createHash, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { readPrivateKeyFile } from '../../lib/key-file.js';
import { OEM } from '../../lib/oem-token.js';

export const SIGNING_KEY_FILE = 'firmware-signing-key.pem';
// The signature format's own name: fixed, whatever vendor namespace is served.
export const COMPSIG_FORMAT = `${OEM}CompSig/1`;

export class VendorSigningKey {
  readonly keyId: string;

  private constructor(
    private readonly privateKey: KeyObject,
    readonly publicKey: KeyObject,
  ) {
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    this.keyId = createHash('sha256').update(spki).digest('hex').slice(0, 16);
  }

  /** The key of a data dir, made (Ed25519) on first use. */
  static loadOrCreate(dataDir: string): VendorSigningKey {
    const file = join(dataDir, SIGNING_KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    }
    const privateKey = readPrivateKeyFile(file, 'packages signed with the old key no longer verify');
    return new VendorSigningKey(privateKey, createPublicKey(privateKey));
  }

  sign(digest: Buffer): Buffer {
    return sign(null, digest, this.privateKey);
  }

  verify(digest: Buffer, signature: Buffer): boolean {
    try {
      return verify(null, digest, this.publicKey, signature);
    } catch {
      return false;
    }
  }
}

/** SHA-256 of a file, or of its first `length` bytes, read through one reused buffer (no garbage per chunk). */
export async function sha256File(path: string, length?: number): Promise<Buffer> {
  const hash = createHash('sha256');
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let pos = 0;
    const end = length ?? (await file.stat()).size;
    while (pos < end) {
      const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, end - pos), pos);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    return hash.digest();
  } finally {
    await file.close();
  }
}

export interface Compsig {
  Format: typeof COMPSIG_FORMAT;
  Filename: string;
  Sha256: string;
  Algorithm: 'Ed25519';
  KeyId: string;
  Signature: string;
}

/** The detached signature file for a component with the given digest. */
export function makeCompsig(key: VendorSigningKey, filename: string, digest: Buffer): string {
  const sig: Compsig = {
    Format: COMPSIG_FORMAT,
    Filename: filename,
    Sha256: digest.toString('hex'),
    Algorithm: 'Ed25519',
    KeyId: key.keyId,
    Signature: key.sign(digest).toString('base64'),
  };
  return `${JSON.stringify(sig, null, 2)}\n`;
}

/** A compsig's fields once its form and key are right; else the reason it is refused. */
function readCompsig(key: VendorSigningKey, text: string): (Partial<Compsig> & { Signature: string }) | string {
  let sig: Partial<Compsig>;
  try {
    sig = JSON.parse(text) as Partial<Compsig>;
  } catch {
    return 'the compsig is not a valid signature file';
  }
  if (typeof sig !== 'object' || sig === null || Array.isArray(sig)) return 'the compsig is not a valid signature file';
  if (sig.Format !== COMPSIG_FORMAT || sig.Algorithm !== 'Ed25519' || typeof sig.Signature !== 'string') {
    return 'the compsig is not a valid signature file';
  }
  if (sig.KeyId !== key.keyId) return 'the compsig was made with a key this controller does not trust';
  return sig as Partial<Compsig> & { Signature: string };
}

/** Checks a compsig against a file digest; returns the reason it fails, or undefined when valid. */
export function checkCompsig(key: VendorSigningKey, text: string, digest: Buffer): string | undefined {
  const sig = readCompsig(key, text);
  if (typeof sig === 'string') return sig;
  if (sig.Sha256 !== digest.toString('hex')) return 'the file does not match the digest in the compsig';
  if (!key.verify(digest, Buffer.from(sig.Signature, 'base64'))) return 'the signature is not valid';
  return undefined;
}

/** The size of the sections ilorest splits a large component into (its uploadcomp), each with its own compsig. */
export const SECTION_BYTES = 32 * 1024 * 1024;

/** Where a section's compsig places it: its index (0-based), how many sections the file has, and the whole file's digest. */
export interface SectionSignature {
  Index: number;
  Count: number;
  FileSha256: string;
}

/** The digests of a file's SECTION_BYTES sections and of the whole, in one read. */
export async function sectionDigests(path: string): Promise<{ sections: Buffer[]; file: Buffer }> {
  const whole = createHash('sha256');
  const sections: Buffer[] = [];
  const file = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let section = createHash('sha256');
    let inSection = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, SECTION_BYTES - inSection));
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      whole.update(chunk);
      section.update(chunk);
      inSection += bytesRead;
      if (inSection === SECTION_BYTES) {
        sections.push(section.digest());
        section = createHash('sha256');
        inSection = 0;
      }
    }
    if (inSection > 0) sections.push(section.digest());
    return { sections, file: whole.digest() };
  } finally {
    await file.close();
  }
}

/** What a section compsig signs: the section's digest bound to its place in the whole file. */
function sectionDigest(sha256: string, s: SectionSignature): Buffer {
  return createHash('sha256')
    .update(JSON.stringify([sha256, s.Index, s.Count, s.FileSha256]))
    .digest();
}

/** The compsig of one section of a large file (`<base>_part<Index + 1>.compsig`, as ilorest looks for it). */
export function makeSectionCompsig(key: VendorSigningKey, filename: string, digest: Buffer, section: SectionSignature): string {
  const sha256 = digest.toString('hex');
  const sig: Compsig & { Section: SectionSignature } = {
    Format: COMPSIG_FORMAT,
    Filename: filename,
    Sha256: sha256,
    Algorithm: 'Ed25519',
    KeyId: key.keyId,
    Signature: key.sign(sectionDigest(sha256, section)).toString('base64'),
    Section: section,
  };
  return `${JSON.stringify(sig, null, 2)}\n`;
}

/** The section a compsig signs, when it is a section compsig (checked with checkSectionCompsig); undefined otherwise. */
export function sectionOf(text: string): SectionSignature | undefined {
  try {
    const s = (JSON.parse(text) as { Section?: Partial<SectionSignature> } | null)?.Section;
    if (typeof s !== 'object' || s === null) return undefined;
    const { Index, Count, FileSha256 } = s;
    if (!Number.isInteger(Index) || !Number.isInteger(Count) || typeof FileSha256 !== 'string') return undefined;
    return { Index: Index as number, Count: Count as number, FileSha256 };
  } catch {
    return undefined;
  }
}

/** Checks a section compsig against the section's digest; the reason it fails, or undefined when valid. */
export function checkSectionCompsig(key: VendorSigningKey, text: string, digest: Buffer): string | undefined {
  const section = sectionOf(text);
  if (!section || section.Count < 1 || section.Index < 0 || section.Index >= section.Count)
    return 'the compsig is not a valid signature file';
  const sig = readCompsig(key, text);
  if (typeof sig === 'string') return sig;
  const sha256 = digest.toString('hex');
  if (sig.Sha256 !== sha256) return 'the section does not match the digest in its compsig';
  if (!key.verify(sectionDigest(sha256, section), Buffer.from(sig.Signature, 'base64'))) return 'the signature is not valid';
  return undefined;
}
