// The controller's SNMP service settings and its alert destinations (up to
// eight, as the vendor's controller keeps). Stored and validated; no SNMP agent
// listens in the simulation, and a test alert is recorded in the event log
// for each destination rather than sent on the wire.
import { isIP } from 'node:net';
import { isHostName } from '../../lib/network-names.js';
import { baseRefusal, refusals, type Refusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export const MAX_ALERT_DESTINATIONS = 8;
export const READ_COMMUNITY_SLOTS = 3;
export const ALERT_PROTOCOLS = ['SNMPv1Trap', 'SNMPv3Trap', 'SNMPv3Inform'] as const;
export type AlertProtocol = (typeof ALERT_PROTOCOLS)[number];

export interface SnmpSettings {
  AlertsEnabled: boolean;
  SNMPv1Enabled: boolean;
  Contact: string;
  Location: string;
  Role: string;
  RoleDetail: string;
  ReadCommunities: string[];
  SNMPColdStartTrapBroadcast: boolean;
}

export interface AlertDestination {
  Id: string;
  AlertDestination: string;
  SNMPAlertProtocol: AlertProtocol;
  TrapCommunity: string;
  SecurityName: string | null;
}

const SETTING = 'manager.snmp';
const DESTINATIONS = 'manager.snmp.destinations';

/** As the vendor's controller leaves the factory. */
export const DEFAULT_SNMP: SnmpSettings = {
  AlertsEnabled: true,
  SNMPv1Enabled: true,
  Contact: '',
  Location: '',
  Role: '',
  RoleDetail: '',
  ReadCommunities: ['', '', ''],
  SNMPColdStartTrapBroadcast: true,
};

export type SnmpChange = Partial<Omit<SnmpSettings, 'ReadCommunities'>> & { readonly ReadCommunities?: readonly string[] };

export interface AlertDestinationChange {
  readonly AlertDestination?: string;
  readonly SNMPAlertProtocol?: AlertProtocol;
  readonly TrapCommunity?: string;
  readonly SecurityName?: string | null;
}

export class SnmpService {
  constructor(private readonly store: DocumentStore) {}

  settings(): SnmpSettings {
    return { ...DEFAULT_SNMP, ...this.store.setting<SnmpSettings>(SETTING, DEFAULT_SNMP).get() };
  }

  change(c: SnmpChange): void {
    const next = { ...this.settings(), ...c } as SnmpSettings;
    if (c.ReadCommunities !== undefined) {
      if (c.ReadCommunities.length > READ_COMMUNITY_SLOTS)
        throw baseRefusal('PropertyValueOutOfRange', JSON.stringify(c.ReadCommunities), 'ReadCommunities').about('ReadCommunities');
      next.ReadCommunities = [...c.ReadCommunities, ...Array<string>(READ_COMMUNITY_SLOTS - c.ReadCommunities.length).fill('')];
    }
    this.store.setting<SnmpSettings>(SETTING, DEFAULT_SNMP).set(next);
  }

  destinations(): readonly Readonly<AlertDestination>[] {
    return this.store.collection<AlertDestination>(DESTINATIONS).peekList();
  }

  destination(id: string): Readonly<AlertDestination> | undefined {
    return this.store.collection<AlertDestination>(DESTINATIONS).peek(id);
  }

  /** A new destination in the first free of the eight slots (Ids 1 to 8). */
  addDestination(c: AlertDestinationChange): Readonly<AlertDestination> {
    const docs = this.store.collection<AlertDestination>(DESTINATIONS);
    const problems: Refusal[] = [];
    if (c.AlertDestination === undefined) problems.push(baseRefusal('PropertyMissing', 'AlertDestination').about('AlertDestination'));
    else problems.push(...addressProblems(c.AlertDestination));
    const protocol = c.SNMPAlertProtocol ?? 'SNMPv1Trap';
    if (protocol !== 'SNMPv1Trap' && !c.SecurityName) problems.push(baseRefusal('PropertyMissing', 'SecurityName').about('SecurityName'));
    if (problems.length) throw refusals(problems);
    const free = Array.from({ length: MAX_ALERT_DESTINATIONS }, (_, i) => String(i + 1)).find((id) => !docs.has(id));
    if (free === undefined) throw baseRefusal('CreateLimitReachedForResource');
    const d: AlertDestination = {
      Id: free,
      AlertDestination: c.AlertDestination!,
      SNMPAlertProtocol: protocol,
      TrapCommunity: c.TrapCommunity ?? '',
      SecurityName: protocol === 'SNMPv1Trap' ? null : (c.SecurityName ?? null),
    };
    docs.put(free, d);
    return d;
  }

  changeDestination(id: string, c: AlertDestinationChange): void {
    const docs = this.store.collection<AlertDestination>(DESTINATIONS);
    const d = docs.get(id);
    if (!d) return;
    if (c.AlertDestination !== undefined) {
      const problems = addressProblems(c.AlertDestination);
      if (problems.length) throw refusals(problems);
      d.AlertDestination = c.AlertDestination;
    }
    if (c.SNMPAlertProtocol !== undefined) d.SNMPAlertProtocol = c.SNMPAlertProtocol;
    if (c.TrapCommunity !== undefined) d.TrapCommunity = c.TrapCommunity;
    if (c.SecurityName !== undefined) d.SecurityName = c.SecurityName;
    docs.put(id, d);
  }

  deleteDestination(id: string): boolean {
    return this.store.collection<AlertDestination>(DESTINATIONS).delete(id);
  }

  /** Back to the factory settings, no destinations (factory defaults). */
  reset(): void {
    this.store.setting<SnmpSettings>(SETTING, DEFAULT_SNMP).set(DEFAULT_SNMP);
    this.store.collection<AlertDestination>(DESTINATIONS).clear();
  }
}

function addressProblems(address: string): Refusal[] {
  return isIP(address) !== 0 || isHostName(address)
    ? []
    : [baseRefusal('PropertyValueFormatError', address, 'AlertDestination').about('AlertDestination')];
}
