// iLO's power meters under Power/: the server's draw sampled from the simulated
// power model, at three resolutions (FastPowerMeter: 10 s over 20 minutes,
// PowerMeter: 5 minutes over a day, SlowPowerMeter: an hour over a week).
// FederatedGroupCapping: the power of the federation groups the controller is
// in; the simulation has no peers and no group cap is set, so each group is
// this server alone, uncapped.
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { ambientAt } from '../../platform/thermal.js';
import { defineType, ro, t, commonProps } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType, oemType } from '../../protocol/naming.js';

export type PowerMeterDeps = Pick<Services, 'uris' | 'power' | 'bios' | 'managerFeatures' | 'hardware'>;

const FEDERATED_GROUP_CAPPING = 'FederatedGroupCapping';

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
            AmbTemp: ro(t.integer({ units: 'Cel', description: 'The air the server draws in, at the end of the sample.' })),
            CpuUtil: ro(t.integer({ units: '%', description: 'Average CPU utilization over the sample (0 unless the OS runs).' })),
            CpuCapLim: ro(
              t.integer({
                units: '%',
                description: 'The least share of its demand the power limit let the server draw (100: not held down).',
              }),
            ),
            UnachCap: ro(t.boolean({ description: 'Whether the limit could not be held: never, as no limit below idle is taken.' })),
          },
          { typeName: 'PowerDetail' },
        ),
      ),
    ),
  },
});

export const FederatedGroupCappingType = defineType({
  name: controllerType('FederatedGroupCapping'),
  version: '2.0.0',
  owner: OEM,
  description: 'Power capping of the federation groups: their power supply capacity, cap and how much of the capacity is drawn.',
  properties: {
    ...commonProps,
    CapWatts: ro(t.integer({ units: 'W', description: 'The power cap of the groups; 0: none is set.' })),
    CapacityWatts: ro(t.integer({ units: 'W', description: 'The power supply capacity of every server of the groups.' })),
    Throttle: ro(
      t.enum(['Low', 'Med', 'High'], {
        description: 'The draw against the capacity: Low below a third, Med below two thirds, High above.',
      }),
    ),
    Groups: ro(
      t.object(
        {},
        {
          additionalProperties: t.object(
            {
              AllocatedPowerWatts: ro(t.integer({ units: 'W' })),
              CapLimitWatts: ro(t.integer({ units: 'W' })),
              CapLimitPctTenths: ro(t.integer({ nullable: true })),
            },
            { typeName: 'Group' },
          ),
          typeName: 'Groups',
          description: 'Each federation group by name.',
        },
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
  return Object.fromEntries([...POWER_METERS, FEDERATED_GROUP_CAPPING].map((m) => [m, { '@odata.id': `${powerUri}${m}/` }]));
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
          AmbTemp: Math.round(ambientAt(s.at)),
          CpuUtil: s.cpuUtilPercent,
          CpuCapLim: s.capPerformancePercent,
          UnachCap: false,
        })),
      };
    },

    federatedGroupCapping() {
      const capacity = d.hardware.powerSupplies.reduce((sum, p) => sum + p.capacityWatts, 0);
      const share = capacity > 0 ? d.power.reading().consumedWatts / capacity : 0;
      return {
        Id: FEDERATED_GROUP_CAPPING,
        Name: 'Federated Group Power Capping',
        CapWatts: 0,
        CapacityWatts: capacity,
        Throttle: share < 1 / 3 ? 'Low' : share < 2 / 3 ? 'Med' : 'High',
        Groups: Object.fromEntries(
          d.managerFeatures.federation.list().map((g) => [g.Name, { AllocatedPowerWatts: 0, CapLimitWatts: 0, CapLimitPctTenths: null }]),
        ),
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
  routes.add({
    path: `/redfish/v1/Chassis/{ChassisId}/Power/${FEDERATED_GROUP_CAPPING}/`,
    type: FederatedGroupCappingType,
    get: { privilege: Priv.login, handler: h.federatedGroupCapping },
  });
}
