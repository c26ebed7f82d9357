// Writes verified images to devices. Type A images the controller flashes
// itself; Type B images (and anything whose activation is "after server
// reboot", such as the UEFI system ROM) are staged and written by UEFI at
// the next POST, which is when a real server activates them. Flashing the
// controller's own firmware ends with a controller reset (sessions end),
// CONTROLLER_RESET_DELAY_MS after the flash completed, so a client sees the
// upload or task Complete first, as on iLO.
// An update applied OnTargetReset (DMTF apply time) stages every image: the
// controller's own at its next reset (Manager.Reset), the rest at the next
// POST; its task stays Pending until the last of them is active.
import type { EventBus } from '../events/bus.js';
import type { Logs } from '../logs/logs.js';
import { resourceEvent, vendorResourceEvent } from '../../messages/event-messages.js';
import { baseMessage, vendorMessage, type ExtendedInfo } from '../../messages/errors.js';
import { vendorRefusal } from '../../messages/refusal.js';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { ControllerLifecycle, HostLifecycle } from '../../platform/lifecycle.js';
import type { TaskHandle, Tasks } from '../tasks.js';
import { compareVersions, type Inventory, type InventoryItem, type PendingImage } from './inventory.js';
import { imageDigest, type PackageDevice, type PackageInfo } from './package.js';
import type { UpdateOperation, UpdateStatus } from './update-state.js';

/** A verified image ready to flash (a repository component, an upload, a download). */
export interface FlashSource {
  path: string;
  filename: string;
  info: PackageInfo;
}

export interface FlashOutcome {
  uri: string;
  name: string;
  from: string;
  to: string;
  /** Applied now, or staged for the next server boot. */
  activation: 'Applied' | 'Staged';
}

export interface FlashResult {
  outcomes: FlashOutcome[];
  controllerReset: boolean;
  messages: ExtendedInfo[];
}

/** Versioning 8: controller firmware 2.10 or later needs 1.40 or later installed first. */
export const UPGRADE_PATH = { from: '2.10', requires: '1.40' } as const;

/** When an update is applied (DMTF's ApplyTime): as it arrives, or when its target next resets. */
export type UpdateApplyTime = 'Immediate' | 'OnTargetReset';

/** How long after flashing its own firmware the controller resets (controller clock). */
export const CONTROLLER_RESET_DELAY_MS = 5_000;

export interface FlasherDeps {
  clock: Pick<Clock, 'setTimer'>;
  log: Logger;
  inventory: Inventory;
  status: UpdateStatus;
  controller: ControllerLifecycle;
  host: HostLifecycle;
  logs: Logs;
  events: EventBus;
  /** Tasks of OnTargetReset updates are finished here, whenever their images activate. */
  tasks: Pick<Tasks, 'handleOf'>;
  /** The reset actions that activate staged images, named in the ResetRequired message of a pending update. */
  resetActions: { controller: string; server: string };
}

/** The controller's own firmware activates at the controller's reset; every other image at the server's. */
function activatedBy(item: InventoryItem): NonNullable<PendingImage['At']> {
  return item.DeviceClass === 'BMC' ? 'ControllerReset' : 'ServerReset';
}

export class Flasher {
  /** Set by the control API: why flashing this image fails now (an injected fault), else undefined. */
  failure?: (src: FlashSource) => string | undefined;
  private resetArmed = false;

  constructor(private readonly d: FlasherDeps) {
    d.host.onPost('UefiUpdates', () => this.applyPending('ServerReset'));
    d.controller.onReset(() => this.applyPending('ControllerReset'));
  }

  /**
   * The inventory items a package applies to: all items of its device classes,
   * or only `targets` (firmware inventory URIs), each of which must be applicable.
   */
  applicableItems(info: PackageInfo, targets?: readonly string[]): { item: InventoryItem; device: PackageDevice }[] {
    const classes = new Map(info.devices.map((d) => [d.DeviceClass, d]));
    const all = [...this.d.inventory.list('firmware'), ...this.d.inventory.list('software')];
    if (targets?.length) {
      return targets.map((uri) => {
        const item = all.find((i) => this.d.inventory.uri(i) === normalizeUri(uri));
        const device = item?.DeviceClass ? classes.get(item.DeviceClass) : undefined;
        if (!item || !device || !item.Updateable) throw vendorRefusal('ImageNotApplicable', info.name, uri);
        return { item, device };
      });
    }
    const out = all.filter((i) => i.Updateable && i.DeviceClass && classes.has(i.DeviceClass));
    if (!out.length) throw vendorRefusal('ImageNotApplicable', info.name, info.devices.map((d) => d.DeviceClass).join(', '));
    return out.map((item) => ({ item, device: classes.get(item.DeviceClass as string) as PackageDevice }));
  }

  /** Refuses what must never be flashed: Type C/D, and the controller upgrade-path rule. */
  check(info: PackageInfo, targets?: readonly string[]): { item: InventoryItem; device: PackageDevice }[] {
    if (info.type === 'C' || info.type === 'D') throw vendorRefusal('ComponentNotFlashable', info.name, info.type);
    const items = this.applicableItems(info, targets);
    for (const { item } of items) {
      if (
        item.DeviceClass === 'BMC' &&
        compareVersions(info.version, UPGRADE_PATH.from) >= 0 &&
        compareVersions(item.Version, UPGRADE_PATH.requires) < 0
      ) {
        throw vendorRefusal('FirmwareUpgradePathBlocked', info.version, item.Name, UPGRADE_PATH.requires, item.Version);
      }
    }
    return items;
  }

  /**
   * Flash a verified image. Runs inside the caller's operation when given,
   * otherwise as its own (refused with UpdateServiceBusy while busy).
   * OnTargetReset stages it instead, for the reset of each target; `task`
   * turns Pending, and completes when the last image is active.
   */
  async apply(
    src: FlashSource,
    opts: { targets?: readonly string[]; op?: UpdateOperation; applyTime?: UpdateApplyTime; task?: TaskHandle } = {},
  ): Promise<FlashResult> {
    const items = this.check(src.info, opts.targets);
    const injected = this.failure?.(src);
    if (injected) {
      const target = items.map(({ item }) => item.Name).join(', ');
      const args = [src.filename, target, injected] as const;
      for (const { item } of items) this.d.logs.write('IML', vendorMessage('FirmwareFlashFailed', ...args), this.d.inventory.uri(item));
      throw vendorRefusal('FirmwareFlashFailed', ...args);
    }
    const op = opts.op ?? this.d.status.begin('Updating');
    const own = opts.op ? undefined : op;
    op.set('Updating');
    try {
      const result = opts.applyTime === 'OnTargetReset' ? await this.stageForReset(src, items, opts.task) : await this.write(src, items);
      own?.complete(result.messages[0]);
      if (result.controllerReset) this.resetSoon();
      return result;
    } catch (e) {
      own?.fail(e);
      throw e;
    }
  }

  /** The controller reset that activates its new firmware, once the caller has reported the flash (one for several flashes). */
  private resetSoon(): void {
    if (this.resetArmed) return;
    this.resetArmed = true;
    this.d.clock.setTimer(CONTROLLER_RESET_DELAY_MS, () => {
      this.resetArmed = false;
      this.d.controller.reset().catch((err: unknown) => this.d.log.error({ err }, 'controller reset after a firmware flash failed'));
    });
  }

  /** Re-flash one item from a recovery image (integrity repair); the caller holds the busy state. */
  async repair(item: InventoryItem, src: FlashSource): Promise<FlashResult> {
    const device = src.info.devices.find((d) => d.DeviceClass === item.DeviceClass);
    if (!device) throw vendorRefusal('ImageNotApplicable', src.info.name, this.d.inventory.uri(item));
    return this.write(src, [{ item, device }], true);
  }

  private async write(src: FlashSource, items: { item: InventoryItem; device: PackageDevice }[], immediate = false): Promise<FlashResult> {
    const outcomes: FlashOutcome[] = [];
    const messages: ExtendedInfo[] = [];
    let controllerReset = false;
    for (const { item, device } of items) {
      const digest = await imageDigest(src.path, src.info, device);
      const fresh = this.d.inventory.get(item.kind, item.Id) ?? item;
      const staged = !immediate && (src.info.type === 'B' || src.info.activation === 'AfterServerReboot');
      if (staged) {
        this.replaceStaged(fresh, { Version: src.info.version, ImageDigest: digest, Component: src.filename });
        const m = vendorMessage('FirmwareStaged', fresh.Name, src.info.version);
        this.d.logs.write('IML', m, this.d.inventory.uri(fresh));
        messages.push(m);
        outcomes.push(this.outcome(fresh, src.info.version, 'Staged'));
        continue;
      }
      messages.push(this.activate(fresh, src.info.version, digest));
      outcomes.push(this.outcome(fresh, src.info.version, 'Applied'));
      if (!immediate && src.info.activation === 'AfterControllerReset') controllerReset = true;
    }
    return { outcomes, controllerReset, messages };
  }

  /** What a flash did to an item, for the caller's messages and events. */
  private outcome(item: InventoryItem, to: string, activation: FlashOutcome['activation']): FlashOutcome {
    return { uri: this.d.inventory.uri(item), name: item.Name, from: item.Version, to, activation };
  }

  /** Stage every image for its target's reset; the task waits (Pending) with what it waits for. */
  private async stageForReset(
    src: FlashSource,
    items: { item: InventoryItem; device: PackageDevice }[],
    task: TaskHandle | undefined,
  ): Promise<FlashResult> {
    const outcomes: FlashOutcome[] = [];
    const resets = new Set<NonNullable<PendingImage['At']>>();
    for (const { item, device } of items) {
      const digest = await imageDigest(src.path, src.info, device);
      const fresh = this.d.inventory.get(item.kind, item.Id) ?? item;
      const at = activatedBy(fresh);
      resets.add(at);
      this.replaceStaged(fresh, { Version: src.info.version, ImageDigest: digest, Component: src.filename, At: at, TaskId: task?.id });
      const key = at === 'ControllerReset' ? 'FirmwareStagedForControllerReset' : 'FirmwareStaged';
      this.d.logs.write('IML', vendorMessage(key, fresh.Name, src.info.version), this.d.inventory.uri(fresh));
      outcomes.push(this.outcome(fresh, src.info.version, 'Staged'));
    }
    const messages = [...resets].map((at) =>
      baseMessage(
        'ResetRequired',
        at === 'ControllerReset' ? this.d.resetActions.controller : this.d.resetActions.server,
        'GracefulRestart',
      ),
    );
    for (const m of messages) task?.pending(m);
    return { outcomes, controllerReset: false, messages };
  }

  /** Stage an image on an item; a staged one it replaces is dropped, and so is the task that waited only for it. */
  private replaceStaged(item: InventoryItem, pending: PendingImage): void {
    this.d.inventory.save({ ...item, Pending: pending });
    if (item.Pending?.TaskId !== pending.TaskId) this.releaseTask(item.Pending?.TaskId, 'cancel');
  }

  /** A task whose images are all active (complete) or no longer staged (cancel) ends; one still waiting for an image does not. */
  private releaseTask(id: string | undefined, how: 'complete' | 'cancel', messages: ExtendedInfo[] = []): void {
    if (id === undefined) return;
    const all = [...this.d.inventory.list('firmware'), ...this.d.inventory.list('software')];
    const handle = this.d.tasks.handleOf(id);
    if (!handle) return;
    if (all.some((i) => i.Pending?.TaskId === id)) {
      for (const m of messages) handle.progress(50, m);
      return;
    }
    if (how === 'complete') handle.complete(messages);
    else handle.cancel();
  }

  /** Make an image the active one; `staged`: the item's staged image (its task is the caller's to finish). */
  private activate(item: InventoryItem, version: string, digest: string, staged = false): ExtendedInfo {
    const { Pending: dropped, ...rest } = item;
    this.d.inventory.save({ ...rest, Version: version, ImageDigest: digest, Corrupted: false });
    // Flashed over an OnTargetReset image that was still staged: that update will not happen.
    if (!staged) this.releaseTask(dropped?.TaskId, 'cancel');
    const m = vendorMessage('FirmwareUpdated', item.Name, item.Version, version);
    this.d.logs.write('IML', m, this.d.inventory.uri(item));
    this.d.events.publish(resourceEvent('ResourceChanged'), this.d.inventory.uri(item), 'ResourceUpdated');
    // What a listener filtering on the vendor's resource events looks for.
    this.d.events.publish(vendorResourceEvent('FirmwareFlashed', item.Name, version), this.d.inventory.uri(item), 'ResourceUpdated');
    return m;
  }

  /** UEFI writes the staged images during POST; the controller activates its own as it resets. Their tasks complete. */
  private applyPending(at: NonNullable<PendingImage['At']>): void {
    const done = new Map<string, ExtendedInfo[]>();
    for (const item of [...this.d.inventory.list('firmware'), ...this.d.inventory.list('software')]) {
      const p = item.Pending;
      if (!p || (p.At ?? 'ServerReset') !== at) continue;
      const m = this.activate(item, p.Version, p.ImageDigest, true);
      if (p.TaskId !== undefined) done.set(p.TaskId, [...(done.get(p.TaskId) ?? []), m]);
    }
    for (const [id, messages] of done) this.releaseTask(id, 'complete', messages);
  }
}

function normalizeUri(uri: string): string {
  const path = uri.replace(/^https?:\/\/[^/]+/i, '');
  return path.endsWith('/') ? path : `${path}/`;
}
