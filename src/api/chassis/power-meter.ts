// iLO's power meters under Power/: the server's draw sampled from the simulated
// power model, at three resolutions (FastPowerMeter: 10 s over 20 minutes,
// PowerMeter: 5 minutes over a day, SlowPowerMeter: an hour over a week).
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { defineType, ro, t, commonProps } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type PowerMeterDeps = Pick<Services, 'uris' | 'power' | 'bios'>;

const MINUTE = 60_000;

/** The three meters: span, sample length and how often within a sample the draw is read (ms). */
const METERS = {
  FastPowerMeter: { span: 20 * MINUTE, step: 10_000, sub: 10_000 },
  PowerMeter: { span: 24 * 60 * MINUTE, step: 5 * MINUTE, sub: 10_000 },
  SlowPowerMeter: { span: 7 * 24 * 60 * MINUTE, step: 60 * MINUTE, sub: MINUTE },
} as const;

export const POWER_METERS = Object.keys(METERS) as (keyof typeof METERS)[];

const int = () => ro(t.integer());

export const PowerMeterType = defineType({
  name: oemType('PowerMeter'),
  version: '2.0.1',
  owner: OEM,
  description: 'Power meter samples of the server: average, peak and minimum input power of each sample period, oldest first.',
  properties: {
    ...commonProps,
    Samples: int(),
    Average: int(),
    Maximum: int(),
    Minimum: int(),
    PowerDetail: ro(
      t.array(
        t.object(
          {
            Time: ro(t.string({ format: 'date-time' })),
            Average: int(),
            Peak: int(),
            Minimum: int(),
            Cap: int(),
            PunCap: ro(t.boolean()),
            PrMode: ro(t.string()),
          },
          { typeName: 'PowerDetail' },
        ),
      ),
    ),
  },
});

/** The Power Regulator setting (BIOS) as the meters abbreviate it. */
const REGULATOR_MODES: Readonly<Record<string, string>> = {
  DynamicPowerSavings: 'dyn',
  StaticLowPower: 'min',
  StaticHighPerf: 'max',
  OsControl: 'osc',
};

/** The links the Power resource's Oem/Vendor gives the meters. */
export function powerMeterLinks(powerUri: string): Record<string, { '@odata.id': string }> {
  return Object.fromEntries(POWER_METERS.map((m) => [m, { '@odata.id': `${powerUri}${m}/` }]));
}

function handlers(d: PowerMeterDeps) {
  /** A meter's body: its samples from the power model, the BIOS power regulator mode with each. */
  return {
    meter(id: (typeof POWER_METERS)[number]) {
      const { span, step, sub } = METERS[id];
      const samples = d.power.meter(span, step, sub);
      const mode = REGULATOR_MODES[String(d.bios.currentAttributes().PowerRegulator)] ?? 'dyn';
      const averages = samples.map((s) => s.averageWatts);
      return {
        Id: id,
        Name: 'Power Meter',
        Samples: samples.length,
        Average: averages.length ? Math.round(averages.reduce((a, b) => a + b, 0) / averages.length) : 0,
        Maximum: Math.max(0, ...samples.map((s) => s.peakWatts)),
        Minimum: samples.length ? Math.min(...samples.map((s) => s.minimumWatts)) : 0,
        PowerDetail: samples.map((s) => ({
          Time: toIso(s.at),
          Average: s.averageWatts,
          Peak: s.peakWatts,
          Minimum: s.minimumWatts,
          Cap: s.limitWatts ?? 0,
          PunCap: s.capped,
          PrMode: mode,
        })),
      };
    },
  };
}

export function registerPowerMeterRoutes(routes: RouteTable, d: PowerMeterDeps): void {
  const h = handlers(d);
  for (const id of POWER_METERS) {
    routes.add({
      path: `/redfish/v1/Chassis/{ChassisId}/Power/${id}/`,
      type: PowerMeterType,
      get: { privilege: Priv.login, handler: () => h.meter(id) },
    });
  }
}
