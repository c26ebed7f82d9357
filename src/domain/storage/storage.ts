// The array controllers of the server: their drives (from the hardware
// profile), the logical drives (volumes) built on them, drive locate LEDs and
// secure erase. Volume changes are kept pending in the controller's
// configuration and applied when the server next runs POST, as a Smart
// Array-class controller does; each pending change is tracked by a task.
import { baseMessage, vendorMessage } from '../../messages/errors.js';
import { Refusal, baseRefusal, refusals, vendorRefusal } from '../../messages/refusal.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import { componentKey, type ComponentStatus, type Health, type HealthRegistry } from '../../platform/hardware/health.js';
import type { Hardware, ResolvedController } from '../../platform/hardware/identity.js';
import type { DriveSpec } from '../../platform/hardware/profile.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentCollection, DocumentStore, Setting } from '../../store/documents.js';
import type { TaskHandle, TaskRecord, Tasks } from '../tasks.js';
import { faultTolerance, planVolume, requestedLevel, type RaidType } from './raid.js';

export type Controller = ResolvedController;
export type Drive = DriveSpec & { serialNumber: string; uuid: string; /** Its Id under the controller: its position. */ id: string };

export type VolumeState = 'PendingCreate' | 'Active' | 'PendingDelete';

export interface VolumeRecord {
  /** The logical drive number, "1" upwards, unique per controller. */
  id: string;
  storageId: string;
  name: string;
  displayName?: string;
  raidType: RaidType;
  /** Ids of the member drives, in the order given. */
  drives: string[];
  capacityBytes: number;
  state: VolumeState;
  createdAt: number;
  /** The task tracking the pending change, while it is pending. */
  taskId?: string;
}

export const SANITIZATION_TYPES = ['BlockErase', 'CryptographicErase', 'Overwrite'] as const;
export type SanitizationType = (typeof SANITIZATION_TYPES)[number];

/** A drive being erased (controller memory: an erase does not outlive a controller restart). */
export interface EraseState {
  taskId: string;
  type: SanitizationType;
  startedAt: number;
  durationMs: number;
  percent: number;
}

/** What a volume create asks, drives already resolved to this controller's ids (with the URIs sent, for messages). */
export interface VolumeRequest {
  raidType?: string;
  volumeType?: string;
  drives: { id: string; uri: string }[];
  capacityBytes?: number;
  name?: string;
  displayName?: string;
  encrypted?: boolean;
}

interface DriveSettings {
  locate: boolean;
}

// Rough sustained rates of the media, bytes per second, for how long an erase takes.
const OVERWRITE_RATE: Readonly<Record<string, number>> = { HDD: 200e6, SSD: 500e6, NVMe: 2e9 };
const BLOCK_ERASE_MS = 60_000;
const CRYPTO_ERASE_MS = 10_000;
/** Progress steps of an erase task. */
const ERASE_STEPS = 20;

export class StorageControllers {
  private readonly volumes: DocumentCollection<VolumeRecord>;
  private readonly driveSettings: Setting<Record<string, DriveSettings>>;
  private readonly erasing = new Map<string, EraseState & { timer: TimerHandle }>();
  /** Handles of the tasks of pending volume changes (this controller run's only). */
  private readonly pendingTasks = new Map<string, TaskHandle>();
  private readonly appliedListeners: ((v: VolumeRecord, change: 'created' | 'deleted') => void)[] = [];

  constructor(
    private readonly hardware: Pick<Hardware, 'storage'>,
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    host: HostLifecycle,
    private readonly tasks: Tasks,
    private readonly health: HealthRegistry,
  ) {
    this.volumes = store.collection<VolumeRecord>('storage.volume');
    this.driveSettings = store.setting<Record<string, DriveSettings>>('storage.drives', {});
    this.seedVolumes();
    host.onPost('ApplyStorageConfiguration', () => this.applyPending());
  }

  // -- inventory ----------------------------------------------------------------

  controllers(): readonly Controller[] {
    return this.hardware.storage;
  }

  controller(id: string): Controller | undefined {
    return this.hardware.storage.find((c) => c.id === id);
  }

  drives(storageId: string): Drive[] {
    return (this.controller(storageId)?.drives ?? []).map((d, i) => ({ ...d, id: String(i) }));
  }

  drive(storageId: string, driveId: string): Drive | undefined {
    return this.drives(storageId).find((d) => d.id === driveId);
  }

  volumeList(storageId: string): VolumeRecord[] {
    return this.volumes.list().filter((v) => v.storageId === storageId && this.fits(v));
  }

  volume(storageId: string, id: string): VolumeRecord | undefined {
    const v = this.volumes.get(docId(storageId, id));
    return v && this.fits(v) ? v : undefined;
  }

  /** A stored volume whose drives the current profile still has (the data dir may have served another profile). */
  private fits(v: VolumeRecord): boolean {
    return v.drives.every((id) => this.drive(v.storageId, id) !== undefined);
  }

  /** Volumes (pending ones too) a drive belongs to. */
  volumesOfDrive(storageId: string, driveId: string): VolumeRecord[] {
    return this.volumeList(storageId).filter((v) => v.drives.includes(driveId));
  }

  // -- health -------------------------------------------------------------------
  // Status comes from the hardware health registry, where faults are injected.

  driveStatus(storageId: string, d: Drive): ComponentStatus {
    return this.health.status(componentKey.drive(storageId, d.bay));
  }

  /**
   * A volume's status: a fault set on the volume itself, else its drives: more failed
   * drives than its level tolerates fail it (UnavailableOffline, Critical), fewer degrade it.
   */
  volumeStatus(v: VolumeRecord): ComponentStatus {
    if (v.state === 'PendingCreate') return { State: 'Disabled', Health: 'OK' };
    const own = this.health.status(componentKey.volume(v.storageId, v.id));
    const members = v.drives.map((id) => this.drive(v.storageId, id)).filter((d): d is Drive => d !== undefined);
    const health = members.map((d) => this.driveStatus(v.storageId, d).Health ?? 'OK');
    const failed = health.filter((h) => h === 'Critical').length;
    const fromDrives: ComponentStatus =
      failed > faultTolerance(v.raidType)
        ? { State: 'UnavailableOffline', Health: 'Critical' }
        : { State: 'Enabled', Health: failed > 0 || health.includes('Warning') ? 'Warning' : 'OK' };
    return worstStatus(own, fromDrives);
  }

  controllerStatus(storageId: string): ComponentStatus {
    return this.health.status(componentKey.controller(storageId));
  }

  /** The worst of the controller, its drives and its built volumes. */
  storageRollup(storageId: string): Health {
    return worst([
      this.controllerStatus(storageId).Health ?? 'OK',
      ...this.drives(storageId).map((d) => this.driveStatus(storageId, d).Health ?? 'OK'),
      ...this.volumeList(storageId).map((v) => this.volumeStatus(v).Health ?? 'OK'),
    ]);
  }

  // -- volumes --------------------------------------------------------------------

  /** Checks the layout and stores the volume as pending; its task completes when POST applies it. */
  createVolume(storageId: string, req: VolumeRequest, payload: TaskRecord['Payload']): { volume: VolumeRecord; task: TaskRecord } {
    const ctrl = this.controller(storageId);
    if (!ctrl) throw baseRefusal('ResourceMissingAtURI', storageId);
    if (req.encrypted === true) throw baseRefusal('PropertyValueIncorrect', 'Encrypted', 'true').about('Encrypted');
    const level = requestedLevel(req.raidType, req.volumeType);
    if (req.drives.length === 0) throw baseRefusal('PropertyMissing', 'Links/Drives').about('Links/Drives');
    const problems: Refusal[] = [];
    const seen = new Set<string>();
    const drives = req.drives.map((ref, i) => {
      const d = this.drive(storageId, ref.id);
      if (!d) throw new Error(`drive ${ref.id} not resolved`);
      const path = `Links/Drives/${i}`;
      if (seen.has(ref.id)) problems.push(baseRefusal('PropertyValueIncorrect', path, ref.uri).about(path));
      seen.add(ref.id);
      const busy = this.busyReason(storageId, ref.id);
      if (busy) problems.push(driveInUse(ref.uri, busy).about(path));
      return { uri: ref.uri, capacityBytes: d.capacityBytes, mediaType: d.media, protocol: d.protocol };
    });
    if (problems.length) throw refusals(problems);
    const capacityBytes = planVolume(level, ctrl.raidTypes, drives, req.capacityBytes);
    const id = this.nextVolumeId(storageId);
    const volume: VolumeRecord = {
      id,
      storageId,
      name: req.name ?? `Logical Drive ${id}`,
      ...(req.displayName !== undefined ? { displayName: req.displayName } : {}),
      raidType: level,
      drives: req.drives.map((r) => r.id),
      capacityBytes,
      state: 'PendingCreate',
      createdAt: this.clock.now(),
    };
    const task = this.pendingTask(`Create volume ${id}`, payload, volume);
    this.volumes.put(docId(storageId, id), { ...volume, taskId: task.Id });
    return { volume: { ...volume, taskId: task.Id }, task };
  }

  /**
   * DELETE of a volume: an active one is marked for deletion at the next POST (a task tracks it);
   * a volume still pending creation is dropped at once (nothing was built), its task ended.
   */
  deleteVolume(storageId: string, id: string, payload: TaskRecord['Payload']): TaskRecord | undefined {
    const v = this.volume(storageId, id);
    if (!v) throw baseRefusal('ResourceMissingAtURI', id);
    if (v.state === 'PendingCreate') {
      this.volumes.delete(docId(storageId, id));
      this.finishPending(v, 'cancelled');
      return undefined;
    }
    if (v.state === 'PendingDelete') throw baseRefusal('ResourceInUse');
    const task = this.pendingTask(`Delete volume ${id}`, payload, v);
    this.volumes.put(docId(storageId, id), { ...v, state: 'PendingDelete', taskId: task.Id });
    return task;
  }

  setDisplayName(v: VolumeRecord, name: string): void {
    const current = this.volume(v.storageId, v.id);
    if (current) this.volumes.put(docId(v.storageId, v.id), { ...current, displayName: name });
  }

  /** Hear each volume change POST applies (events, logs). */
  onApplied(fn: (v: VolumeRecord, change: 'created' | 'deleted') => void): void {
    this.appliedListeners.push(fn);
  }

  /** POST applies the controller's pending configuration. */
  private applyPending(): void {
    for (const v of this.volumes.list()) {
      if (v.state === 'PendingCreate') {
        const { taskId: _, ...rest } = v;
        const active: VolumeRecord = { ...rest, state: 'Active' };
        this.volumes.put(docId(v.storageId, v.id), active);
        this.finishPending(v, 'applied');
        for (const fn of this.appliedListeners) fn(active, 'created');
      } else if (v.state === 'PendingDelete') {
        this.volumes.delete(docId(v.storageId, v.id));
        this.finishPending(v, 'applied');
        for (const fn of this.appliedListeners) fn(v, 'deleted');
      }
    }
  }

  private pendingTask(name: string, payload: TaskRecord['Payload'], v: VolumeRecord): TaskRecord {
    const key = docId(v.storageId, v.id);
    // The task stays Running until POST; work() only keeps its handle, so shutdown never waits on it.
    const task = this.tasks.run(name, payload, (handle) => {
      this.pendingTasks.set(key, handle);
      handle.progress(0, vendorMessage('SystemResetRequired'));
      return Promise.resolve();
    });
    return task;
  }

  private finishPending(v: VolumeRecord, how: 'applied' | 'cancelled'): void {
    const key = docId(v.storageId, v.id);
    const handle = this.pendingTasks.get(key);
    this.pendingTasks.delete(key);
    if (!handle) return;
    if (how === 'applied') handle.complete();
    else handle.cancel();
  }

  private nextVolumeId(storageId: string): string {
    const used = new Set(this.volumeList(storageId).map((v) => v.id));
    let n = 1;
    while (used.has(String(n))) n++;
    return String(n);
  }

  /** The profile's logical drives, stored once: after that the controller's configuration is the truth. */
  private seedVolumes(): void {
    const seeded = this.store.setting<string[]>('storage.seeded', []);
    const done = new Set(seeded.get());
    const fresh = this.hardware.storage.filter((c) => !done.has(c.id));
    if (!fresh.length) return;
    this.store.transaction(() => {
      for (const c of fresh) {
        c.volumes.forEach((spec, i) => {
          const ids = spec.drives.map((bay) => String(c.drives.findIndex((d) => d.bay === bay)));
          const members = ids.map((id) => this.drive(c.id, id)).filter((d): d is Drive => d !== undefined);
          const id = String(i + 1);
          let capacityBytes: number;
          try {
            const drives = members.map((d) => ({ uri: d.bay, capacityBytes: d.capacityBytes, mediaType: d.media, protocol: d.protocol }));
            capacityBytes = planVolume(spec.raidType, c.raidTypes, drives);
          } catch (e) {
            // A layout the controller would refuse stops the start, naming the profile's volume.
            const why = e instanceof Refusal ? e.infos.map((m) => m.Message).join(' ') : String(e);
            throw new Error(
              `hardware profile: storage ${c.id}, volume ${spec.name} (${spec.raidType} over ${spec.drives.length} drives): ${why}`,
              { cause: e },
            );
          }
          this.volumes.put(docId(c.id, id), {
            id,
            storageId: c.id,
            name: spec.name,
            raidType: spec.raidType,
            drives: ids,
            capacityBytes,
            state: 'Active',
            createdAt: this.clock.now(),
          });
        });
      }
      seeded.set([...done, ...fresh.map((c) => c.id)]);
    });
  }

  // -- drives ---------------------------------------------------------------------

  locateActive(storageId: string, driveId: string): boolean {
    return this.driveSettings.peek()[driveKey(storageId, driveId)]?.locate ?? false;
  }

  setLocate(storageId: string, driveId: string, on: boolean): void {
    const all = this.driveSettings.get();
    all[driveKey(storageId, driveId)] = { ...all[driveKey(storageId, driveId)], locate: on };
    this.driveSettings.set(all);
  }

  eraseOf(storageId: string, driveId: string): EraseState | undefined {
    const e = this.erasing.get(driveKey(storageId, driveId));
    if (!e) return undefined;
    const { timer: _, ...state } = e;
    return state;
  }

  /** Why a drive cannot join a volume or be erased, if it cannot. */
  private busyReason(storageId: string, driveId: string): string | undefined {
    const v = this.volumesOfDrive(storageId, driveId)[0];
    if (v) {
      const what = v.state === 'PendingCreate' ? 'pending creation' : v.state === 'PendingDelete' ? 'pending deletion' : 'active';
      return `it is a member of volume ${v.id} (${v.name}, ${v.raidType}, ${what})`;
    }
    if (this.erasing.has(driveKey(storageId, driveId))) return 'it is being erased';
    return undefined;
  }

  /** The sanitization types the drive supports; the first is what an erase without one does. */
  sanitizationTypes(d: Drive): SanitizationType[] {
    if (d.protocol === 'NVMe') return ['BlockErase', 'CryptographicErase', 'Overwrite'];
    return d.media === 'SSD' ? ['BlockErase', 'Overwrite'] : ['Overwrite'];
  }

  /** Starts a secure erase as a task: refused for a drive of a volume or one already erasing. */
  secureErase(
    storageId: string,
    driveId: string,
    driveUri: string,
    type: SanitizationType | undefined,
    passes: number | undefined,
    payload: TaskRecord['Payload'],
  ): TaskRecord {
    const d = this.drive(storageId, driveId);
    if (!d) throw baseRefusal('ResourceMissingAtURI', driveId);
    const key = driveKey(storageId, driveId);
    const allowed = this.sanitizationTypes(d);
    const kind: SanitizationType = type ?? allowed[0] ?? 'Overwrite';
    if (!allowed.includes(kind)) throw baseRefusal('ActionParameterValueNotInList', kind, 'SanitizationType', 'Drive.SecureErase');
    if (passes !== undefined && kind !== 'Overwrite') throw baseRefusal('ActionParameterValueConflict', 'OverwritePasses', String(passes));
    const busy = this.busyReason(storageId, driveId);
    if (busy) throw driveInUse(driveUri, busy);
    const durationMs = eraseDuration(d, kind, passes ?? 1);
    return this.tasks.run('SecureErase', payload, (task) => {
      const step = durationMs / ERASE_STEPS;
      const startedAt = this.clock.now();
      let n = 0;
      const timer = this.clock.setInterval(step, () => {
        n++;
        const state = this.erasing.get(key);
        if (!state) return;
        if (n >= ERASE_STEPS) {
          timer.cancel();
          this.erasing.delete(key);
          task.complete([baseMessage('Success')]);
          return;
        }
        state.percent = Math.round((100 * n) / ERASE_STEPS);
        task.progress(state.percent);
      });
      this.erasing.set(key, { taskId: task.id, type: kind, startedAt, durationMs, percent: 0, timer });
      return Promise.resolve();
    });
  }
}

/** Base ResourceInUse (what clients test for) with the vendor message saying what holds the drive. */
function driveInUse(driveUri: string, reason: string): Refusal {
  return refusals([baseRefusal('ResourceInUse'), vendorRefusal('DriveInUse', driveUri, reason)]);
}

function eraseDuration(d: Drive, type: SanitizationType, passes: number): number {
  if (type === 'CryptographicErase') return CRYPTO_ERASE_MS;
  if (type === 'BlockErase') return BLOCK_ERASE_MS;
  const rate = OVERWRITE_RATE[d.protocol === 'NVMe' ? 'NVMe' : d.media] ?? OVERWRITE_RATE.HDD ?? 200e6;
  return Math.max(CRYPTO_ERASE_MS, Math.ceil(((d.capacityBytes * passes) / rate) * 1000));
}

const RANK: Readonly<Record<Health, number>> = { OK: 0, Warning: 1, Critical: 2 };

function worstStatus(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  return RANK[a.Health ?? 'OK'] >= RANK[b.Health ?? 'OK'] ? a : b;
}

function worst(list: readonly Health[]): Health {
  if (list.includes('Critical')) return 'Critical';
  if (list.includes('Warning')) return 'Warning';
  return 'OK';
}

const docId = (storageId: string, volumeId: string) => `${storageId}/${volumeId}`;
const driveKey = (storageId: string, driveId: string) => `${storageId}/${driveId}`;
