// The BIOS attribute registry of the simulated server (DMTF
// AttributeRegistry form): data as code. Repetitive groups
// (PCIe slots, NIC ports, USB ports) are generated. Enum values and attribute
// names never start with a digit (OData identifiers).
import { OEM } from '../lib/oem-token.js';

export type AttributeType = 'Enumeration' | 'String' | 'Integer' | 'Boolean' | 'Password';
export type AttrValue = string | number | boolean | null;

export interface AttributeValue {
  ValueName: string;
  ValueDisplayName: string;
}

export interface AttributeDef {
  AttributeName: string;
  Type: AttributeType;
  DisplayName: string;
  HelpText: string;
  WarningText?: string;
  MenuPath: string;
  DisplayOrder: number;
  ReadOnly: boolean;
  ResetRequired: boolean;
  /** Absent when the attribute has no default (an empty string). */
  DefaultValue?: AttrValue;
  Value?: AttributeValue[];
  MinLength?: number;
  MaxLength?: number;
  ValueExpression?: string;
  LowerBound?: number;
  UpperBound?: number;
  ScalarIncrement?: number;
}

export interface MenuDef {
  MenuName: string;
  DisplayName: string;
  DisplayOrder: number;
  MenuPath: string;
  ReadOnly: boolean;
  Hidden: boolean;
  GrayOut: boolean;
}

export type MapCondition = 'EQU' | 'NEQ' | 'GTR' | 'GEQ' | 'LSS' | 'LEQ';

export interface MapFrom {
  MapFromAttribute: string;
  MapFromCondition: MapCondition;
  MapFromProperty: 'CurrentValue';
  MapFromValue: AttrValue;
  MapTerms?: 'AND' | 'OR';
}

export interface DependencyDef {
  DependencyFor: string;
  Type: 'Map';
  Dependency: {
    MapFrom: MapFrom[];
    MapToAttribute: string;
    MapToProperty: 'CurrentValue' | 'ReadOnly';
    MapToValue: AttrValue;
  };
}

export const BIOS_REGISTRY_NAME = 'BiosAttributeRegistryU30';
export const BIOS_REGISTRY_VERSION = '1.2.0';
/** The value of Bios/AttributeRegistry, the registry's Id and its file's base name. */
export const BIOS_REGISTRY_ID = `${BIOS_REGISTRY_NAME}.v${BIOS_REGISTRY_VERSION.replace(/\./g, '_')}`;
export const BIOS_ROM_VERSION = 'U30 v2.60';

/** The menu tree: [name, display name, parent]. */
const MENU_TREE: readonly [string, string, string?][] = [
  ['SystemConfiguration', 'System Configuration'],
  ['BiosPlatformConfiguration', 'BIOS/Platform Configuration (RBSU)', 'SystemConfiguration'],
  ['WorkloadProfileMenu', 'Workload Profile', 'BiosPlatformConfiguration'],
  ['SystemOptions', 'System Options', 'BiosPlatformConfiguration'],
  ['SerialPortOptions', 'Serial Port Options', 'SystemOptions'],
  ['UsbOptions', 'USB Options', 'SystemOptions'],
  ['ServerAvailability', 'Server Availability', 'SystemOptions'],
  ['ProcessorOptions', 'Processor Options', 'BiosPlatformConfiguration'],
  ['MemoryOptions', 'Memory Options', 'BiosPlatformConfiguration'],
  ['VirtualizationOptions', 'Virtualization Options', 'BiosPlatformConfiguration'],
  ['BootOptions', 'Boot Options', 'BiosPlatformConfiguration'],
  ['NetworkOptions', 'Network Options', 'BiosPlatformConfiguration'],
  ['NetworkBootOptions', 'Network Boot Options', 'NetworkOptions'],
  ['PreBootNetworkSettings', 'Pre-Boot Network Settings', 'NetworkOptions'],
  ['StorageOptions', 'Storage Options', 'BiosPlatformConfiguration'],
  ['PowerAndPerformanceOptions', 'Power and Performance Options', 'BiosPlatformConfiguration'],
  ['PciDeviceSettings', 'PCIe Device Configuration', 'BiosPlatformConfiguration'],
  ['ServerSecurity', 'Server Security', 'BiosPlatformConfiguration'],
  ['TrustedPlatformModuleOptions', 'Trusted Platform Module Options', 'ServerSecurity'],
  ['EmbeddedUefiShell', 'Embedded UEFI Shell', 'BiosPlatformConfiguration'],
  ['ServerAssetInformation', 'Server Asset Information', 'SystemOptions'],
  ['AdvancedOptions', 'Advanced Options', 'BiosPlatformConfiguration'],
  ['FanAndThermalOptions', 'Fan and Thermal Options', 'AdvancedOptions'],
  ['SystemInformation', 'System Information', 'SystemConfiguration'],
];

function menuPath(name: string): string {
  const parts: string[] = [];
  let cur: string | undefined = name;
  while (cur) {
    parts.unshift(cur);
    cur = MENU_TREE.find(([n]) => n === cur)?.[2];
  }
  return `./${parts.join('/')}`;
}

export const BIOS_MENUS: readonly MenuDef[] = MENU_TREE.map(([name, display], i) => ({
  MenuName: name,
  DisplayName: display,
  DisplayOrder: i + 1,
  MenuPath: menuPath(name),
  ReadOnly: false,
  Hidden: false,
  GrayOut: false,
}));

// -- builders ------------------------------------------------------------------

const list: AttributeDef[] = [];
type Common = { help: string; warning?: string; readOnly?: boolean };

function add(
  menu: string,
  name: string,
  display: string,
  type: AttributeType,
  def: AttrValue,
  c: Common,
  extra: Partial<AttributeDef> = {},
): void {
  list.push({
    AttributeName: name,
    Type: type,
    DisplayName: display,
    HelpText: c.help,
    ...(c.warning ? { WarningText: c.warning } : {}),
    MenuPath: menuPath(menu),
    DisplayOrder: list.length + 1,
    ReadOnly: c.readOnly ?? false,
    ResetRequired: true,
    // An empty default is no default; DMTF asks services to omit what they do not support.
    ...(def === '' ? {} : { DefaultValue: def }),
    ...extra,
  });
}

/** Split "MaxPerf" into "Max Perf" for display names of generated values. */
function spaced(v: string): string {
  return v.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Za-z])(\d)/g, '$1 $2');
}

function enumAttr(
  menu: string,
  name: string,
  display: string,
  values: readonly (string | [string, string])[],
  def: string,
  c: Common,
): void {
  const Value = values.map((v) =>
    typeof v === 'string' ? { ValueName: v, ValueDisplayName: spaced(v) } : { ValueName: v[0], ValueDisplayName: v[1] },
  );
  add(menu, name, display, 'Enumeration', def, c, { Value });
}
const ED = ['Enabled', 'Disabled'] as const;
const onOff = (menu: string, name: string, display: string, def: 'Enabled' | 'Disabled', c: Common) =>
  enumAttr(menu, name, display, ED, def, c);
const bool = (menu: string, name: string, display: string, def: boolean, c: Common) => add(menu, name, display, 'Boolean', def, c);
function int(menu: string, name: string, display: string, lower: number, upper: number, step: number, def: number, c: Common): void {
  add(menu, name, display, 'Integer', def, c, { LowerBound: lower, UpperBound: upper, ScalarIncrement: step });
}
function str(
  menu: string,
  name: string,
  display: string,
  min: number,
  max: number,
  expr: string | undefined,
  def: string,
  c: Common,
): void {
  add(menu, name, display, 'String', def, c, { MinLength: min, MaxLength: max, ...(expr ? { ValueExpression: expr } : {}) });
}

const IPV4 = '^$|^((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$';
const URL = '^$|^(https?|ftp)://[^\\s]+$';
const PHONE = '^$|^[+]?[0-9 ()-]{3,30}$';
const EMAIL = '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
const PRINTABLE = '^[\\x20-\\x7E]*$';

// -- workload profile ------------------------------------------------------------
enumAttr(
  'WorkloadProfileMenu',
  'WorkloadProfile',
  'Workload Profile',
  [
    'GeneralPowerEfficientCompute',
    'GeneralPeakFrequencyCompute',
    'GeneralThroughputCompute',
    'VirtualizationPowerEfficient',
    'VirtualizationMaxPerformance',
    'LowLatency',
    'MissionCritical',
    'TransactionalApplicationProcessing',
    'HighPerformanceCompute',
    'DecisionSupport',
    'GraphicProcessing',
    'IOThroughput',
    'Custom',
  ],
  'GeneralPowerEfficientCompute',
  {
    help: 'Applies a set of tuned settings for a kind of workload. Custom leaves every dependent setting writable.',
    warning: 'Changing the profile overrides power and performance settings.',
  },
);

// -- system options ----------------------------------------------------------------
enumAttr(
  'SerialPortOptions',
  'EmbSerialPort',
  'Embedded Serial Port',
  [['Com1Irq4', 'COM 1; IRQ4; I/O: 3F8h-3FFh'], ['Com2Irq3', 'COM 2; IRQ3; I/O: 2F8h-2FFh'], 'Disabled'],
  'Com1Irq4',
  { help: 'Assigns the logical COM port address and resources of the embedded serial port.' },
);
enumAttr(
  'SerialPortOptions',
  'VirtualSerialPort',
  'Virtual Serial Port',
  [['Com1Irq4', 'COM 1; IRQ4; I/O: 3F8h-3FFh'], ['Com2Irq3', 'COM 2; IRQ3; I/O: 2F8h-2FFh'], 'Disabled'],
  'Com2Irq3',
  { help: 'Assigns the COM port of the management controller virtual serial port.' },
);
enumAttr('SerialPortOptions', 'SerialConsolePort', 'BIOS Serial Console Port', ['Auto', 'Disabled', 'Physical', 'Virtual'], 'Auto', {
  help: 'Redirects video and keystrokes through the serial port to the OS boot.',
});
enumAttr(
  'SerialPortOptions',
  'SerialConsoleEmulation',
  'BIOS Serial Console Emulation Mode',
  [
    ['Vt100', 'VT100'],
    ['Ansi', 'ANSI'],
    ['Vt100Plus', 'VT100+'],
    ['VtUtf8', 'VT-UTF8'],
  ],
  'Vt100Plus',
  { help: 'Terminal emulation mode of the serial console.' },
);
enumAttr(
  'SerialPortOptions',
  'SerialConsoleBaudRate',
  'BIOS Serial Console Baud Rate',
  ['Baud9600', 'Baud19200', 'Baud38400', 'Baud57600', 'Baud115200'],
  'Baud115200',
  { help: 'Transfer rate of the serial console.' },
);
onOff('SerialPortOptions', 'EmsConsole', 'EMS Console', 'Disabled', {
  help: 'Enables the Windows Emergency Management Services console on a COM port.',
});
enumAttr(
  'UsbOptions',
  'UsbControl',
  'USB Control',
  ['UsbEnabled', 'UsbDisabled', 'ExternalUsbDisabled', 'InternalUsbDisabled'],
  'UsbEnabled',
  { help: 'Enables or disables groups of USB ports.' },
);
enumAttr('UsbOptions', 'UsbBoot', 'USB Boot Support', ED, 'Enabled', { help: 'Allows booting from USB devices.' });
enumAttr('UsbOptions', 'Usb3Mode', 'USB 3.0 Mode', ['Auto', 'Enabled', 'Disabled'], 'Auto', {
  help: 'Operating mode of the USB 3.0 ports.',
});
enumAttr('UsbOptions', 'VirtualInstallDisk', 'Virtual Install Disk', ED, 'Disabled', {
  help: 'Exposes the virtual install disk with drivers to the OS installer.',
});
for (const [port, display] of [
  ['FrontUsbPort', 'Front'],
  ['RearUsbPort', 'Rear'],
  ['InternalUsbPort', 'Internal'],
] as const) {
  for (let n = 1; n <= 2; n++)
    onOff('UsbOptions', `${port}${n}`, `${display} USB Port ${n}`, 'Enabled', {
      help: `Enables the ${display.toLowerCase()} USB port ${n}.`,
    });
}
enumAttr('ServerAvailability', 'AsrStatus', 'ASR Status', ED, 'Enabled', {
  help: 'Automatic Server Recovery restarts the server when the OS stops responding.',
});
enumAttr(
  'ServerAvailability',
  'AsrTimeoutMinutes',
  'ASR Timeout',
  ['Timeout5', 'Timeout10', 'Timeout15', 'Timeout20', 'Timeout30'],
  'Timeout10',
  { help: 'Minutes without a heartbeat before Automatic Server Recovery resets the server.' },
);
enumAttr('ServerAvailability', 'WakeOnLan', 'Wake-On LAN', ED, 'Enabled', { help: 'Powers the server on when a magic packet arrives.' });
enumAttr('ServerAvailability', 'PostF1Prompt', 'POST F1 Prompt', ['Delayed20Sec', 'Delayed2Sec', 'Disabled'], 'Delayed20Sec', {
  help: 'How long POST waits at the F1 prompt after an error.',
});
enumAttr('ServerAvailability', 'PowerButton', 'Power Button Mode', ED, 'Enabled', {
  help: 'Disabling it ignores the physical momentary power button.',
});
enumAttr(
  'ServerAvailability',
  'AutoPowerOn',
  'Automatic Power-On',
  ['AlwaysPowerOn', 'AlwaysPowerOff', 'RestoreLastState'],
  'RestoreLastState',
  { help: 'Power state after AC power returns.' },
);
enumAttr(
  'ServerAvailability',
  'PowerOnDelay',
  'Power-On Delay',
  ['NoDelay', 'Random', 'Delay15Sec', 'Delay30Sec', 'Delay45Sec', 'Delay60Sec'],
  'NoDelay',
  { help: 'Delay before the server powers on after AC power returns.' },
);
int('ServerAvailability', 'PostDelaySeconds', 'POST Delay', 0, 60, 5, 0, {
  help: 'Seconds POST waits before booting, to let slow devices come up.',
});
bool('ServerAvailability', 'QuietBoot', 'Quiet Boot', true, { help: 'Shows a logo instead of POST messages.' });
bool('ServerAvailability', 'NumLockOnBoot', 'NumLock State at Boot', true, { help: 'State of NumLock when POST hands over to the OS.' });
str('ServerAvailability', 'CustomPostMessage', 'Custom POST Message', 0, 62, PRINTABLE, '', { help: 'A message POST shows on screen.' });

// -- server asset information --------------------------------------------------------
str('ServerAssetInformation', 'ServerName', 'Server Name', 0, 14, PRINTABLE, '', {
  help: 'Name of the server as shown on the POST screen.',
});
str('ServerAssetInformation', 'ServerAssetTag', 'Server Asset Tag', 0, 31, PRINTABLE, '', { help: 'Asset tag of the server.' });
str('ServerAssetInformation', 'ServerOtherInfo', 'Server Other Information', 0, 255, PRINTABLE, '', {
  help: 'Free text about the server.',
});
str('ServerAssetInformation', 'ServerPrimaryOs', 'Server Primary OS', 0, 255, PRINTABLE, '', {
  help: 'The operating system the server mainly runs.',
});
str('ServerAssetInformation', 'AdminName', 'Administrator Name', 0, 28, PRINTABLE, '', { help: 'Name of the server administrator.' });
str('ServerAssetInformation', 'AdminPhone', 'Administrator Phone Number', 0, 30, PHONE, '', {
  help: 'Phone number of the server administrator.',
});
str('ServerAssetInformation', 'AdminEmail', 'Administrator E-mail Address', 0, 64, EMAIL, '', {
  help: 'E-mail address of the server administrator.',
});
str('ServerAssetInformation', 'AdminOtherInfo', 'Administrator Other Information', 0, 255, PRINTABLE, '', {
  help: 'Free text about the administrator.',
});
str('ServerAssetInformation', 'ServiceName', 'Service Contact Name', 0, 28, PRINTABLE, '', { help: 'Name of the service contact.' });
str('ServerAssetInformation', 'ServicePhone', 'Service Contact Phone Number', 0, 30, PHONE, '', {
  help: 'Phone number of the service contact.',
});
str('ServerAssetInformation', 'ServiceEmail', 'Service Contact E-mail Address', 0, 64, EMAIL, '', {
  help: 'E-mail address of the service contact.',
});
str('ServerAssetInformation', 'ServiceOtherInfo', 'Service Contact Other Information', 0, 255, PRINTABLE, '', {
  help: 'Free text about the service contact.',
});
enumAttr('ServerAssetInformation', 'AssetTagProtection', 'Asset Tag Protection', ['Locked', 'Unlocked'], 'Unlocked', {
  help: 'Locked keeps the asset tag through a reset to defaults.',
});

// -- processor ---------------------------------------------------------------------------
onOff('ProcessorOptions', 'ProcHyperthreading', 'Intel(R) Hyper-Threading', 'Enabled', { help: 'Two logical processors per core.' });
onOff('ProcessorOptions', 'ProcTurbo', 'Intel(R) Turbo Boost Technology', 'Enabled', {
  help: 'Runs cores above the rated frequency when power and thermal headroom allow.',
});
int('ProcessorOptions', 'ProcCoreDisable', 'Enabled Cores per Processor', 0, 28, 1, 0, {
  help: 'Number of cores enabled per processor; 0 enables all.',
  warning: 'Fewer cores can lower performance.',
});
onOff('ProcessorOptions', 'ProcAes', 'Processor AES-NI Support', 'Enabled', { help: 'Advanced Encryption Standard instructions.' });
onOff('ProcessorOptions', 'ProcNoExecute', 'No-Execute Memory Protection', 'Enabled', { help: 'Marks data pages non-executable.' });
enumAttr('ProcessorOptions', 'ProcX2Apic', 'Processor x2APIC Support', ['Enabled', 'Disabled', 'ForceEnabled'], 'Enabled', {
  help: 'Extended APIC addressing for large core counts.',
});
onOff('ProcessorOptions', 'ProcHwPrefetch', 'HW Prefetcher', 'Enabled', { help: 'Hardware prefetch of memory into the caches.' });
onOff('ProcessorOptions', 'ProcAdjSecPrefetch', 'Adjacent Sector Prefetch', 'Enabled', { help: 'Fetches the adjacent cache line.' });
onOff('ProcessorOptions', 'DcuStreamPrefetcher', 'DCU Stream Prefetcher', 'Enabled', { help: 'Level 1 data cache stream prefetch.' });
onOff('ProcessorOptions', 'DcuIpPrefetcher', 'DCU IP Prefetcher', 'Enabled', { help: 'Level 1 data cache instruction-pointer prefetch.' });
onOff('ProcessorOptions', 'LlcPrefetch', 'LLC Prefetch', 'Disabled', { help: 'Last level cache prefetch.' });
onOff('ProcessorOptions', 'IntelPerfMonitoring', 'Intel Performance Monitoring Support', 'Disabled', {
  help: 'Exposes performance monitoring counters.',
});
enumAttr('ProcessorOptions', 'ProcessorJitterControl', 'Processor Jitter Control', ['Disabled', 'AutoTuned', 'Manual'], 'Disabled', {
  help: 'Reduces frequency fluctuation of the cores.',
});

// -- memory ---------------------------------------------------------------------------------
enumAttr(
  'MemoryOptions',
  'AdvancedMemProtection',
  'Advanced Memory Protection',
  ['AdvancedEcc', 'OnlineSpareAdvancedEcc', 'MirroredAdvancedEcc', 'FastFaultTolerantADDDC'],
  'FastFaultTolerantADDDC',
  { help: 'Memory fault tolerance mode.' },
);
enumAttr(
  'MemoryOptions',
  'MaxMemBusFreqMHz',
  'Maximum Memory Bus Frequency',
  ['Auto', 'MaxMemBusFreq2933', 'MaxMemBusFreq2666', 'MaxMemBusFreq2400', 'MaxMemBusFreq2133', 'MaxMemBusFreq1866'],
  'Auto',
  { help: 'Caps the memory bus frequency.' },
);
onOff('MemoryOptions', 'MemPatrolScrubbing', 'Memory Patrol Scrubbing', 'Enabled', {
  help: 'Corrects soft memory errors in the background.',
});
int('MemoryOptions', 'MemPatrolScrubIntervalHours', 'Patrol Scrub Interval', 1, 24, 1, 24, {
  help: 'Hours per full patrol scrub of memory.',
});
enumAttr('MemoryOptions', 'MemRefreshRate', 'Memory Refresh Rate', ['Refreshx1', 'Refreshx2'], 'Refreshx1', { help: 'DRAM refresh rate.' });
onOff('MemoryOptions', 'NodeInterleaving', 'Node Interleaving', 'Disabled', {
  help: 'Interleaves memory across processors (disables NUMA).',
});
onOff('MemoryOptions', 'ChannelInterleaving', 'Channel Interleaving', 'Enabled', { help: 'Interleaves memory across channels.' });
onOff('MemoryOptions', 'MemFastTraining', 'Memory Fast Training', 'Enabled', { help: 'Reuses memory training results to shorten POST.' });
onOff('MemoryOptions', 'MemClearWarmReset', 'Memory Clear on Warm Reset', 'Disabled', { help: 'Clears memory on a warm reset.' });
enumAttr('MemoryOptions', 'SubNumaClustering', 'Sub-NUMA Clustering', ED, 'Disabled', {
  help: 'Splits each processor into two NUMA domains.',
});
enumAttr('MemoryOptions', 'MemoryRemap', 'Memory Remap', ['NoAction', 'AllMem'], 'NoAction', {
  help: 'Remaps memory that was disabled after a failure.',
});
enumAttr(
  'MemoryOptions',
  'PersistentMemBackupPowerPolicy',
  'Persistent Memory Backup Power Policy',
  ['WaitForBackupPower', 'BootWithoutBackupPower'],
  'WaitForBackupPower',
  { help: 'Whether POST waits for backup power for persistent memory.' },
);

// -- virtualization ----------------------------------------------------------------------------
onOff('VirtualizationOptions', 'ProcVirtualization', 'Intel(R) Virtualization Technology', 'Enabled', {
  help: 'Hardware assistance for virtual machine monitors.',
});
onOff('VirtualizationOptions', 'IntelProcVtd', 'Intel(R) VT-d', 'Enabled', {
  help: 'DMA remapping for devices assigned to virtual machines.',
});
onOff('VirtualizationOptions', 'Sriov', 'SR-IOV', 'Enabled', { help: 'Single root I/O virtualization of capable adapters.' });
onOff('VirtualizationOptions', 'IntelVtdAts', 'Intel(R) VT-d Address Translation Services', 'Enabled', {
  help: 'Address translation services for VT-d.',
});

// -- boot ------------------------------------------------------------------------------------------
enumAttr(
  'BootOptions',
  'BootMode',
  'Boot Mode',
  [
    ['Uefi', 'UEFI Mode'],
    ['LegacyBios', 'Legacy BIOS Mode'],
  ],
  'Uefi',
  { help: 'UEFI or legacy BIOS boot.', warning: 'Operating systems installed in one mode do not boot in the other.' },
);
onOff('BootOptions', 'UefiOptimizedBoot', 'UEFI Optimized Boot', 'Enabled', {
  help: 'Uses native UEFI graphics drivers; required by some operating systems.',
});
enumAttr(
  'BootOptions',
  'BootOrderPolicy',
  'Boot Order Policy',
  ['RetryIndefinitely', 'AttemptOnce', 'ResetAfterFailed'],
  'RetryIndefinitely',
  { help: 'What POST does when no boot option boots.' },
);
enumAttr('BootOptions', 'UefiBootOrderControl', 'UEFI Boot Order Control', ['Auto', 'Manual'], 'Auto', {
  help: 'Whether new devices are added to the boot order automatically.',
});
bool('BootOptions', 'F11BootMenu', 'One-Time Boot Menu (F11 Prompt)', true, { help: 'Offers the one-time boot menu during POST.' });
bool('BootOptions', 'IntelligentProvisioning', 'Intelligent Provisioning (F10 Prompt)', true, {
  help: 'Offers the embedded provisioning tool during POST.',
});
enumAttr('BootOptions', 'PostDiscoveryMode', 'POST Discovery Mode', ['Auto', 'ForceFullDiscovery', 'ForceFastDiscovery'], 'Auto', {
  help: 'How thoroughly POST discovers devices.',
});
enumAttr('BootOptions', 'PostVideoSupport', 'POST Video Support', ['DisplayAll', 'DisplayEmbeddedOnly'], 'DisplayAll', {
  help: 'Which video controllers POST uses.',
});

// -- network ------------------------------------------------------------------------------------------
const NIC_PORTS = [
  ['EmbNicPort1', 'Embedded LOM 1 Port 1'],
  ['EmbNicPort2', 'Embedded LOM 1 Port 2'],
  ['EmbNicPort3', 'Embedded LOM 1 Port 3'],
  ['EmbNicPort4', 'Embedded LOM 1 Port 4'],
  ['FlexLomPort1', 'FlexibleLOM 1 Port 1'],
  ['FlexLomPort2', 'FlexibleLOM 1 Port 2'],
  ['Slot1NicPort1', 'Slot 1 Port 1'],
  ['Slot1NicPort2', 'Slot 1 Port 2'],
] as const;
for (const [id, display] of NIC_PORTS) {
  enumAttr(
    'NetworkBootOptions',
    `${id}Boot`,
    `${display} Network Boot`,
    ['NetworkBoot', 'Disabled'],
    id === 'EmbNicPort1' ? 'NetworkBoot' : 'Disabled',
    { help: `PXE or HTTP boot from ${display}.` },
  );
}
enumAttr('NetworkBootOptions', 'NetworkBootRetry', 'Network Boot Retry Support', ED, 'Enabled', { help: 'Retries a failed network boot.' });
int('NetworkBootOptions', 'NetworkBootRetryCount', 'Network Boot Retry Count', 0, 20, 1, 20, {
  help: 'How often a failed network boot is retried.',
});
enumAttr('NetworkBootOptions', 'HttpSupport', 'HTTP Support', ['Auto', 'HttpsOnly', 'HttpOnly', 'Disabled'], 'Auto', {
  help: 'Which UEFI HTTP boot protocols are offered.',
});
enumAttr('NetworkBootOptions', 'PreBootNetwork', 'Pre-Boot Network Interface', ['Auto', ...NIC_PORTS.map(([id]) => id)], 'Auto', {
  help: 'The NIC used by pre-boot network features (HTTP boot, iSCSI).',
});
enumAttr('PreBootNetworkSettings', 'Dhcpv4', 'DHCPv4', ED, 'Enabled', {
  help: 'Obtain the pre-boot IPv4 configuration from DHCP. Disabling it makes the static settings writable.',
});
str('PreBootNetworkSettings', 'Ipv4Address', 'IPv4 Address', 0, 15, IPV4, '', { help: 'Static pre-boot IPv4 address.' });
str('PreBootNetworkSettings', 'Ipv4SubnetMask', 'IPv4 Subnet Mask', 0, 15, IPV4, '', { help: 'Static pre-boot IPv4 subnet mask.' });
str('PreBootNetworkSettings', 'Ipv4Gateway', 'IPv4 Gateway', 0, 15, IPV4, '', { help: 'Static pre-boot IPv4 gateway.' });
str('PreBootNetworkSettings', 'Ipv4PrimaryDNS', 'IPv4 Primary DNS', 0, 15, IPV4, '', { help: 'Static pre-boot IPv4 primary DNS server.' });
str('PreBootNetworkSettings', 'Ipv4SecondaryDNS', 'IPv4 Secondary DNS', 0, 15, IPV4, '', {
  help: 'Static pre-boot IPv4 secondary DNS server.',
});
enumAttr('PreBootNetworkSettings', 'Ipv6ConfigPolicy', 'IPv6 Config Policy', ['Automatic', 'Manual'], 'Automatic', {
  help: 'How the pre-boot IPv6 address is obtained.',
});
str('PreBootNetworkSettings', 'Ipv6Address', 'IPv6 Address', 0, 45, '^$|^[0-9A-Fa-f:.]{2,45}$', '', {
  help: 'Static pre-boot IPv6 address.',
});
str('PreBootNetworkSettings', 'Ipv6Gateway', 'IPv6 Gateway', 0, 45, '^$|^[0-9A-Fa-f:.]{2,45}$', '', {
  help: 'Static pre-boot IPv6 gateway.',
});
str('PreBootNetworkSettings', 'UrlBootFile', 'Boot from URL', 0, 255, URL, '', { help: 'URL of an ISO or EFI image for HTTP boot.' });
str('PreBootNetworkSettings', 'UrlBootFile2', 'Boot from URL 2', 0, 255, URL, '', { help: 'Second URL for HTTP boot.' });
enumAttr('PreBootNetworkSettings', 'PreBootNetworkProxy', 'Pre-Boot Network Proxy', ED, 'Disabled', {
  help: 'Use a proxy for pre-boot HTTP.',
});
str('PreBootNetworkSettings', 'PreBootNetworkProxyUrl', 'Pre-Boot Network Proxy URL', 0, 255, URL, '', {
  help: 'Proxy for pre-boot HTTP.',
});

// -- storage --------------------------------------------------------------------------------------------
enumAttr(
  'StorageOptions',
  'EmbeddedSata',
  'Embedded SATA Configuration',
  [
    ['SataAhci', 'SATA AHCI Support'],
    ['RaidMode', 'Smart Array SW RAID Support'],
  ],
  'SataAhci',
  { help: 'Mode of the embedded SATA controller.', warning: 'Changing the mode can make existing volumes unreadable.' },
);
onOff('StorageOptions', 'NvmeOptionRom', 'NVMe Option ROM', 'Enabled', { help: 'Loads the NVMe UEFI driver so NVMe drives can boot.' });
onOff('StorageOptions', 'SataSecureErase', 'SATA Secure Erase', 'Disabled', { help: 'Allows the Secure Erase command to SATA drives.' });
onOff('StorageOptions', 'EmbeddedDiagnostics', 'Embedded Diagnostics', 'Enabled', {
  help: 'Embedded hardware diagnostics in the boot menu.',
});
enumAttr('StorageOptions', 'FlexLom1Enable', 'FlexibleLOM 1', ['Auto', 'Disabled'], 'Auto', { help: 'Enables the FlexibleLOM adapter.' });

// -- PCIe slots -----------------------------------------------------------------------------------------
enumAttr('PciDeviceSettings', 'EmbNicEnable', 'Embedded LOM 1', ['Auto', 'Disabled'], 'Auto', {
  help: 'Enables the embedded network adapter.',
});
for (let n = 1; n <= 8; n++) {
  enumAttr('PciDeviceSettings', `PciSlot${n}Enable`, `PCIe Slot ${n}`, ['Auto', 'Disabled'], 'Auto', {
    help: `Enables the device in PCIe slot ${n}.`,
  });
  enumAttr('PciDeviceSettings', `PciSlot${n}LinkSpeed`, `PCIe Slot ${n} Link Speed`, ['Auto', 'PcieGen1', 'PcieGen2', 'PcieGen3'], 'Auto', {
    help: `Maximum link speed of PCIe slot ${n}.`,
  });
  enumAttr('PciDeviceSettings', `PciSlot${n}OptionRom`, `PCIe Slot ${n} Option ROM`, ED, 'Enabled', {
    help: `Runs the option ROM of the device in PCIe slot ${n}.`,
  });
  enumAttr('PciDeviceSettings', `PciSlot${n}Aspm`, `PCIe Slot ${n} ASPM`, ['Auto', 'Disabled', 'L1Only'], 'Auto', {
    help: `Active state power management of PCIe slot ${n}.`,
  });
}

// -- power and performance -----------------------------------------------------------------------------
enumAttr(
  'PowerAndPerformanceOptions',
  'PowerRegulator',
  'Power Regulator',
  ['DynamicPowerSavings', 'StaticLowPower', 'StaticHighPerf', 'OsControl'],
  'DynamicPowerSavings',
  { help: 'Processor power management mode.' },
);
enumAttr(
  'PowerAndPerformanceOptions',
  'EnergyPerfBias',
  'Energy/Performance Bias',
  ['MaxPerf', 'BalancedPerf', 'BalancedPower', 'PowerSavingsMode'],
  'BalancedPerf',
  { help: 'Hint to the processor about the energy/performance balance.' },
);
enumAttr('PowerAndPerformanceOptions', 'MinProcIdlePower', 'Minimum Processor Idle Power Core C-State', ['C6', 'C1E', 'NoCState'], 'C6', {
  help: 'Deepest core idle state.',
});
enumAttr(
  'PowerAndPerformanceOptions',
  'MinProcIdlePkgState',
  'Minimum Processor Idle Power Package C-State',
  ['C6Retention', 'C6NonRetention', 'NoState'],
  'C6Retention',
  { help: 'Deepest package idle state.' },
);
enumAttr('PowerAndPerformanceOptions', 'UncoreFreqScaling', 'Uncore Frequency Scaling', ['Auto', 'Maximum', 'Minimum'], 'Auto', {
  help: 'Frequency of the processor uncore.',
});
onOff('PowerAndPerformanceOptions', 'CollabPowerControl', 'Collaborative Power Control', 'Enabled', {
  help: 'Lets the OS request processor performance states.',
});
onOff('PowerAndPerformanceOptions', 'IntelUpiPowerManagement', 'Intel UPI Link Power Management', 'Enabled', {
  help: 'Low power states of the processor interconnect.',
});
enumAttr('PowerAndPerformanceOptions', 'IntelUpiFreq', 'Intel UPI Link Frequency', ['Auto', 'MinUpiSpeed'], 'Auto', {
  help: 'Frequency of the processor interconnect.',
});
onOff('PowerAndPerformanceOptions', 'EnhancedProcPerf', 'Enhanced Processor Performance', 'Disabled', {
  help: 'More aggressive turbo behaviour.',
});
enumAttr(
  'PowerAndPerformanceOptions',
  'DynamicPowerCapping',
  'Dynamic Power Capping Functionality',
  ['Auto', 'Enabled', 'Disabled'],
  'Auto',
  { help: 'Whether the power cap is enforced during POST.' },
);
int('PowerAndPerformanceOptions', 'PowerCapWatts', 'Server Power Cap', 0, 1600, 10, 0, {
  help: 'Power cap in watts enforced by the system ROM; 0 means no cap.',
});

// -- fans and thermal ----------------------------------------------------------------------------------
enumAttr(
  'FanAndThermalOptions',
  'ThermalConfig',
  'Thermal Configuration',
  ['OptimalCooling', 'IncreasedCooling', 'MaxCooling', 'EnhancedCPUCooling'],
  'OptimalCooling',
  { help: 'Fan control strategy.' },
);
enumAttr('FanAndThermalOptions', 'ThermalShutdown', 'Thermal Shutdown', ED, 'Enabled', {
  help: 'Shuts the server down at critical temperatures.',
  warning: 'Disabling it can damage hardware.',
});
enumAttr('FanAndThermalOptions', 'FanFailPolicy', 'Fan Failure Policy', ['Shutdown', 'Allow'], 'Shutdown', {
  help: 'Whether the server may boot without the required fans.',
});
enumAttr(
  'FanAndThermalOptions',
  'FanInstallReq',
  'Fan Installation Requirements',
  ['EnableMessaging', 'DisableMessaging'],
  'EnableMessaging',
  { help: 'Warns when fans are missing.' },
);
int('FanAndThermalOptions', 'FanMinimumPercent', 'Minimum Fan Speed', 0, 100, 5, 0, { help: 'Lowest fan duty cycle in percent.' });
int('FanAndThermalOptions', 'ExtendedAmbientTempC', 'Extended Ambient Temperature Support', 35, 45, 5, 35, {
  help: 'Highest inlet temperature in degrees Celsius the server is tuned for.',
});

// -- embedded UEFI shell ----------------------------------------------------------------------------------
bool('EmbeddedUefiShell', 'EmbeddedUefiShell', 'Embedded UEFI Shell', true, { help: 'Offers the embedded UEFI shell.' });
bool('EmbeddedUefiShell', 'UefiShellBootOrder', 'Add Embedded UEFI Shell to Boot Order', false, {
  help: 'Puts the embedded UEFI shell in the UEFI boot order.',
});
bool('EmbeddedUefiShell', 'UefiShellStartupScript', 'UEFI Shell Script Auto-Start', false, {
  help: 'Runs the startup script when the shell starts.',
});
enumAttr(
  'EmbeddedUefiShell',
  'UefiShellScriptLocation',
  'Shell Auto-Start Script Location',
  ['Auto', 'AttachedMedia', 'NetworkLocation'],
  'Auto',
  { help: 'Where the startup script is searched.' },
);
str('EmbeddedUefiShell', 'UefiShellStartupUrl', 'Network Location for Shell Auto-Start Script', 0, 255, URL, '', {
  help: 'URL of the startup script.',
});

// -- security ----------------------------------------------------------------------------------------------
add(
  'ServerSecurity',
  'AdminPassword',
  'Administrator Password',
  'Password',
  null,
  { help: 'Protects the setup utility. Changed only with the Bios.ChangePassword action.' },
  { MinLength: 0, MaxLength: 31 },
);
add(
  'ServerSecurity',
  'PowerOnPassword',
  'Power On Password',
  'Password',
  null,
  { help: 'Asked for at every power on. Changed only with the Bios.ChangePassword action.' },
  { MinLength: 0, MaxLength: 31 },
);
onOff('ServerSecurity', 'IntelTxt', 'Intel(R) TXT Support', 'Disabled', { help: 'Trusted Execution Technology measured launch.' });
onOff('ServerSecurity', 'BackupRomImage', 'Backup ROM Image Authentication', 'Enabled', {
  help: 'Verifies the backup system ROM at boot.',
});
onOff('ServerSecurity', 'F11BootMenuPassword', 'One-Time Boot Menu Password', 'Disabled', {
  help: 'Asks for the administrator password at the one-time boot menu.',
});
bool('ServerSecurity', 'PlatformCertificate', 'Platform Certificate Support', true, {
  help: 'Exposes the platform certificate to the OS.',
});
enumAttr('TrustedPlatformModuleOptions', 'TpmVisibility', 'TPM Visibility', ['Visible', 'Hidden'], 'Visible', {
  help: 'Hides the TPM from the OS.',
});
enumAttr('TrustedPlatformModuleOptions', 'TpmOperation', 'TPM 2.0 Operation', ['NoAction', 'Clear'], 'NoAction', {
  help: 'One-time operation on the TPM at the next boot.',
  warning: 'Clearing the TPM destroys keys sealed to it, such as disk encryption keys.',
});
onOff('TrustedPlatformModuleOptions', 'TpmUefiOpromMeasuring', 'TPM UEFI Option ROM Measurement', 'Enabled', {
  help: 'Measures option ROMs into the TPM.',
});
enumAttr('TrustedPlatformModuleOptions', 'Tpm2PpiPolicy', 'TPM 2.0 Physical Presence Policy', ED, 'Disabled', {
  help: 'Asks for physical presence before TPM operations.',
});
enumAttr(
  'TrustedPlatformModuleOptions',
  'TpmState',
  'Current TPM State',
  ['NotPresent', 'PresentDisabled', 'PresentEnabled'],
  'PresentEnabled',
  { help: 'State of the TPM as found at POST.', readOnly: true },
);
enumAttr('TrustedPlatformModuleOptions', 'TpmType', 'Current TPM Type', ['NoTpm', 'Tpm12', 'Tpm20'], 'Tpm20', {
  help: 'Version of the installed TPM.',
  readOnly: true,
});

// -- advanced options ----------------------------------------------------------------------------------------
enumAttr(
  'AdvancedOptions',
  'ConsistentDevNaming',
  'Consistent Device Naming',
  ['LomsOnly', 'LomsAndSlots', 'CdnDisabled'],
  'LomsAndSlots',
  { help: 'Names network devices by their location.' },
);
enumAttr('AdvancedOptions', 'MixedPowerSupplyReporting', 'Mixed Power Supply Reporting', ED, 'Enabled', {
  help: 'Reports power supplies of different ratings.',
});
enumAttr('AdvancedOptions', 'HighPrecisionEventTimer', 'High Precision Event Timer (HPET) ACPI Support', ED, 'Enabled', {
  help: 'Exposes the HPET to the OS.',
});
int('AdvancedOptions', 'IoNonPostedPrefetching', 'I/O Non-posted Prefetching Depth', 0, 8, 2, 4, {
  help: 'Depth of non-posted I/O prefetching.',
});
onOff('AdvancedOptions', 'ServiceMode', 'Service Mode', 'Disabled', { help: 'Lets service personnel run diagnostics at POST.' });

// -- system information (read-only) ------------------------------------------------------------------------
str('SystemInformation', 'SerialNumber', 'Serial Number', 0, 16, PRINTABLE, '', {
  help: 'Serial number of the server, set at the factory.',
  readOnly: true,
});
str('SystemInformation', 'ProductId', 'Product ID', 0, 16, PRINTABLE, '', {
  help: 'Product ID of the server, set at the factory.',
  readOnly: true,
});
str('SystemInformation', 'RomVersion', 'System ROM Version', 0, 64, undefined, BIOS_ROM_VERSION, {
  help: 'Version of the running system ROM.',
  readOnly: true,
});
str('SystemInformation', 'ProcessorModel', 'Processor Model', 0, 64, undefined, 'Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz', {
  help: 'Model of the installed processors.',
  readOnly: true,
});
int('SystemInformation', 'TotalMemoryGiB', 'Installed Memory', 0, 6144, 1, 384, { help: 'Installed memory in GiB.', readOnly: true });

export const BIOS_ATTRIBUTES: readonly AttributeDef[] = list;

// -- dependencies -----------------------------------------------------------------------------------------
function dep(id: string, from: MapFrom[], to: string, prop: 'CurrentValue' | 'ReadOnly', value: AttrValue): DependencyDef {
  return { DependencyFor: id, Type: 'Map', Dependency: { MapFrom: from, MapToAttribute: to, MapToProperty: prop, MapToValue: value } };
}
const when = (attr: string, cond: MapCondition, value: AttrValue, terms?: 'AND' | 'OR'): MapFrom => ({
  MapFromAttribute: attr,
  MapFromCondition: cond,
  MapFromProperty: 'CurrentValue',
  MapFromValue: value,
  ...(terms ? { MapTerms: terms } : {}),
});

export const BIOS_DEPENDENCIES: readonly DependencyDef[] = [
  // A workload profile other than Custom owns the power settings.
  ...['PowerRegulator', 'EnergyPerfBias', 'MinProcIdlePower', 'MinProcIdlePkgState', 'CollabPowerControl', 'UncoreFreqScaling'].map((a) =>
    dep(a, [when('WorkloadProfile', 'NEQ', 'Custom')], a, 'ReadOnly', true),
  ),
  dep('ProcTurbo', [when('WorkloadProfile', 'EQU', 'GeneralPeakFrequencyCompute')], 'ProcTurbo', 'CurrentValue', 'Enabled'),
  dep(
    'PowerRegulator',
    [when('WorkloadProfile', 'EQU', 'GeneralPeakFrequencyCompute')],
    'PowerRegulator',
    'CurrentValue',
    'StaticHighPerf',
  ),
  dep(
    'PowerRegulator',
    [when('WorkloadProfile', 'EQU', 'GeneralPowerEfficientCompute')],
    'PowerRegulator',
    'CurrentValue',
    'DynamicPowerSavings',
  ),
  dep('MinProcIdlePower', [when('WorkloadProfile', 'EQU', 'LowLatency')], 'MinProcIdlePower', 'CurrentValue', 'NoCState'),
  // VT-d and SR-IOV need the processor's virtualization support.
  dep('IntelProcVtd', [when('ProcVirtualization', 'EQU', 'Disabled')], 'IntelProcVtd', 'ReadOnly', true),
  dep('Sriov', [when('ProcVirtualization', 'EQU', 'Disabled')], 'Sriov', 'ReadOnly', true),
  // Legacy boot has no UEFI graphics.
  dep('UefiOptimizedBoot', [when('BootMode', 'EQU', 'LegacyBios')], 'UefiOptimizedBoot', 'CurrentValue', 'Disabled'),
  dep('HttpSupport', [when('BootMode', 'EQU', 'LegacyBios')], 'HttpSupport', 'ReadOnly', true),
  // The serial console settings mean nothing without a console port.
  dep('SerialConsoleBaudRate', [when('SerialConsolePort', 'EQU', 'Disabled')], 'SerialConsoleBaudRate', 'ReadOnly', true),
  dep('SerialConsoleEmulation', [when('SerialConsolePort', 'EQU', 'Disabled')], 'SerialConsoleEmulation', 'ReadOnly', true),
  dep('AsrTimeoutMinutes', [when('AsrStatus', 'EQU', 'Disabled')], 'AsrTimeoutMinutes', 'ReadOnly', true),
  dep('TpmOperation', [when('TpmVisibility', 'EQU', 'Hidden')], 'TpmOperation', 'ReadOnly', true),
  dep('NetworkBootRetryCount', [when('NetworkBootRetry', 'EQU', 'Disabled')], 'NetworkBootRetryCount', 'ReadOnly', true),
  dep('MemPatrolScrubIntervalHours', [when('MemPatrolScrubbing', 'EQU', 'Disabled')], 'MemPatrolScrubIntervalHours', 'ReadOnly', true),
  // Static pre-boot addresses are writable only without DHCP.
  ...['Ipv4Address', 'Ipv4SubnetMask', 'Ipv4Gateway', 'Ipv4PrimaryDNS', 'Ipv4SecondaryDNS'].map((a) =>
    dep(a, [when('Dhcpv4', 'EQU', 'Enabled')], a, 'ReadOnly', true),
  ),
  dep(
    'UefiShellStartupUrl',
    [when('UefiShellStartupScript', 'EQU', false), when('UefiShellScriptLocation', 'NEQ', 'NetworkLocation', 'OR')],
    'UefiShellStartupUrl',
    'ReadOnly',
    true,
  ),
  dep('PreBootNetworkProxyUrl', [when('PreBootNetworkProxy', 'EQU', 'Disabled')], 'PreBootNetworkProxyUrl', 'ReadOnly', true),
];

export const SUPPORTED_SYSTEMS = [{ ProductName: 'Vendor Rack Server VS380 Gen10', SystemId: 'U30', FirmwareVersion: BIOS_ROM_VERSION }];

/** The registry document as served from the registry store. */
let registryDocument: object | undefined;

/** The attribute registry as served; one object per process (it is constant), so it is compressed once. */
export function biosRegistryDocument(): object {
  return (registryDocument ??= buildRegistryDocument());
}

function buildRegistryDocument(): object {
  return {
    '@odata.type': '#AttributeRegistry.v1_4_0.AttributeRegistry',
    Id: BIOS_REGISTRY_ID,
    Name: 'BIOS Attribute Registry',
    Description: 'Attributes of the system ROM of the VS380 Gen10: their types, values, menus and dependencies.',
    Language: 'en',
    OwningEntity: OEM,
    RegistryVersion: BIOS_REGISTRY_VERSION,
    SupportedSystems: SUPPORTED_SYSTEMS,
    RegistryEntries: {
      Attributes: BIOS_ATTRIBUTES.map((a) => ({ ...a, CurrentValue: null })),
      Menus: BIOS_MENUS,
      Dependencies: BIOS_DEPENDENCIES,
    },
  };
}

/** What the ROM's hardware-dependent defaults look at. */
export interface BiosHardware {
  processors: readonly { present: boolean; cores: number; threads: number }[];
  storage: readonly { slot: string; raidTypes: readonly string[]; drives: readonly { protocol: string }[] }[];
  nics: readonly { slot: string; ports: readonly unknown[] }[];
}

/**
 * Defaults that depend on the installed hardware (the registry itself is the ROM
 * family's, the same for every profile): Hyper-Threading only where the
 * processors run two threads per core, the embedded SATA controller in RAID
 * mode when it holds the server's logical drives, and network boot on port 1 of
 * each NIC the registry names (the ports the boot options offer PXE on).
 */
export function hardwareDefaults(hw: BiosHardware): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  const cpus = hw.processors.filter((p) => p.present);
  out.ProcHyperthreading = cpus.length > 0 && cpus.every((p) => p.threads > p.cores) ? 'Enabled' : 'Disabled';
  const swRaid = hw.storage.some((c) => c.slot === 'Embedded' && c.raidTypes.length > 0 && c.drives.every((d) => d.protocol === 'SATA'));
  out.EmbeddedSata = swRaid ? 'RaidMode' : 'SataAhci';
  const names = new Set(list.map((a) => a.AttributeName));
  let lom = 0;
  for (const nic of hw.nics) {
    const prefix = nic.slot === 'Embedded' ? (++lom === 1 ? 'EmbNicPort' : undefined) : `Slot${nic.slot}NicPort`;
    if (prefix === undefined) continue;
    nic.ports.forEach((_, i) => {
      const name = `${prefix}${i + 1}Boot`;
      if (names.has(name)) out[name] = i === 0 ? 'NetworkBoot' : 'Disabled';
    });
  }
  return out;
}
