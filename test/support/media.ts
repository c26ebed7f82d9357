// Virtual media images for tests.

/** An ISO 9660-like image: the primary volume descriptor at sector 16. */
export function isoImage(bytes: number): Buffer {
  const b = Buffer.alloc(bytes);
  b.write('\x01CD001\x01', 16 * 2048, 'latin1');
  return b;
}
