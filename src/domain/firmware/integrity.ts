// Firmware verification: compares each verified device's flash contents with
// the digest of the image written to it. Runs on demand and, when enabled,
// every ScanEveryDays on the controller clock. A scan takes SCAN_DURATION_MS;
// while it runs, uploads and installs are refused (UpdateStatus blocker).
// Failures go to the IML; with LogAndRepairAutomatically the image is
// re-flashed from the recovery install set when it holds one.
import type { Logger } from 'pino';
import type { EventBus } from '../events/bus.js';
import type { Logs } from '../logs/logs.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { vendorMessage } from '../../messages/errors.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { DocumentStore } from '../../store/documents.js';
import type { FlashSource, Flasher } from './flasher.js';
import type { InvalidImages } from './invalid-images.js';
import { VERIFIED_CLASSES, type Inventory, type InventoryItem } from './inventory.js';
import type { UpdateStatus } from './update-state.js';

/** How long a scan takes (controller clock): within the 50 s ilorest's `fwintegritycheck --results` waits for its result. */
export const SCAN_DURATION_MS = 30_000;
const DAY_MS = 86_400_000;
const BUSY_RETRY_MS = 60_000;

export type OnIntegrityFailure = 'LogOnly' | 'LogAndRepairAutomatically';

export interface IntegritySettings {
  EnableBackgroundScan: boolean;
  OnIntegrityFailure: OnIntegrityFailure;
  ScanEveryDays: number;
}

interface Persisted extends IntegritySettings {
  /** Controller time of the next background scan, when enabled. */
  nextScanAt?: number;
  lastScanAt?: number;
  lastResult?: 'OK' | 'Failed' | 'Repaired';
}

const DEFAULTS: Persisted = { EnableBackgroundScan: false, OnIntegrityFailure: 'LogOnly', ScanEveryDays: 7 };

/** Finds a recovery image for a device class; issue "install sets" provides it from the recovery set. */
export type RecoveryImageSource = (deviceClass: string) => Promise<FlashSource | undefined> | FlashSource | undefined;

export interface ScanReport {
  failed: string[];
  repaired: string[];
}

export class IntegrityScanner {
  private readonly setting;
  private timer?: TimerHandle;
  private running?: Promise<ScanReport>;
  /** Controller time the running scan started. */
  private startedAt = 0;
  /** Replaced by the install-set area: the recovery set's image for a device class. */
  recoveryImageFor: RecoveryImageSource = () => undefined;
  /** The check the controller makes of its firmware as it boots (iLO's root of trust): when, and what it found. */
  private bootCheck?: { at: number; result: 'OK' | 'Failed' };

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly inventory: Inventory,
    private readonly flasher: Flasher,
    private readonly logs: Logs,
    private readonly events: EventBus,
    private readonly status: UpdateStatus,
    private readonly log: Logger,
    /** Where the corrupted images found are recorded. */
    private readonly invalidImages: InvalidImages,
  ) {
    this.setting = store.setting<Persisted>('firmware.integrity', DEFAULTS);
    status.addBlocker(() => (this.running ? 'FirmwareIntegrityScan' : undefined));
    this.schedule();
  }

  settings(): Persisted {
    return this.setting.get();
  }

  /**
   * As the controller boots (start, controller reset) it checks the digests of the verified firmware, as iLO
   * does before it runs: no busy period and no repair (a scan does those); a failure is logged.
   */
  verifyAtBoot(): void {
    const failed = this.verifiedItems().filter((i) => i.Corrupted);
    for (const item of failed) this.failed(item);
    this.bootCheck = { at: this.clock.now(), result: failed.length ? 'Failed' : 'OK' };
  }

  /** The latest check of the firmware, a scan's or the boot check's; undefined before either. */
  lastCheck(): { at: number; result: 'OK' | 'Failed' | 'Repaired' } | undefined {
    const s = this.setting.get();
    const scan = s.lastScanAt !== undefined && s.lastResult !== undefined ? { at: s.lastScanAt, result: s.lastResult } : undefined;
    if (!scan) return this.bootCheck;
    return this.bootCheck && this.bootCheck.at > scan.at ? this.bootCheck : scan;
  }

  /** A corrupted image found: logged, and kept in the invalid-image repository. */
  private failed(item: InventoryItem): void {
    this.logs.write('IML', vendorMessage('FirmwareIntegrityFailure', item.Name, item.Version), this.inventory.uri(item));
    this.invalidImages.record(item, this.clock.now());
  }

  private verifiedItems() {
    return this.inventory.list('firmware').filter((i) => (VERIFIED_CLASSES as readonly string[]).includes(i.DeviceClass ?? ''));
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  /** How far the running scan has come, on the controller clock (null when none runs). */
  percentComplete(): number | null {
    if (!this.running) return null;
    return Math.min(99, Math.floor((100 * (this.clock.now() - this.startedAt)) / SCAN_DURATION_MS));
  }

  /** The scan in progress, if any (tests and callers that wait for its report). */
  current(): Promise<ScanReport> | undefined {
    return this.running;
  }

  configure(patch: Partial<IntegritySettings>): void {
    const cur = this.setting.get();
    const next: Persisted = { ...cur, ...patch };
    const periodChanged = patch.ScanEveryDays !== undefined && patch.ScanEveryDays !== cur.ScanEveryDays;
    if (!next.EnableBackgroundScan) delete next.nextScanAt;
    else if (!cur.EnableBackgroundScan || periodChanged || next.nextScanAt === undefined) {
      next.nextScanAt = this.clock.now() + next.ScanEveryDays * DAY_MS;
    }
    this.setting.set(next);
    this.schedule();
  }

  /** Start a scan now; resolves when it finishes. Returns the running one when already scanning. */
  start(): Promise<ScanReport> {
    if (this.running) return this.running;
    this.startedAt = this.clock.now();
    const scan = new Promise<void>((res) => this.clock.setTimer(SCAN_DURATION_MS, res))
      .then(() => this.verify())
      .finally(() => {
        this.running = undefined;
        // The service is no longer busy: an ApplyUpdate waiting at the head of the queue may start.
        this.status.blockerEnded();
      });
    // Callers that do not wait for the report (the action, the background timer) leave no unhandled rejection;
    // the failure is logged, since nobody else may see it.
    scan.catch((err: unknown) => this.log.error({ err }, 'firmware integrity scan failed'));
    this.running = scan;
    return scan;
  }

  /** Test hook: the flash contents of an inventory item stop matching its image. */
  corrupt(kind: 'firmware' | 'software', id: string): void {
    const item = this.inventory.get(kind, id);
    if (!item) throw new Error(`no ${kind} inventory item ${id}`);
    this.inventory.save({ ...item, Corrupted: true });
  }

  private async verify(): Promise<ScanReport> {
    const s = this.setting.get();
    const report: ScanReport = { failed: [], repaired: [] };
    for (const item of this.verifiedItems()) {
      if (!item.Corrupted) continue;
      const uri = this.inventory.uri(item);
      report.failed.push(uri);
      this.failed(item);
      this.events.publish(resourceEvent('ResourceErrorsDetected', 'Version', 'FirmwareIntegrity'), uri, 'Alert');
      if (s.OnIntegrityFailure !== 'LogAndRepairAutomatically') continue;
      try {
        // A recovery image that cannot be read (damaged or gone) is a failed repair, not a failed scan.
        const image = await this.recoveryImageFor(item.DeviceClass as string);
        if (!image) {
          this.logs.write('IML', vendorMessage('FirmwareRecoveryImageMissing', item.Name), uri);
          continue;
        }
        await this.flasher.repair(item, image);
        report.repaired.push(uri);
        this.logs.write('IML', vendorMessage('FirmwareIntegrityRepaired', item.Name, image.info.version), uri);
        this.events.publish(resourceEvent('ResourceErrorsCorrected', 'Version', 'FirmwareIntegrity'), uri, 'Alert');
      } catch (e) {
        this.logs.write('IML', vendorMessage('FirmwareRecoveryFailed', item.Name, String((e as Error).message)), uri);
      }
    }
    const result = report.failed.length === 0 ? 'OK' : report.repaired.length === report.failed.length ? 'Repaired' : 'Failed';
    this.setting.set({ ...this.setting.get(), lastScanAt: this.clock.now(), lastResult: result });
    return report;
  }

  /** Arm the background timer for the persisted next scan time. */
  private schedule(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const s = this.setting.get();
    if (!s.EnableBackgroundScan || s.nextScanAt === undefined) return;
    this.timer = this.clock.setTimer(Math.max(0, s.nextScanAt - this.clock.now()), () => {
      const cur = this.setting.get();
      this.setting.set({ ...cur, nextScanAt: this.clock.now() + cur.ScanEveryDays * DAY_MS });
      this.schedule();
      this.startWhenIdle();
    });
  }

  /** A background scan never interrupts a flash: it waits until the update finishes. */
  private startWhenIdle(): void {
    // A scan already running (on demand) covers this period.
    if (this.running) return;
    if (this.status.busyReason()) {
      this.clock.setTimer(BUSY_RETRY_MS, () => this.startWhenIdle());
      return;
    }
    void this.start();
  }
}
