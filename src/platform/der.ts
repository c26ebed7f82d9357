// Just enough DER (X.690) to write a certificate: tag-length-value, and the
// few universal types an X.509 leaf uses. Reading walks one level of a SEQUENCE.

export function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, content]);
}

export const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
export const octets = (b: Buffer) => tlv(0x04, b);
export const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const printable = (s: string) => tlv(0x13, Buffer.from(s, 'ascii'));
export const nul = () => Buffer.from([0x05, 0x00]);
export const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
/** A BIT STRING of whole bytes (no unused bits). */
export const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), b]));
/** [n] EXPLICIT, constructed. */
export const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);
/** [n] IMPLICIT, primitive. */
export const implicit = (n: number, content: Buffer) => tlv(0x80 | n, content);

/** A non-negative INTEGER from its big-endian bytes. */
export function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && (b[1]! & 0x80) === 0) b = b.subarray(1);
  return tlv(0x02, (b[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

export function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out: number[] = [a! * 40 + b!];
  for (const v of rest) {
    const chunk: number[] = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift((x & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
export function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

/** The elements of a SEQUENCE (or any constructed value), each whole (tag, length and content). */
export function children(der: Buffer): Buffer[] {
  const { start, end } = header(der, 0);
  const out: Buffer[] = [];
  for (let at = start; at < end;) {
    const h = header(der, at);
    out.push(der.subarray(at, h.end));
    at = h.end;
  }
  return out;
}

/** Where a value's content starts and where the value ends. */
function header(der: Buffer, at: number): { start: number; end: number } {
  const first = der[at + 1];
  if (first === undefined) throw new Error('DER: truncated');
  if (first < 0x80) return { start: at + 2, end: at + 2 + first };
  const n = first & 0x7f;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
  return { start: at + 2 + n, end: at + 2 + n + len };
}

/** The bytes of an IPv4 or IPv6 address, as an iPAddress name holds them. */
export function ipBytes(ip: string): Buffer {
  if (!ip.includes(':')) return Buffer.from(ip.split('.').map(Number));
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const words = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const h = words(head);
  const t = words(tail);
  const all = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const out = Buffer.alloc(16);
  all.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  return out;
}

/**
 * True when pem is nothing but PEM blocks with one of these labels, each one DER value well formed
 * to its last byte (every length within its parent's, no byte left over). A structural check
 * only: what it passes OpenSSL has still to read (a fleet's listener does at its first handshake).
 */
export function wellFormedPem(pem: string, labels: readonly string[]): boolean {
  const block = /\s*-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\s]*)-----END \1-----\s*/y;
  for (let m = block.exec(pem); m; m = block.exec(pem)) {
    const base64 = m[2]!.replace(/\s+/g, '');
    // Padding only at the end: node's decoder would stop at one in the middle, OpenSSL's refuses it.
    if (!labels.includes(m[1]!) || base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return false;
    const der = Buffer.from(base64, 'base64');
    if (der[0] !== 0x30 || !wellFormedValues(der, 0, der.length, 0)) return false;
    if (block.lastIndex === pem.length) return true;
  }
  return false;
}

/** Values from `from` to exactly `to`, constructed ones checked inside too. */
function wellFormedValues(der: Buffer, from: number, to: number, depth: number): boolean {
  for (let at = from; at < to;) {
    const tag = der[at]!;
    const first = der[at + 1];
    // High tag numbers and indefinite lengths are not DER's (nor in keys and certificates).
    if ((tag & 0x1f) === 0x1f || first === undefined || first === 0x80) return false;
    let start = at + 2;
    let length = first;
    if (first > 0x80) {
      const n = first & 0x7f;
      if (n > 4) return false;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + (der[start + i] ?? NaN);
      start += n;
    }
    const end = start + length;
    if (!(end <= to)) return false;
    if (tag & 0x20 && (depth > 32 || !wellFormedValues(der, start, end, depth + 1))) return false;
    at = end;
  }
  return true;
}
