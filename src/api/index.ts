// Every resource area, registered in one place: the API on one screen.
import { registerAccountServiceRoutes } from './account-service.js';
import { registerCertificateServiceRoutes } from './certificate-service.js';
import { registerChassisRoutes } from './chassis.js';
import type { Services } from './context.js';
import { registerEventServiceRoutes } from './event-service.js';
import { registerLicenseServiceRoutes } from './license-service.js';
import { registerLogServiceRoutes } from './log-services.js';
import { registerManagerRoutes } from './managers.js';
import { registerRegistryRoutes } from './registries.js';
import { registerSchemaRoutes } from './schemas.js';
import { registerSecureBootRoutes } from './secure-boot.js';
import { registerSecurityServiceRoutes } from './security-service.js';
import { registerServiceRootRoutes } from './service-root.js';
import { registerSessionServiceRoutes } from './session-service.js';
import { registerSystemRoutes } from './systems.js';
import { registerTaskServiceRoutes } from './task-service.js';
import { registerTelemetryServiceRoutes } from './telemetry-service.js';
import { registerUpdateServiceRoutes } from './update-service.js';
import { registerUpdateQueueRoutes } from './update-queue.js';

export function registerAllRoutes(s: Services): void {
  const r = s.routes;
  registerServiceRootRoutes(r, s);
  registerSessionServiceRoutes(r, s);
  registerAccountServiceRoutes(r, s);
  registerSystemRoutes(r, s);
  registerSecureBootRoutes(r, s);
  registerChassisRoutes(r, s);
  registerManagerRoutes(r, s);
  registerLicenseServiceRoutes(r, s);
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
}
