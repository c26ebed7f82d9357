// The service's structured log: pino JSON lines on stdout. Lines are collected
// and written in batches (at 16 KiB, and at least every 250 ms), because one
// write system call per request line cost more than a whole cached GET.
import pino, { type Logger } from 'pino';

const FLUSH_MS = 250;
const FLUSH_CHARS = 16 * 1024;

export interface ServiceLog {
  log: Logger;
  /** Write out what is collected now (at start-up and on close). */
  flush(): void;
  /** Flush and stop the timer. */
  close(): void;
}

/** A pino destination that collects lines and writes them to an output in batches. */
export class LineBatcher {
  private lines: string[] = [];
  private chars = 0;

  constructor(private readonly out: (text: string) => void) {}

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= FLUSH_CHARS) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.out(text);
  }
}

/** Set once stdout has failed (its reader went away): the service goes on, without a log. */
let stdoutBroken = false;
let watchingStdout = false;

function writeStdout(text: string): void {
  if (!stdoutBroken) process.stdout.write(text);
}

export function createLog(level: string): ServiceLog {
  if (!watchingStdout) {
    watchingStdout = true;
    // An unhandled EPIPE would end the process: a controller must outlive whoever reads its log.
    process.stdout.on('error', () => (stdoutBroken = true));
  }
  // process.stdout writes synchronously to files and pipes on Linux, so a flushed batch is out.
  const batcher = new LineBatcher(writeStdout);
  const log = pino({ level, base: undefined }, batcher);
  const flush = () => batcher.flush();
  const timer = setInterval(flush, FLUSH_MS);
  timer.unref();
  // Whatever is collected when the process ends (process.exit after a fatal error) is written too.
  process.once('exit', flush);
  return {
    log,
    flush,
    close() {
      clearInterval(timer);
      process.off('exit', flush);
      flush();
    },
  };
}
