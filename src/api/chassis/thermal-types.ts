// The vendor's user temperature thresholds, as Thermal and ThermalSubsystem show them.
import { THERMAL_CONFIGURATION_NAMES } from '../../domain/chassis/fan-policy.js';
import { defineType, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';

const userThreshold = t.object(
  {
    SensorNumber: ro(t.integer()),
    SensorName: ro(t.string()),
    ThresholdCelsius: ro(t.integer({ units: 'Cel' })),
  },
  { readOnly: true, nullable: true, typeName: 'UserTempThreshold' },
);

export const VendorThermalExtType = defineType({
  name: oemType('ThermalExt'),
  version: '1.0.0',
  owner: OEM,
  description:
    'User-defined temperature thresholds (effective ones, and pending ones that take effect at the next controller reset) and the fan controller settings.',
  properties: {
    WarningUsertTempThreshold: userThreshold,
    CriticalUsertTempThreshold: userThreshold,
    PendingWarningUsertTempThreshold: userThreshold,
    PendingCriticalUsertTempThreshold: userThreshold,
    ThermalConfiguration: ro(
      t.enum(THERMAL_CONFIGURATION_NAMES, { description: 'How fast the fans run beyond need: the BIOS ThermalConfig in force.' }),
    ),
    FanPercentMinimum: ro(
      t.integer({ units: '%', description: 'The lowest fan speed while the host runs: the BIOS FanMinimumPercent in force.' }),
    ),
  },
});
