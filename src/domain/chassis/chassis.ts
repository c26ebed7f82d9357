// The chassis' own state: its identity, the locator (UID) light, the asset
// tag, and the platform firmware versions the host reports to the controller
// at the end of every POST (part of the REST API state a clear discards).
import { createHash } from 'node:crypto';
import { baseRefusal } from '../../messages/refusal.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import type { RestApiState } from '../manager/rest-api-state.js';

export const INDICATOR_LED_VALUES = ['Lit', 'Blinking', 'Off'] as const;
export type IndicatorLed = (typeof INDICATOR_LED_VALUES)[number];

export interface ChassisSettings {
  IndicatorLED: IndicatorLed;
  AssetTag: string;
}

export interface HostReportedFirmware {
  PlatformDefinitionTable: string;
  SystemProgrammableLogicDevice: string;
  PowerManagementController: string;
  SPSFirmwareVersionData: string;
}

/** The platform definition table of the simulated server's ROM (not a flashable component). */
const PLATFORM_DEFINITION_TABLE = '1.62.0';

/** What the host's ROM reports at POST: the versions installed then (firmware inventory device classes). */
function reportedFirmware(installed: (deviceClass: string) => string | undefined): HostReportedFirmware {
  return {
    PlatformDefinitionTable: PLATFORM_DEFINITION_TABLE,
    SystemProgrammableLogicDevice: installed('CPLD') ?? 'unknown',
    PowerManagementController: installed('PMC') ?? 'unknown',
    SPSFirmwareVersionData: installed('SPS') ?? 'unknown',
  };
}

/** A serial number of the vendor's form, stable for the life of the data directory. */
export function chassisSerialNumber(serviceUuid: string): string {
  const h = createHash('sha256').update(`chassis:${serviceUuid}`).digest('hex').toUpperCase();
  return `CZ${h.replace(/[^0-9A-Z]/g, '').slice(0, 8)}`;
}

const DEFAULT_SETTINGS: ChassisSettings = { IndicatorLED: 'Off', AssetTag: '' };
const SETTINGS_KEY = 'chassis.settings';

/** A change of the locator light, by its deprecated name, its boolean one, or both. */
export interface IndicatorChange {
  readonly IndicatorLED?: IndicatorLed | undefined;
  readonly LocationIndicatorActive?: boolean | undefined;
}

/**
 * The light after a change. LocationIndicatorActive is the boolean view of the
 * one light (Lit or Blinking: true; Off: false); both given must agree, or the
 * change is a PropertyValueConflict. Turning the locator on keeps a blinking light blinking.
 */
export function changedIndicator(current: IndicatorLed, change: IndicatorChange): IndicatorLed {
  const { IndicatorLED: led, LocationIndicatorActive: active } = change;
  if (active === undefined) return led ?? current;
  if (led !== undefined && (led !== 'Off') !== active)
    throw baseRefusal('PropertyValueConflict', 'LocationIndicatorActive', 'IndicatorLED');
  return led ?? (active ? (current === 'Off' ? 'Lit' : current) : 'Off');
}

/**
 * The unit identification (UID) light: one light on the front of the server,
 * shown by the chassis and by the computer system alike, so both read and
 * write the same stored value.
 */
export class UidLight {
  private readonly settings: { get(): ChassisSettings; set(v: ChassisSettings): void };

  constructor(store: DocumentStore) {
    this.settings = store.setting(SETTINGS_KEY, DEFAULT_SETTINGS);
  }

  get(): IndicatorLed {
    return this.settings.get().IndicatorLED;
  }

  change(change: IndicatorChange): void {
    const s = this.settings.get();
    const led = changedIndicator(s.IndicatorLED, change);
    if (led !== s.IndicatorLED) this.settings.set({ ...s, IndicatorLED: led });
  }
}

export class ChassisState {
  private readonly settings: { get(): ChassisSettings; set(v: ChassisSettings): void };
  private readonly reported: { get(): HostReportedFirmware | null; set(v: HostReportedFirmware | null): void };

  constructor(
    store: DocumentStore,
    host: HostLifecycle,
    restApiState: RestApiState,
    /** The installed version of a firmware inventory device class, read at each POST. */
    installed: (deviceClass: string) => string | undefined,
  ) {
    this.settings = store.setting(SETTINGS_KEY, DEFAULT_SETTINGS);
    this.reported = store.setting<HostReportedFirmware | null>('chassis.hostReportedFirmware', null);
    // The host's ROM reports the platform firmware once POST is through.
    host.onPost('BootDevice', () => this.reported.set(reportedFirmware(installed)));
    restApiState.register('ChassisFirmware', () => this.reported.set(null));
  }

  get(): ChassisSettings {
    return this.settings.get();
  }

  update(patch: Partial<ChassisSettings>): ChassisSettings {
    const next = { ...this.settings.get(), ...patch };
    this.settings.set(next);
    return next;
  }

  /** Firmware versions reported by the host at its last POST; null until it reports (or after a clear). */
  hostReportedFirmware(): HostReportedFirmware | null {
    return this.reported.get();
  }
}
