// Resource descriptions of the computer system area: ComputerSystem, its Boot
// object and vendor extension, boot options, and the system actions.
import { OVERRIDE_ENABLED, OVERRIDE_MODES, OVERRIDE_TARGETS } from '../../domain/bios/boot.js';
import { INDICATOR_LED_VALUES } from '../../domain/chassis/chassis.js';
import { LAST_RESET_CAUSES, PUSH_TYPES, RESET_TYPES } from '../../platform/simulator.js';
import { defineAction, defineType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import { SECURE_ERASE_PROPS } from './secure-erase.js';
import { SystemVendorProps } from './system-vendor.js';

export const POST_STATES = ['Unknown', 'Reset', 'PowerOff', 'InPost', 'InPostDiscoveryComplete', 'FinishedPost'] as const;
export const BOOT_PROGRESS_STATES = [
  'None',
  'PrimaryProcessorInitializationStarted',
  'MemoryInitializationStarted',
  'PCIResourceConfigStarted',
  'SystemHardwareInitializationComplete',
  'OSBootStarted',
  'OSRunning',
] as const;

export const VendorComputerSystemExtType = defineType({
  name: oemType('ComputerSystemExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the computer system: POST progress, boot counter, TPM and auxiliary power cycle state.',
  properties: {
    PostState: ro(t.enum(POST_STATES, { volatile: true, description: 'Where the server is in its power-on self test.' })),
    BootCount: ro(t.integer({ description: 'Boots (POST runs) since the server was first powered on.' })),
    LastBootOption: ro(t.string({ nullable: true, description: 'Structured boot string of the option the server last booted from.' })),
    AuxPowerCycleArmed: ro(t.boolean({ description: 'A SystemReset (auxiliary power cycle) waits for the next power off.' })),
    TpmState: ro(t.enum(['NotPresent', 'PresentNotInUse', 'PresentInUse'])),
    ServerFQDN: ro(t.string({ description: 'The fully qualified domain name the running OS reports.' })),
    ...SECURE_ERASE_PROPS,
    ...SystemVendorProps,
  },
});

export const BootProp = t.object(
  {
    BootSourceOverrideTarget: t.enum(OVERRIDE_TARGETS),
    BootSourceOverrideEnabled: t.enum(OVERRIDE_ENABLED),
    BootSourceOverrideMode: t.enum(OVERRIDE_MODES),
    UefiTargetBootSourceOverride: t.string({ nullable: true, description: 'UEFI device path booted when the target is UefiTarget.' }),
    HttpBootUri: t.string({
      nullable: true,
      format: 'uri',
      description: 'The http or https URI a UefiHttp boot loads (the next boot with that override); null: the URI DHCP offers.',
    }),
    BootOrder: t.array(t.string(), { description: 'BootOptionReferences in boot order; a PATCH sends the whole array.' }),
    BootOptions: t.link({ readOnly: true }),
  },
  { typeName: 'Boot' },
);

export const ComputerSystemType = defineType({
  name: 'ComputerSystem',
  version: '1.27.0',
  owner: 'DMTF',
  description: 'A computer system: the server the controller manages.',
  properties: {
    ...commonProps,
    SystemType: ro(t.enum(['Physical', 'Virtual', 'OS', 'PhysicallyPartitioned', 'VirtuallyPartitioned', 'Composed', 'DPU'])),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SKU: ro(t.string()),
    SerialNumber: ro(t.string()),
    UUID: ro(t.string()),
    AssetTag: t.string({ maxLength: 32, description: 'Asset tag assigned by the owner.' }),
    HostName: t.string({
      nullable: true,
      description:
        'Host name of the server: the one a client set (RFC 1123 labels, at most 255 characters; null clears it), else the one the running OS reports.',
    }),
    IndicatorLED: t.enum(INDICATOR_LED_VALUES, {
      description: 'The unit identification (UID) light, shared with the chassis.',
      deprecated: 'LocationIndicatorActive',
    }),
    LocationIndicatorActive: t.boolean({ description: 'True while the unit identification (UID) light is lit or blinking.' }),
    PowerState: ro(t.enum(['On', 'Off', 'PoweringOn', 'PoweringOff'])),
    BiosVersion: ro(t.string()),
    LastResetTime: ro(t.dateTime()),
    LastResetCause: ro(
      t.enum(LAST_RESET_CAUSES, { onlyIn: 'dmtf', description: 'Why the server last powered on or restarted, recorded at that moment.' }),
    ),
    BootProgress: ro(
      t.object(
        { LastState: ro(t.enum(BOOT_PROGRESS_STATES)), LastStateTime: ro(t.dateTime()) },
        { typeName: 'BootProgress', volatile: true },
      ),
    ),
    Status: statusProp,
    ProcessorSummary: ro(
      t.object(
        {
          Count: ro(t.integer()),
          CoreCount: ro(t.integer()),
          LogicalProcessorCount: ro(t.integer()),
          Model: ro(t.string()),
          Status: { ...statusProp, deprecated: 'the Status of each Processor' },
        },
        { typeName: 'ProcessorSummary' },
      ),
    ),
    MemorySummary: ro(
      t.object(
        {
          TotalSystemMemoryGiB: ro(t.number()),
          TotalSystemPersistentMemoryGiB: ro(t.number()),
          Status: { ...statusProp, deprecated: 'the Status of each Memory' },
        },
        { typeName: 'MemorySummary' },
      ),
    ),
    TrustedModules: ro(
      t.array(
        t.object({ FirmwareVersion: ro(t.string()), InterfaceType: ro(t.string()), Status: statusProp }, { typeName: 'TrustedModules' }),
        { deprecated: 'TrustedComponents' },
      ),
    ),
    Boot: BootProp,
    Bios: t.link({ readOnly: true }),
    SecureBoot: t.link({ readOnly: true }),
    LogServices: t.link({ readOnly: true }),
    Processors: t.link({ readOnly: true }),
    Memory: t.link({ readOnly: true }),
    NetworkInterfaces: t.link({ readOnly: true }),
    EthernetInterfaces: t.link({ readOnly: true }),
    PCIeDevices: t.links({ readOnly: true, description: 'The PCIe devices of the system, served under the chassis.' }),
    'PCIeDevices@odata.count': ro(t.integer()),
    Storage: t.link({ readOnly: true }),
    SimpleStorage: t.link({ readOnly: true }),
    // The vendor's controllers show the devices under the manager alone, and its clients index every VirtualMedia
    // resource they reach by Id: a second view breaks them. DMTF's dialect links this view (the manager's is deprecated).
    VirtualMedia: t.link({
      readOnly: true,
      onlyIn: 'dmtf',
      description: 'The virtual media devices of the system (the manager shows the same devices).',
    }),
    Links: ro(
      t.object(
        { Chassis: t.links({ readOnly: true }), ManagedBy: t.links({ readOnly: true }), TrustedComponents: t.links({ readOnly: true }) },
        { typeName: 'Links' },
      ),
    ),
    Oem: oem(VendorComputerSystemExtType, { readOnly: true }),
  },
});

export const BootOptionType = defineType({
  name: 'BootOption',
  version: '1.0.6',
  owner: 'DMTF',
  description: 'A UEFI boot option the system ROM found.',
  properties: {
    ...commonProps,
    BootOptionReference: ro(t.string()),
    DisplayName: ro(t.string()),
    UefiDevicePath: ro(t.string()),
    Alias: ro(t.enum(OVERRIDE_TARGETS)),
    BootOptionEnabled: ro(t.boolean()),
    Oem: oem(
      defineType({
        name: oemType('BootOption'),
        version: '1.0.0',
        owner: OEM,
        description: 'Vendor extension of a boot option.',
        properties: {
          StructuredBootString: ro(t.string({ description: '<DeviceType>.<Location>.<Instance>.<Sub-instance>.<Qualifier>' })),
        },
      }),
      { readOnly: true },
    ),
  },
});

export const RESET_ACTION = defineAction({
  name: 'ComputerSystem.Reset',
  description: 'Resets the server or changes its power state.',
  parameters: {
    // The power cycles of DMTF's 2024 releases; iLO has neither.
    ResetType: t.enum(RESET_TYPES, { required: true, enumOnlyIn: { PowerCycle: 'dmtf', FullPowerCycle: 'dmtf' } }),
  },
});

export const POWER_BUTTON_ACTION = defineAction({
  name: `${oemType('ComputerSystemExt')}.PowerButton`,
  oem: true,
  description: 'Simulates the physical power button: a momentary press, or press and hold (forced power off).',
  parameters: { PushType: t.enum(PUSH_TYPES, { required: true }) },
});

export const SYSTEM_RESET_ACTION = defineAction({
  name: `${oemType('ComputerSystemExt')}.SystemReset`,
  oem: true,
  description:
    "Auxiliary power cycle, as if the power cables were pulled: at once when the server is off, otherwise at its next power off. Under iLO's naming also ColdBoot: main power removed at once, the server powers on again.",
  parameters: { ResetType: t.enum(['AuxCycle']) },
});
