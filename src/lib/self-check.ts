// Checks the test suite runs every service under; a production service never
// does (test/support/service.ts turns them on before it starts one):
// - memo.ts rebuilds a memoized representation at every read and fails on any
//   difference from the one it kept, so an input missing from its key shows;
// - the route table (protocol/routes.ts, collections.ts) has every other answer of
//   a handler, resolver or member store come through a promise, so each
//   sync-or-async path of the dispatcher runs its asynchronous branch as often as
//   its synchronous one.

let checking = false;

export function enableSelfChecks(): void {
  checking = true;
}

export function selfChecking(): boolean {
  return checking;
}

/**
 * `fn` as it is, or (self-checks on) answering every other call through a promise, its throw a
 * rejection: only for functions whose callers take either (the route table's handlers and resolvers).
 */
export function sometimesLate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>): (...args: A) => R | Promise<R> {
  if (!checking) return fn;
  let calls = 0;
  return function (this: unknown, ...args: A): R | Promise<R> {
    if (calls++ % 2 === 0) return fn.apply(this, args);
    try {
      const r = fn.apply(this, args);
      return r instanceof Promise ? r : Promise.resolve(r);
    } catch (e) {
      return Promise.reject(e);
    }
  };
}
