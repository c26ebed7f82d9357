// The simulated server and what the controller keeps of it: the server itself (power, POST, OS),
// its sensors and power draw, the logs and tasks, and the host's settings the ROM applies at POST
// (boot, BIOS, the vendor BIOS resources, iSCSI, Secure Boot, storage) with the chassis' own.
import type { Services } from '../api/services.js';
import { BiosSettings } from '../domain/bios/bios.js';
import { BootSettings, bootOptionsFor } from '../domain/bios/boot.js';
import { IscsiSettings } from '../domain/bios/iscsi.js';
import { KMS_CONFIG_OPTIONS, TLS_CONFIG_OPTIONS, VendorBiosSettings, serverConfigLockOptions } from '../domain/bios/vendor-settings.js';
import { fanPolicy } from '../domain/chassis/fan-policy.js';
import { ChassisState, UidLight } from '../domain/chassis/chassis.js';
import { UserTempThresholds } from '../domain/chassis/thermal-thresholds.js';
import { ScenarioControl } from '../domain/control/control.js';
import { FaultRules } from '../domain/control/fault-rules.js';
import { Logs } from '../domain/logs/logs.js';
import { RestApiState } from '../domain/manager/rest-api-state.js';
import { SecureBoot } from '../domain/secure-boot/secure-boot.js';
import { StorageControllers } from '../domain/storage/storage.js';
import { SmartArrayConfig } from '../domain/storage/smart-array.js';
import { Tasks } from '../domain/tasks.js';
import { BIOS_ROM_VERSION, hardwareDefaults } from '../platform/bios-attributes.js';
import type { Clock, MovableClock, ScopedClock } from '../platform/clock.js';
import { componentKey } from '../platform/hardware/health.js';
import { serverIdentity } from '../platform/identity.js';
import { PowerModel, psuCarriesLoad } from '../platform/power.js';
import { combineSensors } from '../platform/sensors.js';
import { ServerSimulator } from '../platform/simulator.js';
import { SimulatedSensors } from '../platform/thermal.js';
import { dialect } from '../protocol/dialect.js';
import type { Base } from './base.js';

/** The two lifecycles every part hooks into: the server's (power, POST steps, OS) and the controller's (Manager.Reset). */
export type Lifecycles = Pick<Services, 'host' | 'controller'>;

export type Host = Pick<Services, 'logs' | 'server' | 'tasks'>;

/** The simulated server, driving the host lifecycle; the IML and IEL; the TaskService's tasks. */
export function buildHost(b: Base, { host, controller }: Lifecycles, events: Services['events']): Host {
  const { config, store, clock, log } = b;
  const logs = new Logs(store, clock);
  const { tpm, timing, powerOnSeconds, postSeconds, shutdownSeconds } = config;
  const lenientResets = dialect(config.dialect).lenientResets;
  const simulated = { systemUri: b.uris.system(), tpm, timing, powerOnSeconds, postSeconds, shutdownSeconds, lenientResets };
  const server = new ServerSimulator({ options: simulated, clock, store, host, controller, log, logs, events });
  const tasks = new Tasks(store, clock, events, b.uris);
  return { logs, server, tasks };
}

export type Sensors = Pick<Services, 'thermal' | 'power' | 'sensors'>;

/** Temperatures and fans of the hardware profile, and the power the server draws through its supplies. */
export function buildSensors(b: Base, { host }: Lifecycles, server: ServerSimulator): Sensors {
  const { hardware, health, uris } = b;
  const thermal = new SimulatedSensors(b.clock, host, uris.chassis('Thermal'), hardware);
  const power = new PowerModel({
    clock: b.clock,
    store: b.store,
    host: server,
    spec: hardware.power,
    psus: hardware.powerSupplies,
    psuHealthy: (i) => psuCarriesLoad(health.status(componentKey.psu(hardware.powerSupplies[i]!.bay))),
    powerUri: uris.chassis('Power'),
  });
  return { thermal, power, sensors: combineSensors(thermal, power) };
}

export type HostSettings = Pick<
  Services,
  | 'restApiState'
  | 'secureBoot'
  | 'boot'
  | 'uidLight'
  | 'bios'
  | 'iscsi'
  | 'vendorBios'
  | 'storage'
  | 'smartArray'
  | 'chassisState'
  | 'userTempThresholds'
>;

/**
 * The settings the host's ROM takes in at POST and the chassis' state, each hooked into the
 * lifecycles as it is made (the order is the order they act in at a POST step or a controller reset).
 */
export function buildHostSettings(
  b: Base,
  { host, controller }: Lifecycles,
  p: Host & Pick<Services, 'events' | 'virtualMedia' | 'firmware' | 'thermal'>,
): HostSettings {
  const { config, store, clock, hardware, uris } = b;
  // Host-reported data that VendorMC.ClearRestApiState discards at the next controller reset.
  const restApiState = new RestApiState(store, controller);
  const secureBoot = new SecureBoot(store, clock, { enrollOwner: b.serviceUuid });
  // The boot options follow the hardware profile's drives and NICs; an empty virtual media device is
  // skipped at boot, and a boot from one is logged (IML).
  const boot = new BootSettings(store, host, bootOptionsFor(hardware), p.virtualMedia, (m) => p.logs.write('IML', m, uris.system()));
  const uidLight = new UidLight(store);
  // The ROM reports the profile's product id (SKU) and the serial number.
  const identity = serverIdentity(b.serviceUuid, hardware.system);
  const bios = new BiosSettings(
    store,
    clock,
    host,
    {
      serialNumber: identity.SerialNumber,
      productId: identity.SKU,
      romVersion: () => p.firmware.biosVersion?.() ?? BIOS_ROM_VERSION,
    },
    { logs: p.logs, events: p.events },
    uris.system('Bios'),
    config.scryptLogN,
    hardwareDefaults(hardware),
  );
  // The fans follow the BIOS Fan and Thermal Options in force.
  p.thermal.setFanPolicy(() => fanPolicy(bios.currentAttributes()));
  const iscsi = new IscsiSettings(store, host, identity.SerialNumber);
  const vendorBios = {
    lock: new VendorBiosSettings(
      store,
      host,
      serverConfigLockOptions(identity.SerialNumber, {
        cpus: hardware.processors.map((c) => (c.present ? `${c.socket}=${c.model}` : '')).join(','),
        dimms: hardware.memory.map((m) => (m.present ? `${m.location}=${m.partNumber}/${m.serialNumber}` : '')).join(','),
        pciSlots: hardware.pcieDevices.map((x) => `${x.slot}=${x.name}`).join(','),
      }),
    ),
    kms: new VendorBiosSettings(store, host, KMS_CONFIG_OPTIONS),
    tls: new VendorBiosSettings(store, host, TLS_CONFIG_OPTIONS),
  };
  const storage = new StorageControllers(hardware, store, clock, host, p.tasks, b.health);
  const smartArray = new SmartArrayConfig(storage, store, host);
  const chassisState = new ChassisState(store, host, restApiState, (deviceClass) => p.firmware.installedVersion?.(deviceClass));
  // Alerts name Thermal, or its replacement where deprecated resources are not shown (DMTF dialect).
  const thermalUri = uris.chassis(dialect(config.dialect, config).hidesDeprecated ? 'ThermalSubsystem' : 'Thermal');
  const userTempThresholds = new UserTempThresholds(store, p.thermal, p.logs, p.events, clock, controller, thermalUri);
  return { restApiState, secureBoot, boot, uidLight, bios, iscsi, vendorBios, storage, smartArray, chassisState, userTempThresholds };
}

/** The scenario control API's state and actions (--enable-control): faults, held sensors, power events, the clock. */
export function buildControl(b: Base, s: Services): ScenarioControl {
  if (!isMovable(b.baseClock)) throw new Error('the control API needs a clock it can move');
  return new ScenarioControl({
    clock: movable(b.clock, b.baseClock),
    store: s.store,
    server: s.server,
    host: s.host,
    health: s.health,
    hardware: s.hardware,
    thermal: s.thermal,
    power: s.power,
    firmware: s.update,
    eventHub: s.eventHub,
    runtimeAgent: s.updateQueue.runtimeAgent,
    functionality: s.managerFeatures.functionality,
    logs: s.logs,
    events: s.events,
    log: s.log,
    uris: s.uris,
  });
}

/** The control API's fault rules: stored with the controller's state; a 401 rule ends the session it meets. */
export function buildFaultRules(b: Base, s: Services, control: ScenarioControl): FaultRules {
  return new FaultRules({
    store: s.store,
    clock: b.clock,
    endSession: (id) => s.sessions.delete(id, 'timeout'),
    record: (by, what) => control.record(by, what),
  });
}

function isMovable(c: Clock): c is MovableClock {
  return typeof (c as Partial<MovableClock>).advance === 'function';
}

/** The service's scoped clock, moved by moving the clock under it. */
function movable(scoped: ScopedClock, base: MovableClock): MovableClock {
  return {
    now: () => scoped.now(),
    setTimer: (ms, fn) => scoped.setTimer(ms, fn),
    setInterval: (ms, fn) => scoped.setInterval(ms, fn),
    advance: (ms) => base.advance(ms),
  };
}
