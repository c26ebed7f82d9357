// Every resource area, registered in one place: the API on one screen.
import { registerAccountServiceRoutes } from './account-service.js';
import { registerChassisRoutes } from './chassis.js';
import type { Services } from './context.js';
import { registerEventServiceRoutes } from './event-service.js';
import { registerManagerRoutes } from './managers.js';
import { registerRegistryRoutes } from './registries.js';
import { registerSchemaRoutes } from './schemas.js';
import { registerServiceRootRoutes } from './service-root.js';
import { registerSessionServiceRoutes } from './session-service.js';
import { registerSystemRoutes } from './systems.js';
import { registerUpdateServiceRoutes } from './update-service.js';

export function registerAllRoutes(s: Services): void {
  const r = s.routes;
  registerServiceRootRoutes(r, s);
  registerSessionServiceRoutes(r, s);
  registerAccountServiceRoutes(r, s);
  registerSystemRoutes(r, s);
  registerChassisRoutes(r, s);
  registerManagerRoutes(r, s);
  registerEventServiceRoutes(r, s);
  registerUpdateServiceRoutes(r, s);
  registerRegistryRoutes(r, s);
  registerSchemaRoutes(r, s);
}
