// The hardware profile: what the simulated server is made of. One YAML or JSON
// file (see profiles/*.yaml and docs/hardware-profiles.md) describes the model,
// processors, DIMMs, storage, NICs, power supplies, fans, temperature sensors and
// PCIe devices. Field names are camelCase; every field is checked on load and a
// bad one fails the start with an error naming it (`processors[1].cores: ...`).
// Serial numbers and MACs may be given; those left out are derived from the
// service's seed (./identity.ts), so two controllers differ and a restart keeps them.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { basename, extname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { isHostName, isSubnetMask } from '../../lib/network-names.js';

/** Where the shipped profiles live: `profiles/` at the repository root (beside `src/` and `dist/`). */
export const SHIPPED_PROFILES_DIR = fileURLToPath(new URL('../../../profiles/', import.meta.url));

// DMTF enum values the profile may use (Processor, Memory, Drive, Volume, PCIeFunction schemas).
export const PROCESSOR_ARCHITECTURES = ['x86', 'IA-64', 'ARM', 'MIPS', 'Power', 'RISC-V', 'OEM'] as const;
export const INSTRUCTION_SETS = [
  'x86',
  'x86-64',
  'IA-64',
  'ARM-A32',
  'ARM-A64',
  'MIPS32',
  'MIPS64',
  'PowerISA',
  'RV32',
  'RV64',
  'OEM',
] as const;
export const MEMORY_TYPES = ['DDR3', 'DDR4', 'DDR5'] as const;
export const DRIVE_MEDIA = ['HDD', 'SSD'] as const;
export const DRIVE_PROTOCOLS = ['SAS', 'SATA', 'NVMe'] as const;
export const RAID_TYPES = ['RAID0', 'RAID1', 'RAID5', 'RAID6', 'RAID10', 'RAID50', 'RAID60', 'RAID1E', 'RAID6TP', 'RAID10Triple'] as const;
export const PCIE_CLASSES = [
  'MassStorageController',
  'NetworkController',
  'DisplayController',
  'MultimediaController',
  'MemoryController',
  'Bridge',
  'CommunicationController',
  'GenericSystemPeripheral',
  'SerialBusController',
  'ProcessingAccelerators',
  'EncryptionController',
  'Other',
] as const;
/** DMTF Chassis.ChassisType values a server enclosure takes. */
export const CHASSIS_TYPES = ['RackMount', 'Blade', 'Enclosure', 'StandAlone', 'Sled', 'Other'] as const;
export const TEMPERATURE_CONTEXTS = [
  'Intake',
  'Exhaust',
  'CPU',
  'Memory',
  'SystemBoard',
  'PowerSupply',
  'VoltageRegulator',
  'StorageDevice',
  'NetworkingDevice',
  'GPU',
  'Chassis',
] as const;

export type ProcessorArchitecture = (typeof PROCESSOR_ARCHITECTURES)[number];
export type InstructionSet = (typeof INSTRUCTION_SETS)[number];
export type MemoryType = (typeof MEMORY_TYPES)[number];
export type DriveMedia = (typeof DRIVE_MEDIA)[number];
export type DriveProtocol = (typeof DRIVE_PROTOCOLS)[number];
export type RaidType = (typeof RAID_TYPES)[number];
export type PcieClass = (typeof PCIE_CLASSES)[number];

export interface HardwareProfile {
  /** The profile's name: the shipped name or the file's base name. */
  name: string;
  /** Free text shown nowhere but the file; optional. */
  description?: string;
  system: { manufacturer: string; model: string; sku: string };
  chassis: {
    model: string;
    partNumber: string;
    /** Rack units. */
    heightU: number;
    /** DMTF ChassisType; default RackMount. */
    chassisType: (typeof CHASSIS_TYPES)[number];
  };
  processors: ProcessorSpec[];
  memory: DimmSpec[];
  storage: StorageControllerSpec[];
  nics: NicSpec[];
  powerSupplies: PowerSupplySpec[];
  power: PowerModelSpec;
  fans: FanProfileSpec[];
  temperatures: TemperatureProfileSpec[];
  pcieDevices: PcieDeviceSpec[];
  /** The host OS's DNS settings; optional (DHCP-like defaults, src/platform/host-network.ts). */
  hostNetwork?: HostNetworkSpec;
  /** The USB controller and its port connectors; optional (a server without USB shows none). */
  usb: UsbSpec;
}

export const USB_LOCATIONS = ['Back', 'Front', 'Internal', 'InternalManagement', 'InternalSDCard', 'iLOManagement'] as const;
export const USB_SPEEDS = ['USB1FullSpeed', 'USB2HighSpeed', 'USB3SuperSpeed'] as const;

export interface UsbSpec {
  /** The PCI address of the USB (xHCI) controller the ports hang off. */
  controller: { bus: number; device: number; function: number };
  /** One entry per port the controller enumerates: a USB 3 connector is two (its USB 2 and USB 3 lanes). */
  ports: UsbPortSpec[];
}

export interface UsbPortSpec {
  location: (typeof USB_LOCATIONS)[number];
  /** The connector's number among those of its location (1-based); both lanes of a connector share it. */
  instance: number;
  speed: (typeof USB_SPEEDS)[number];
  /** The port's number on the controller's root hub (the USB(...) node of the UEFI device path). */
  port: number;
}

export interface HostNetworkSpec {
  /** The domain of the host's FQDN. */
  domainName?: string;
  /** The DNS servers the host OS uses on every interface with an address. */
  nameServers?: string[];
}

export interface ProcessorSpec {
  /** Socket label, e.g. "Proc 1". */
  socket: string;
  /** false: an empty socket (Status.State Absent); the other fields may then be left out. */
  present: boolean;
  model: string;
  manufacturer: string;
  architecture: ProcessorArchitecture;
  instructionSet: InstructionSet;
  cores: number;
  threads: number;
  maxSpeedMHz: number;
  operatingSpeedMHz: number;
  /** Cache sizes, KiB (optional). */
  cacheKiB?: { l1?: number; l2?: number; l3?: number };
  /** The CPUID signature of the model (optional): family, model and stepping as the processor reports them. */
  cpuid?: { family: number; model: number; stepping: number };
}

export interface DimmSpec {
  /** DeviceLocator, e.g. "PROC 1 DIMM 1": also the DIMM's key in the health registry. */
  location: string;
  /** 1-based socket (processor) and slot numbers (MemoryLocation). */
  socket: number;
  slot: number;
  /** Memory channel and controller, when known. */
  channel?: number;
  memoryController?: number;
  /** false: an empty slot (Status.State Absent). */
  present: boolean;
  sizeMiB: number;
  /** Data rate in MT/s (Redfish OperatingSpeedMhz). */
  speedMTs: number;
  type: MemoryType;
  manufacturer: string;
  partNumber: string;
  rank: number;
  /** Optional; derived from the seed when left out. */
  serialNumber?: string;
}

export interface StorageControllerSpec {
  /** The Storage resource's Id, e.g. "DE00A000". */
  id: string;
  model: string;
  manufacturer: string;
  /** PCIe slot number, or "Embedded". */
  slot: string;
  firmwareVersion: string;
  /** RAID levels the controller can build; empty for a plain HBA or direct-attached NVMe. */
  raidTypes: RaidType[];
  drives: DriveSpec[];
  /** Logical drives present at first start. */
  volumes: VolumeSpec[];
  /** The controller's drive connectors (SAS/SATA ports), as drive bays name them ("1I" of "1I:1:1"); none for direct-attached NVMe. */
  ports: StoragePortSpec[];
  serialNumber?: string;
}

export interface StoragePortSpec {
  /** The connector's name, e.g. "1I" (internal) or "1E" (external). */
  id: string;
  /** Lanes of the connector (4 for a mini-SAS HD x4). */
  width: number;
  /** The fastest link the connector runs, Gbit/s (12 for SAS-3). */
  maxSpeedGbps: number;
}

export interface DriveSpec {
  /** Bay label as the controller names it, e.g. "1I:1:1" or "1". */
  bay: string;
  media: DriveMedia;
  protocol: DriveProtocol;
  capacityBytes: number;
  model: string;
  manufacturer: string;
  /** Spindle speed of an HDD; left out for SSDs. */
  rpm?: number;
  firmwareVersion: string;
  serialNumber?: string;
}

export interface VolumeSpec {
  name: string;
  raidType: RaidType;
  /** Bays of the drives the volume spans (of the same controller). */
  drives: string[];
}

export interface NicSpec {
  /** The NetworkAdapter's Id, e.g. "DA000000". */
  id: string;
  model: string;
  manufacturer: string;
  partNumber: string;
  /** PCIe slot number, or "Embedded" (LOM / OCP / FlexibleLOM). */
  slot: string;
  firmwareVersion: string;
  ports: NicPortSpec[];
  serialNumber?: string;
}

export interface NicPortSpec {
  speedMbps: number;
  linkUp: boolean;
  /** Optional fixed MAC (aa:bb:cc:dd:ee:ff); derived from the seed when left out. */
  mac?: string;
  /** Optional static IPv4 address the host OS sets on the port (else a DHCP-like one while the link is up). */
  ipv4?: { address: string; subnetMask: string; gateway?: string };
}

export interface PowerSupplySpec {
  /** 1-based bay number. */
  bay: number;
  model: string;
  manufacturer: string;
  partNumber: string;
  capacityWatts: number;
  /** Efficiency at typical load, percent. */
  efficiencyPercent: number;
  firmwareVersion: string;
  serialNumber?: string;
}

/** Power drawn by the whole server, watts: host off (auxiliary power), host idle, host at full load. */
export interface PowerModelSpec {
  standbyWatts: number;
  idleWatts: number;
  maxWatts: number;
}

/** A fan: src/platform/thermal.ts FanSpec (number and id default from the position). */
export interface FanProfileSpec {
  number: number;
  id: string;
  name: string;
  maxRpm: number;
  lowerCritical: number;
}

/** A temperature sensor: src/platform/thermal.ts TemperatureSpec (number defaults from the position). */
export interface TemperatureProfileSpec {
  number: number;
  id: string;
  name: string;
  context: string;
  offDelta: number;
  onDelta: number;
  swing: number;
  tauSeconds: number;
  upperCaution?: number;
  upperCritical: number;
  upperFatal?: number;
}

export interface PcieDeviceSpec {
  /** The PCIeDevice's Id. */
  id: string;
  name: string;
  manufacturer: string;
  /** PCIe slot number, or "Embedded". */
  slot: string;
  deviceClass: PcieClass;
  /** Gen (1-5) and lanes of the link. */
  pcieGeneration: number;
  lanes: number;
  firmwareVersion?: string;
  /** The NIC or storage controller this device is, for links (optional). */
  nic?: string;
  storage?: string;
  functions: PcieFunctionSpec[];
}

export interface PcieFunctionSpec {
  deviceClass: PcieClass;
  /** 0x-prefixed hex, 4 digits. */
  vendorId: string;
  deviceId: string;
  subsystemVendorId: string;
  subsystemId: string;
}

export class HardwareProfileError extends Error {}

/** The connector a drive bay is on: "1I" of the Smart Array bay "1I:1:1"; none for a plain bay number. */
export function storagePortOfBay(bay: string): string | undefined {
  const colon = bay.indexOf(':');
  return colon > 0 ? bay.slice(0, colon) : undefined;
}

/**
 * The profile a `--hardware` value names: a path to a .yaml/.yml/.json file, or the
 * name of a shipped profile (profiles/<name>.yaml).
 */
export function loadHardwareProfile(nameOrPath: string): HardwareProfile {
  const file = resolveProfileFile(nameOrPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HardwareProfileError(
      `hardware profile ${nameOrPath}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
  return parseHardwareProfile(text, basename(file));
}

/** Names of the shipped profiles. */
export function shippedProfileNames(): string[] {
  const names = readdirSync(SHIPPED_PROFILES_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
  // The default first, as --help lists them.
  return [...names.filter((n) => n === 'default'), ...names.filter((n) => n !== 'default')];
}

function resolveProfileFile(nameOrPath: string): string {
  if (/^[a-z0-9][a-z0-9-]*$/i.test(nameOrPath) && !existsSync(nameOrPath)) {
    const shipped = resolve(SHIPPED_PROFILES_DIR, `${nameOrPath}.yaml`);
    if (existsSync(shipped)) return shipped;
    throw new HardwareProfileError(
      `hardware profile ${nameOrPath}: no such file, and no shipped profile of that name (shipped: ${shippedProfileNames().join(', ')})`,
    );
  }
  return isAbsolute(nameOrPath) ? nameOrPath : resolve(nameOrPath);
}

/** Parse and validate a profile's text; `fileName` names it in errors (.json is read as JSON, anything else as YAML). */
export function parseHardwareProfile(text: string, fileName: string): HardwareProfile {
  let raw: unknown;
  try {
    raw = extname(fileName).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new HardwareProfileError(
      `hardware profile ${fileName}: not valid ${extname(fileName) === '.json' ? 'JSON' : 'YAML'}: ${(e as Error).message}`,
    );
  }
  const r = new Reader(fileName);
  const name = basename(fileName, extname(fileName));
  return r.profile(raw, name);
}

type Obj = Record<string, unknown>;

/** Reads one profile, tracking the path of the field being read for its errors. */
class Reader {
  constructor(private readonly file: string) {}

  fail(path: string, expected: string, got: unknown): never {
    const shown = got === undefined ? 'nothing' : JSON.stringify(got);
    throw new HardwareProfileError(`hardware profile ${this.file}: ${path || 'top level'}: expected ${expected}, got ${shown}`);
  }

  obj(v: unknown, path: string, known: readonly string[]): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'an object', v);
    const o = v as Obj;
    for (const k of Object.keys(o)) {
      if (!known.includes(k)) {
        throw new HardwareProfileError(`hardware profile ${this.file}: ${at(path, k)}: unknown field (known: ${known.join(', ')})`);
      }
    }
    return o;
  }

  list(o: Obj, key: string, path: string, optional = false): unknown[] {
    const v = o[key];
    if (v === undefined && optional) return [];
    if (!Array.isArray(v)) this.fail(at(path, key), 'a list', v);
    return v;
  }

  str(o: Obj, key: string, path: string, fallback?: string): string {
    const v = o[key];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v !== 'string' || v.trim() === '') this.fail(at(path, key), 'a non-empty string', v);
    return v;
  }

  optStr(o: Obj, key: string, path: string): string | undefined {
    return o[key] === undefined ? undefined : this.str(o, key, path);
  }

  posInt(o: Obj, key: string, path: string, fallback?: number): number {
    const v = o[key];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) this.fail(at(path, key), 'a positive integer', v);
    return v;
  }

  /** An integer from min to max (a CPUID field). */
  byte(o: Obj, key: string, path: string, min: number, max: number): number {
    const v = this.num(o, key, path, min, max);
    if (!Number.isInteger(v)) this.fail(at(path, key), `an integer from ${min} to ${max}`, v);
    return v;
  }

  optPosInt(o: Obj, key: string, path: string): number | undefined {
    return o[key] === undefined ? undefined : this.posInt(o, key, path);
  }

  num(o: Obj, key: string, path: string, min: number, max = Infinity): number {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.fail(at(path, key), max === Infinity ? `a number of at least ${min}` : `a number from ${min} to ${max}`, v);
    }
    return v;
  }

  optNum(o: Obj, key: string, path: string, min: number): number | undefined {
    return o[key] === undefined ? undefined : this.num(o, key, path, min);
  }

  bool(o: Obj, key: string, path: string, fallback: boolean): boolean {
    const v = o[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(at(path, key), 'true or false', v);
    return v;
  }

  oneOf<T extends string>(o: Obj, key: string, path: string, values: readonly T[], fallback?: T): T {
    const v = o[key];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'string' || !values.includes(v as T)) this.fail(at(path, key), `one of ${values.join(', ')}`, v);
    return v as T;
  }

  /** A list element that must be one of `values`. */
  value<T extends string>(v: unknown, path: string, values: readonly T[]): T {
    if (typeof v !== 'string' || !values.includes(v as T)) this.fail(path, `one of ${values.join(', ')}`, v);
    return v as T;
  }

  hex4(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (typeof v !== 'string' || !/^0x[0-9a-f]{4}$/i.test(v)) this.fail(at(path, key), 'a 0x-prefixed 4-digit hex string', v);
    return `0x${v.slice(2).toLowerCase()}`;
  }

  /** A slot: a positive integer, or "Embedded". */
  slot(o: Obj, key: string, path: string): string {
    const v = o[key];
    if (v === 'Embedded' || (typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) return String(v);
    if (typeof v === 'string' && /^[1-9]\d*$/.test(v)) return v;
    return this.fail(at(path, key), 'a slot number or "Embedded"', v);
  }

  profile(raw: unknown, name: string): HardwareProfile {
    const o = this.obj(raw, '', [
      'name',
      'description',
      'system',
      'chassis',
      'processors',
      'memory',
      'storage',
      'nics',
      'powerSupplies',
      'power',
      'fans',
      'temperatures',
      'pcieDevices',
      'hostNetwork',
      'usb',
    ]);
    const s = this.obj(o.system, 'system', ['manufacturer', 'model', 'sku']);
    const system = {
      manufacturer: this.str(s, 'manufacturer', 'system'),
      model: this.str(s, 'model', 'system'),
      sku: this.str(s, 'sku', 'system'),
    };
    const c = this.obj(o.chassis, 'chassis', ['model', 'partNumber', 'heightU', 'chassisType']);
    const chassis = {
      model: this.str(c, 'model', 'chassis'),
      partNumber: this.str(c, 'partNumber', 'chassis'),
      heightU: this.posInt(c, 'heightU', 'chassis'),
      chassisType: this.oneOf(c, 'chassisType', 'chassis', CHASSIS_TYPES, 'RackMount'),
    };
    const p = this.obj(o.power, 'power', ['standbyWatts', 'idleWatts', 'maxWatts']);
    const power = {
      standbyWatts: this.num(p, 'standbyWatts', 'power', 0),
      idleWatts: this.num(p, 'idleWatts', 'power', 1),
      maxWatts: this.num(p, 'maxWatts', 'power', 1),
    };
    if (power.idleWatts < power.standbyWatts)
      this.fail('power.idleWatts', `at least standbyWatts (${power.standbyWatts})`, power.idleWatts);
    if (power.maxWatts < power.idleWatts) this.fail('power.maxWatts', `at least idleWatts (${power.idleWatts})`, power.maxWatts);
    const profile: HardwareProfile = {
      name: o.name === undefined ? name : this.str(o, 'name', ''),
      ...(o.description !== undefined ? { description: this.str(o, 'description', '') } : {}),
      system,
      chassis,
      processors: this.list(o, 'processors', '').map((v, i) => this.processor(v, `processors[${i}]`)),
      memory: this.list(o, 'memory', '').map((v, i) => this.dimm(v, `memory[${i}]`)),
      storage: this.list(o, 'storage', '', true).map((v, i) => this.controller(v, `storage[${i}]`)),
      nics: this.list(o, 'nics', '', true).map((v, i) => this.nic(v, `nics[${i}]`)),
      powerSupplies: this.list(o, 'powerSupplies', '').map((v, i) => this.psu(v, `powerSupplies[${i}]`)),
      power,
      fans: this.list(o, 'fans', '').map((v, i) => this.fan(v, `fans[${i}]`, i)),
      temperatures: this.list(o, 'temperatures', '').map((v, i) => this.temperature(v, `temperatures[${i}]`, i)),
      pcieDevices: this.list(o, 'pcieDevices', '', true).map((v, i) => this.pcie(v, `pcieDevices[${i}]`)),
      ...(o.hostNetwork !== undefined ? { hostNetwork: this.hostNetwork(o.hostNetwork, 'hostNetwork') } : {}),
      usb: this.usb(o.usb, 'usb'),
    };
    if (!profile.processors.some((x) => x.present)) this.fail('processors', 'at least one present processor', o.processors);
    if (!profile.memory.some((x) => x.present)) this.fail('memory', 'at least one present DIMM', o.memory);
    if (profile.powerSupplies.length === 0) this.fail('powerSupplies', 'at least one power supply', o.powerSupplies);
    this.unique(
      profile.processors.map((x) => x.socket),
      'processors',
      'socket',
    );
    this.unique(
      profile.memory.map((x) => x.location),
      'memory',
      'location',
    );
    // Socket and slot name the Memory resource (proc<socket>dimm<slot>).
    this.unique(
      profile.memory.map((x) => `socket ${x.socket} slot ${x.slot}`),
      'memory',
      'slot',
    );
    this.unique(
      profile.storage.map((x) => x.id),
      'storage',
      'id',
    );
    this.unique(
      profile.nics.map((x) => x.id),
      'nics',
      'id',
    );
    this.unique(
      profile.powerSupplies.map((x) => String(x.bay)),
      'powerSupplies',
      'bay',
    );
    this.unique(
      profile.fans.map((x) => x.id),
      'fans',
      'id',
    );
    this.unique(
      profile.fans.map((x) => String(x.number)),
      'fans',
      'number',
    );
    this.unique(
      profile.temperatures.map((x) => x.id),
      'temperatures',
      'id',
    );
    this.unique(
      profile.temperatures.map((x) => String(x.number)),
      'temperatures',
      'number',
    );
    this.unique(
      profile.pcieDevices.map((x) => x.id),
      'pcieDevices',
      'id',
    );
    const macs = profile.nics.flatMap((n, i) => n.ports.map((port, j) => ({ mac: port.mac, path: `nics[${i}].ports[${j}].mac` })));
    const seenMacs = new Set<string>();
    for (const m of macs) {
      if (m.mac === undefined) continue;
      if (seenMacs.has(m.mac)) this.fail(m.path, 'a MAC address no other port has', m.mac);
      seenMacs.add(m.mac);
    }
    profile.pcieDevices.forEach((d, i) => {
      if (d.nic !== undefined && !profile.nics.some((n) => n.id === d.nic))
        this.fail(`pcieDevices[${i}].nic`, 'the id of a NIC in nics', d.nic);
      if (d.storage !== undefined && !profile.storage.some((n) => n.id === d.storage)) {
        this.fail(`pcieDevices[${i}].storage`, 'the id of a controller in storage', d.storage);
      }
    });
    return profile;
  }

  unique(values: string[], list: string, key: string): void {
    const seen = new Set<string>();
    values.forEach((v, i) => {
      if (seen.has(v)) this.fail(`${list}[${i}].${key}`, `a ${key} no other entry of ${list} has`, v);
      seen.add(v);
    });
  }

  processor(v: unknown, path: string): ProcessorSpec {
    const known = [
      'socket',
      'present',
      'model',
      'manufacturer',
      'architecture',
      'instructionSet',
      'cores',
      'threads',
      'maxSpeedMHz',
      'operatingSpeedMHz',
      'cacheKiB',
      'cpuid',
    ];
    const o = this.obj(v, path, known);
    const present = this.bool(o, 'present', path, true);
    const socket = this.str(o, 'socket', path);
    if (!present) {
      return {
        socket,
        present,
        model: '',
        manufacturer: '',
        architecture: 'x86',
        instructionSet: 'x86-64',
        cores: 0,
        threads: 0,
        maxSpeedMHz: 0,
        operatingSpeedMHz: 0,
      };
    }
    const cores = this.posInt(o, 'cores', path);
    const threads = this.posInt(o, 'threads', path);
    if (threads < cores) this.fail(`${path}.threads`, `at least cores (${cores})`, threads);
    const maxSpeedMHz = this.posInt(o, 'maxSpeedMHz', path);
    const cache = o.cacheKiB === undefined ? undefined : this.obj(o.cacheKiB, `${path}.cacheKiB`, ['l1', 'l2', 'l3']);
    const cpuid = o.cpuid === undefined ? undefined : this.obj(o.cpuid, `${path}.cpuid`, ['family', 'model', 'stepping']);
    return {
      socket,
      present,
      model: this.str(o, 'model', path),
      manufacturer: this.str(o, 'manufacturer', path),
      architecture: this.oneOf(o, 'architecture', path, PROCESSOR_ARCHITECTURES, 'x86'),
      instructionSet: this.oneOf(o, 'instructionSet', path, INSTRUCTION_SETS, 'x86-64'),
      cores,
      threads,
      maxSpeedMHz,
      operatingSpeedMHz: this.posInt(o, 'operatingSpeedMHz', path, maxSpeedMHz),
      ...(cache
        ? {
            cacheKiB: {
              ...(cache.l1 !== undefined ? { l1: this.posInt(cache, 'l1', `${path}.cacheKiB`) } : {}),
              ...(cache.l2 !== undefined ? { l2: this.posInt(cache, 'l2', `${path}.cacheKiB`) } : {}),
              ...(cache.l3 !== undefined ? { l3: this.posInt(cache, 'l3', `${path}.cacheKiB`) } : {}),
            },
          }
        : {}),
      ...(cpuid
        ? {
            cpuid: {
              family: this.byte(cpuid, 'family', `${path}.cpuid`, 1, 0x10e),
              model: this.byte(cpuid, 'model', `${path}.cpuid`, 0, 0xff),
              stepping: this.byte(cpuid, 'stepping', `${path}.cpuid`, 0, 0xf),
            },
          }
        : {}),
    };
  }

  dimm(v: unknown, path: string): DimmSpec {
    const known = [
      'location',
      'socket',
      'slot',
      'channel',
      'memoryController',
      'present',
      'sizeMiB',
      'speedMTs',
      'type',
      'manufacturer',
      'partNumber',
      'rank',
      'serialNumber',
    ];
    const o = this.obj(v, path, known);
    const present = this.bool(o, 'present', path, true);
    const where = {
      location: this.str(o, 'location', path),
      socket: this.posInt(o, 'socket', path),
      slot: this.posInt(o, 'slot', path),
      ...(o.channel !== undefined ? { channel: this.posInt(o, 'channel', path) } : {}),
      ...(o.memoryController !== undefined ? { memoryController: this.posInt(o, 'memoryController', path) } : {}),
    };
    if (!present) return { ...where, present, sizeMiB: 0, speedMTs: 0, type: 'DDR4', manufacturer: '', partNumber: '', rank: 0 };
    const serialNumber = this.optStr(o, 'serialNumber', path);
    return {
      ...where,
      present,
      sizeMiB: this.posInt(o, 'sizeMiB', path),
      speedMTs: this.posInt(o, 'speedMTs', path),
      type: this.oneOf(o, 'type', path, MEMORY_TYPES),
      manufacturer: this.str(o, 'manufacturer', path),
      partNumber: this.str(o, 'partNumber', path),
      rank: this.posInt(o, 'rank', path),
      ...(serialNumber !== undefined ? { serialNumber } : {}),
    };
  }

  controller(v: unknown, path: string): StorageControllerSpec {
    const o = this.obj(v, path, [
      'id',
      'model',
      'manufacturer',
      'slot',
      'firmwareVersion',
      'raidTypes',
      'drives',
      'volumes',
      'ports',
      'serialNumber',
    ]);
    const id = this.str(o, 'id', path);
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) this.fail(`${path}.id`, 'letters, digits, _ . or - only (it is a URI segment)', id);
    const raidTypes = this.list(o, 'raidTypes', path, true).map((x, i) => this.value(x, `${path}.raidTypes[${i}]`, RAID_TYPES));
    const drives = this.list(o, 'drives', path, true).map((d, i) => this.drive(d, `${path}.drives[${i}]`));
    this.unique(
      drives.map((d) => d.bay),
      `${path}.drives`,
      'bay',
    );
    const volumes = this.list(o, 'volumes', path, true).map((x, i) => {
      const vp = `${path}.volumes[${i}]`;
      const vo = this.obj(x, vp, ['name', 'raidType', 'drives']);
      const raidType = this.oneOf(vo, 'raidType', vp, RAID_TYPES);
      if (!raidTypes.includes(raidType))
        this.fail(`${vp}.raidType`, `a RAID type of this controller (${raidTypes.join(', ') || 'none'})`, raidType);
      const bays = this.list(vo, 'drives', vp).map((b, j) => {
        const bay = typeof b === 'number' ? String(b) : b;
        if (typeof bay !== 'string' || !drives.some((d) => d.bay === bay))
          this.fail(`${vp}.drives[${j}]`, 'the bay of a drive of this controller', b);
        return bay;
      });
      if (bays.length === 0) this.fail(`${vp}.drives`, 'at least one drive bay', vo.drives);
      return { name: this.str(vo, 'name', vp, `Logical Drive ${i + 1}`), raidType, drives: bays };
    });
    const ports = this.list(o, 'ports', path, true).map((x, i) => {
      const pp = `${path}.ports[${i}]`;
      const po = this.obj(x, pp, ['id', 'width', 'maxSpeedGbps']);
      const portId = this.str(po, 'id', pp);
      if (!/^[A-Za-z0-9]+$/.test(portId)) this.fail(`${pp}.id`, 'letters and digits only (it is a URI segment)', portId);
      return { id: portId, width: this.posInt(po, 'width', pp), maxSpeedGbps: this.num(po, 'maxSpeedGbps', pp, 1) };
    });
    this.unique(
      ports.map((p) => p.id),
      `${path}.ports`,
      'id',
    );
    // A bay "1I:1:1" is on connector 1I: that connector must be listed.
    drives.forEach((d, i) => {
      const port = storagePortOfBay(d.bay);
      if (ports.length > 0 && port !== undefined && !ports.some((p) => p.id === port))
        this.fail(`${path}.drives[${i}].bay`, `a bay on one of the controller's ports (${ports.map((p) => p.id).join(', ')})`, d.bay);
    });
    const serialNumber = this.optStr(o, 'serialNumber', path);
    return {
      id,
      model: this.str(o, 'model', path),
      manufacturer: this.str(o, 'manufacturer', path),
      slot: this.slot(o, 'slot', path),
      firmwareVersion: this.str(o, 'firmwareVersion', path, '1.00'),
      raidTypes,
      drives,
      volumes,
      ports,
      ...(serialNumber !== undefined ? { serialNumber } : {}),
    };
  }

  drive(v: unknown, path: string): DriveSpec {
    const o = this.obj(v, path, [
      'bay',
      'media',
      'protocol',
      'capacityBytes',
      'model',
      'manufacturer',
      'rpm',
      'firmwareVersion',
      'serialNumber',
    ]);
    const media = this.oneOf(o, 'media', path, DRIVE_MEDIA);
    const rpm = this.optPosInt(o, 'rpm', path);
    if (rpm !== undefined && media !== 'HDD') this.fail(`${path}.rpm`, 'no rpm for an SSD', rpm);
    const serialNumber = this.optStr(o, 'serialNumber', path);
    return {
      bay: this.str(o, 'bay', path),
      media,
      protocol: this.oneOf(o, 'protocol', path, DRIVE_PROTOCOLS),
      capacityBytes: this.posInt(o, 'capacityBytes', path),
      model: this.str(o, 'model', path),
      manufacturer: this.str(o, 'manufacturer', path),
      ...(rpm !== undefined ? { rpm } : {}),
      firmwareVersion: this.str(o, 'firmwareVersion', path, '1.0'),
      ...(serialNumber !== undefined ? { serialNumber } : {}),
    };
  }

  nic(v: unknown, path: string): NicSpec {
    const o = this.obj(v, path, ['id', 'model', 'manufacturer', 'partNumber', 'slot', 'firmwareVersion', 'ports', 'serialNumber']);
    const id = this.str(o, 'id', path);
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) this.fail(`${path}.id`, 'letters, digits, _ . or - only (it is a URI segment)', id);
    const ports = this.list(o, 'ports', path).map((x, i) => {
      const pp = `${path}.ports[${i}]`;
      const po = this.obj(x, pp, ['speedMbps', 'linkUp', 'mac', 'ipv4']);
      const mac = po.mac === undefined ? undefined : this.str(po, 'mac', pp).toLowerCase();
      if (mac !== undefined && !/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(mac))
        this.fail(`${pp}.mac`, 'a MAC address like 02:00:00:aa:bb:cc', po.mac);
      return {
        speedMbps: this.posInt(po, 'speedMbps', pp),
        linkUp: this.bool(po, 'linkUp', pp, true),
        ...(mac !== undefined ? { mac } : {}),
        ...(po.ipv4 !== undefined ? { ipv4: this.ipv4(po.ipv4, `${pp}.ipv4`) } : {}),
      };
    });
    if (ports.length === 0) this.fail(`${path}.ports`, 'at least one port', o.ports);
    const serialNumber = this.optStr(o, 'serialNumber', path);
    return {
      id,
      model: this.str(o, 'model', path),
      manufacturer: this.str(o, 'manufacturer', path),
      partNumber: this.str(o, 'partNumber', path),
      slot: this.slot(o, 'slot', path),
      firmwareVersion: this.str(o, 'firmwareVersion', path, '1.0'),
      ports,
      ...(serialNumber !== undefined ? { serialNumber } : {}),
    };
  }

  ipv4(v: unknown, path: string): NonNullable<NicPortSpec['ipv4']> {
    const o = this.obj(v, path, ['address', 'subnetMask', 'gateway']);
    const address = this.ipv4Address(o, 'address', path);
    const subnetMask = this.ipv4Address(o, 'subnetMask', path);
    if (!isSubnetMask(subnetMask)) this.fail(`${path}.subnetMask`, 'a contiguous network mask such as 255.255.255.0', subnetMask);
    const gateway = o.gateway === undefined ? undefined : this.ipv4Address(o, 'gateway', path);
    return { address, subnetMask, ...(gateway !== undefined ? { gateway } : {}) };
  }

  ipv4Address(o: Obj, key: string, path: string): string {
    const v = this.str(o, key, path);
    if (isIP(v) !== 4) this.fail(`${path}.${key}`, 'a dotted IPv4 address', v);
    return v;
  }

  usb(v: unknown, path: string): UsbSpec {
    if (v === undefined) return { controller: { bus: 0, device: 0, function: 0 }, ports: [] };
    const o = this.obj(v, path, ['controller', 'ports']);
    const cp = `${path}.controller`;
    const c = this.obj(o.controller, cp, ['bus', 'device', 'function']);
    const controller = {
      bus: this.byte(c, 'bus', cp, 0, 255),
      device: this.byte(c, 'device', cp, 0, 31),
      function: this.byte(c, 'function', cp, 0, 7),
    };
    const ports = this.list(o, 'ports', path).map((x, i) => {
      const pp = `${path}.ports[${i}]`;
      const po = this.obj(x, pp, ['location', 'instance', 'speed', 'port']);
      return {
        location: this.oneOf(po, 'location', pp, USB_LOCATIONS),
        instance: this.posInt(po, 'instance', pp),
        speed: this.oneOf(po, 'speed', pp, USB_SPEEDS),
        port: this.byte(po, 'port', pp, 1, 255),
      };
    });
    this.unique(
      ports.map((p) => String(p.port)),
      `${path}.ports`,
      'port',
    );
    return { controller, ports };
  }

  hostNetwork(v: unknown, path: string): HostNetworkSpec {
    const o = this.obj(v, path, ['domainName', 'nameServers']);
    const domainName = this.optStr(o, 'domainName', path);
    if (domainName !== undefined && !isHostName(domainName)) this.fail(`${path}.domainName`, 'a DNS domain name', domainName);
    const nameServers =
      o.nameServers === undefined
        ? undefined
        : this.list(o, 'nameServers', path).map((x, i) => {
            if (typeof x !== 'string' || isIP(x) === 0) this.fail(`${path}.nameServers[${i}]`, 'an IP address', x);
            return x;
          });
    return { ...(domainName !== undefined ? { domainName } : {}), ...(nameServers !== undefined ? { nameServers } : {}) };
  }

  psu(v: unknown, path: string): PowerSupplySpec {
    const known = ['bay', 'model', 'manufacturer', 'partNumber', 'capacityWatts', 'efficiencyPercent', 'firmwareVersion', 'serialNumber'];
    const o = this.obj(v, path, known);
    const serialNumber = this.optStr(o, 'serialNumber', path);
    return {
      bay: this.posInt(o, 'bay', path),
      model: this.str(o, 'model', path),
      manufacturer: this.str(o, 'manufacturer', path),
      partNumber: this.str(o, 'partNumber', path),
      capacityWatts: this.posInt(o, 'capacityWatts', path),
      efficiencyPercent: this.num(o, 'efficiencyPercent', path, 1, 100),
      firmwareVersion: this.str(o, 'firmwareVersion', path, '1.00'),
      ...(serialNumber !== undefined ? { serialNumber } : {}),
    };
  }

  fan(v: unknown, path: string, index: number): FanProfileSpec {
    const o = this.obj(v, path, ['number', 'id', 'name', 'maxRpm', 'lowerCritical']);
    const number = this.posInt(o, 'number', path, index + 1);
    const maxRpm = this.posInt(o, 'maxRpm', path);
    const lowerCritical = this.num(o, 'lowerCritical', path, 0, maxRpm);
    return { number, id: this.str(o, 'id', path, `Fan${number}`), name: this.str(o, 'name', path, `Fan ${number}`), maxRpm, lowerCritical };
  }

  temperature(v: unknown, path: string, index: number): TemperatureProfileSpec {
    const known = [
      'number',
      'id',
      'name',
      'context',
      'offDelta',
      'onDelta',
      'swing',
      'tauSeconds',
      'upperCaution',
      'upperCritical',
      'upperFatal',
    ];
    const o = this.obj(v, path, known);
    const upperCritical = this.num(o, 'upperCritical', path, 0);
    const upperCaution = this.optNum(o, 'upperCaution', path, 0);
    const upperFatal = this.optNum(o, 'upperFatal', path, 0);
    if (upperCaution !== undefined && upperCaution > upperCritical)
      this.fail(`${path}.upperCaution`, `at most upperCritical (${upperCritical})`, upperCaution);
    if (upperFatal !== undefined && upperFatal < upperCritical)
      this.fail(`${path}.upperFatal`, `at least upperCritical (${upperCritical})`, upperFatal);
    return {
      number: this.posInt(o, 'number', path, index + 1),
      id: this.str(o, 'id', path),
      name: this.str(o, 'name', path),
      context: this.oneOf(o, 'context', path, TEMPERATURE_CONTEXTS),
      offDelta: this.num(o, 'offDelta', path, 0),
      onDelta: this.num(o, 'onDelta', path, 0),
      swing: this.num(o, 'swing', path, 0),
      tauSeconds: this.num(o, 'tauSeconds', path, 1),
      ...(upperCaution !== undefined ? { upperCaution } : {}),
      upperCritical,
      ...(upperFatal !== undefined ? { upperFatal } : {}),
    };
  }

  pcie(v: unknown, path: string): PcieDeviceSpec {
    const known = [
      'id',
      'name',
      'manufacturer',
      'slot',
      'deviceClass',
      'pcieGeneration',
      'lanes',
      'firmwareVersion',
      'nic',
      'storage',
      'functions',
    ];
    const o = this.obj(v, path, known);
    const id = this.str(o, 'id', path);
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) this.fail(`${path}.id`, 'letters, digits, _ . or - only (it is a URI segment)', id);
    const deviceClass = this.oneOf(o, 'deviceClass', path, PCIE_CLASSES);
    const functions = this.list(o, 'functions', path).map((x, i) => {
      const fp = `${path}.functions[${i}]`;
      const fo = this.obj(x, fp, ['deviceClass', 'vendorId', 'deviceId', 'subsystemVendorId', 'subsystemId']);
      const vendorId = this.hex4(fo, 'vendorId', fp);
      const deviceId = this.hex4(fo, 'deviceId', fp);
      return {
        deviceClass: this.oneOf(fo, 'deviceClass', fp, PCIE_CLASSES, deviceClass),
        vendorId,
        deviceId,
        subsystemVendorId: fo.subsystemVendorId === undefined ? vendorId : this.hex4(fo, 'subsystemVendorId', fp),
        subsystemId: fo.subsystemId === undefined ? deviceId : this.hex4(fo, 'subsystemId', fp),
      };
    });
    if (functions.length === 0) this.fail(`${path}.functions`, 'at least one function', o.functions);
    const pcieGeneration = this.posInt(o, 'pcieGeneration', path, 3);
    if (pcieGeneration > 6) this.fail(`${path}.pcieGeneration`, 'a PCIe generation from 1 to 6', pcieGeneration);
    const lanes = this.posInt(o, 'lanes', path, 8);
    if (![1, 2, 4, 8, 16, 32].includes(lanes)) this.fail(`${path}.lanes`, 'one of 1, 2, 4, 8, 16, 32', lanes);
    const firmwareVersion = this.optStr(o, 'firmwareVersion', path);
    const nic = this.optStr(o, 'nic', path);
    const storage = this.optStr(o, 'storage', path);
    return {
      id,
      name: this.str(o, 'name', path),
      manufacturer: this.str(o, 'manufacturer', path),
      slot: this.slot(o, 'slot', path),
      deviceClass,
      pcieGeneration,
      lanes,
      ...(firmwareVersion !== undefined ? { firmwareVersion } : {}),
      ...(nic !== undefined ? { nic } : {}),
      ...(storage !== undefined ? { storage } : {}),
      functions,
    };
  }
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
