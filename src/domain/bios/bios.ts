// The BIOS settings of the simulated server: the current area (what the ROM
// runs with), the pending area (what clients asked for), their transfer at POST
// (step ApplyBiosSettings), reset to defaults, and the BIOS passwords.
import { Representations } from '../../lib/memo.js';
import { baseMessage, vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import type { Clock } from '../../platform/clock.js';
import { BIOS_ATTRIBUTES, type AttrValue } from '../../platform/bios-attributes.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import { resolvePending } from './validate.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';

export const BIOS_PASSWORDS = ['AdminPassword', 'PowerOnPassword'] as const;
export type BiosPasswordName = (typeof BIOS_PASSWORDS)[number];
/** The names iLO's Bios.ChangePassword takes for the same two passwords (what ilorest setpassword sends). */
export const BIOS_PASSWORD_ALIASES = { Administrator: 'AdminPassword', User: 'PowerOnPassword' } as const satisfies Record<
  string,
  BiosPasswordName
>;
export type BiosPasswordAlias = keyof typeof BIOS_PASSWORD_ALIASES;

export interface BiosState {
  current: Record<string, AttrValue>;
  /** As sent by clients, unvalidated: the ROM validates at the next POST. */
  pending: Record<string, unknown>;
  /** Bios.ResetBios was requested: the next POST starts from the defaults. */
  resetToDefaults: boolean;
  /** @Redfish.Settings/Messages of the last transfer. */
  messages: ExtendedInfo[];
  /** When the last transfer happened (ms), or null before the first. */
  appliedAt: number | null;
  /** scrypt hashes; null means no password is set. */
  passwords: Record<BiosPasswordName, string | null>;
}

/** Facts the ROM reports rather than stores: read-only attributes. */
export interface PlatformFacts {
  readonly serialNumber: string;
  readonly productId: string;
  romVersion(): string;
}

export interface BiosSinks {
  logs: { write(log: 'IML', message: ExtendedInfo, origin?: string): unknown };
  events: { publish(message: ExtendedInfo, origin?: string, eventType?: 'ResourceUpdated'): unknown };
}

const DEFAULTS: Readonly<Record<string, AttrValue>> = Object.freeze(
  Object.fromEntries(BIOS_ATTRIBUTES.filter((a) => a.Type !== 'Password').map((a) => [a.AttributeName, a.DefaultValue ?? ''])),
);

export function defaultAttributes(): Record<string, AttrValue> {
  return { ...DEFAULTS };
}

/** The registry's defaults with a hardware's own: one frozen object per distinct set, shared by a fleet's controllers. */
const defaultsByHardware = new Map<string, Readonly<Record<string, AttrValue>>>();

function defaultsWith(hardware: Readonly<Record<string, AttrValue>>): Readonly<Record<string, AttrValue>> {
  const key = JSON.stringify(hardware);
  let defaults = defaultsByHardware.get(key);
  if (!defaults) defaultsByHardware.set(key, (defaults = Object.freeze({ ...DEFAULTS, ...hardware })));
  return defaults;
}

export class BiosSettings {
  private readonly saved;
  private readonly defaults: Readonly<Record<string, AttrValue>>;
  /** Attribute views, rebuilt only when the stored state or the reported facts change. */
  private readonly views = new Representations<Record<string, unknown>>(4);

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly host: HostLifecycle,
    private readonly facts: PlatformFacts,
    private readonly sinks: BiosSinks,
    private readonly biosUri: string,
    private readonly scryptLogN: number,
    /** Defaults that depend on the installed hardware (hardwareDefaults), over the registry's. */
    hardware: Readonly<Record<string, AttrValue>> = {},
  ) {
    this.defaults = defaultsWith(hardware);
    this.saved = store.setting<BiosState>('bios.state', {
      // Not copied: a state is never changed in place, only replaced (and stored as text).
      current: this.defaults,
      pending: {},
      resetToDefaults: false,
      messages: [],
      appliedAt: null,
      passwords: { AdminPassword: null, PowerOnPassword: null },
    });
    host.onPost('ApplyBiosSettings', () => this.applyPending());
  }

  /** The defaults Bios.ResetBios returns to (the registry's, with this hardware's). */
  defaultValues(): Readonly<Record<string, AttrValue>> {
    return this.defaults;
  }

  /** The stored state, shared and frozen: the same object until it changes. */
  state(): Readonly<BiosState> {
    return this.saved.peek();
  }

  /**
   * The current area's attributes, with what the ROM reports about the hardware.
   * Shared and frozen, and the same object while neither changes.
   */
  currentAttributes(): Readonly<Record<string, AttrValue>> {
    const s = this.saved.peek();
    // Keyed by the reported facts that can change (the serial number and product id cannot): asked at every GET of a system.
    return this.views.get('current', [s, this.facts.romVersion(), this.host.tpm().installed], (): Record<string, AttrValue> => ({
      ...this.defaults,
      ...s.current,
      ...this.reported(),
      AdminPassword: null,
      PowerOnPassword: null,
    })) as Readonly<Record<string, AttrValue>>;
  }

  /** The pending area: what the current area becomes if every pending value is valid. Shared and frozen. */
  pendingAttributes(): Readonly<Record<string, unknown>> {
    const s = this.saved.peek();
    const current = this.currentAttributes();
    return this.views.get('pending', [s, current], () => {
      const base = s.resetToDefaults ? { ...this.defaults, ...this.reported() } : current;
      // Only scalars: an older database may hold nested values this version refuses at PATCH.
      const pending = Object.entries(s.pending).filter(([, v]) => v === null || typeof v !== 'object');
      return { ...base, ...Object.fromEntries(pending), AdminPassword: null, PowerOnPassword: null };
    });
  }

  /** Store pending values (of the registry's JSON types); POST validates names, values and dependencies. */
  setPending(attrs: Record<string, unknown>): void {
    this.store.transaction(() => {
      const s = this.saved.get();
      this.saved.set({ ...s, pending: { ...s.pending, ...attrs } });
    });
  }

  requestResetToDefaults(): void {
    const s = this.saved.get();
    // A reset supersedes earlier pending edits; later ones apply on top of the defaults.
    this.saved.set({ ...s, pending: {}, resetToDefaults: true });
  }

  /** Bios.ChangePassword: false when the old password does not match. */
  async changePassword(name: BiosPasswordName, oldPassword: string, newPassword: string): Promise<boolean> {
    const stored = this.saved.get().passwords[name];
    const ok = stored === null ? oldPassword === '' : await verifyPassword(oldPassword, stored);
    if (!ok) return false;
    const hash = newPassword === '' ? null : await hashPassword(newPassword, this.scryptLogN);
    const s = this.saved.get();
    this.saved.set({ ...s, passwords: { ...s.passwords, [name]: hash } });
    this.sinks.logs.write('IML', vendorMessage('BiosPasswordChanged', name), this.biosUri);
    return true;
  }

  /** The POST step: validate and transfer pending settings, or restore defaults. */
  applyPending(): void {
    const s = this.saved.get();
    const pendingNames = Object.keys(s.pending);
    if (!s.resetToDefaults && pendingNames.length === 0) return;
    const base = s.resetToDefaults ? { ...this.defaults, ...this.reported() } : { ...this.currentAttributes() };
    delete base.AdminPassword;
    delete base.PowerOnPassword;
    const outcome = resolvePending(base, s.pending);
    this.saved.set({
      ...s,
      current: outcome.values,
      pending: {},
      resetToDefaults: false,
      messages: [baseMessage('Success'), ...outcome.faults],
      appliedAt: this.clock.now(),
    });
    if (s.resetToDefaults) this.sinks.logs.write('IML', vendorMessage('BiosSettingsReset'), this.biosUri);
    const summary = vendorMessage('BiosSettingsApplied', outcome.applied.length, outcome.faults.length);
    this.sinks.logs.write('IML', summary, this.biosUri);
    this.sinks.events.publish(summary, this.biosUri, 'ResourceUpdated');
  }

  private reported(): Record<string, AttrValue> {
    const tpm = this.host.tpm();
    return {
      SerialNumber: this.facts.serialNumber,
      ProductId: this.facts.productId,
      RomVersion: this.facts.romVersion(),
      TpmState: !tpm.installed ? 'NotPresent' : 'PresentEnabled',
      TpmType: tpm.installed ? 'Tpm20' : 'NoTpm',
    };
  }
}
