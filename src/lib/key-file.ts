// Key files of the data dir, read so that a damaged one names itself (node:crypto says only
// "DECODER routines::unsupported").
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { DataFileError, readDataFile } from './data-file-error.js';

/** The private key in a PEM file; `lost` says what a new key would cost (it is made when the file is moved aside). */
export function readPrivateKeyFile(file: string, lost: string): KeyObject {
  const pem = readDataFile(file);
  try {
    return createPrivateKey(pem);
  } catch {
    throw damagedKey(file, 'not a readable PEM private key', lost);
  }
}

/**
 * Throws when a PEM certificate and private key pair made by the service no longer reads. With
 * `wellFormed`, a file it passes is not parsed here (OpenSSL's parse of a key takes 0.4 ms).
 */
export function checkKeyPairFiles(
  certFile: string,
  certPem: string,
  keyFile: string,
  keyPem: string,
  lost: string,
  wellFormed?: (pem: string, kind: 'key' | 'certificate') => boolean,
): void {
  if (!wellFormed?.(keyPem, 'key')) {
    try {
      createPrivateKey(keyPem);
    } catch {
      throw damagedKey(keyFile, 'not a readable PEM private key', lost);
    }
  }
  if (!wellFormed?.(certPem, 'certificate')) {
    try {
      new X509Certificate(certPem);
    } catch {
      throw damagedKey(certFile, 'not a readable PEM certificate', lost);
    }
  }
}

function damagedKey(file: string, detail: string, lost: string): DataFileError {
  return new DataFileError(file, 'damaged', detail, `Restore it from a backup, or move it aside to have a new one made (${lost})`);
}
