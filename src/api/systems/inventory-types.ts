// Resource descriptions of the system's hardware inventory: processors and
// memory modules, read from the hardware profile. Everything is read-only.
import { INSTRUCTION_SETS, MEMORY_TYPES, PROCESSOR_ARCHITECTURES } from '../../platform/hardware/profile.js';
import { commonProps, defineType, oem, ro, statusProp, locationProp, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

export const VendorProcessorExtType = defineType({
  name: oemType('ProcessorExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of a processor: its caches and enabled cores as the system ROM reports them.',
  properties: {
    Cache: ro(
      t.array(
        t.object(
          {
            Name: ro(t.string()),
            InstalledSizeKB: ro(t.integer({ units: 'KiBy' })),
            MaximumSizeKB: ro(t.integer({ units: 'KiBy' })),
            Location: ro(t.enum(['Internal', 'External'])),
            Socketed: ro(t.boolean()),
            SystemCacheType: ro(t.enum(['Unified', 'Instruction', 'Data'])),
            CurrentSRAMType: ro(t.array(t.string())),
            SupportedSRAMType: ro(t.array(t.string())),
          },
          { typeName: 'Cache' },
        ),
      ),
    ),
    CoresEnabled: ro(t.integer()),
    RatedSpeedMHz: ro(t.integer({ units: 'MHz' })),
    Characteristics: ro(t.array(t.string())),
    ConfigStatus: ro(t.object({ Populated: ro(t.boolean()), State: ro(t.enum(['Enabled', 'Disabled'])) }, { typeName: 'ConfigStatus' })),
  },
});

export const ProcessorType = defineType({
  name: 'Processor',
  version: '1.22.0',
  owner: 'DMTF',
  description: 'A processor socket of the system and the processor in it (Status.State Absent: an empty socket).',
  properties: {
    ...commonProps,
    Socket: ro(t.string()),
    ProcessorType: ro(t.enum(['CPU', 'GPU', 'FPGA', 'DSP', 'Accelerator', 'Core', 'Thread', 'OEM'])),
    ProcessorArchitecture: ro(t.enum(PROCESSOR_ARCHITECTURES)),
    InstructionSet: ro(t.enum(INSTRUCTION_SETS)),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    MaxSpeedMHz: ro(t.integer({ units: 'MHz' })),
    OperatingSpeedMHz: ro(t.integer({ units: 'MHz' })),
    TotalCores: ro(t.integer()),
    TotalThreads: ro(t.integer()),
    EnvironmentMetrics: t.link({ readOnly: true }),
    ProcessorId: ro(
      t.object(
        {
          VendorId: ro(t.string()),
          IdentificationRegisters: ro(t.string()),
          EffectiveFamily: ro(t.string()),
          EffectiveModel: ro(t.string()),
          Step: ro(t.string()),
          MicrocodeInfo: ro(t.string({ nullable: true })),
        },
        { typeName: 'ProcessorId' },
      ),
    ),
    Status: statusProp,
    Location: locationProp,
    Links: ro(t.object({ Chassis: t.link({ readOnly: true }) }, { typeName: 'Links' })),
    Oem: oem(VendorProcessorExtType, { readOnly: true }),
  },
});

export const VendorMemoryExtType = defineType({
  name: oemType('MemoryExt'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of a memory module: its status as the system ROM reports it.',
  properties: {
    DIMMStatus: ro(t.enum(['GoodInUse', 'NotPresent', 'Degraded', 'Failed'])),
    BaseModuleType: ro(t.enum(['RDIMM', 'UDIMM', 'SO_DIMM', 'LRDIMM'])),
    MaxOperatingSpeedMTs: ro(t.integer({ units: 'MT/s' })),
    MinimumVoltageVoltsX10: ro(t.integer({ units: 'dV' })),
    VendorName: ro(t.string()),
  },
});

export const MemoryMetricsType = defineType({
  name: 'MemoryMetrics',
  version: '1.8.0',
  owner: 'DMTF',
  description: 'What a memory module runs at.',
  properties: { ...commonProps, OperatingSpeedMHz: ro(t.integer({ units: 'MHz' })) },
});

export const MemoryType = defineType({
  name: 'Memory',
  version: '1.23.0',
  owner: 'DMTF',
  description: 'A memory slot of the system and the module in it (Status.State Absent: an empty slot).',
  properties: {
    ...commonProps,
    MemoryType: ro(t.enum(['DRAM', 'NVDIMM_N', 'NVDIMM_F', 'NVDIMM_P', 'IntelOptane'])),
    Metrics: t.link({ readOnly: true }),
    MemoryDeviceType: ro(t.enum(MEMORY_TYPES)),
    BaseModuleType: ro(t.enum(['RDIMM', 'UDIMM', 'SO_DIMM', 'LRDIMM'])),
    CapacityMiB: ro(t.integer({ units: 'MiBy' })),
    DataWidthBits: ro(t.integer()),
    BusWidthBits: ro(t.integer()),
    Manufacturer: ro(t.string()),
    PartNumber: ro(t.string()),
    SerialNumber: ro(t.string()),
    RankCount: ro(t.integer()),
    OperatingSpeedMhz: ro(t.integer({ units: 'MHz' })),
    AllowedSpeedsMHz: ro(t.array(t.integer())),
    ErrorCorrection: ro(t.enum(['NoECC', 'SingleBitECC', 'MultiBitECC', 'AddressParity'])),
    MemoryMedia: ro(t.array(t.enum(['DRAM', 'NAND', 'Intel3DXPoint', 'Proprietary']))),
    OperatingMemoryModes: ro(t.array(t.enum(['Volatile', 'PMEM', 'Block']))),
    VolatileSizeMiB: ro(t.integer({ units: 'MiBy' })),
    NonVolatileSizeMiB: ro(t.integer({ units: 'MiBy' })),
    CacheSizeMiB: ro(t.integer({ units: 'MiBy' })),
    LogicalSizeMiB: ro(t.integer({ units: 'MiBy' })),
    VolatileRegionSizeLimitMiB: ro(t.integer({ units: 'MiBy' })),
    PersistentRegionSizeLimitMiB: ro(t.integer({ units: 'MiBy' })),
    DeviceLocator: ro(t.string({ deprecated: 'Location/PartLocation/ServiceLabel' })),
    MemoryLocation: ro(
      t.object(
        { Socket: ro(t.integer()), MemoryController: ro(t.integer()), Channel: ro(t.integer()), Slot: ro(t.integer()) },
        { typeName: 'MemoryLocation' },
      ),
    ),
    Location: locationProp,
    Status: statusProp,
    Links: ro(t.object({ Chassis: t.link({ readOnly: true }) }, { typeName: 'Links' })),
    Oem: oem(VendorMemoryExtType, { readOnly: true }),
  },
});
