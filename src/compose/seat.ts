// What a fleet (src/fleet/) hands each controller it starts: shared where it is safe, made once for all.
import type { FactoryState, FleetView } from '../domain/fleet/fleet-view.js';
import type { OutboundConnections } from '../domain/events/delivery.js';
import type { VendorSigningKey } from '../domain/firmware/signing.js';
import type { VendorLicenseKey } from '../domain/licensing/license-keys.js';
import type { ConnectionBudget, SharedPorts } from '../http/shared-ports.js';
import type { HardwareProfile } from '../platform/hardware/profile.js';
import type { DatabasePool } from '../store/database-pool.js';
import type { Secrets } from '../store/secrets.js';

export interface ControllerSeat {
  /** The UUID a first start takes (then stored): deterministic from the controller's index. */
  serviceUuid: string;
  hardware: HardwareProfile;
  /** The first administrator: the fleet's password and its hash, made once for every controller. */
  admin: { password: string; hash: string; /** Given by the operator: every start resets it, as --admin-password does. */ reset: boolean };
  /** This controller's HTTPS identity when its data dir has none (signed by the fleet CA). */
  issueTls(): Promise<{ certPem: string; keyPem: string }>;
  /** The vendor's keys, one pair for the fleet: one license key or signed package serves every controller. */
  licenseKey: VendorLicenseKey;
  firmwareKey: VendorSigningKey;
  /** An empty, migrated database a new controller's starts as a copy of. */
  databaseTemplate: string;
  /** The listening sockets of controllers with addresses of their own: one per port. */
  listeners?: SharedPorts;
  /** The connections every controller together may hold. */
  connections?: ConnectionBudget;
  /** The bound on databases open at once, shared by the fleet's controllers. */
  databases?: DatabasePool;
  /** Event deliveries' connections, shared by the fleet's controllers: bounded per destination. */
  outbound?: OutboundConnections;
  /** The key secrets are sealed with at rest: the fleet's, in its data dir. */
  secrets: Secrets;
  /** How the controller leaves the factory: applied on its first start only. */
  factory: FactoryState;
  fleet: FleetView;
}
