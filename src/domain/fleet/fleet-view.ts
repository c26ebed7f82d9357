// What a controller of a fleet knows of the fleet: its members as the fleet
// sees them (GET /control/fleet), and how a member leaves the factory.
import type { FaultRuleInput, FaultRuleView } from '../control/fault-rules.js';
import type { IssuableTier } from '../licensing/license-keys.js';

export interface FleetMemberState {
  /** Global index in the fleet (shards included). */
  Index: number;
  /** The member's service root. */
  ServiceRoot: string;
  Address: string;
  Port: number;
  /** Hardware profile and manifest group it was made from. */
  Hardware: string;
  Group: number;
  /** Absent while the member is still starting. */
  PowerState?: string;
  Health?: string;
  FirmwareVersion?: string;
}

export interface FleetView {
  /** Members served by this process, in index order. */
  members(): FleetMemberState[];
  /** Size of this process's shard, the first index, and the whole fleet's size when a manifest gives it. */
  summary(): { Controllers: number; FirstIndex: number; Started: number; Descriptors?: FleetDescriptors };
  /**
   * A fault rule made on each of these controllers (global indexes, or every one this process
   * serves), with one Id: each keeps, counts and deletes its own copy. The copy of the first.
   */
  addFaultRule(targets: 'All' | readonly number[], input: FaultRuleInput, by: string): FaultRuleView;
}

/** How the process shares its descriptor limit (ulimit -n), and how its databases come and go. */
export interface FleetDescriptors {
  Limit: number | null;
  ListeningSockets: number;
  /** Connections every controller together may hold, and hold now. */
  Connections: number;
  ConnectionsOpen: number;
  /** Outbound connections event deliveries of every controller share, at most. */
  EventDeliveryConnections: number;
  /** Databases open at once at most, open now, and opened again after resting since the start. */
  DatabasesOpenAtOnce: number;
  DatabasesOpen: number;
  DatabasesReopened: number;
}

/** A controller's state on its first start, from the fleet manifest. */
export interface FactoryState {
  /** Device class → version of the firmware it ships with. */
  firmware?: Readonly<Record<string, string>>;
  power?: 'On' | 'Off';
  license?: IssuableTier | 'None';
}
