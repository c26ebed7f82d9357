// What an $expand may cost. `*($levels=6)` of a system follows links in circles and
// made 34 MB in 2 s; two dozen at once took gigabytes and stalled every other client.
// So one expansion has a budget (resources and bytes, beside MAX_EXPAND_LEVELS), gives
// other requests a turn while it builds, and one account runs only so many large ones
// at once. Expanded bodies kept for reuse are bounded too.
import { retryLater, vendorError } from './errors.js';

export interface ExpandLimits {
  /** Resources one $expand may bring in. */
  resources: number;
  /** Bytes of JSON those resources may total (about an upper bound of the answer's size). */
  bytes: number;
  /** Links followed between two turns of the event loop left to other requests. */
  yieldEvery: number;
}

/**
 * Every `.` expansion of the shipped profiles fits (the largest, Chassis `.($levels=6)`, brings
 * 737 resources, 0.6 MB), and so does `*($levels=4)` of a system (1,605, 2 MB); `*($levels=6)`
 * of a system (28,303, 33 MB) does not.
 */
export const EXPAND_LIMITS: ExpandLimits = { resources: 2000, bytes: 4 * 1024 * 1024, yieldEvery: 64 };

/** Seconds a client refused for running too many expansions at once is asked to wait. */
const RETRY_AFTER_SECONDS = 2;

/** Sizes of memoized (frozen) resources, measured once. */
const sizes = new WeakMap<object, number>();

function jsonSize(resource: Record<string, unknown>): number {
  const known = sizes.get(resource);
  if (known !== undefined) return known;
  const size = JSON.stringify(resource).length;
  if (Object.isFrozen(resource)) sizes.set(resource, size);
  return size;
}

/**
 * The running count of one $expand. Every `yieldEvery` links it waits a turn of the event loop
 * (all its links wait with it), and from the first such turn on it is a large expansion holding
 * one of its account's slots (refused with 503 when they are all taken). Past the budget it fails
 * with ExpandLimitExceeded, and whatever of it is still under way stops at its next link.
 */
export class ExpandBudget {
  private followed = 0;
  private resources = 0;
  private bytes = 0;
  private pause?: Promise<void>;
  private failure?: unknown;
  private release?: () => void;

  constructor(
    private readonly uri: string,
    private readonly takeSlot: () => () => void,
    private readonly limits: ExpandLimits = EXPAND_LIMITS,
  ) {}

  /** Before following one more link: waits its turn; throws once the expansion has failed. */
  async admit(): Promise<void> {
    while (this.pause) await this.pause;
    if (this.failure) throw this.failure;
    if (++this.followed % this.limits.yieldEvery !== 0) return;
    try {
      this.release ??= this.takeSlot();
    } catch (e) {
      throw (this.failure = e);
    }
    this.pause = new Promise((resolve) =>
      setImmediate(() => {
        this.pause = undefined;
        resolve();
      }),
    );
  }

  /** Count a resource brought in; throws past the budget. */
  count(resource: Record<string, unknown>): void {
    this.resources++;
    this.bytes += jsonSize(resource);
    const over =
      this.resources > this.limits.resources
        ? `${this.limits.resources} resources`
        : this.bytes > this.limits.bytes
          ? `${this.limits.bytes} bytes`
          : undefined;
    if (over) throw (this.failure = vendorError('ExpandLimitExceeded', this.uri, over));
  }

  /** The expansion is over (built or failed): its slot is free. */
  done(): void {
    this.failure ??= new Error('the expansion is over');
    this.release?.();
    this.release = undefined;
  }
}

/** Large expansions in progress per account; beyond `perAccount()` one more is refused 503 with Retry-After. */
export class ExpansionSlots {
  private readonly running = new Map<string, number>();

  constructor(private readonly perAccount: () => number) {}

  take(accountId: string): () => void {
    const n = this.running.get(accountId) ?? 0;
    if (n >= this.perAccount()) {
      throw retryLater(RETRY_AFTER_SECONDS);
    }
    this.running.set(accountId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left > 0) this.running.set(accountId, left);
      else this.running.delete(accountId);
    };
  }
}

/**
 * Expanded bodies kept for reuse, by the memoized representation they expand and how. None over
 * `maxBody` bytes is kept, and once the kept ones total `maxTotal` they are all let go: the keys
 * are weak, but a memoized representation lives as long as nothing changes, and the bodies of
 * every (resource, mode, levels) asked for once were kept with it, without bound.
 */
export class KeptExpansions<T extends { body: Buffer }> {
  private byResource = new WeakMap<object, Map<string, T>>();
  private total = 0;

  constructor(
    private readonly maxBody = 1024 * 1024,
    private readonly maxTotal = 16 * 1024 * 1024,
  ) {}

  get(resource: object, how: string): T | undefined {
    return this.byResource.get(resource)?.get(how);
  }

  keep(resource: object, how: string, entry: T): void {
    if (entry.body.length > this.maxBody) return;
    if (this.total + entry.body.length > this.maxTotal) {
      this.byResource = new WeakMap();
      this.total = 0;
    }
    let byHow = this.byResource.get(resource);
    if (!byHow) this.byResource.set(resource, (byHow = new Map()));
    this.total += entry.body.length - (byHow.get(how)?.body.length ?? 0);
    byHow.set(how, entry);
  }
}
