// Verifying a received file: what it is (package format) and that the vendor
// signed it. Raw images carry their own signature; component packages need
// the detached compsig.
import { vendorRefusal } from '../../messages/refusal.js';
import { checkEmbeddedSignature, inspectPackage, type PackageInfo } from './package.js';
import { checkCompsig, type VendorSigningKey } from './signing.js';

/** Throws FirmwareImageInvalid, ComponentSignatureMissing or ComponentSignatureInvalid. */
export async function verifyImage(
  key: VendorSigningKey,
  path: string,
  filename: string,
  sha256: Buffer,
  compsig: string | undefined,
): Promise<PackageInfo> {
  const info = await inspectPackage(path, filename);
  if (compsig !== undefined) {
    const why = checkCompsig(key, compsig, sha256);
    if (why) throw vendorRefusal('ComponentSignatureInvalid', filename, why);
  } else if (info.kind !== 'bin') {
    throw vendorRefusal('ComponentSignatureMissing', filename);
  }
  const embedded = await checkEmbeddedSignature(path, info, key);
  if (embedded) throw vendorRefusal('ComponentSignatureInvalid', filename, embedded);
  return info;
}
