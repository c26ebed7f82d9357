// The vendor's user temperature thresholds, as Thermal and ThermalSubsystem show them.
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
  description: 'User-defined temperature thresholds: effective ones, and pending ones that take effect at the next controller reset.',
  properties: {
    WarningUsertTempThreshold: userThreshold,
    CriticalUsertTempThreshold: userThreshold,
    PendingWarningUsertTempThreshold: userThreshold,
    PendingCriticalUsertTempThreshold: userThreshold,
  },
});
