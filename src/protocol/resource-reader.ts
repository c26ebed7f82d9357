// Reading any resource the service serves, decorated as a GET answers it, from inside a handler:
// what iLO's ResourceDirectory lists. The pipeline reads; it is made after the routes are
// registered, so the composition root hands it over once it exists.
import type { Principal } from './principal.js';

export interface ResourceReader {
  /** The resource at a canonical URI as `principal` would GET it; undefined when it cannot be shown. */
  read(uri: string, principal: Principal): Promise<Record<string, unknown> | undefined>;
}

/** A reader the composition root points at the pipeline once the listener is made. */
export class LateResourceReader implements ResourceReader {
  private target?: ResourceReader;

  serveFrom(target: ResourceReader): void {
    this.target = target;
  }

  read(uri: string, principal: Principal): Promise<Record<string, unknown> | undefined> {
    if (!this.target) throw new Error('resources are read once the pipeline is made');
    return this.target.read(uri, principal);
  }
}
