// Sensor readings of the simulated server, for Thermal and for metric reports.
export interface SensorReading {
  /** Stable id, e.g. "CPU1Temp" or "Fan1". */
  id: string;
  name: string;
  kind: 'Temperature' | 'Fan' | 'Power';
  reading: number;
  units: 'Cel' | 'RPM' | '%' | 'W';
  /** URI of the property the reading appears at, for MetricReport MetricProperty. */
  uri: string;
}

export interface SensorSource {
  readings(): SensorReading[];
}

/** One source of several: the thermal sensors and the power model, read at the same instant. */
export function combineSensors(...sources: SensorSource[]): SensorSource {
  return { readings: () => sources.flatMap((s) => s.readings()) };
}
