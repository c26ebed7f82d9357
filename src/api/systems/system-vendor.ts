// What the computer system's vendor extension shows besides POST and boot state (iLO's
// HpeComputerSystemExt): component health rolled up per kind, the OS agent's state, the system
// ROM and its backup, the provisioning tool's version, how far the controller's device discovery
// got, the power settings the BIOS holds (power regulator, automatic power-on, power-on delay),
// and links to the vendor's views of the system. Each comes from the health registry, the
// firmware inventory, the server's phase or the BIOS settings the ROM runs with.
import { componentKey, type Health } from '../../platform/hardware/health.js';
import { ro, statusProp, t, type Props } from '../../protocol/description.js';
import type { Services } from '../services.js';
import { powerSupplyHealth } from '../chassis/power.js';
import { pciLinks } from './pci-devices.js';
import { smartStorageLink } from './smart-storage.js';
import { secureEraseReportLink } from './secure-erase-report.js';
import { usbPortsLink } from './usb-ports.js';
import { baseNetworkAdaptersLink } from './base-network-adapters.js';

export type SystemVendorDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'bios' | 'firmware' | 'host'>;

const health = ro(t.object({ Status: statusProp }, { typeName: 'HealthStatus' }));
const rom = ro(
  t.object(
    { Family: ro(t.string()), VersionString: ro(t.string()), MajorVersion: ro(t.integer()), MinorVersion: ro(t.integer()) },
    { typeName: 'RomVersion' },
  ),
);
/** iLO's discovery states: of the devices on auxiliary and main power, of the array controllers, of the OS agent's. */
const DISCOVERY = ['Initial', 'Busy', 'vAuxDeviceDiscoveryComplete', 'vMainDeviceDiscoveryComplete', 'DataIncomplete'] as const;
const ARRAY_DISCOVERY = ['Initial', 'Busy', 'PendingSoftwareRAID', 'Complete', 'Cached'] as const;
const AGENT_DISCOVERY = ['Initial', 'Busy', 'Complete', 'NoAMS'] as const;

/** The properties these add to the vendor extension's description. */
export const SystemVendorProps = {
  AggregateHealthStatus: ro(
    t.object(
      {
        AggregateServerHealth: ro(t.enum(['OK', 'Warning', 'Critical'])),
        AgentlessManagementService: ro(t.enum(['Ready', 'Unavailable'])),
        BiosOrHardwareHealth: health,
        Processors: health,
        Memory: health,
        Network: health,
        Storage: health,
        PowerSupplies: ro(t.object({ Status: statusProp, PowerSuppliesMismatch: ro(t.boolean()) }, { typeName: 'PowerSuppliesHealth' })),
        PowerSupplyRedundancy: ro(t.enum(['Redundant', 'NonRedundant', 'FailedRedundant'])),
        Fans: health,
        Temperatures: health,
      },
      { typeName: 'AggregateHealthStatus' },
    ),
  ),
  Bios: ro(t.object({ Current: rom, Backup: rom, UefiClass: ro(t.integer()) }, { typeName: 'Bios' })),
  DeviceDiscoveryComplete: ro(
    t.object(
      {
        DeviceDiscovery: ro(t.enum(DISCOVERY, { volatile: true })),
        SmartArrayDiscovery: ro(t.enum(ARRAY_DISCOVERY, { volatile: true })),
        AMSDeviceDiscovery: ro(t.enum(AGENT_DISCOVERY, { volatile: true })),
      },
      { typeName: 'DeviceDiscoveryComplete' },
    ),
  ),
  IntelligentProvisioningVersion: ro(t.string()),
  IntelligentProvisioningLocation: ro(t.string()),
  IndicatorLED: ro(t.enum(['Lit', 'Blinking', 'Off'], { description: "The UID light, as the system's IndicatorLED." })),
  PowerRegulatorMode: ro(t.string()),
  PowerRegulatorModesSupported: ro(t.array(t.string())),
  PowerAutoOn: ro(t.string()),
  PowerOnDelay: ro(t.string()),
  Links: ro(
    t.object(
      {
        SmartStorage: t.link({ readOnly: true }),
        PCIDevices: t.link({ readOnly: true }),
        PCISlots: t.link({ readOnly: true }),
        EthernetInterfaces: t.link({ readOnly: true }),
        SecureEraseReportService: t.link({ readOnly: true }),
        USBPorts: t.link({ readOnly: true }),
        NetworkAdapters: t.link({ readOnly: true }),
      },
      { typeName: 'Links' },
    ),
  ),
} satisfies Props;

/** BIOS values as the vendor extension names them. */
const REGULATOR: Readonly<Record<string, string>> = {
  OsControl: 'OSControl',
  DynamicPowerSavings: 'Dynamic',
  StaticHighPerf: 'Max',
  StaticLowPower: 'Min',
};
const AUTO_ON: Readonly<Record<string, string>> = {
  AlwaysPowerOn: 'AlwaysPowerOn',
  AlwaysPowerOff: 'AlwaysPowerOff',
  RestoreLastState: 'Restore',
};
const DELAY: Readonly<Record<string, string>> = {
  NoDelay: 'Minimum',
  Random: 'Random',
  Delay15Sec: '15',
  Delay30Sec: '30',
  Delay45Sec: '45',
  Delay60Sec: '60',
};

const RANK: Readonly<Record<Health, number>> = { OK: 0, Warning: 1, Critical: 2 };
const worst = (...list: Health[]): Health => list.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), 'OK');

/** A system ROM version as iLO splits it: `U30 v2.60` is family U30, version 2.60. */
function romBody(version: string) {
  const [family = version] = version.split(' ');
  const v = /v(\d+)\.(\d+)/.exec(version);
  return { Family: family, VersionString: version, ...(v ? { MajorVersion: Number(v[1]), MinorVersion: Number(v[2]) } : {}) };
}

/**
 * How far iLO's device discovery got, from where the server is: main-power devices and the array
 * controllers are discovered during POST (what it knew stays cached while the server is off), the
 * OS agent's devices while the OS runs.
 */
export function deviceDiscovery(post: string, osRunning: boolean) {
  const discovered = post === 'InPostDiscoveryComplete' || post === 'FinishedPost';
  return {
    DeviceDiscovery: post === 'PowerOff' ? 'vAuxDeviceDiscoveryComplete' : discovered ? 'vMainDeviceDiscoveryComplete' : 'Busy',
    SmartArrayDiscovery: post === 'PowerOff' ? 'Cached' : discovered ? 'Complete' : 'Busy',
    AMSDeviceDiscovery: osRunning ? 'Complete' : 'NoAMS',
  } satisfies Record<string, (typeof DISCOVERY | typeof ARRAY_DISCOVERY | typeof AGENT_DISCOVERY)[number]>;
}

/** The extension's values now. */
export function systemVendorExtras(d: SystemVendorDeps, romVersion: string) {
  const attrs = d.bios.currentAttributes();
  const backupRom = d.firmware.backupBiosVersion?.();
  const provisioning = d.firmware.installedVersion?.('IP');
  const roll = (prefix: string) => d.health.rollupPrefix(prefix);
  const psus = d.hardware.powerSupplies;
  const psuHealth = worst(...psus.map((p) => d.health.status(componentKey.psu(p.bay)).Health ?? 'OK'));
  const status = (h: Health) => ({ Status: { Health: h } });
  return {
    AggregateHealthStatus: {
      AggregateServerHealth: roll(''),
      // The agent runs in the host OS.
      AgentlessManagementService: d.host.osRunning() ? 'Ready' : 'Unavailable',
      BiosOrHardwareHealth: status(roll('')),
      Processors: status(roll('cpu:')),
      Memory: status(roll('dimm:')),
      Network: status(worst(roll('nic:'), roll('port:'))),
      Storage: status(worst(roll('controller:'), roll('drive:'), roll('volume:'))),
      PowerSupplies: { ...status(psuHealth), PowerSuppliesMismatch: new Set(psus.map((p) => p.model)).size > 1 },
      PowerSupplyRedundancy: psus.length < 2 ? 'NonRedundant' : powerSupplyHealth(d) === 'OK' ? 'Redundant' : 'FailedRedundant',
      Fans: status(roll('fan:')),
      Temperatures: status(roll('temperature:')),
    },
    Bios: { Current: romBody(romVersion), ...(backupRom ? { Backup: romBody(backupRom) } : {}), UefiClass: 2 },
    // The deployment tool is in the system board's flash, its version in the software inventory.
    ...(provisioning ? { IntelligentProvisioningVersion: provisioning, IntelligentProvisioningLocation: 'System Board' } : {}),
    PowerRegulatorMode: REGULATOR[String(attrs.PowerRegulator)] ?? 'Dynamic',
    PowerRegulatorModesSupported: Object.values(REGULATOR),
    PowerAutoOn: AUTO_ON[String(attrs.AutoPowerOn)] ?? 'Restore',
    PowerOnDelay: DELAY[String(attrs.PowerOnDelay)] ?? 'Minimum',
    Links: {
      SmartStorage: smartStorageLink(d.uris),
      ...pciLinks(d.uris),
      EthernetInterfaces: { '@odata.id': d.uris.system('EthernetInterfaces') },
      ...secureEraseReportLink(d.uris),
      ...usbPortsLink(d.uris),
      ...baseNetworkAdaptersLink(d.uris),
    },
  };
}
