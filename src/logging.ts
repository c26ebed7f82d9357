// The service's structured log: pino JSON lines on stdout, written through
// pino's asynchronous destination (sonic-boom). Lines collect here and go out in
// one write once 64 KiB are waiting, and at least every 250 ms of the controller
// clock, because one write system call per request line cost more than a whole
// cached GET. They are joined here rather than in sonic-boom, which measures its
// whole pending buffer at every line (a tenth of a cached GET's time).
import pino, { type Logger } from 'pino';
import type { Clock } from './platform/clock.js';

const FLUSH_MS = 250;
const FLUSH_BYTES = 64 * 1024;
/** sonic-boom needs its largest single write to be above the flush size. */
const MAX_WRITE = 4 * FLUSH_BYTES;
/** Lines waiting for a reader that does not keep up: beyond this they are dropped (and counted), not queued without bound. */
const MAX_WAITING = 8 * 1024 * 1024;

/**
 * Where the service's lines go. writeParts takes one line in pieces, each encoded into the batch as
 * it is: joined first, the request line made a string per piece and one more copy of the whole
 * (about 850 bytes of JavaScript heap per request).
 */
export interface LineStream {
  write(line: string): void;
  writeParts?(parts: readonly string[]): void;
}

export interface ServiceLog {
  log: Logger;
  /** Start writing out what is collected now (at start-up, and after a fatal fault). */
  flush(): void;
  /** Stop the timer, write out everything collected and end the output (stdout itself stays open). */
  close(): Promise<void>;
}

/**
 * The log on file descriptor `fd` (default 1, stdout; another one is closed
 * with the log), flushed on `clock`. If writing fails (EPIPE: the reader of the
 * log went away), the service goes on without a log: a controller must outlive
 * whoever reads its log.
 */
export function createLog(level: string, clock: Clock, fd = 1): ServiceLog {
  if (fd === 1) guardStdout();
  const dest = pino.destination({
    dest: fd,
    sync: false,
    minLength: 0,
    maxWrite: MAX_WRITE,
    maxLength: MAX_WAITING,
    contentMode: 'buffer',
  });
  /** Bytes handed to the destination and not yet written. */
  let waiting = 0;
  /**
   * Lines not yet handed to the destination, encoded at once into memory outside the
   * JavaScript heap: kept as strings for a batch's lifetime, they outlived two young
   * generation collections, were promoted, and cost a quarter of a cached GET in collections.
   */
  let batch = Buffer.allocUnsafe(FLUSH_BYTES);
  let batched = 0;
  let dropped = 0;
  /** Closed or failed: lines are no longer handed on (after a failure they would pile up behind the failed write). */
  let stopped = false;
  let failed = false;
  let closed: (() => void) | undefined;

  /** Whether `length` UTF-16 units fit in the batch (handed off first when they might not); false for a line larger than any batch. */
  const room = (length: number): boolean => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a line that might not fit goes after the batch.
    if (batched + length * 3 <= FLUSH_BYTES) return true;
    handOff();
    return length * 3 <= FLUSH_BYTES;
  };
  const stream: LineStream = {
    write(line: string) {
      if (stopped) return;
      if (room(line.length)) batched += batch.write(line, batched);
      else hand(Buffer.from(line));
    },
    writeParts(parts: readonly string[]) {
      if (stopped) return;
      let length = 0;
      for (const part of parts) length += part.length;
      if (!room(length)) return hand(Buffer.from(parts.join('')));
      for (const part of parts) batched += batch.write(part, batched);
    },
  };
  const log = pino({ level, base: undefined, timestamp: () => `,"time":${clock.now()}` }, stream);
  dest.on('write', (n: number) => (waiting = Math.max(0, waiting - n)));
  dest.on('drop', (bytes: Buffer) => {
    waiting = Math.max(0, waiting - bytes.length);
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) dropped++;
  });

  function hand(bytes: Buffer): void {
    waiting += bytes.length;
    // In buffer mode sonic-boom takes Buffers; its types only know strings.
    dest.write(bytes as unknown as string);
  }
  /** The batch goes to the destination (which keeps it until written); a new one starts. */
  function handOff(): void {
    if (batched === 0) return;
    hand(batch.subarray(0, batched));
    batch = Buffer.allocUnsafe(FLUSH_BYTES);
    batched = 0;
  }
  const flush = () => {
    if (stopped) return;
    handOff();
    if (waiting > 0) dest.flush();
  };
  const timer = clock.setInterval(FLUSH_MS, () => {
    if (dropped > 0) {
      const count = dropped;
      dropped = 0;
      log.warn({ dropped: count }, 'log lines dropped: the reader of the log does not keep up');
    }
    flush();
  });
  dest.on('error', (err: NodeJS.ErrnoException) => {
    if (failed) return;
    failed = stopped = true;
    timer.cancel();
    // Drops what is still buffered, so nothing tries to write it again at exit (pino has already
    // made the destination inert after an EPIPE).
    dest.destroy();
    closed?.();
    // stderr is all that is left to say so (it may be gone too).
    if (process.stderr.writable)
      process.stderr.write(`log output failed (${err.code ?? err.message}); the service goes on without a log\n`);
  });

  return {
    log,
    flush,
    close() {
      timer.cancel();
      if (stopped) return Promise.resolve();
      handOff();
      stopped = true;
      return new Promise<void>((resolve) => {
        closed = resolve;
        dest.once('close', () => resolve());
        dest.end();
      });
    },
  };
}

let stdoutGuarded = false;

/**
 * The command line prints to stdout as well (the generated password, --help).
 * An EPIPE there must not end the process either; the log's own destination
 * reports the failure on stderr.
 */
function guardStdout(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on('error', () => undefined);
}
