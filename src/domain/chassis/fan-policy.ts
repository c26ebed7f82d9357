// The fan controller's settings: the BIOS Fan and Thermal Options (ThermalConfig,
// FanMinimumPercent) as the controller applies them and as Thermal shows them
// (iLO's ThermalConfiguration and FanPercentMinimum).
import type { FanPolicy } from '../../platform/thermal.js';

/** BIOS ThermalConfig values and iLO's names for them. */
const THERMAL_CONFIGURATIONS = {
  OptimalCooling: { shown: 'OptimalCooling', cooling: 'Optimal' },
  IncreasedCooling: { shown: 'IncreasedCooling', cooling: 'Increased' },
  MaxCooling: { shown: 'MaximumCooling', cooling: 'Maximum' },
  EnhancedCPUCooling: { shown: 'EnhancedCooling', cooling: 'EnhancedCpu' },
} as const satisfies Record<string, { shown: string; cooling: FanPolicy['cooling'] }>;

export const THERMAL_CONFIGURATION_NAMES = Object.values(THERMAL_CONFIGURATIONS).map((c) => c.shown);

type Attributes = Readonly<Record<string, unknown>>;

function configuration(attrs: Attributes) {
  const value = attrs.ThermalConfig;
  return typeof value === 'string' && value in THERMAL_CONFIGURATIONS
    ? THERMAL_CONFIGURATIONS[value as keyof typeof THERMAL_CONFIGURATIONS]
    : THERMAL_CONFIGURATIONS.OptimalCooling;
}

/** The fan policy of the BIOS settings in force. */
export function fanPolicy(attrs: Attributes): FanPolicy {
  const minimum = attrs.FanMinimumPercent;
  return { cooling: configuration(attrs).cooling, minimumPercent: typeof minimum === 'number' ? minimum : 0 };
}

/** Thermal's view of them: ThermalConfiguration and FanPercentMinimum. */
export function thermalConfiguration(attrs: Attributes): { ThermalConfiguration: string; FanPercentMinimum: number } {
  return { ThermalConfiguration: configuration(attrs).shown, FanPercentMinimum: fanPolicy(attrs).minimumPercent };
}
