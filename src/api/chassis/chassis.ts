// Chassis: the server's enclosure, its locator light and the host-reported
// platform firmware. Thermal is served by ./thermal.ts under each chassis (ThermalSubsystem by
// ./thermal-subsystem.ts), Power, PowerSubsystem, Sensors and EnvironmentMetrics by ./power.ts,
// TrustedComponents by ./trusted-components.ts.
import { INDICATOR_LED_VALUES, changedIndicator, chassisSerialNumber } from '../../domain/chassis/chassis.js';
import { Representations } from '../../lib/memo.js';
import { Priv } from '../../lib/privileges.js';
import { CHASSIS_TYPES } from '../../platform/hardware/profile.js';
import { collectionOf, defineType, odataType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import { collection } from '../../protocol/reply.js';
import type { PatchContext, RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { thermalHealth, type ThermalDeps } from './thermal.js';
import { powerSupplyHealth } from './power.js';
import { OEM, oemType } from '../../protocol/naming.js';

const MAINTENANCE_SWITCHES = Array.from({ length: 12 }, (_, i) => `Sw${i + 1}`);

const firmwareVersion = t.object({ Current: t.object({ VersionString: ro(t.string()) }, { readOnly: true }) }, { readOnly: true });

export const VendorServerChassisType = defineType({
  name: oemType('ServerChassis'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the server chassis: platform firmware the host reports to the controller at POST.',
  properties: {
    Firmware: t.object(
      {
        PlatformDefinitionTable: firmwareVersion,
        SystemProgrammableLogicDevice: firmwareVersion,
        PowerManagementController: firmwareVersion,
        SPSFirmwareVersionData: firmwareVersion,
      },
      {
        readOnly: true,
        typeName: 'Firmware',
        description: 'Reported by the host at the end of POST; empty until then and after a REST API state clear.',
      },
    ),
    Links: ro(t.object({ Devices: t.link({ readOnly: true }) }, { typeName: 'Links' })),
    SystemMaintenanceSwitches: ro(
      t.object(Object.fromEntries(MAINTENANCE_SWITCHES.map((sw) => [sw, ro(t.enum(['On', 'Off']))])), {
        typeName: 'SystemMaintenanceSwitches',
        description: 'The system board DIP switches (Sw1: security override); the simulated board has them all off.',
      }),
    ),
    ElConfigOverride: ro(t.boolean({ description: 'Edgeline thermal configuration options; a rack server has none.' })),
  },
});

export const ChassisType = defineType({
  name: 'Chassis',
  version: '1.28.0',
  owner: 'DMTF',
  description: 'The physical enclosure of the server.',
  properties: {
    ...commonProps,
    ChassisType: ro(t.enum(CHASSIS_TYPES)),
    HeightMm: ro(t.number({ units: 'mm' })),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    SKU: ro(t.string()),
    SerialNumber: ro(t.string()),
    PartNumber: ro(t.string()),
    AssetTag: t.string({ maxLength: 32, description: 'A user-assigned asset tag.' }),
    PowerState: ro(t.enum(['On', 'Off', 'PoweringOn', 'PoweringOff'])),
    IndicatorLED: t.enum(INDICATOR_LED_VALUES, {
      description: 'The unit identification (UID) light.',
      deprecated: 'LocationIndicatorActive',
    }),
    LocationIndicatorActive: t.boolean({ description: 'True while the unit identification (UID) light is lit or blinking.' }),
    Status: statusProp,
    Thermal: t.link({ readOnly: true, deprecated: 'ThermalSubsystem' }),
    ThermalSubsystem: t.link({ readOnly: true }),
    TrustedComponents: t.link({ readOnly: true }),
    Power: t.link({ readOnly: true, deprecated: 'PowerSubsystem' }),
    PowerSubsystem: t.link({ readOnly: true }),
    Sensors: t.link({ readOnly: true }),
    EnvironmentMetrics: t.link({ readOnly: true }),
    Controls: t.link({ readOnly: true }),
    NetworkAdapters: t.link({ readOnly: true }),
    PCIeDevices: t.link({ readOnly: true }),
    PCIeSlots: t.link({ readOnly: true, deprecated: 'PCIeDevices' }),
    Links: t.object(
      {
        ComputerSystems: t.links({ readOnly: true }),
        ManagedBy: t.links({ readOnly: true }),
        ManagersInChassis: t.links({ readOnly: true }),
      },
      { readOnly: true, typeName: 'Links' },
    ),
    Oem: oem(VendorServerChassisType, { readOnly: true }),
  },
});

/** What the chassis area uses (its health rolls up Thermal's, hence Thermal's deps). */
export type ChassisDeps = Pick<Services, 'config' | 'uris' | 'serviceUuid' | 'host' | 'hardware' | 'health' | 'chassisState' | 'store'> &
  ThermalDeps;

const HEALTH_RANK = { OK: 0, Warning: 1, Critical: 2 } as const;
function worstHealth(a: keyof typeof HEALTH_RANK, b: keyof typeof HEALTH_RANK): keyof typeof HEALTH_RANK {
  return HEALTH_RANK[b] > HEALTH_RANK[a] ? b : a;
}

function handlers(d: ChassisDeps) {
  const state = d.chassisState;
  const systemUri = d.uris.system();
  const managerUri = d.uris.manager();
  const views = new Representations(4);
  return { getChassisCollection, getChassis, patchChassis };

  function getChassisCollection() {
    return collection('Chassis Collection', [d.uris.chassis()], { Description: 'Computer System Chassis' });
  }

  /** Rebuilt only when what it shows changes: stored state (settings, reported firmware), the host's power or the health. */
  function getChassis() {
    // The enclosure's health includes its cooling and its power supplies.
    const health = worstHealth(thermalHealth(d), powerSupplyHealth(d));
    return views.get(d.uris.chassis(), [d.store.generation, d.host.generation, health], () => buildChassis(health));
  }

  function buildChassis(health: keyof typeof HEALTH_RANK) {
    const self = d.uris.chassis();
    const settings = state.get();
    const firmware = state.hostReportedFirmware();
    return {
      Id: d.config.chassisId,
      Name: 'Computer System Chassis',
      Description: 'Rack-mount server enclosure',
      // Model, part number and height follow the hardware profile's chassis.
      ChassisType: d.hardware.chassis.chassisType,
      HeightMm: Math.round(d.hardware.chassis.heightU * 44.45 * 10) / 10,
      Manufacturer: d.hardware.system.manufacturer,
      Model: d.hardware.chassis.model,
      SKU: d.hardware.chassis.partNumber,
      SerialNumber: chassisSerialNumber(d.serviceUuid),
      PartNumber: d.hardware.chassis.partNumber,
      AssetTag: settings.AssetTag,
      PowerState: d.host.powerState(),
      IndicatorLED: settings.IndicatorLED,
      LocationIndicatorActive: settings.IndicatorLED !== 'Off',
      Status: { State: 'Enabled', Health: health, HealthRollup: health },
      Thermal: { '@odata.id': `${self}Thermal/` },
      ThermalSubsystem: { '@odata.id': `${self}ThermalSubsystem/` },
      TrustedComponents: { '@odata.id': `${self}TrustedComponents/` },
      Power: { '@odata.id': `${self}Power/` },
      PowerSubsystem: { '@odata.id': `${self}PowerSubsystem/` },
      Sensors: { '@odata.id': `${self}Sensors/` },
      EnvironmentMetrics: { '@odata.id': `${self}EnvironmentMetrics/` },
      Controls: { '@odata.id': `${self}Controls/` },
      NetworkAdapters: { '@odata.id': `${self}NetworkAdapters/` },
      PCIeDevices: { '@odata.id': `${self}PCIeDevices/` },
      PCIeSlots: { '@odata.id': `${self}PCIeSlots/` },
      Links: {
        ComputerSystems: [{ '@odata.id': systemUri }],
        ManagedBy: [{ '@odata.id': managerUri }],
        ManagersInChassis: [{ '@odata.id': managerUri }],
      },
      Oem: {
        [OEM]: {
          '@odata.type': odataType(VendorServerChassisType),
          Firmware: firmware ? Object.fromEntries(Object.entries(firmware).map(([k, v]) => [k, { Current: { VersionString: v } }])) : {},
          Links: { Devices: { '@odata.id': `${self}Devices/` } },
          SystemMaintenanceSwitches: Object.fromEntries(MAINTENANCE_SWITCHES.map((sw) => [sw, 'Off'])),
          ElConfigOverride: false,
        },
      },
    };
  }

  function patchChassis(ctx: PatchContext<'/redfish/v1/Chassis/{ChassisId}/', typeof ChassisType.properties>): void {
    const { AssetTag, IndicatorLED, LocationIndicatorActive } = ctx.body;
    // The same rule as the system's view of the light (changedIndicator).
    const led = changedIndicator(state.get().IndicatorLED, { IndicatorLED, LocationIndicatorActive });
    state.update({ IndicatorLED: led, ...(AssetTag !== undefined ? { AssetTag } : {}) });
  }
}

export function registerChassisRoutes(routes: RouteTable, d: ChassisDeps): void {
  const h = handlers(d);
  routes.param('ChassisId', (id) => id === d.config.chassisId);

  routes.add({
    path: '/redfish/v1/Chassis/',
    type: collectionOf(ChassisType),
    get: { privilege: Priv.login, handler: h.getChassisCollection },
  });
  routes.add({
    path: '/redfish/v1/Chassis/{ChassisId}/',
    type: ChassisType,
    get: { privilege: Priv.login, handler: h.getChassis },
    // The server's UID light and asset tag: the same privilege as on the system (HostBIOSConfigPriv).
    patch: { privilege: Priv.hostBios, handler: h.patchChassis },
  });
}
