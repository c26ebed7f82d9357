// Descriptions of the chassis power resources: Power (deprecated by DMTF, still
// what Ansible's GetPsuInventory/GetPowerUsage and iLO clients read),
// PowerSubsystem with its PowerSupplies and their Metrics, the Sensors
// collection and EnvironmentMetrics, the power limit as a Control, and the
// vendor extension of PowerControl.
import { LIMIT_EXCEPTIONS } from '../../platform/power.js';
import { commonProps, defineType, ro, statusProp, locationProp, t, vendorObject } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const odataId = ro(t.string({ format: 'uri-reference' }));
const watts = (description?: string) => ro(t.number({ units: 'W', volatile: true, ...(description ? { description } : {}) }));

export const VendorPowerControlType = defineType({
  name: oemType('PowerControl'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of PowerControl: whether the power limit holds the draw down now, and the limits the controller accepts.',
  properties: {
    PowerCapActive: ro(t.boolean({ volatile: true, description: 'True while the power limit throttles the server.' })),
    PowerLimitMinWatts: ro(
      t.integer({ units: 'W', description: 'The lowest LimitInWatts accepted: the server cannot be throttled below idle.' }),
    ),
    PowerLimitMaxWatts: ro(t.integer({ units: 'W', description: 'The highest LimitInWatts accepted: the power capacity.' })),
  },
});

const powerMetrics = t.object(
  {
    IntervalInMin: ro(t.integer({ units: 'min' })),
    MinConsumedWatts: watts(),
    MaxConsumedWatts: watts(),
    AverageConsumedWatts: watts(),
  },
  { readOnly: true, typeName: 'PowerMetric' },
);

const powerLimit = t.object(
  {
    LimitInWatts: t.integer({
      nullable: true,
      units: 'W',
      description: 'The power limit; null for none. Between PowerLimitMinWatts and PowerLimitMaxWatts under Oem.',
    }),
    LimitException: t.enum(LIMIT_EXCEPTIONS, {
      description: 'What to do when the limit cannot be held; the controller throttles the processors, so it always holds.',
    }),
    CorrectionInMs: ro(t.integer({ units: 'ms' })),
  },
  { typeName: 'PowerLimit' },
);

const powerControl = t.object(
  {
    '@odata.id': odataId,
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    PowerConsumedWatts: watts('Input power of the whole server.'),
    PowerRequestedWatts: ro(t.number({ units: 'W' })),
    PowerAvailableWatts: ro(t.number({ units: 'W' })),
    PowerCapacityWatts: ro(t.number({ units: 'W' })),
    PowerAllocatedWatts: ro(t.number({ units: 'W' })),
    PowerMetrics: powerMetrics,
    PowerLimit: powerLimit,
    RelatedItem: t.links({ readOnly: true }),
    Status: statusProp,
    Oem: t.object({ [OEM]: vendorObject(VendorPowerControlType, { readOnly: true }) }, { readOnly: true, typeName: 'Oem' }),
  },
  { typeName: 'PowerControl' },
);

const inputRange = t.object(
  {
    InputType: ro(t.enum(['AC', 'DC'])),
    MinimumVoltage: ro(t.number({ units: 'V' })),
    MaximumVoltage: ro(t.number({ units: 'V' })),
    MinimumFrequencyHz: ro(t.number({ units: 'Hz' })),
    MaximumFrequencyHz: ro(t.number({ units: 'Hz' })),
    OutputWattage: ro(t.number({ units: 'W' })),
  },
  { readOnly: true, typeName: 'InputRange' },
);

export const VendorServerPowerSupplyType = defineType({
  name: oemType('ServerPowerSupply'),
  version: '2.0.0',
  owner: OEM,
  description: 'Vendor extension of a power supply: its bay and what it can do.',
  properties: {
    BayNumber: ro(t.integer()),
    HotplugCapable: ro(t.boolean()),
    iPDUCapable: ro(t.boolean({ description: 'Whether the supply reports to an intelligent PDU (the profiles name none).' })),
    AveragePowerOutputWatts: ro(t.integer({ units: 'W', volatile: true, description: 'Average output over the last 10 seconds.' })),
    MaxPowerOutputWatts: ro(t.integer({ units: 'W', volatile: true, description: 'Highest output over the last 10 seconds.' })),
    Mismatched: ro(t.boolean({ description: 'Whether its capacity differs from another supply’s.' })),
    PowerSupplyStatus: ro(t.object({ State: ro(t.enum(['Ok', 'Failed'])) }, { typeName: 'PowerSupplyStatus' })),
  },
});

const powerSupply = t.object(
  {
    '@odata.id': odataId,
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    PowerSupplyType: ro(t.enum(['Unknown', 'AC', 'DC', 'ACorDC'])),
    LineInputVoltageType: ro(t.enum(['Unknown', 'ACLowLine', 'ACMidLine', 'ACHighLine', 'AC120V', 'AC240V', 'ACWideRange'])),
    LineInputVoltage: ro(t.number({ units: 'V', volatile: true })),
    PowerCapacityWatts: ro(t.number({ units: 'W' })),
    LastPowerOutputWatts: watts('This supply’s share of the server’s power.'),
    EfficiencyPercent: ro(t.number({ units: '%' })),
    HotPluggable: ro(t.boolean()),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SerialNumber: ro(t.string()),
    PartNumber: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    InputRanges: t.array(inputRange, { readOnly: true }),
    Redundancy: t.links({ readOnly: true }),
    Status: statusProp,
    Oem: t.object({ [OEM]: vendorObject(VendorServerPowerSupplyType, { readOnly: true }) }, { readOnly: true, typeName: 'PowerSupplyOem' }),
  },
  { readOnly: true, typeName: 'PowerSupply' },
);

const redundancy = t.object(
  {
    '@odata.id': odataId,
    MemberId: ro(t.string()),
    Name: ro(t.string()),
    Mode: ro(t.enum(['Failover', 'N+m', 'Sharing', 'Sparing', 'NotRedundant'])),
    MinNumNeeded: ro(t.integer()),
    MaxNumSupported: ro(t.integer()),
    RedundancySet: t.links({ readOnly: true }),
    Status: statusProp,
  },
  { readOnly: true, typeName: 'Redundancy' },
);

export const VendorPowerMetricsExtType = defineType({
  name: oemType('PowerMetricsExt'),
  version: '2.3.0',
  owner: OEM,
  description: 'Vendor extension of Power: whether the server meters its power, and its power meters.',
  properties: {
    HasPowerMetering: ro(t.boolean()),
    HasCpuPowerMetering: ro(t.boolean()),
    HasDimmPowerMetering: ro(t.boolean()),
    HasGpuPowerMetering: ro(t.boolean()),
    MinimumSafelyAchievableCap: ro(t.integer({ units: 'W', description: 'The lowest power limit the server can hold: its idle draw.' })),
    MinimumSafelyAchievableCapValid: ro(t.boolean()),
    Links: ro(
      t.object(
        {
          PowerMeter: t.link({ readOnly: true }),
          FastPowerMeter: t.link({ readOnly: true }),
          SlowPowerMeter: t.link({ readOnly: true }),
          FederatedGroupCapping: t.link({ readOnly: true }),
        },
        { typeName: 'Links' },
      ),
    ),
  },
});

export const PowerType = defineType({
  name: 'Power',
  version: '1.7.3',
  owner: 'DMTF',
  description:
    'Power consumption, the power limit and the power supplies of the chassis (DMTF deprecates it for PowerSubsystem; clients still read it).',
  properties: {
    ...commonProps,
    PowerControl: t.array(powerControl, {
      minItems: 1,
      maxItems: 1,
      description: 'One element. PATCH PowerLimit through it: [{"PowerLimit": {"LimitInWatts": 400}}].',
    }),
    PowerSupplies: t.array(powerSupply, { readOnly: true }),
    Redundancy: t.array(redundancy, { readOnly: true }),
    Oem: t.object({ [OEM]: vendorObject(VendorPowerMetricsExtType, { readOnly: true }) }, { readOnly: true, typeName: 'PowerOem' }),
  },
});

const redundantGroup = t.object(
  {
    RedundancyType: ro(t.enum(['Failover', 'NPlusM', 'Sharing', 'Sparing', 'NotRedundant'])),
    MaxSupportedInGroup: ro(t.integer()),
    MinNeededInGroup: ro(t.integer()),
    RedundancyGroup: t.links({ readOnly: true }),
    Status: statusProp,
  },
  { readOnly: true, typeName: 'RedundantGroup' },
);

export const PowerSubsystemType = defineType({
  name: 'PowerSubsystem',
  version: '1.1.3',
  owner: 'DMTF',
  description: 'The power supplies of the chassis, their capacity and redundancy.',
  properties: {
    ...commonProps,
    CapacityWatts: ro(t.number({ units: 'W' })),
    Allocation: t.object(
      { RequestedWatts: ro(t.number({ units: 'W' })), AllocatedWatts: ro(t.number({ units: 'W' })) },
      { readOnly: true, typeName: 'PowerAllocation' },
    ),
    PowerSupplies: t.link({ readOnly: true }),
    PowerSupplyRedundancy: t.array(redundantGroup, { readOnly: true }),
    Status: statusProp,
  },
});

export const PowerSupplyType = defineType({
  name: 'PowerSupply',
  version: '1.6.0',
  owner: 'DMTF',
  description: 'One power supply: its rating, identity and health.',
  properties: {
    ...commonProps,
    PowerSupplyType: ro(t.enum(['AC', 'DC', 'ACorDC'])),
    PowerCapacityWatts: ro(t.number({ units: 'W' })),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SerialNumber: ro(t.string()),
    PartNumber: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    HotPluggable: ro(t.boolean()),
    Replaceable: ro(t.boolean()),
    Location: locationProp,
    InputRanges: t.array(
      t.object(
        { NominalVoltageType: ro(t.enum(['AC100To240V', 'AC200To240V', 'AC120V', 'AC240V'])), CapacityWatts: ro(t.number({ units: 'W' })) },
        { readOnly: true, typeName: 'InputRange' },
      ),
      { readOnly: true },
    ),
    EfficiencyRatings: t.array(
      t.object(
        { LoadPercent: ro(t.number({ units: '%' })), EfficiencyPercent: ro(t.number({ units: '%' })) },
        { readOnly: true, typeName: 'EfficiencyRating' },
      ),
      { readOnly: true },
    ),
    Metrics: t.link({ readOnly: true }),
    Status: statusProp,
  },
});

/** A reading copied from a Sensor resource (DMTF SensorExcerpt), with where it comes from. */
const excerpt = (typeName: string) =>
  t.object(
    { DataSourceUri: ro(t.string({ format: 'uri-reference' })), Reading: ro(t.number({ volatile: true, nullable: true })) },
    { readOnly: true, typeName },
  );

export const PowerSupplyMetricsType = defineType({
  name: 'PowerSupplyMetrics',
  version: '1.2.0',
  owner: 'DMTF',
  description: 'The readings of one power supply.',
  properties: {
    ...commonProps,
    InputVoltage: excerpt('SensorVoltageExcerpt'),
    OutputPowerWatts: excerpt('SensorPowerExcerpt'),
    Status: statusProp,
  },
});

const threshold = t.object(
  {
    Reading: ro(t.number()),
    Activation: ro(t.enum(['Increasing', 'Decreasing'], { description: 'The crossing that trips it.' })),
    DwellTime: ro(t.string({ description: 'How long past it before it trips: at the first reading past it.' })),
    HysteresisReading: ro(t.number({ description: 'How far back a user threshold’s reading must come to clear.' })),
  },
  { readOnly: true, typeName: 'Threshold' },
);

export const SensorType = defineType({
  name: 'Sensor',
  version: '1.12.0',
  owner: 'DMTF',
  description: 'One sensor of the chassis: a temperature, a fan speed or a power reading.',
  properties: {
    ...commonProps,
    ReadingType: ro(t.enum(['Temperature', 'Rotational', 'Power'])),
    Reading: ro(t.number({ volatile: true, nullable: true })),
    ReadingUnits: ro(t.string()),
    ReadingRangeMin: ro(t.number()),
    ReadingRangeMax: ro(t.number()),
    PhysicalContext: ro(t.string()),
    Thresholds: t.object(
      {
        UpperCaution: threshold,
        UpperCritical: threshold,
        UpperFatal: threshold,
        LowerCritical: threshold,
        UpperCautionUser: threshold,
        UpperCriticalUser: threshold,
      },
      { readOnly: true, typeName: 'Thresholds' },
    ),
    RelatedItem: t.links({ readOnly: true }),
    Status: statusProp,
  },
});

export const EnvironmentMetricsType = defineType({
  name: 'EnvironmentMetrics',
  version: '1.5.0',
  owner: 'DMTF',
  description: "A chassis' power draw, inlet temperature and fan speeds, or a processor's temperature, in one place.",
  properties: {
    ...commonProps,
    TemperatureCelsius: excerpt('SensorExcerpt'),
    PowerWatts: excerpt('SensorPowerExcerpt'),
    FanSpeedsPercent: t.array(
      t.object(
        {
          DataSourceUri: ro(t.string({ format: 'uri-reference' })),
          DeviceName: ro(t.string()),
          Reading: ro(t.number({ volatile: true, nullable: true })),
          SpeedRPM: ro(t.number({ volatile: true, nullable: true })),
        },
        { readOnly: true, typeName: 'SensorFanArrayExcerpt' },
      ),
      { readOnly: true },
    ),
  },
});

export const ControlType = defineType({
  name: 'Control',
  version: '1.7.0',
  owner: 'DMTF',
  description:
    "A control of the chassis. PowerLimit: the server's power limit, the same one as Power's PowerControl PowerLimit (a change through either shows in both).",
  properties: {
    ...commonProps,
    ControlType: ro(t.enum(['Power'])),
    ControlMode: t.enum(['Automatic', 'Disabled'], {
      description: 'Automatic while a limit is set; Disabled removes it (Power shows LimitInWatts null).',
    }),
    SetPoint: t.number({
      nullable: true,
      units: 'W',
      description: 'The power limit, between AllowableMin (idle) and AllowableMax (the capacity); setting it enables the control.',
    }),
    SetPointUnits: ro(t.string()),
    SetPointType: ro(t.enum(['Single'])),
    AllowableMin: ro(t.number({ units: 'W' })),
    AllowableMax: ro(t.number({ units: 'W' })),
    Implementation: ro(t.enum(['Programmable'])),
    ControlDelaySeconds: ro(t.number({ units: 's' })),
    PhysicalContext: ro(t.enum(['Chassis'])),
    Sensor: excerpt('SensorExcerpt'),
    RelatedItem: t.links({ readOnly: true }),
    Status: statusProp,
  },
});
