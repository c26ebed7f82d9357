// The vendor's user temperature thresholds, as Thermal and ThermalSubsystem show them.
import { defineType, ro, t } from '../../protocol/description.js';

const userThreshold = t.object(
  {
    SensorNumber: ro(t.integer()),
    SensorName: ro(t.string()),
    ThresholdCelsius: ro(t.integer({ units: 'Cel' })),
  },
  { readOnly: true, nullable: true, typeName: 'UserTempThreshold' },
);

export const VendorThermalExtType = defineType({
  name: 'VendorThermalExt',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'User-defined temperature thresholds: effective ones, and pending ones that take effect at the next controller reset.',
  properties: {
    WarningUsertTempThreshold: userThreshold,
    CriticalUsertTempThreshold: userThreshold,
    PendingWarningUsertTempThreshold: userThreshold,
    PendingCriticalUsertTempThreshold: userThreshold,
  },
});
