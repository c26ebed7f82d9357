// The URIs of the service's resources, built in one place: the controller's
// own computer system, chassis and manager (from the configured ids, made by
// the composition root), and the members of the service's own collections
// (tasks, subscriptions, inventory...). So no area spells
// `/redfish/v1/Systems/...` itself and a link is written the same way wherever
// it is made. Every segment is percent-encoded; the configured ids are checked
// at start to need none (config.ts), as @odata.id allows no percent-encoding.
// The domain and the simulator never import this module: they are handed the
// URIs they report about (.dependency-cruiser.cjs).

/** The ids of the controller's resources (--system-id, --chassis-id, --manager-id). */
export interface ResourceIds {
  readonly systemId: string;
  readonly chassisId: string;
  readonly managerId: string;
}

/** `/redfish/v1/<segments>/`, each segment encoded. */
export function redfishUri(...segments: readonly string[]): string {
  return `/redfish/v1/${segments.map(encodeURIComponent).join('/')}/`;
}

/** The URI builder of a collection's members, by id. */
function members(...collection: readonly string[]): (id: string) => string {
  return (id) => redfishUri(...collection, id);
}

/** The members of the collections every controller has, whatever its ids. */
export const serviceUris = {
  account: members('AccountService', 'Accounts'),
  session: members('SessionService', 'Sessions'),
  task: members('TaskService', 'Tasks'),
  taskMonitor: members('TaskService', 'TaskMonitors'),
  subscription: members('EventService', 'Subscriptions'),
  metricReportDefinition: members('TelemetryService', 'MetricReportDefinitions'),
  metricReport: members('TelemetryService', 'MetricReports'),
  metricDefinition: members('TelemetryService', 'MetricDefinitions'),
  trigger: members('TelemetryService', 'Triggers'),
  firmwareInventory: members('UpdateService', 'FirmwareInventory'),
  softwareInventory: members('UpdateService', 'SoftwareInventory'),
  updateQueueTask: members('UpdateService', 'UpdateTaskQueue'),
  maintenanceWindow: members('UpdateService', 'MaintenanceWindows'),
  installSet: members('UpdateService', 'InstallSets'),
};

export type ServiceUris = typeof serviceUris;

export interface ResourceUris extends ServiceUris {
  /** `/redfish/v1/Systems/<SystemId>/`, or a resource under it: `system('Bios', 'Settings')`. */
  system(...segments: readonly string[]): string;
  /** `/redfish/v1/Chassis/<ChassisId>/`, or a resource under it. */
  chassis(...segments: readonly string[]): string;
  /** `/redfish/v1/Managers/<ManagerId>/`, or a resource under it. */
  manager(...segments: readonly string[]): string;
}

export function resourceUris(ids: ResourceIds): ResourceUris {
  return {
    ...serviceUris,
    system: (...segments) => redfishUri('Systems', ids.systemId, ...segments),
    chassis: (...segments) => redfishUri('Chassis', ids.chassisId, ...segments),
    manager: (...segments) => redfishUri('Managers', ids.managerId, ...segments),
  };
}
