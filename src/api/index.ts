// Every resource area, registered in one place: the API on one screen.
import { registerAccountServiceRoutes } from './accounts/account-service.js';
import { registerCertificateServiceRoutes } from './certificates/certificate-service.js';
import { registerChassisRoutes } from './chassis/chassis.js';
import { registerPowerRoutes } from './chassis/power.js';
import { registerNetworkAdapterRoutes } from './chassis/network-adapters.js';
import { registerPcieRoutes } from './chassis/pcie-devices.js';
import type { Services } from './services.js';
import { registerControlRoutes } from './control/control.js';
import { registerEventServiceRoutes } from './events/event-service.js';
import { registerLicenseServiceRoutes } from './managers/license-service.js';
import { registerLogServiceRoutes } from './logs/log-services.js';
import { registerManagerRoutes } from './managers/managers.js';
import { registerRegistryRoutes } from './root/registries.js';
import { registerSchemaRoutes } from './root/schemas.js';
import { registerSecureBootRoutes } from './systems/secure-boot.js';
import { registerSecurityServiceRoutes } from './managers/security-service.js';
import { registerServiceRootRoutes } from './root/service-root.js';
import { registerSessionServiceRoutes } from './accounts/session-service.js';
import { registerStorageRoutes } from './systems/storage.js';
import { registerSystemRoutes } from './systems/systems.js';
import { registerMemoryRoutes } from './systems/memory.js';
import { registerProcessorRoutes } from './systems/processors.js';
import { registerSystemEthernetRoutes } from './systems/ethernet-interfaces.js';
import { registerTaskServiceRoutes } from './tasks/task-service.js';
import { registerTelemetryServiceRoutes } from './events/telemetry-service.js';
import { registerUpdateServiceRoutes } from './update/update-service.js';
import { registerUpdateQueueRoutes } from './update/update-queue.js';
import { registerVirtualMediaRoutes } from './managers/virtual-media.js';

export function registerAllRoutes(s: Services): void {
  const r = s.routes;
  registerServiceRootRoutes(r, s);
  registerSessionServiceRoutes(r, s);
  registerAccountServiceRoutes(r, s);
  registerSystemRoutes(r, s);
  registerProcessorRoutes(r, s);
  registerMemoryRoutes(r, s);
  registerSystemEthernetRoutes(r, s);
  registerStorageRoutes(r, s);
  registerSecureBootRoutes(r, s);
  registerChassisRoutes(r, s);
  registerPowerRoutes(r, s);
  registerNetworkAdapterRoutes(r, s);
  registerPcieRoutes(r, s);
  registerManagerRoutes(r, s);
  registerLicenseServiceRoutes(r, s);
  registerVirtualMediaRoutes(r, s);
  registerSecurityServiceRoutes(r, s);
  registerCertificateServiceRoutes(r, s);
  registerLogServiceRoutes(r, s);
  registerEventServiceRoutes(r, s);
  registerTelemetryServiceRoutes(r, s);
  registerUpdateServiceRoutes(r, s);
  registerUpdateQueueRoutes(r, s);
  registerTaskServiceRoutes(r, s);
  registerRegistryRoutes(r, s);
  registerSchemaRoutes(r, s);
  // Outside the Redfish tree, and only with --enable-control.
  registerControlRoutes(r, s);
  // Every {Param} of every route resolves, or the service does not start.
  r.verify();
}
