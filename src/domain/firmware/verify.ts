// Verifying a received file: what it is (package format) and that the vendor
// signed it. Raw images carry their own signature; component packages need
// the detached compsig.
import { Refusal, vendorRefusal } from '../../messages/refusal.js';
import { checkEmbeddedSignature, inspectPackage, type PackageInfo } from './package.js';
import { checkCompsig, type VendorSigningKey } from './signing.js';

/**
 * Throws FirmwareImageInvalid, ComponentSignatureMissing or ComponentSignatureInvalid. `digestSigned`: the
 * file's digest was already found signed (the section compsigs of a large upload), no compsig is needed.
 */
export async function verifyImage(
  key: VendorSigningKey,
  path: string,
  filename: string,
  sha256: Buffer,
  compsig: string | undefined,
  digestSigned = false,
): Promise<PackageInfo> {
  const info = await inspectPackage(path, filename);
  if (compsig !== undefined) {
    const why = checkCompsig(key, compsig, sha256);
    if (why) throw vendorRefusal('ComponentSignatureInvalid', filename, why);
  } else if (info.kind !== 'bin' && !digestSigned) {
    throw vendorRefusal('ComponentSignatureMissing', filename);
  }
  const embedded = await checkEmbeddedSignature(path, info, key);
  if (embedded) throw vendorRefusal('ComponentSignatureInvalid', filename, embedded);
  return info;
}

/** True when the file is a whole raw image whose embedded signature holds (what needs no compsig). */
export async function isSignedImage(path: string, key: VendorSigningKey): Promise<boolean> {
  try {
    const info = await inspectPackage(path, 'image');
    return info.kind === 'bin' && (await checkEmbeddedSignature(path, info, key)) === undefined;
  } catch (e) {
    if (e instanceof Refusal) return false;
    throw e;
  }
}
