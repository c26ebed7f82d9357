// The composition root: what one controller is made of, built and wired in the
// order below, then served. Each step is a function in src/compose/; no other
// module constructs the controller's parts, and registering the API's routes
// only adds routes. Tests call startService() with a ManualClock.
import type { Services } from './api/services.js';
import { registerAllRoutes } from './api/index.js';
import { checkResourceIds, type Config } from './config.js';
import type { HttpServer } from './http/server.js';
import type { SsdpMember } from './discovery/ssdp.js';
import { ControllerLifecycle, HostLifecycle, rebootOutage } from './platform/lifecycle.js';
import { dialect, type DialectName } from './protocol/dialect.js';
import { Naming } from './protocol/naming.js';
import { LateResourceReader } from './protocol/resource-reader.js';
import { RouteTable } from './protocol/routes.js';
import { buildAccess, buildFactoryIdentity, buildHttpsIdentity } from './compose/access.js';
import { buildActivity } from './compose/activity.js';
import { openController, secureDataDir, warnOfNewKeys, type StartOptions } from './compose/base.js';
import { buildEvents, buildLicensing, buildRegistries } from './compose/events.js';
import { buildFirmware } from './compose/firmware.js';
import { buildManagerFeatures } from './compose/manager.js';
import { buildControl, buildFaultRules, buildHost, buildHostSettings, buildSensors } from './compose/host.js';
import { discoveryMember, followReboots, startDiscovery, startListener } from './compose/listener.js';
import { wireAreas } from './compose/wiring.js';

export { INITIAL_PASSWORD_FILE, missingVendorKeys, warnOfNewKeys, writeDatabaseTemplate } from './compose/base.js';
export { startDiscovery } from './compose/listener.js';
export type { ControllerSeat } from './compose/seat.js';

export interface RunningService {
  services: Services;
  http: HttpServer;
  port: number;
  url: string;
  /** What SSDP announces of this controller. */
  discovery: SsdpMember;
  /** The generated first administrator password, when one was made on this start. */
  generatedPassword?: string;
  /** Write out buffered log lines now. */
  flushLog(): void;
  close(): Promise<void>;
}

export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  checkResourceIds(config);
  // The data dir, clock, log and database; the service UUID, hardware and component health.
  const base = openController(config, opts);
  const { clock, store, seat } = base;
  const naming = Naming.of(config.oemName, base.hardware.system.model);
  // What every part hooks into: the server's power, POST steps and OS, and the controller's resets.
  const lifecycles = {
    host: new HostLifecycle(),
    controller: new ControllerLifecycle(clock, rebootOutage(config.controllerRebootSeconds)),
  };
  const { access, generatedPassword } = await buildAccess(base, lifecycles.controller);
  const registries = buildRegistries(naming);
  const tls = await buildHttpsIdentity(base);
  const identity = buildFactoryIdentity(base, naming);
  const eventing = buildEvents(base, access, registries, naming, () => services.sensors);
  const licensing = buildLicensing(base, access, eventing, tls.https);
  const host = buildHost(base, lifecycles, eventing.events);
  const firmware = buildFirmware(base, lifecycles, { ...host, ...eventing });
  warnOfNewKeys(base.log, base.dataDir, base.lostKeys);
  const sensors = buildSensors(base, lifecycles, host.server);
  const hostSettings = buildHostSettings(base, lifecycles, { ...host, ...eventing, ...firmware, ...sensors });

  const services: Services = {
    config,
    uris: base.uris,
    clock,
    store,
    log: base.log,
    serviceUuid: base.serviceUuid,
    hardware: base.hardware,
    health: base.health,
    settings: base.settings,
    ...lifecycles,
    ...access,
    registries,
    https: tls.https,
    httpsCertificate: tls.httpsCertificate,
    ...eventing,
    ...licensing,
    licenseTier: licensing.installedLicense,
    ...host,
    ...firmware,
    ...sensors,
    ...hostSettings,
    ...buildManagerFeatures(base, lifecycles, { ...firmware, ...host, ...hostSettings }, () => services),
    routes: new RouteTable(config.dialect as DialectName, naming),
    dialect: dialect(config.dialect, config),
    naming,
    factoryIdentity: identity,
    resources: new LateResourceReader(),
    fleet: seat?.fleet,
  };
  if (config.enableControl) {
    services.control = buildControl(base, services);
    services.activity = buildActivity(base);
    services.faultRules = buildFaultRules(base, services, services.control);
  }
  wireAreas(services);
  registerAllRoutes(services);
  secureDataDir(base, services.update.repository.dir);
  eventing.metricReports.start();

  const http = await startListener(base, services);
  tls.serveOn(http);
  followReboots(services, http);
  // Port 0 lets the system pick a free port: report the one in use (NetworkProtocol shows it).
  if (config.port === 0) config.port = http.port;
  const discovery = discoveryMember(base, http.port);
  // A fleet answers discovery for all its controllers from one socket.
  const ssdp = config.ssdpPort && !seat ? await startDiscovery(config.ssdpPort, [discovery], clock, base.log) : undefined;
  // A controller that leaves the factory powered on boots now, through POST like any power-on.
  if (base.firstStart && seat?.factory.power === 'On') host.server.reset('On', 'PowerRestorePolicy');
  const listenHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    services,
    discovery,
    http,
    port: http.port,
    url: `https://${listenHost}:${http.port}`,
    generatedPassword,
    flushLog: () => base.ownLog?.flush(),
    close: async () => {
      await ssdp?.close();
      clock.cancelAll();
      access.sessions.stop();
      licensing.installedLicense.stop();
      host.server.stop();
      firmware.updateQueue.stop();
      eventing.metricReports.stop();
      // SSE streams end first: the listener waits for open responses.
      await eventing.eventHub.close();
      services.activity?.close();
      await http.close();
      // Downloads in flight end now, and their tasks record it, before the database closes.
      await firmware.update.downloader.close();
      await host.tasks.settle();
      base.commits.commit();
      base.db.close();
      await base.ownLog?.close();
    },
  };
}
