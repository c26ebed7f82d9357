// The array configuration a Smart Array-class controller takes as one document
// (iLO's SmartStorageConfig): the logical drives wanted, controller actions
// (clear the configuration, factory reset, erase drives) and DataGuard, which
// decides whether a change may destroy data. A write becomes the same pending
// volume changes the standard Storage view makes (StorageControllers), applied
// at the next POST; drive erases asked this way start at that POST too.
import { Refusal, baseRefusal, refusals } from '../../messages/refusal.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';
import type { TaskRecord } from '../tasks.js';
import type { Drive, SanitizationType, StorageControllers, VolumeRecord } from './storage.js';

export const DATA_GUARD = ['Strict', 'Permissive', 'Disabled'] as const;
export type DataGuard = (typeof DATA_GUARD)[number];

/** iLO's RAID names (SmartStorageConfig Raid) and the levels they build. */
export const SMART_RAID: Readonly<Record<string, string>> = {
  Raid0: 'RAID0',
  Raid1: 'RAID1',
  Raid10: 'RAID10',
  Raid5: 'RAID5',
  Raid50: 'RAID50',
  Raid6: 'RAID6',
  Raid60: 'RAID60',
  Raid10ADM: 'RAID10Triple',
};

/** iLO's erase patterns and the sanitization they run (restricted or not, as the drive does it). */
export const ERASE_PATTERNS: Readonly<Record<string, SanitizationType>> = {
  SanitizeRestrictedBlockErase: 'BlockErase',
  SanitizeUnrestrictedBlockErase: 'BlockErase',
  SanitizeRestrictedOverwrite: 'Overwrite',
  SanitizeUnrestrictedOverwrite: 'Overwrite',
  SanitizeRestrictedCryptoScramble: 'CryptographicErase',
  SanitizeUnrestrictedCryptoScramble: 'CryptographicErase',
  OnePass: 'Overwrite',
};

/** A logical drive as the configuration names it: an existing one by number, a new one by its layout. */
export interface SmartLogicalDrive {
  LogicalDriveNumber?: number;
  LogicalDriveName?: string;
  Raid?: string;
  CapacityGiB?: number;
  /** Drive locations ("1I:1:3"), or what to choose from (quick setup). */
  DataDrives?:
    | string[]
    | {
        DataDriveCount?: number;
        DataDriveMediaType?: string;
        DataDriveInterfaceType?: string;
        DataDriveMinimumSizeGiB?: number;
        DataDriveLocation?: string;
      };
  Actions?: { Action?: string }[];
}

export interface SmartAction {
  Action?: string;
  ErasePattern?: string;
  PhysicalDriveList?: string[];
}

export interface SmartConfigChange {
  DataGuard?: DataGuard;
  /** The whole set of logical drives wanted; absent: left as they are. */
  LogicalDrives?: SmartLogicalDrive[];
  Actions?: SmartAction[];
}

/** A drive erase waiting for the next POST. */
export interface PendingErase {
  storageId: string;
  driveIds: string[];
  type: SanitizationType;
  pattern: string;
  /** The request that asked for it, for the erase task started at POST. */
  payload: TaskRecord['Payload'];
}

interface Stored {
  dataGuard: Record<string, DataGuard>;
  erases: PendingErase[];
}

const GiB = 2 ** 30;

export class SmartArrayConfig {
  private readonly saved;

  constructor(
    private readonly storage: StorageControllers,
    store: DocumentStore,
    host: HostLifecycle,
  ) {
    this.saved = store.setting<Stored>('storage.smartConfig', { dataGuard: {}, erases: [] });
    // Registered after StorageControllers' own hook: deletions are applied before drives they freed are erased.
    host.onPost('ApplyStorageConfiguration', () => this.applyPending());
  }

  /** The controllers with Smart Array configuration (the RAID ones), in profile order. */
  arrayControllers(): string[] {
    return this.storage
      .controllers()
      .filter((c) => c.raidTypes.length > 0)
      .map((c) => c.id);
  }

  dataGuard(storageId: string): DataGuard {
    return this.saved.peek().dataGuard[storageId] ?? 'Strict';
  }

  pendingErases(storageId: string): PendingErase[] {
    return this.saved.peek().erases.filter((e) => e.storageId === storageId);
  }

  /** Logical drives of the configuration as it stands after the next POST (pending creations in, pending deletions out). */
  wantedVolumes(storageId: string): VolumeRecord[] {
    return this.storage.volumeList(storageId).filter((v) => v.state !== 'PendingDelete');
  }

  /** Drives that belong to no logical drive (pending ones count). */
  unassigned(storageId: string): Drive[] {
    return this.storage.drives(storageId).filter((d) => this.storage.volumesOfDrive(storageId, d.id).length === 0);
  }

  /** Takes a configuration: checks it whole, then stores its changes as pending. */
  configure(storageId: string, change: SmartConfigChange, payload: TaskRecord['Payload']): void {
    const guard = change.DataGuard ?? this.dataGuard(storageId);
    const destroys = (what: string): void => {
      if (guard === 'Strict') throw baseRefusal('PropertyValueConflict', what, 'DataGuard');
    };
    const actions = change.Actions ?? [];
    const clearAll = actions.some((a) => a.Action === 'ClearConfigurationMetadata' || a.Action === 'FactoryReset');
    const unknown = actions.find((a) => !['ClearConfigurationMetadata', 'FactoryReset', 'PhysicalDriveErase'].includes(a.Action ?? ''));
    if (unknown) throw baseRefusal('PropertyValueNotInList', String(unknown.Action), 'Actions/Action');
    const existing = this.wantedVolumes(storageId);
    const deletes = new Set<string>();
    if (clearAll) {
      destroys('Actions');
      for (const v of existing) deletes.add(v.id);
    }
    const creates: SmartLogicalDrive[] = [];
    if (change.LogicalDrives) {
      const kept = new Set<string>();
      for (const ld of change.LogicalDrives) {
        const v = ld.LogicalDriveNumber === undefined ? undefined : existing.find((x) => x.id === String(ld.LogicalDriveNumber));
        if (!v) {
          if (ld.LogicalDriveNumber === undefined) creates.push(ld);
          continue;
        }
        if (ld.Actions?.some((a) => a.Action === 'LogicalDriveDelete')) deletes.add(v.id);
        else kept.add(v.id);
      }
      for (const v of existing) if (!kept.has(v.id)) deletes.add(v.id);
      if (deletes.size) destroys('LogicalDrives');
    }
    const erases = actions.filter((a) => a.Action === 'PhysicalDriveErase').map((a) => this.eraseOf(storageId, a, deletes, payload));
    for (const id of deletes) this.storage.deleteVolume(storageId, id, payload);
    for (const ld of creates) this.create(storageId, ld, payload);
    const s = this.saved.get();
    this.saved.set({ dataGuard: { ...s.dataGuard, [storageId]: guard }, erases: [...s.erases, ...erases] });
  }

  private create(storageId: string, ld: SmartLogicalDrive, payload: TaskRecord['Payload']): void {
    const level = ld.Raid === undefined ? undefined : SMART_RAID[ld.Raid];
    if (!level) throw baseRefusal('PropertyValueNotInList', String(ld.Raid), 'LogicalDrives/Raid');
    const drives = this.chooseDrives(storageId, ld.DataDrives);
    this.storage.createVolume(
      storageId,
      {
        raidType: level,
        drives: drives.map((d) => ({ id: d.id, uri: d.bay })),
        ...(ld.CapacityGiB !== undefined ? { capacityBytes: ld.CapacityGiB * GiB } : {}),
        ...(ld.LogicalDriveName !== undefined ? { name: ld.LogicalDriveName } : {}),
      },
      payload,
    );
  }

  /** The drives a new logical drive gets: the ones named, or the first free ones that fit the quick-setup description. */
  private chooseDrives(storageId: string, spec: SmartLogicalDrive['DataDrives']): Drive[] {
    if (Array.isArray(spec)) {
      const all = this.storage.drives(storageId);
      return spec.map((bay) => {
        const d = all.find((x) => x.bay === bay);
        if (!d) throw baseRefusal('PropertyValueNotInList', bay, 'LogicalDrives/DataDrives');
        return d;
      });
    }
    const count = spec?.DataDriveCount ?? 0;
    const fits = this.unassigned(storageId).filter(
      (d) =>
        (spec?.DataDriveMediaType === undefined || d.media === spec.DataDriveMediaType) &&
        (spec?.DataDriveInterfaceType === undefined || d.protocol === spec.DataDriveInterfaceType) &&
        d.capacityBytes >= (spec?.DataDriveMinimumSizeGiB ?? 0) * GiB,
    );
    if (count < 1 || fits.length < count) throw baseRefusal('PropertyValueIncorrect', 'LogicalDrives/DataDrives', String(count));
    return fits.slice(0, count);
  }

  private eraseOf(storageId: string, a: SmartAction, freed: ReadonlySet<string>, payload: TaskRecord['Payload']): PendingErase {
    const type = a.ErasePattern === undefined ? undefined : ERASE_PATTERNS[a.ErasePattern];
    if (!type) throw baseRefusal('PropertyValueNotInList', String(a.ErasePattern), 'Actions/ErasePattern');
    const all = this.storage.drives(storageId);
    const problems: Refusal[] = [];
    const ids = (a.PhysicalDriveList ?? []).map((bay) => {
      const d = all.find((x) => x.bay === bay);
      if (!d) {
        problems.push(baseRefusal('PropertyValueNotInList', bay, 'Actions/PhysicalDriveList'));
        return '';
      }
      // A drive of a logical drive that stays cannot be erased.
      if (this.storage.volumesOfDrive(storageId, d.id).some((v) => !freed.has(v.id))) problems.push(baseRefusal('ResourceInUse'));
      if (!this.storage.sanitizationTypes(d).includes(type))
        problems.push(baseRefusal('PropertyValueNotInList', String(a.ErasePattern), 'Actions/ErasePattern'));
      return d.id;
    });
    if (problems.length) throw refusals(problems);
    if (!ids.length) throw baseRefusal('PropertyMissing', 'Actions/PhysicalDriveList');
    return { storageId, driveIds: ids, type, pattern: a.ErasePattern ?? '', payload };
  }

  /** The POST step: erases asked for start, and DataGuard returns to Strict. */
  private applyPending(): void {
    const s = this.saved.get();
    if (!s.erases.length && !Object.keys(s.dataGuard).length) return;
    this.saved.set({ dataGuard: {}, erases: [] });
    for (const e of s.erases) {
      for (const id of e.driveIds) {
        const d = this.storage.drive(e.storageId, id);
        if (!d) continue;
        try {
          this.storage.secureErase(e.storageId, id, d.bay, e.type, undefined, e.payload);
        } catch (err) {
          // A drive a logical drive took since is left alone, as the controller would.
          if (!(err instanceof Refusal)) throw err;
        }
      }
    }
  }
}
