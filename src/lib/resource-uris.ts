// The URIs of the controller's own computer system, chassis and manager, built
// in one place: the composition root makes them from the configured ids and
// hands them down, so no area spells `/redfish/v1/Systems/...` itself and a
// link is written the same way wherever it is made. Every segment is
// percent-encoded; the configured ids are checked at start to need none
// (config.ts), as @odata.id allows no percent-encoding.

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

export interface ResourceUris {
  /** `/redfish/v1/Systems/<SystemId>/`, or a resource under it: `system('Bios', 'Settings')`. */
  system(...segments: readonly string[]): string;
  /** `/redfish/v1/Chassis/<ChassisId>/`, or a resource under it. */
  chassis(...segments: readonly string[]): string;
  /** `/redfish/v1/Managers/<ManagerId>/`, or a resource under it. */
  manager(...segments: readonly string[]): string;
}

export function resourceUris(ids: ResourceIds): ResourceUris {
  return {
    system: (...segments) => redfishUri('Systems', ids.systemId, ...segments),
    chassis: (...segments) => redfishUri('Chassis', ids.chassisId, ...segments),
    manager: (...segments) => redfishUri('Managers', ids.managerId, ...segments),
  };
}
