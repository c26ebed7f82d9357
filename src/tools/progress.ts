// Progress bars of the command-line tools (cli-progress), for large files only
// and only when stdout is a terminal: scripts and pipes see the plain output.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { SingleBar } from 'cli-progress';

/** Files below this size finish before a bar would be worth drawing. */
export const PROGRESS_MIN_BYTES = 8 * 1024 * 1024;

export interface Progress {
  add(bytes: number): void;
  stop(): void;
}

/** A byte-counting bar on stdout when it is a terminal and the work is large; otherwise nothing. */
export function byteProgress(label: string, total: number, out: NodeJS.WriteStream = process.stdout): Progress {
  if (!out.isTTY || total < PROGRESS_MIN_BYTES) return { add: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {done}/{size} MiB`,
    stream: out,
    hideCursor: true,
    clearOnComplete: false,
  });
  const mib = (n: number) => (n / 1048576).toFixed(1);
  let done = 0;
  bar.start(total, 0, { done: mib(0), size: mib(total) });
  return {
    add(bytes) {
      done += bytes;
      bar.update(done, { done: mib(done), size: mib(total) });
    },
    stop() {
      bar.stop();
    },
  };
}

/** A file read whole, with a bar while it is large. */
export async function readWithProgress(path: string, label: string): Promise<Buffer> {
  const bar = byteProgress(label, statSync(path).size);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of createReadStream(path)) {
      chunks.push(chunk as Buffer);
      bar.add((chunk as Buffer).length);
    }
  } finally {
    bar.stop();
  }
  return Buffer.concat(chunks);
}

/** The SHA-256 of a file, with a bar while it is large. */
export async function sha256WithProgress(path: string, label: string): Promise<string> {
  const bar = byteProgress(label, statSync(path).size);
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      bar.add((chunk as Buffer).length);
    }
  } finally {
    bar.stop();
  }
  return hash.digest('hex');
}
