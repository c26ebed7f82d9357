// Waiting for what happens on its own (network I/O, file I/O, a child
// process): a condition checked until it holds, failing after a deadline.
// Controller time is never waited for: tests move the ManualClock instead.

/** Check cond (which may be asynchronous) every few ms until it holds; fail naming `what` after ms. */
export async function waitUntil(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000, everyMs = 5): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** One turn of the event loop: I/O already waiting in the kernel (a datagram, a closed socket) has been handled when it resolves. */
export function turn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
