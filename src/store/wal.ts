// What SQLite's recovery will make of a write-ahead log, found out before SQLite opens it (it
// reports nothing itself, and its next write reuses the file). The format (sqlite.org/fileformat,
// "WAL file format"): a 32-byte header (magic, version, page size, checkpoint sequence, two salts,
// a checksum of the first 24 bytes), then frames of a 24-byte header (page number, the database
// size in pages for the last frame of a transaction, the salts, a checksum chained from the previous
// frame over this header's first 8 bytes and the page) and the page. Recovery replays frames while
// they carry the header's salts and their checksums chain, up to the last transaction's last frame.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DataFileError } from '../lib/data-file-error.js';

const HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC = 0x377f0682;
const VERSION = 3007000;
/** Bytes read per call: whole frames of the largest page size fit. */
const CHUNK = 4 * 1024 * 1024;

export interface WalReport {
  /** Size of the file; 0 when it is empty or absent. */
  bytes: number;
  /** Why recovery would ignore the file as a whole (its header), undefined when it reads. */
  unreadable?: string;
  /** Frames recovery replays (of complete transactions) and those transactions. */
  replayedFrames: number;
  transactions: number;
  /** Whole frames of a transaction that never finished: valid, but after the last commit. */
  unfinishedFrames: number;
  /** Frames with this log's salts whose checksum does not chain: damage (or a torn write), and all after it. */
  damagedFrames: number;
  /** Bytes after the last whole frame: a frame cut short. */
  trailingBytes: number;
}

/** Reads the WAL at path (absent: an empty report). */
export function inspectWal(path: string): WalReport {
  const report: WalReport = { bytes: 0, replayedFrames: 0, transactions: 0, unfinishedFrames: 0, damagedFrames: 0, trailingBytes: 0 };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new DataFileError(path, 'not-a-file', 'not a file');
    const size = stat.size;
    report.bytes = size;
    if (size === 0) return report;
    const header = Buffer.alloc(HEADER);
    if (readSync(fd, header, 0, HEADER, 0) < HEADER)
      return { ...report, unreadable: `${size} bytes, shorter than its ${HEADER}-byte header` };
    const magic = header.readUInt32BE(0);
    if ((magic & ~1) >>> 0 !== MAGIC) return { ...report, unreadable: 'its header does not start with the WAL magic number' };
    if (header.readUInt32BE(4) !== VERSION) return { ...report, unreadable: `unknown WAL format version ${header.readUInt32BE(4)}` };
    const pageSize = header.readUInt32BE(8) === 1 ? 65536 : header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
      return { ...report, unreadable: `bad page size ${pageSize}` };
    const bigEndian = (magic & 1) === 1;
    let sum = checksum(bigEndian, header, 0, 24, 0, 0);
    if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28))
      return { ...report, unreadable: 'its header checksum does not match' };
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);
    const frameSize = FRAME_HEADER + pageSize;
    const frames = Math.floor((size - HEADER) / frameSize);
    report.trailingBytes = (size - HEADER) % frameSize;
    const framesPerChunk = Math.max(1, Math.floor(CHUNK / frameSize));
    const buf = Buffer.alloc(Math.min(frames, framesPerChunk) * frameSize);
    let valid = 0;
    let broken = false;
    for (let first = 0; first < frames && !broken; first += framesPerChunk) {
      const count = Math.min(framesPerChunk, frames - first);
      readSync(fd, buf, 0, count * frameSize, HEADER + first * frameSize);
      for (let i = 0; i < count; i++) {
        const at = i * frameSize;
        if (buf.readUInt32BE(at + 8) !== salt1 || buf.readUInt32BE(at + 12) !== salt2) {
          // An older generation of the log (SQLite rewrites it from the start after a checkpoint): not data.
          broken = true;
          break;
        }
        const next = checksum(bigEndian, buf, at + FRAME_HEADER, pageSize, ...checksum(bigEndian, buf, at, 8, sum[0], sum[1]));
        if (buf.readUInt32BE(at) === 0 || next[0] !== buf.readUInt32BE(at + 16) || next[1] !== buf.readUInt32BE(at + 20)) {
          report.damagedFrames = countCurrent(fd, frameSize, HEADER + (first + i) * frameSize, frames - first - i, salt1, salt2);
          broken = true;
          break;
        }
        sum = next;
        valid++;
        if (buf.readUInt32BE(at + 4) !== 0) {
          report.replayedFrames = valid;
          report.transactions++;
        }
      }
    }
    report.unfinishedFrames = valid - report.replayedFrames;
    return report;
  } finally {
    closeSync(fd);
  }
}

/** Frames from `offset` on that carry the log's salts (the damaged one and those after it). */
function countCurrent(fd: number, frameSize: number, offset: number, frames: number, salt1: number, salt2: number): number {
  let n = 0;
  const salts = Buffer.alloc(8);
  for (let i = 0; i < frames; i++) {
    readSync(fd, salts, 0, 8, offset + i * frameSize + 8);
    if (salts.readUInt32BE(0) === salt1 && salts.readUInt32BE(4) === salt2) n++;
  }
  return n;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** SQLite's WAL checksum: two running 32-bit sums over pairs of words, in the byte order the magic number names. */
function checksum(bigEndian: boolean, buf: Buffer, start: number, length: number, s1: number, s2: number): [number, number] {
  // Words in the host's order (SQLite writes them so) are read in place, four at a time.
  if (bigEndian !== LITTLE_ENDIAN_HOST && (buf.byteOffset + start) % 4 === 0) {
    const words = new Uint32Array(buf.buffer, buf.byteOffset + start, length / 4);
    for (let i = 0; i < words.length; i += 2) {
      s1 = (s1 + words[i]! + s2) >>> 0;
      s2 = (s2 + words[i + 1]! + s1) >>> 0;
    }
    return [s1, s2];
  }
  const end = start + length;
  for (let i = start; i < end; i += 8) {
    const a = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const b = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s1 = (s1 + a + s2) >>> 0;
    s2 = (s2 + b + s1) >>> 0;
  }
  return [s1, s2];
}
