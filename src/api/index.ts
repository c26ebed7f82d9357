// Every resource area, registered in one place: the API on one screen. Registering only adds
// routes (the composition root, src/app.ts, has built and wired what they serve); the order is
// that of the paths in openapi.yaml.
import { registerAccountServiceRoutes } from './accounts/account-service.js';
import { registerCertificateMappingRoutes } from './accounts/certificate-mapping.js';
import { registerSessionServiceRoutes } from './accounts/session-service.js';
import { registerCertificateServiceRoutes } from './certificates/certificate-service.js';
import { registerChassisRoutes } from './chassis/chassis.js';
import { registerNetworkAdapterRoutes } from './chassis/network-adapters.js';
import { registerPcieRoutes } from './chassis/pcie-devices.js';
import { registerPowerRoutes } from './chassis/power.js';
import { registerThermalSubsystemRoutes } from './chassis/thermal-subsystem.js';
import { registerThermalRoutes } from './chassis/thermal.js';
import { registerTrustedComponentRoutes } from './chassis/trusted-components.js';
import { registerActivityRoutes } from './control/activity.js';
import { registerControlRoutes } from './control/control.js';
import { registerEventServiceRoutes } from './events/event-service.js';
import { registerTelemetryServiceRoutes } from './events/telemetry-service.js';
import { registerLogServiceRoutes } from './logs/log-services.js';
import { registerLicenseServiceRoutes } from './managers/license-service.js';
import { registerManagerInterfaceRoutes } from './managers/manager-interfaces.js';
import { registerManagerRoutes } from './managers/managers.js';
import { registerNetworkProtocolRoutes } from './managers/network-protocol.js';
import { registerSecurityServiceRoutes } from './managers/security-service.js';
import { registerVirtualMediaRoutes } from './managers/virtual-media.js';
import { registerRegistryRoutes } from './root/registries.js';
import { registerResourceDirectoryRoutes } from './root/resource-directory.js';
import { registerSchemaRoutes } from './root/schemas.js';
import { registerServiceRootRoutes } from './root/service-root.js';
import type { Services } from './services.js';
import { registerBiosVendorSettingsRoutes } from './systems/bios-vendor-settings.js';
import { registerBiosRoutes } from './systems/bios.js';
import { registerSystemEthernetRoutes } from './systems/ethernet-interfaces.js';
import { registerMemoryRoutes } from './systems/memory.js';
import { registerProcessorRoutes } from './systems/processors.js';
import { registerSecureBootRoutes } from './systems/secure-boot.js';
import { registerStorageRoutes } from './systems/storage.js';
import { registerSystemRoutes } from './systems/systems.js';
import { registerTaskServiceRoutes } from './tasks/task-service.js';
import { registerComponentRepositoryRoutes } from './update/component-repository.js';
import { registerUpdateQueueRoutes } from './update/update-queue.js';
import { registerUpdateServiceRoutes } from './update/update-service.js';
import { registerUploadRoutes } from './update/upload.js';

export function registerAllRoutes(s: Services): void {
  const r = s.routes;
  registerServiceRootRoutes(r, s);
  registerResourceDirectoryRoutes(r, s);
  registerSessionServiceRoutes(r, s);
  registerAccountServiceRoutes(r, s);
  registerCertificateMappingRoutes(r, s);
  registerSystemRoutes(r, s);
  registerBiosRoutes(r, s);
  registerBiosVendorSettingsRoutes(r, s);
  registerProcessorRoutes(r, s);
  registerMemoryRoutes(r, s);
  registerSystemEthernetRoutes(r, s);
  registerStorageRoutes(r, s);
  registerSecureBootRoutes(r, s);
  registerThermalRoutes(r, s);
  registerThermalSubsystemRoutes(r, s);
  registerTrustedComponentRoutes(r, s);
  registerChassisRoutes(r, s);
  registerPowerRoutes(r, s);
  registerNetworkAdapterRoutes(r, s);
  registerPcieRoutes(r, s);
  registerManagerRoutes(r, s);
  registerNetworkProtocolRoutes(r, s);
  registerManagerInterfaceRoutes(r, s);
  registerLicenseServiceRoutes(r, s);
  registerVirtualMediaRoutes(r, s);
  registerSecurityServiceRoutes(r, s);
  registerCertificateServiceRoutes(r, s);
  registerLogServiceRoutes(r, s);
  registerEventServiceRoutes(r, s);
  registerTelemetryServiceRoutes(r, s);
  registerUpdateServiceRoutes(r, s);
  registerUploadRoutes(r, s);
  registerComponentRepositoryRoutes(r, s);
  registerUpdateQueueRoutes(r, s);
  registerTaskServiceRoutes(r, s);
  registerRegistryRoutes(r, s);
  registerSchemaRoutes(r, s);
  // Outside the Redfish tree, and only with --enable-control.
  registerControlRoutes(r, s);
  registerActivityRoutes(r, s);
  // Every {Param} of every route resolves, or the service does not start.
  r.verify();
}
