// The system's processors (Systems/{SystemId}/Processors/) from the hardware
// profile: one member per socket, an empty socket shown Absent. Status comes
// from the health registry (componentKey.cpu). A processor's EnvironmentMetrics
// show its temperature sensor: the profile's CPU sensors in socket order.
import { Priv } from '../../lib/privileges.js';
import { componentKey } from '../../platform/hardware/health.js';
import type { ProcessorSpec } from '../../platform/hardware/profile.js';
import { addCollection } from '../../protocol/collections.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { ProcessorType } from './inventory-types.js';
import { OEM } from '../../protocol/naming.js';
import { temperatureSensorId } from '../chassis/power.js';
import { EnvironmentMetricsType } from '../chassis/power-types.js';

export type ProcessorDeps = Pick<Services, 'uris' | 'hardware' | 'health' | 'thermal'>;

interface Socket {
  id: string;
  index: number;
  spec: ProcessorSpec;
}

function handlers(d: ProcessorDeps) {
  const sockets: Socket[] = d.hardware.processors.map((spec, index) => ({ id: String(index + 1), index, spec }));
  const chassis = d.uris.chassis();
  const processors = { list: () => sockets, get: (id: string) => sockets.find((s) => s.id === id), id: (s: Socket) => s.id };
  const cpuSensors = d.thermal.temperatureSpecs.filter((t) => t.context === 'CPU');
  /** The temperature sensor of a fitted processor, if the profile has one for its socket. */
  const sensorOf = (id: string) => {
    const s = processors.get(id);
    return s?.spec.present ? cpuSensors[s.index] : undefined;
  };
  return { processors, processorBody, sensorOf, environmentMetrics };

  function environmentMetrics(id: string) {
    const spec = sensorOf(id)!;
    const reading = d.thermal.snapshot().temperatures.find((t) => t.spec === spec);
    return {
      Id: 'EnvironmentMetrics',
      Name: `Environment metrics of processor ${id}`,
      TemperatureCelsius: { DataSourceUri: d.uris.chassis('Sensors', temperatureSensorId(spec)), Reading: reading?.celsius ?? null },
    };
  }

  function processorBody(s: Socket) {
    const p = s.spec;
    const status = d.health.status(componentKey.cpu(s.index));
    const base = {
      Id: s.id,
      Name: 'Processors',
      Description: `Processor in ${p.socket}`,
      Socket: p.socket,
      ProcessorType: 'CPU',
      Status: status,
      Location: { PartLocation: { ServiceLabel: p.socket, LocationType: 'Socket', LocationOrdinalValue: s.index } },
      Links: { Chassis: { '@odata.id': chassis } },
    };
    if (!p.present) return { ...base, Oem: { [OEM]: { ConfigStatus: { Populated: false, State: 'Disabled' } } } };
    const cache = p.cacheKiB ?? {};
    return {
      ...base,
      ProcessorArchitecture: p.architecture,
      InstructionSet: p.instructionSet,
      Manufacturer: p.manufacturer,
      Model: p.model,
      MaxSpeedMHz: p.maxSpeedMHz,
      OperatingSpeedMHz: p.operatingSpeedMHz,
      TotalCores: p.cores,
      TotalThreads: p.threads,
      ...(sensorOf(s.id) ? { EnvironmentMetrics: { '@odata.id': d.uris.system('Processors', s.id, 'EnvironmentMetrics') } } : {}),
      ...(p.cpuid ? { ProcessorId: processorId(p.manufacturer, p.cpuid) } : {}),
      Oem: {
        [OEM]: {
          Cache: (['l1', 'l2', 'l3'] as const)
            .filter((level) => cache[level] !== undefined)
            // On-die caches, all of their size fitted and reported unified, as the ROM's SMBIOS tables give them.
            .map((level) => ({
              Name: `${level.toUpperCase()}-Cache`,
              InstalledSizeKB: cache[level],
              MaximumSizeKB: cache[level],
              Location: 'Internal',
              Socketed: false,
              SystemCacheType: 'Unified',
              CurrentSRAMType: ['Synchronous'],
              SupportedSRAMType: ['Synchronous'],
            })),
          CoresEnabled: p.cores,
          RatedSpeedMHz: p.operatingSpeedMHz,
          Characteristics: p.instructionSet.endsWith('64') ? ['64Bit'] : [],
          ConfigStatus: { Populated: true, State: status.State === 'Enabled' ? 'Enabled' : 'Disabled' },
        },
      },
    };
  }
}

export function registerProcessorRoutes(routes: RouteTable, d: ProcessorDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/Processors/',
    member: '/redfish/v1/Systems/{SystemId}/Processors/{ProcessorId}/',
    type: ProcessorType,
    name: 'Processors Collection',
    extra: () => ({ Description: 'The processor sockets of the system' }),
    store: h.processors,
    show: h.processorBody,
    privileges: { read: Priv.login },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Processors/{ProcessorId}/EnvironmentMetrics/',
    type: EnvironmentMetricsType,
    params: { ProcessorId: (id) => h.sensorOf(id) !== undefined },
    get: { privilege: Priv.login, handler: ({ params }) => h.environmentMetrics(params.ProcessorId) },
  });
}

/** What a processor reports of itself (CPUID leaf 1): its signature, and its family, model and stepping as read from it. */
function processorId(vendor: string, id: { family: number; model: number; stepping: number }) {
  // The signature packs the family beyond 15 and the model beyond 15 into extended fields.
  const family = Math.min(id.family, 0xf);
  const extFamily = id.family - family;
  const signature = ((id.model >> 4) << 16) | (extFamily << 20) | (family << 8) | ((id.model & 0xf) << 4) | id.stepping;
  return {
    VendorId: vendor,
    IdentificationRegisters: `0x${signature.toString(16).padStart(8, '0')}`,
    EffectiveFamily: `0x${id.family.toString(16)}`,
    EffectiveModel: `0x${id.model.toString(16)}`,
    Step: `0x${id.stepping.toString(16)}`,
    MicrocodeInfo: null,
  };
}
