// The service's structured log: pino JSON lines on stdout, written through
// pino's asynchronous destination (sonic-boom). Lines collect in its buffer and
// go out in one write once 16 KiB are waiting, and at least every 250 ms of the
// controller clock, because one write system call per request line cost more
// than a whole cached GET. pino itself writes out what is left when the process
// exits (process.exit after a fatal error).
import pino, { type Logger } from 'pino';
import type { Clock } from './platform/clock.js';

const FLUSH_MS = 250;
const FLUSH_BYTES = 16 * 1024;
/** sonic-boom needs its largest single write to be above the flush size. */
const MAX_WRITE = 4 * FLUSH_BYTES;
/** Lines waiting for a reader that does not keep up: beyond this they are dropped (and counted), not queued without bound. */
const MAX_WAITING = 8 * 1024 * 1024;

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
  const dest = pino.destination({ dest: fd, sync: false, minLength: FLUSH_BYTES, maxWrite: MAX_WRITE, maxLength: MAX_WAITING });
  /** Bytes handed to the destination and not yet written. */
  let waiting = 0;
  let dropped = 0;
  /** Closed or failed: lines are no longer handed on (after a failure they would pile up behind the failed write). */
  let stopped = false;
  let failed = false;
  let closed: (() => void) | undefined;

  const log = pino(
    { level, base: undefined, timestamp: () => `,"time":${clock.now()}` },
    {
      write(line: string) {
        if (stopped) return;
        waiting += Buffer.byteLength(line);
        dest.write(line);
      },
    },
  );
  dest.on('write', (n: number) => (waiting = Math.max(0, waiting - n)));
  dest.on('drop', (line: string) => {
    waiting = Math.max(0, waiting - Buffer.byteLength(line));
    dropped++;
  });

  const flush = () => {
    if (!stopped && waiting > 0) dest.flush();
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
