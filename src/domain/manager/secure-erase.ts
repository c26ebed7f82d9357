// One-button secure erase (the vendor's SecureSystemErase): asked for, it
// runs at the server's next POST. The system ROM and controller part puts the
// BIOS settings and the Secure Boot keys back to their defaults and, once the
// client could read the outcome, the controller's settings (a factory reset:
// users, network and all, sessions ending); the user data part clears the TPM.
// Drive contents are not modelled, so the drive erase steps have nothing to
// erase and complete at once; the array volumes are left as they are.
// The statuses read Idle again after the controller's reset (a user data
// erase alone keeps its outcome until the next erase). The erase report (what
// was erased, when, at whose request) outlives the factory reset, as its
// purpose is to show afterwards what happened, until deleted or the next erase.
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import { baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export const ERASE_STATUSES = ['Idle', 'Initiated', 'InProgress', 'CompletedWithSuccess', 'CompletedWithErrors', 'Failed'] as const;
export type EraseStatus = (typeof ERASE_STATUSES)[number];

interface EraseState {
  SystemROMAndiLOEraseStatus: EraseStatus;
  UserDataEraseStatus: EraseStatus;
  /** The user name that asked for the erase. */
  requestedBy?: string;
  startedAt?: number;
  completedAt?: number;
}

export const ERASED_DEVICE_TYPES = ['UEFIStore', 'NAND', 'TPM'] as const;

/** One device the last erase sanitized (NIST SP 800-88 technique: a settings reset or TPM clear is a Clear). */
export interface EraseReportEntry {
  deviceType: (typeof ERASED_DEVICE_TYPES)[number];
  deviceIdentifier: string;
  eraseType: 'Clear';
  status: EraseStatus;
  startedAt: number;
  endedAt: number;
}

export interface EraseReport {
  initiatedBy: string | null;
  entries: EraseReportEntry[];
}

const SETTING = 'manager.secureErase';
const REPORT = 'manager.secureEraseReport';
const NO_REPORT: EraseReport = { initiatedBy: null, entries: [] };
const IDLE: EraseState = { SystemROMAndiLOEraseStatus: 'Idle', UserDataEraseStatus: 'Idle' };
/** How long the outcome stays readable before the controller's factory reset ends every session. */
export const FACTORY_RESET_DELAY_MS = 60_000;

export interface SecureEraseDeps {
  store: DocumentStore;
  clock: Clock;
  host: HostLifecycle;
  /** The BIOS settings back to their defaults, now (this POST). */
  resetBios(): void;
  /** The Secure Boot keys back to their defaults. */
  resetSecureBootKeys(): void;
  /** The controller's factory reset (ends every session). */
  resetController(): Promise<void>;
  /** The IML, for what the erase did. */
  record(what: string): void;
}

export class SecureErase {
  private timer?: TimerHandle;

  constructor(private readonly d: SecureEraseDeps) {
    d.host.onPost('ApplyBiosSettings', () => this.run());
    // A restart between the erase and the controller's reset finishes it.
    if (this.state().SystemROMAndiLOEraseStatus === 'CompletedWithSuccess') this.scheduleControllerReset();
  }

  private get setting() {
    return this.d.store.setting<EraseState>(SETTING, IDLE);
  }

  state(): Readonly<EraseState> {
    return this.setting.peek();
  }

  /** Minutes since the erase started, and the estimate of what is left (none: it takes one POST). */
  times(): { elapsed: number; estimated: number } {
    const s = this.state();
    const end = s.completedAt ?? this.d.clock.now();
    return { elapsed: s.startedAt ? Math.floor((end - s.startedAt) / 60_000) : 0, estimated: 0 };
  }

  request(systemRomAndController: boolean, userData: boolean, requestedBy: string): void {
    const s = this.state();
    // One at a time: a new erase once the last one finished (and the controller reset, for the ROM part).
    if (s.SystemROMAndiLOEraseStatus !== 'Idle' || s.UserDataEraseStatus === 'Initiated') throw baseRefusal('ResourceInUse');
    this.setting.set({
      SystemROMAndiLOEraseStatus: systemRomAndController ? 'Initiated' : 'Idle',
      UserDataEraseStatus: userData ? 'Initiated' : 'Idle',
      requestedBy,
    });
  }

  /** What the last erase did, device by device (empty before the first erase or once deleted). */
  report(): Readonly<EraseReport> {
    return this.d.store.setting<EraseReport>(REPORT, NO_REPORT).peek();
  }

  deleteReport(): void {
    this.d.store.setting<EraseReport>(REPORT, NO_REPORT).set(NO_REPORT);
  }

  private run(): void {
    const s = this.state();
    const rom = s.SystemROMAndiLOEraseStatus === 'Initiated';
    const user = s.UserDataEraseStatus === 'Initiated';
    if (!rom && !user) return;
    const startedAt = this.d.clock.now();
    if (rom) {
      this.d.resetBios();
      this.d.resetSecureBootKeys();
    }
    if (user) this.d.host.setTpm({ ...this.d.host.tpm(), inUse: false });
    const done = (asked: boolean): EraseStatus => (asked ? 'CompletedWithSuccess' : 'Idle');
    const completedAt = this.d.clock.now();
    this.setting.set({
      SystemROMAndiLOEraseStatus: done(rom),
      UserDataEraseStatus: done(user),
      ...(s.requestedBy !== undefined ? { requestedBy: s.requestedBy } : {}),
      startedAt,
      completedAt,
    });
    const erased = (deviceType: EraseReportEntry['deviceType'], deviceIdentifier: string): EraseReportEntry => ({
      deviceType,
      deviceIdentifier,
      eraseType: 'Clear',
      status: 'CompletedWithSuccess',
      startedAt,
      endedAt: completedAt,
    });
    this.d.store.setting<EraseReport>(REPORT, NO_REPORT).set({
      initiatedBy: s.requestedBy ?? null,
      entries: [
        ...(rom ? [erased('UEFIStore', 'System ROM settings and Secure Boot keys'), erased('NAND', 'Management controller settings')] : []),
        ...(user ? [erased('TPM', 'Trusted Platform Module')] : []),
      ],
    });
    this.d.record(
      `One-button secure erase completed: ${[rom && 'system ROM and controller settings', user && 'user data (TPM)'].filter(Boolean).join(', ')}.`,
    );
    if (rom) this.scheduleControllerReset();
  }

  private scheduleControllerReset(): void {
    this.timer?.cancel();
    const due = (this.state().completedAt ?? this.d.clock.now()) + FACTORY_RESET_DELAY_MS - this.d.clock.now();
    this.timer = this.d.clock.setTimer(Math.max(0, due), () => {
      this.timer = undefined;
      this.setting.set(IDLE);
      void this.d.resetController();
    });
  }
}
