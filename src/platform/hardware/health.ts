// Health of the server's components, one registry every inventory resource reads
// its Status from. Components are keyed by kind and name (see `componentKey`);
// without an entry a component is Enabled/OK. Empty slots are declared Absent at
// start; faults (issue #17) are `set` and `clear`ed at run time, and listeners
// hear every change (events, logs, memoized representations).
import type { Hardware } from './identity.js';

export type Health = 'OK' | 'Warning' | 'Critical';
/** DMTF Resource.State values a component can be in. */
export type ComponentState = 'Enabled' | 'Disabled' | 'Absent' | 'StandbyOffline' | 'UnavailableOffline' | 'Starting' | 'Updating';

/** A Redfish `Status` object (Health left out when Absent, as a controller reports an empty slot). */
export interface ComponentStatus {
  State: ComponentState;
  Health?: Health;
}

/** Health registry keys, one form per component kind. */
export const componentKey = {
  cpu: (index: number) => `cpu:${index}`,
  dimm: (location: string) => `dimm:${location}`,
  controller: (id: string) => `controller:${id}`,
  drive: (controllerId: string, bay: string) => `drive:${controllerId}:${bay}`,
  volume: (controllerId: string, volumeId: string) => `volume:${controllerId}:${volumeId}`,
  nic: (id: string) => `nic:${id}`,
  port: (nicId: string, index: number) => `port:${nicId}:${index}`,
  psu: (bay: number) => `psu:${bay}`,
  fan: (number: number) => `fan:${number}`,
  temperature: (id: string) => `temperature:${id}`,
  pcie: (id: string) => `pcie:${id}`,
};

const OK: ComponentStatus = Object.freeze({ State: 'Enabled', Health: 'OK' });
const RANK: Record<Health, number> = { OK: 0, Warning: 1, Critical: 2 };

export type HealthListener = (key: string, status: ComponentStatus) => void;

export class HealthRegistry {
  /** Declared state of a component (Absent slots); a fault set over it wins until cleared. */
  private readonly declared = new Map<string, ComponentStatus>();
  private readonly faults = new Map<string, ComponentStatus>();
  private readonly listeners = new Set<HealthListener>();
  private gen = 0;
  /** rollupPrefix's answers while the generation is unchanged. */
  private rollups = { gen: -1, byPrefix: new Map<string, Health>() };

  /** Bumped on every change: an input for memoized representations. */
  get generation(): number {
    return this.gen;
  }

  /** The status of one component: a fault, else its declared state, else Enabled/OK. */
  status(key: string): ComponentStatus {
    return this.faults.get(key) ?? this.declared.get(key) ?? OK;
  }

  /** Record a component's standing state (e.g. Absent for an empty slot). Not announced. */
  declare(key: string, status: ComponentStatus): void {
    this.declared.set(key, Object.freeze({ ...status }));
    this.gen++;
  }

  /** A fault or state change (State defaults to Enabled). */
  set(key: string, status: { State?: ComponentState; Health?: Health }): void {
    const s: ComponentStatus = Object.freeze({ State: status.State ?? 'Enabled', ...(status.Health ? { Health: status.Health } : {}) });
    this.faults.set(key, s);
    this.changed(key);
  }

  /** Back to the declared state. */
  clear(key: string): void {
    if (this.faults.delete(key)) this.changed(key);
  }

  /** Components with a fault set, and their status. */
  faulted(): [string, ComponentStatus][] {
    return [...this.faults];
  }

  onChange(fn: HealthListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The worst Health of the given components (OK when none; Absent ones do not count). */
  rollup(keys: Iterable<string>): Health {
    let worst: Health = 'OK';
    for (const k of keys) {
      const h = this.status(k).Health;
      if (h && RANK[h] > RANK[worst]) worst = h;
    }
    return worst;
  }

  /** `rollup` over every component whose key starts with `prefix` (e.g. 'dimm:' or 'drive:DE00A000:'), faults and declarations. */
  rollupPrefix(prefix: string): Health {
    // Asked at every GET of the service root: computed again only once a status changed.
    if (this.rollups.gen !== this.gen) this.rollups = { gen: this.gen, byPrefix: new Map() };
    let health = this.rollups.byPrefix.get(prefix);
    if (health === undefined) {
      health = this.rollup([...this.faults.keys(), ...this.declared.keys()].filter((k) => k.startsWith(prefix)));
      this.rollups.byPrefix.set(prefix, health);
    }
    return health;
  }

  private changed(key: string): void {
    this.gen++;
    const s = this.status(key);
    for (const fn of this.listeners) fn(key, s);
  }
}

/** Declares the profile's empty sockets and slots Absent. */
export function declareEmptySlots(h: HealthRegistry, hardware: Hardware): void {
  hardware.processors.forEach((p, i) => {
    if (!p.present) h.declare(componentKey.cpu(i), { State: 'Absent' });
  });
  for (const d of hardware.memory) if (!d.present) h.declare(componentKey.dimm(d.location), { State: 'Absent' });
}
