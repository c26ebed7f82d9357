// Scenario control (--enable-control): what a lab wants of a simulated
// controller and a real one cannot do on demand. Moves the controller clock,
// pulls power, stalls POST, crashes the OS, injects faults into parts
// (health registry), flashes, downloads and event deliveries, and holds
// sensor readings. Faults and held readings are stored, so a restart keeps them.
// Every action is written to the service log and to the IEL as a simulated event.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { vendorMessage } from '../../messages/errors.js';
import { baseRefusal, vendorRefusal, type Refusal } from '../../messages/refusal.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { isoNow, type MovableClock } from '../../platform/clock.js';
import { componentKey, type Health, type HealthRegistry } from '../../platform/hardware/health.js';
import type { Hardware } from '../../platform/hardware/identity.js';
import type { HostLifecycle } from '../../platform/lifecycle.js';
import type { PowerModel } from '../../platform/power.js';
import type { ServerSimulator } from '../../platform/simulator.js';
import type { SimulatedSensors } from '../../platform/thermal.js';
import type { DocumentStore } from '../../store/documents.js';
import type { EventBus } from '../events/bus.js';
import type { EventHub } from '../events/hub.js';
import type { FirmwareServices } from '../firmware/index.js';
import { VERIFIED_CLASSES } from '../firmware/inventory.js';
import type { Logs } from '../logs/logs.js';

export const POWER_EVENTS = ['PullPower', 'RestorePower', 'StallPost', 'ResumePost', 'OsCrash'] as const;
export type PowerEvent = (typeof POWER_EVENTS)[number];
export const FAULT_TYPES = [
  'FlashFailure',
  'ImageCorruption',
  'DownloadFailure',
  'FanFailure',
  'PsuFailure',
  'DriveFailure',
  'ListenerUnreachable',
] as const;
export type FaultType = (typeof FAULT_TYPES)[number];
export const TPM_STATES = ['absent', 'installed', 'in-use'] as const;
/**
 * The longest clock jump one request may make (ten years): every timer due within it fires, so a
 * jump's cost grows with its length; beyond it AdvanceSeconds and Set are PropertyValueOutOfRange.
 */
export const MAX_CLOCK_JUMP_SECONDS = 10 * 365 * 86400;

/** Target fields a fault request may carry. */
export interface FaultTarget {
  Fan?: string;
  Bay?: number;
  Storage?: string;
  Drive?: string;
  Component?: string;
  Firmware?: string;
  Uri?: string;
  Destination?: string;
}

export interface FaultRecord extends FaultTarget {
  Id: string;
  Fault: FaultType;
  /** Active: in force; Triggered: a one-shot fault (flash, download) that has made its operation fail. */
  State: 'Active' | 'Triggered';
  Created: string;
  /** The part or operation it applies to, in words. */
  Target: string;
  /** Health registry key of the failed part (fans, supplies, drives). */
  ComponentKey?: string;
}

export interface HeldReading {
  Sensor: string;
  Name: string;
  ReadingCelsius?: number;
  ReadingRPM?: number;
  ReadingWatts?: number;
}

export interface ControlDeps {
  clock: MovableClock;
  store: DocumentStore;
  server: ServerSimulator;
  host: HostLifecycle;
  health: HealthRegistry;
  hardware: Hardware;
  thermal: SimulatedSensors;
  power: PowerModel;
  firmware: FirmwareServices;
  eventHub: EventHub;
  runtimeAgent: { state(): { installed: boolean }; setInstalled(installed: boolean): void };
  /** The controller's functionality switch, which only the host turns back on (DisableiLOFunctionality). */
  functionality: { enabled(): boolean; set(enabled: boolean): void };
  logs: Logs;
  events: EventBus;
  log: Logger;
  /** Where the chassis' resources are (lib/resource-uris.ts, handed in). */
  uris: { chassis(...segments: string[]): string };
}

const ONE_SHOT: ReadonlySet<FaultType> = new Set(['FlashFailure', 'DownloadFailure']);

export class ScenarioControl {
  private readonly faults;
  private readonly held;

  constructor(private readonly d: ControlDeps) {
    this.faults = d.store.collection<FaultRecord>('control.fault');
    this.held = d.store.collection<HeldReading>('control.sensor');
    // Faults and held readings stored by the last run are in force again.
    for (const f of this.faults.list()) if (f.State === 'Active') this.applyPart(f, true, false);
    for (const h of this.held.list()) this.applyHold(h);
    d.firmware.flasher.failure = (src) => this.takeOneShot('FlashFailure', (f) => !f.Component || f.Component === src.filename);
    d.firmware.downloader.failure = (uri) =>
      this.takeOneShot('DownloadFailure', (f) => (!f.Uri || uri.startsWith(f.Uri)) && (!f.Component || uri.endsWith(`/${f.Component}`)));
    d.eventHub.setDeliveryFault((destination) => {
      const f = this.active('ListenerUnreachable').find((x) => !x.Destination || destination.startsWith(x.Destination));
      return f ? 'ECONNREFUSED (simulated: listener unreachable)' : undefined;
    });
  }

  // -- state ------------------------------------------------------------------

  state() {
    const snap = this.d.server.snapshot();
    const tpm = this.d.host.tpm();
    return {
      Clock: isoNow(this.d.clock),
      PowerState: this.d.server.powerState(),
      Phase: snap.phase,
      AcPowerLost: Boolean(snap.acLost),
      PostStalled: Boolean(snap.postStalled),
      OsRunning: this.d.host.osRunning(),
      Faults: this.listFaults(),
      Sensors: this.held.list(),
      Host: {
        RuntimeAgent: this.d.runtimeAgent.state().installed,
        ManagerFunctionality: this.d.functionality.enabled(),
        Tpm: !tpm.installed ? 'absent' : tpm.inUse ? 'in-use' : 'installed',
      },
    };
  }

  listFaults(): FaultRecord[] {
    return this.faults.list();
  }

  fault(id: string): FaultRecord | undefined {
    return this.faults.get(id);
  }

  // -- clock ------------------------------------------------------------------

  async advance(seconds: number, by: string): Promise<void> {
    this.record(by, `clock advanced by ${seconds} s`);
    await this.d.clock.advance(seconds * 1000);
  }

  async setClock(iso: string, by: string): Promise<void> {
    const target = Date.parse(iso);
    if (!Number.isFinite(target)) throw baseRefusal('PropertyValueFormatError', iso, 'Set');
    const now = this.d.clock.now();
    // Timers armed for "in N ms" cannot all be unwound: time only moves forward.
    if (target < now) throw rejected('Set', `the clock only moves forward; it reads ${isoNow(this.d.clock)}`).about('Set');
    if (target - now > MAX_CLOCK_JUMP_SECONDS * 1000) throw baseRefusal('PropertyValueOutOfRange', iso, 'Set').about('Set');
    this.record(by, `clock set to ${new Date(target).toISOString()}`);
    await this.d.clock.advance(target - now);
  }

  // -- power ------------------------------------------------------------------

  power(event: PowerEvent, by: string): void {
    const s = this.d.server;
    switch (event) {
      case 'PullPower':
        if (s.acLost()) throw rejected(event, 'AC power is already pulled');
        s.pullPower();
        break;
      case 'RestorePower':
        if (!s.acLost()) throw rejected(event, 'AC power is not pulled');
        s.restorePower('LastState');
        break;
      case 'StallPost':
        s.stallPost();
        break;
      case 'ResumePost':
        s.resumePost();
        break;
      case 'OsCrash':
        if (s.snapshot().phase !== 'OsRunning') throw rejected(event, 'the operating system is not running');
        s.osCrash();
        break;
    }
    this.record(by, `power event ${event}`);
  }

  // -- faults -----------------------------------------------------------------

  addFault(type: FaultType, target: FaultTarget, by: string): FaultRecord {
    const f: FaultRecord = {
      Id: this.newId(),
      Fault: type,
      State: 'Active',
      Created: isoNow(this.d.clock),
      ...target,
      Target: '',
    };
    this.resolveTarget(f);
    this.faults.put(f.Id, f);
    this.applyPart(f, true, true);
    this.record(by, `fault ${type} injected (${f.Target}), id ${f.Id}`);
    return f;
  }

  clearFault(id: string, by: string): FaultRecord | undefined {
    const f = this.faults.get(id);
    if (!f) return undefined;
    this.faults.delete(id);
    if (f.State === 'Active') this.applyPart(f, false, true);
    this.record(by, `fault ${f.Fault} cleared (${f.Target}), id ${f.Id}`);
    return f;
  }

  // -- sensors ----------------------------------------------------------------

  /** Hold a reading exactly until released; the unit must fit the sensor. */
  holdSensor(sensor: string, reading: { celsius?: number; rpm?: number; watts?: number }, by: string): HeldReading {
    const found = this.findSensor(sensor);
    if (!found) throw baseRefusal('PropertyValueNotInList', sensor, 'Sensor');
    const given = [reading.celsius, reading.rpm, reading.watts].filter((v) => v !== undefined).length;
    if (given === 0) throw baseRefusal('PropertyMissing', 'ReadingCelsius, ReadingRPM or ReadingWatts');
    if (given > 1) throw baseRefusal('PropertyValueConflict', 'ReadingCelsius', 'ReadingRPM or ReadingWatts');
    const unit = found.kind === 'Temperature' ? 'celsius' : found.kind === 'Fan' ? 'rpm' : 'watts';
    const value = reading[unit];
    const prop = unit === 'celsius' ? 'ReadingCelsius' : unit === 'rpm' ? 'ReadingRPM' : 'ReadingWatts';
    if (value === undefined) throw baseRefusal('PropertyMissing', prop).about(prop);
    const before = this.sensorHealth(found.id);
    const h: HeldReading = { Sensor: found.id, Name: found.name, [prop]: value };
    this.held.put(found.id, h);
    this.applyHold(h);
    this.healthEvent(found.id, before);
    this.record(by, `sensor ${found.id} held at ${value} ${unit === 'celsius' ? '°C' : unit === 'rpm' ? 'RPM' : 'W'}`);
    return h;
  }

  releaseSensor(sensor: string, by: string): HeldReading | undefined {
    const found = this.findSensor(sensor);
    const h = found ? this.held.get(found.id) : undefined;
    if (!found || !h) return undefined;
    const before = this.sensorHealth(found.id);
    this.held.delete(found.id);
    if (found.kind === 'Power') this.d.power.holdWatts(undefined);
    else this.d.thermal.release(found.id);
    this.healthEvent(found.id, before);
    this.record(by, `sensor ${found.id} released`);
    return h;
  }

  // -- host -------------------------------------------------------------------

  setHost(o: { RuntimeAgent?: boolean; Tpm?: (typeof TPM_STATES)[number]; ManagerFunctionality?: boolean }, by: string): void {
    const what: string[] = [];
    if (o.ManagerFunctionality !== undefined) {
      // From the host's UEFI utilities, as on the vendor's controller.
      this.d.functionality.set(o.ManagerFunctionality);
      what.push(`management controller functionality ${o.ManagerFunctionality ? 'enabled' : 'disabled'}`);
    }
    if (o.RuntimeAgent !== undefined) {
      this.d.runtimeAgent.setInstalled(o.RuntimeAgent);
      what.push(`runtime agent ${o.RuntimeAgent ? 'installed' : 'removed'}`);
    }
    if (o.Tpm !== undefined) {
      this.d.host.setTpm({ installed: o.Tpm !== 'absent', inUse: o.Tpm === 'in-use' });
      what.push(`TPM ${o.Tpm}`);
    }
    if (what.length) this.record(by, `host: ${what.join(', ')}`);
  }

  // -- internals ----------------------------------------------------------------

  /** Service log and IEL: who asked for what. */
  record(by: string, what: string): void {
    this.d.log.info({ control: what, user: by }, 'control API: simulated event');
    this.d.logs.write('IEL', vendorMessage('SimulatedEvent', by || 'unknown', what));
  }

  private active(type: FaultType): FaultRecord[] {
    return this.faults.list().filter((f) => f.Fault === type && f.State === 'Active');
  }

  /** The first active one-shot fault of a type that matches: it fires once, then reads Triggered. */
  private takeOneShot(type: FaultType, matches: (f: FaultRecord) => boolean): string | undefined {
    const f = this.active(type).find(matches);
    if (!f) return undefined;
    this.faults.put(f.Id, { ...f, State: 'Triggered' });
    return type === 'FlashFailure'
      ? 'the device did not accept the image (simulated flash failure)'
      : 'connection reset (simulated download failure)';
  }

  private resolveTarget(f: FaultRecord): void {
    const hw = this.d.hardware;
    switch (f.Fault) {
      case 'FanFailure': {
        const fans = this.d.thermal.fanSpecs;
        const fan = f.Fan === undefined ? fans[0] : fans.find((x) => x.id === f.Fan || x.name === f.Fan || String(x.number) === f.Fan);
        if (!fan) throw badTarget(f.Fan ?? '', 'Fan');
        f.Fan = fan.id;
        f.Target = `fan ${fan.name}`;
        f.ComponentKey = componentKey.fan(fan.number);
        return;
      }
      case 'PsuFailure': {
        const psu = f.Bay === undefined ? hw.powerSupplies[0] : hw.powerSupplies.find((p) => p.bay === f.Bay);
        if (!psu) throw badTarget(String(f.Bay ?? ''), 'Bay');
        f.Bay = psu.bay;
        f.Target = `power supply in bay ${psu.bay}`;
        f.ComponentKey = componentKey.psu(psu.bay);
        return;
      }
      case 'DriveFailure': {
        const c = f.Storage === undefined ? hw.storage.find((x) => x.drives.length) : hw.storage.find((x) => x.id === f.Storage);
        if (!c) throw badTarget(f.Storage ?? '', 'Storage');
        const i = f.Drive === undefined ? 0 : c.drives.findIndex((dr, n) => String(n) === f.Drive || dr.bay === f.Drive);
        const drive = c.drives[i];
        if (!drive) throw badTarget(f.Drive ?? '', 'Drive');
        f.Storage = c.id;
        f.Drive = String(i);
        f.Target = `drive ${i} (bay ${drive.bay}) of ${c.id}`;
        f.ComponentKey = componentKey.drive(c.id, drive.bay);
        return;
      }
      case 'ImageCorruption': {
        const items = this.d.firmware.inventory
          .list('firmware')
          .filter((i) => (VERIFIED_CLASSES as readonly string[]).includes(i.DeviceClass ?? ''));
        const item = f.Firmware === undefined ? items[0] : items.find((i) => i.Id === f.Firmware || i.Name === f.Firmware);
        if (!item) throw badTarget(f.Firmware ?? '', 'Firmware');
        f.Firmware = item.Id;
        f.Target = `active firmware ${item.Name} (${this.d.firmware.inventory.uri(item)})`;
        return;
      }
      case 'FlashFailure':
        f.Target = f.Component ? `the next flash of ${f.Component}` : 'the next flash';
        return;
      case 'DownloadFailure':
        f.Target = `the next image download${f.Uri ? ` from ${f.Uri}` : ''}${f.Component ? ` of ${f.Component}` : ''}`;
        return;
      case 'ListenerUnreachable':
        f.Target = f.Destination ? `event listeners at ${f.Destination}` : 'every event listener';
        return;
    }
  }

  /** A part fails (on) or recovers (off): health, readings, and what the controller logs and publishes. */
  private applyPart(f: FaultRecord, on: boolean, announce: boolean): void {
    if (ONE_SHOT.has(f.Fault) || f.Fault === 'ListenerUnreachable') return;
    if (f.Fault === 'ImageCorruption') {
      const item = this.d.firmware.inventory.get('firmware', f.Firmware ?? '');
      if (!item) return;
      // Cleared: the flash contents match their image again.
      if (on) this.d.firmware.integrity.corrupt('firmware', item.Id);
      else this.d.firmware.inventory.save({ ...item, Corrupted: false });
      return;
    }
    const key = f.ComponentKey;
    if (!key) return;
    if (f.Fault === 'FanFailure' && f.Fan) this.d.thermal.setFanStopped(f.Fan, on);
    if (on) this.d.health.set(key, { State: 'Enabled', Health: 'Critical' });
    else this.d.health.clear(key);
    // Drives announce themselves (the storage area listens to the registry); fans and supplies here.
    if (!announce || f.Fault === 'DriveFailure') return;
    const uri = this.d.uris.chassis(f.Fault === 'FanFailure' ? 'Thermal' : 'Power');
    const m = on
      ? resourceEvent('ResourceStatusChangedCritical', f.Target, 'Critical')
      : resourceEvent('ResourceStatusChangedOK', f.Target, 'OK');
    this.d.logs.write('IML', m, uri);
    this.d.events.publish(m, uri, 'Alert');
  }

  private applyHold(h: HeldReading): void {
    if (h.ReadingWatts !== undefined) this.d.power.holdWatts(h.ReadingWatts);
    else this.d.thermal.hold(h.Sensor, h.ReadingCelsius ?? h.ReadingRPM ?? 0);
  }

  private findSensor(name: string): { id: string; name: string; kind: 'Temperature' | 'Fan' | 'Power' } | undefined {
    const t = this.d.thermal;
    const temp = t.temperatureSpecs.find((s) => s.id === name || s.name === name || String(s.number) === name);
    if (temp) return { id: temp.id, name: temp.name, kind: 'Temperature' };
    const fan = t.fanSpecs.find((s) => s.id === name || s.name === name);
    if (fan) return { id: fan.id, name: fan.name, kind: 'Fan' };
    if (name === 'PowerConsumption' || name === 'Power consumption')
      return { id: 'PowerConsumption', name: 'Power consumption', kind: 'Power' };
    return undefined;
  }

  /** A sensor's health from its thresholds (temperatures, fans); power has none. */
  private sensorHealth(id: string): Health {
    const snap = this.d.thermal.snapshot();
    const temp = snap.temperatures.find((x) => x.spec.id === id);
    if (temp) {
      const s = temp.spec;
      if (temp.celsius >= s.upperCritical) return 'Critical';
      return s.upperCaution !== undefined && temp.celsius >= s.upperCaution ? 'Warning' : 'OK';
    }
    const fan = snap.fans.find((x) => x.spec.id === id);
    return fan && fan.rpm < fan.spec.lowerCritical ? 'Critical' : 'OK';
  }

  /** A held reading that crosses a threshold is logged and published as the sensor's health change. */
  private healthEvent(id: string, before: Health): void {
    const after = this.sensorHealth(id);
    if (after === before) return;
    const uri = this.d.uris.chassis('Thermal');
    const m =
      after === 'Critical'
        ? resourceEvent('ResourceStatusChangedCritical', id, after)
        : after === 'Warning'
          ? resourceEvent('ResourceStatusChangedWarning', id, after)
          : resourceEvent('ResourceStatusChangedOK', id, after);
    this.d.logs.write('IML', m, uri);
    this.d.events.publish(m, uri, 'Alert');
  }

  private newId(): string {
    for (;;) {
      const id = randomBytes(3).toString('hex');
      if (!this.faults.has(id)) return id;
    }
  }
}

function rejected(action: string, why: string): Refusal {
  return vendorRefusal('ControlActionRejected', action, why);
}

function badTarget(value: string, prop: string): Refusal {
  return baseRefusal('PropertyValueNotInList', value, prop).about(prop);
}
