// The composition root: builds the store, platform, domain and API, and
// starts the HTTPS listener. Tests call startService() with a ManualClock.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { createLog, type ServiceLog } from './logging.js';
import type { ServiceSettings, Services } from './api/services.js';
import { registerAllRoutes } from './api/index.js';
import { REDFISH_VERSION } from './api/root/service-root.js';
import { checkResourceIds, type Config } from './config.js';
import { resourceUris } from './lib/resource-uris.js';
import { AccountPolicy } from './domain/accounts/account-policy.js';
import { Accounts } from './domain/accounts/accounts.js';
import { CertificateLogin } from './domain/accounts/certificate-login.js';
import { HttpsCertificate } from './domain/manager/https-certificate.js';
import {
  LICENSE_SIGNING_KEY_FILE,
  ensureVendorLicenseKey,
  issueLicenseKey,
  newSerial,
  type VendorLicenseKey,
} from './domain/licensing/license-keys.js';
import type { FactoryState, FleetView } from './domain/fleet/fleet-view.js';
import type { VendorSigningKey } from './domain/firmware/signing.js';
import { InstalledLicense } from './domain/licensing/installed-license.js';
import { readNetworkProtocol, timeSourceConfigured } from './domain/manager/network-protocol.js';
import { EventBus } from './domain/events/bus.js';
import { EventHub } from './domain/events/hub.js';
import { MetricReports } from './domain/events/metric-reports.js';
import { EVENT_MIGRATIONS } from './domain/events/outbox.js';
import { resourceWriteEvents } from './domain/events/sources.js';
import { watchAccounts, watchSessions } from './domain/accounts/account-events.js';
import { createFirmwareServices } from './domain/firmware/index.js';
import { SIGNING_KEY_FILE } from './domain/firmware/signing.js';
import { UpdateQueueArea } from './domain/update-queue/area.js';
import { generatePassword } from './domain/accounts/passwords.js';
import { RegistryFiles } from './domain/registry-files.js';
import { DEFAULT_ABSOLUTE_SESSION_TIMEOUT, Sessions } from './domain/accounts/sessions.js';
import { Tasks } from './domain/tasks.js';
import { Logs } from './domain/logs/logs.js';
import { RestApiState } from './domain/manager/rest-api-state.js';
import { VirtualMedia } from './domain/manager/virtual-media.js';
import { SecureBoot } from './domain/secure-boot/secure-boot.js';
import { SimulatedSensors } from './platform/thermal.js';
import { PowerModel, psuCarriesLoad } from './platform/power.js';
import { combineSensors } from './platform/sensors.js';
import { componentKey, healthFor } from './platform/hardware/health.js';
import { resolveHardware } from './platform/hardware/identity.js';
import { loadHardwareProfile, type HardwareProfile } from './platform/hardware/profile.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { StaticSite } from './http/static-files.js';
import { startSsdp, type Ssdp, type SsdpMember, type SsdpSettings } from './discovery/ssdp.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY, ensureTlsMaterial, saveTlsMaterial } from './http/tls.js';
import { BASE_REGISTRY } from './messages/registries/base.js';
import { RESOURCE_EVENT_REGISTRY } from './messages/registries/resource-event.js';
import { STORAGE_DEVICE_REGISTRY } from './messages/registries/storage-device.js';
import { TASK_EVENT_REGISTRY } from './messages/registries/task-event.js';
import { VENDOR_REGISTRY } from './messages/registries/vendor.js';
import { VENDOR_RESOURCE_EVENT_REGISTRY } from './messages/registries/vendor-resource-event.js';
import { OffsetClock, ScopedClock, SystemClock, type Clock, type MovableClock } from './platform/clock.js';
import { ScenarioControl } from './domain/control/control.js';
import { ControllerLifecycle, HostLifecycle } from './platform/lifecycle.js';
import { isSelfSigned } from './platform/x509-verify.js';
import { ServerSimulator } from './platform/simulator.js';
import { Authentication } from './protocol/auth.js';
import { dialect, type DialectName } from './protocol/dialect.js';
import { Dispatcher } from './protocol/dispatch.js';
import { RouteTable } from './protocol/routes.js';
import { CHECKPOINT_INTERVAL_MS, checkpointer, openDatabase, type Durability, type Migration } from './store/database.js';
import { SERVICE_UUID_SETTING, checkDatabase, type DatabaseCheck } from './store/startup-check.js';
import { DocumentStore } from './store/documents.js';
import { GroupCommit } from './store/group-commit.js';
import { prepareDataDir, tightenDataDir } from './store/data-dir.js';
import { SECRETS_KEY_FILE, Secrets } from './store/secrets.js';

export const INITIAL_PASSWORD_FILE = 'initial-admin-password';
export const DATABASE_FILE = 'bmc.sqlite';

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Extra migrations (areas with tables of their own). */
  migrations?: readonly Migration[];
  /** This controller's place in a fleet (src/fleet/): what it takes from the fleet instead of making its own. */
  seat?: ControllerSeat;
}

/** What a fleet hands each controller: shared where it is safe, made once for all. */
export interface ControllerSeat {
  /** The UUID a first start takes (then stored): deterministic from the controller's index. */
  serviceUuid: string;
  hardware: HardwareProfile;
  /** The first administrator: the fleet's password and its hash, made once for every controller. */
  admin: { password: string; hash: string; /** Given by the operator: every start resets it, as --admin-password does. */ reset: boolean };
  /** This controller's HTTPS identity when its data dir has none (signed by the fleet CA). */
  issueTls(): Promise<{ certPem: string; keyPem: string }>;
  /** The vendor's keys, one pair for the fleet: one license key or signed package serves every controller. */
  licenseKey: VendorLicenseKey;
  firmwareKey: VendorSigningKey;
  /** An empty, migrated database a new controller's starts as a copy of. */
  databaseTemplate: string;
  /** The key secrets are sealed with at rest: the fleet's, in its data dir. */
  secrets: Secrets;
  /** How the controller leaves the factory: applied on its first start only. */
  factory: FactoryState;
  fleet: FleetView;
}

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

const DEFAULT_SETTINGS: ServiceSettings = {
  sessionTimeout: 1800,
  absoluteSessionTimeout: DEFAULT_ABSOLUTE_SESSION_TIMEOUT,
  absoluteSessionTimeoutEnabled: false,
};

export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  checkResourceIds(config);
  // Every link to the system, chassis and manager is built from these: ids encoded, one spelling.
  const uris = resourceUris(config);
  const dataDir = resolve(config.dataDir);
  // 0700 (an existing one is narrowed); the files the start writes in it are tightened below.
  prepareDataDir(dataDir);
  // Scoped: close() cancels every timer this instance armed, whoever armed it.
  // With the control API the clock can be moved: real time plus an offset (tests hand in a ManualClock).
  const baseClock = opts.clock ?? (config.enableControl ? new OffsetClock() : new SystemClock());
  const clock = new ScopedClock(baseClock);
  // A logger handed in (tests) is the caller's; otherwise the service owns a buffered one.
  let ownLog: ServiceLog | undefined;
  const log = opts.logger ?? (ownLog = createLog(config.logLevel, clock)).log;
  const dbPath = join(dataDir, DATABASE_FILE);
  // A database that is missing, empty, damaged or whose WAL cannot be replayed stops the start here.
  const checked = checkDatabase(dbPath, { controllerFiles: presentIn(dataDir, CONTROLLER_KEYS), now: clock.now() });
  reportRecovery(log, dbPath, checked);
  const db = openDatabase(
    dbPath,
    () => clock.now(),
    [...EVENT_MIGRATIONS, ...(opts.migrations ?? [])],
    config.durability as Durability,
    opts.seat?.databaseTemplate,
  );
  const store = new DocumentStore(db, opts.seat?.secrets ?? (() => Secrets.loadOrCreate(dataDir)));
  const commits = new GroupCommit(db, () => store.dropCopies());
  clock.setInterval(
    CHECKPOINT_INTERVAL_MS,
    checkpointer(db, (err) => log.warn({ err, file: dbPath }, 'WAL checkpoint failed; tried again every 10 s')),
  );

  const { seat } = opts;
  const uuidSetting = store.setting<string | null>(SERVICE_UUID_SETTING, null);
  const firstStart = uuidSetting.get() === null;
  const serviceUuid = uuidSetting.get() ?? seat?.serviceUuid ?? randomUUID();
  // Committed before the first key file is made (secrets.key, just below): keys beside a database
  // without a UUID are then never a start that was cut short, always a database that lost its data.
  if (firstStart) uuidSetting.set(serviceUuid);
  // Then the key secrets are sealed with is made, or read: a damaged one stops the start here.
  void store.secrets;
  // Vendor keys a controller that has run before no longer has: made anew below, and said so.
  const lostKeys = firstStart || seat ? [] : missingVendorKeys(dataDir);
  // Serials and MACs follow the stable UUID: the same after a restart, different on another controller.
  const hardware = resolveHardware(seat?.hardware ?? loadHardwareProfile(config.hardware), serviceUuid);
  const health = healthFor(hardware);
  const settings = store.setting<ServiceSettings>('service.settings', DEFAULT_SETTINGS);

  const accounts = new Accounts(store, config.scryptLogN);
  const generatedPassword = await ensureAdministrator(accounts, config, dataDir, seat?.admin);
  const sessions = new Sessions(clock, {
    timeoutSeconds: () => settings.get().sessionTimeout,
    // Only the dmtf dialect offers it: a data dir that served dmtf before does not carry it into spec.
    absoluteTimeoutSeconds: () => {
      const s = settings.peek();
      return config.dialect === 'dmtf' && s.absoluteSessionTimeoutEnabled
        ? (s.absoluteSessionTimeout ?? DEFAULT_ABSOLUTE_SESSION_TIMEOUT)
        : undefined;
    },
    limit: () => config.maxSessions,
  });
  const controller = new ControllerLifecycle();
  // A controller reset ends every session, as on a real controller.
  controller.onReset(() => sessions.clear('reset'));
  accounts.onChange((id) => {
    if (!accounts.get(id)) sessions.deleteForAccount(id);
  });
  const isAdministrator = (id: string) => {
    const a = accounts.peek(id);
    return a !== undefined && accounts.roleOf(a) === 'Administrator';
  };
  const auth = new Authentication(accounts, sessions, clock, log, {
    perAccount: () => Math.min(config.maxSessionsPerAccount, config.maxSessions),
  });
  const accountPolicy = new AccountPolicy(store, accounts, clock, log);
  auth.addLoginPolicy(accountPolicy);
  const registries = new RegistryFiles();
  registries.addMessageRegistry(BASE_REGISTRY);
  registries.addMessageRegistry(VENDOR_REGISTRY);
  registries.addMessageRegistry(RESOURCE_EVENT_REGISTRY);
  registries.addMessageRegistry(TASK_EVENT_REGISTRY);
  registries.addMessageRegistry(VENDOR_RESOURCE_EVENT_REGISTRY);
  registries.addMessageRegistry(STORAGE_DEVICE_REGISTRY);

  const tls = await ensureTlsMaterial(dataDir, clock, config.tlsCert, config.tlsKey, seat?.issueTls);
  let http: HttpServer | undefined;
  let clientCAs: string[] | undefined;
  // Decided by the certificate itself: a --tls-cert or an installed replacement counts as signed unless
  // self-signed. Parsed when first asked (certificate login asks), not at every start.
  let selfSigned: boolean | undefined;
  const https: Services['https'] = {
    cert: tls.cert,
    key: tls.key,
    get selfSigned() {
      return (selfSigned ??= isSelfSigned(https.cert));
    },
    replace(cert, key) {
      saveTlsMaterial(dataDir, cert, key);
      https.cert = cert;
      https.key = key;
      selfSigned = undefined;
      http?.setCertificate(cert, key, clientCAs);
    },
    setClientCAs(pems) {
      clientCAs = pems.length ? pems : undefined;
      http?.setCertificate(https.cert, https.key, clientCAs);
    },
  };

  const events = new EventBus(clock, log);
  // Subscriptions, durable outbox and delivery: listening from here on, so no event is missed.
  const eventHub = new EventHub({
    store,
    clock,
    log,
    bus: events,
    registries,
    uris,
    maxSubscriptions: () => config.maxSubscriptions,
    maxStreamsPerAccount: () => config.maxSsePerAccount,
    isAdministrator,
    wireStyle: dialect(config.dialect).json,
  });
  eventHub.start();
  // SSE streams end with their session, and when their account no longer allows them.
  sessions.onEnd((s) => eventHub.endSessionStreams(s.Id));
  accounts.onChange((id) => eventHub.recheckStreams(id));
  watchAccounts(events, accounts, uris);
  watchSessions(events, sessions, uris);
  // Sensors are read per report: the simulator's are installed in `services` below.
  const metricReports = new MetricReports(store, clock, () => services.sensors, eventHub, uris);
  const licenses = new InstalledLicense(
    store,
    clock,
    (seat?.licenseKey ?? ensureVendorLicenseKey(dataDir)).publicKey,
    events,
    uris.manager('LicenseService', '1'),
  );
  if (firstStart && seat?.factory.license && seat.factory.license !== 'None') {
    const issued = new Date(clock.now()).toISOString();
    const payload = { tier: seat.factory.license, licensee: 'Fleet manifest', serial: newSerial(), issued };
    licenses.install(issueLicenseKey(seat.licenseKey.privateKey, payload));
  }
  const certificateLogin = new CertificateLogin(store, accounts, clock, {
    licenses,
    httpsSelfSigned: () => https.selfSigned,
    timeSourceConfigured: () => timeSourceConfigured(store),
  });
  const hostLifecycle = new HostLifecycle();
  const logs = new Logs(store, clock);
  const { tpm, timing, powerOnSeconds, postSeconds, shutdownSeconds } = config;
  const lenientResets = dialect(config.dialect).lenientResets;
  const simulated = { systemUri: uris.system(), tpm, timing, powerOnSeconds, postSeconds, shutdownSeconds, lenientResets };
  const server = new ServerSimulator({ options: simulated, clock, store, host: hostLifecycle, controller, log, logs, events });
  const tasks = new Tasks(store, clock, events, uris);
  const update = createFirmwareServices({
    store,
    clock,
    dataDir,
    repositoryBytes: config.repositoryBytes,
    downloadTimeoutSeconds: config.downloadTimeout,
    downloadCa: config.downloadCa,
    signingKey: seat?.firmwareKey,
    factoryVersions: seat?.factory.firmware,
    controller,
    host: hostLifecycle,
    logs,
    events,
    log,
    tasks,
    uris,
    resetActions: {
      controller: uris.manager('Actions', 'Manager.Reset'),
      server: uris.system('Actions', 'ComputerSystem.Reset'),
    },
  });
  warnOfNewKeys(log, dataDir, lostKeys);
  const virtualMedia = new VirtualMedia({
    store,
    downloader: update.downloader,
    maxBytes: config.virtualMediaBytes,
    logs,
    events,
    uris,
  });
  const updateQueue = new UpdateQueueArea({
    ...update,
    store,
    clock,
    host: hostLifecycle,
    controller,
    events,
    logs,
    log,
    uris,
    runtimeAgent: config.runtimeAgent as 'installed' | 'absent' | undefined,
  });

  const thermal = new SimulatedSensors(clock, hostLifecycle, uris.chassis('Thermal'), hardware);
  const power = new PowerModel({
    clock,
    store,
    host: server,
    spec: hardware.power,
    psus: hardware.powerSupplies,
    psuHealthy: (i) => psuCarriesLoad(health.status(componentKey.psu(hardware.powerSupplies[i]!.bay))),
    powerUri: uris.chassis('Power'),
  });
  const services: Services = {
    config,
    uris,
    clock,
    store,
    log,
    accounts,
    sessions,
    auth,
    events,
    eventHub,
    metricReports,
    host: hostLifecycle,
    server,
    hardware,
    health,
    controller,
    registries,
    routes: new RouteTable(config.dialect as DialectName),
    serviceUuid,
    settings,
    rootLinks: {},
    dialect: dialect(config.dialect),
    logs,
    virtualMedia,
    licenseTier: licenses,
    installedLicense: licenses,
    accountPolicy,
    certificateLogin,
    thermal,
    power,
    sensors: combineSensors(thermal, power),
    restApiState: new RestApiState(store, controller),
    secureBoot: new SecureBoot(store, clock, { enrollOwner: serviceUuid }),
    firmware: {
      controllerVersion: () => update.inventory.controllerVersion(),
      biosVersion: () => update.inventory.byDeviceClass('SystemROM')[0]?.Version ?? 'unknown',
    },
    update,
    updateQueue,
    tasks,
    https,
    httpsCertificate: new HttpsCertificate(store, clock, https),
    fleet: seat?.fleet,
  };
  if (config.enableControl) {
    if (!isMovable(baseClock)) throw new Error('the control API needs a clock it can move');
    services.control = new ScenarioControl({
      clock: movable(clock, baseClock),
      store,
      server,
      host: hostLifecycle,
      health,
      hardware,
      thermal,
      power,
      firmware: update,
      eventHub,
      runtimeAgent: updateQueue.runtimeAgent,
      logs,
      events,
      log,
      uris,
    });
  }
  registerAllRoutes(services);
  // Every file the start found is 0600 and every directory 0700, whatever an older version left
  // (a first start made its own files so).
  if (!firstStart)
    tightenDataDir(dataDir, [
      ...[DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, SECRETS_KEY_FILE, INITIAL_PASSWORD_FILE],
      ...[SELF_SIGNED_CERT, SELF_SIGNED_KEY, LICENSE_SIGNING_KEY_FILE, SIGNING_KEY_FILE, update.repository.dir],
    ]);
  // Secrets an older version stored in plain text were sealed by their areas above: let no copy stay in the WAL.
  // A new database holds nothing older to seal (and a fleet makes a thousand at once).
  if (!firstStart) db.pragma('wal_checkpoint(TRUNCATE)');
  metricReports.start();

  http = await startHttpServer({
    host: config.host,
    port: config.port,
    cert: https.cert,
    key: https.key,
    bodyLimit: config.bodyLimit,
    limits: config,
    clock,
    dispatcher: new Dispatcher(
      services.routes,
      auth,
      log,
      {
        onWrite: resourceWriteEvents(events),
        durable: commits,
        // Off, the control API does not exist for anyone: 404 before credentials are asked for.
        missingBeforeAuth: config.enableControl ? undefined : (path) => /^\/control(\/|$)/i.test(path),
      },
      services.dialect,
      { expansionsPerAccount: config.maxExpansionsPerAccount },
    ),
    log,
    site: consoleSite(),
    lazyTls: seat !== undefined,
  });
  // Trusted CAs registered before the listener existed (certificate login).
  if (clientCAs) http.setCertificate(https.cert, https.key, clientCAs);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = http;
  // Port 0 lets the system pick a free port: report the one in use (NetworkProtocol shows it).
  if (config.port === 0) config.port = listening.port;
  const discovery: SsdpMember = {
    uuid: serviceUuid,
    location: `https://${discoveryHost(config.host)}:${listening.port}/redfish/v1/`,
    settings: () => ssdpSettings(store),
  };
  // A fleet answers discovery for all its controllers from one socket.
  const ssdp = config.ssdpPort && !seat ? await startDiscovery(config.ssdpPort, [discovery], clock, log) : undefined;
  // A controller that leaves the factory powered on boots now, through POST like any power-on.
  if (firstStart && seat?.factory.power === 'On') server.reset('On', 'PowerRestorePolicy');
  return {
    services,
    discovery,
    http: listening,
    port: listening.port,
    url: `https://${host}:${listening.port}`,
    generatedPassword,
    flushLog: () => ownLog?.flush(),
    close: async () => {
      await ssdp?.close();
      clock.cancelAll();
      sessions.stop();
      licenses.stop();
      server.stop();
      updateQueue.stop();
      metricReports.stop();
      // SSE streams end first: the listener waits for open responses.
      await eventHub.close();
      await listening.close();
      // Downloads in flight end now, and their tasks record it, before the database closes.
      await update.downloader.close();
      await services.tasks.settle();
      commits.commit();
      db.close();
      await ownLog?.close();
    },
  };
}

/** Keys only a controller that has started makes: with any of them in the data dir, its database must be there too. */
const CONTROLLER_KEYS = [SECRETS_KEY_FILE, SELF_SIGNED_KEY, LICENSE_SIGNING_KEY_FILE, SIGNING_KEY_FILE];

function presentIn(dir: string, files: readonly string[]): string[] {
  return files.filter((f) => statSync(join(dir, f), { throwIfNoEntry: false })?.isFile());
}

/** What SQLite's recovery does with the WAL an unclean stop left (SQLite itself says nothing). */
function reportRecovery(log: Logger, dbPath: string, checked: DatabaseCheck): void {
  const w = checked.wal;
  if (w.bytes === 0) return;
  const fields = {
    file: `${dbPath}-wal`,
    transactions: w.transactions,
    replayedFrames: w.replayedFrames,
    unfinishedFrames: w.unfinishedFrames,
    damagedFrames: w.damagedFrames,
    trailingBytes: w.trailingBytes,
    keptIn: checked.keptIn,
  };
  if (checked.keptIn) {
    log.warn(
      fields,
      `the database's WAL is damaged or cut: ${w.transactions} transactions replayed, the ${w.unfinishedFrames + w.damagedFrames} frames ` +
        `and ${w.trailingBytes} bytes after them dropped (transactions there are lost); the files as they were are in ${checked.keptIn}`,
    );
  } else {
    const unfinished = w.unfinishedFrames ? `, and an unfinished transaction (${w.unfinishedFrames} frames) dropped` : '';
    log.info(fields, `WAL recovery after an unclean stop: ${w.transactions} transactions replayed${unfinished}`);
  }
}

/** The vendor keys (firmware and license signing) that are not in this data dir. */
export function missingVendorKeys(dataDir: string): string[] {
  return [SIGNING_KEY_FILE, LICENSE_SIGNING_KEY_FILE].filter((f) => !existsSync(join(dataDir, f)));
}

/** A controller that ran before and finds a vendor key missing gets a new one: what that costs is logged. */
export function warnOfNewKeys(log: Logger, dataDir: string, files: readonly string[]): void {
  const lost: Record<string, string> = {
    [SIGNING_KEY_FILE]: 'firmware packages signed with the old key no longer verify',
    [LICENSE_SIGNING_KEY_FILE]: 'license keys issued with the old key can no longer be installed',
  };
  for (const f of files) {
    log.warn({ file: join(dataDir, f) }, `${f} was missing: a new key was made; ${lost[f]} (restore the file from a backup to keep them)`);
  }
}

/** An empty database with every migration a controller's needs, for a fleet's new controllers to copy. */
export function writeDatabaseTemplate(path: string, now: () => number, migrations: readonly Migration[] = []): void {
  rmSync(path, { force: true });
  const db = openDatabase(path, now, [...EVENT_MIGRATIONS, ...migrations]);
  // One self-contained file (still in WAL mode, so a copy opens without a header rewrite): closing checkpoints and removes the -wal.
  db.close();
}

function isMovable(c: Clock): c is MovableClock {
  return typeof (c as Partial<MovableClock>).advance === 'function';
}

/** The service's scoped clock, moved by moving the clock under it. */
function movable(scoped: ScopedClock, base: MovableClock): MovableClock {
  return {
    now: () => scoped.now(),
    setTimer: (ms, fn) => scoped.setTimer(ms, fn),
    setInterval: (ms, fn) => scoped.setInterval(ms, fn),
    advance: (ms) => base.advance(ms),
  };
}

/** The address SSDP announces for a listener: a wildcard one by the first external IPv4 address. */
function discoveryHost(listenHost: string): string {
  if (listenHost !== '0.0.0.0' && listenHost !== '::') return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  return external ?? '127.0.0.1';
}

function ssdpSettings(store: DocumentStore): SsdpSettings {
  const ssdp = readNetworkProtocol(store).SSDP;
  return { enabled: ssdp.ProtocolEnabled, notifyIntervalSeconds: ssdp.NotifyMulticastIntervalSeconds, notifyTtl: ssdp.NotifyTTL };
}

/** SSDP discovery for these controllers. A port that cannot be bound is logged, and the service runs without SSDP. */
export async function startDiscovery(port: number, members: readonly SsdpMember[], clock: Clock, log: Logger): Promise<Ssdp | undefined> {
  try {
    return await startSsdp({ port, members, redfishMinor: Number(REDFISH_VERSION.split('.')[1]), clock, log });
  } catch (err) {
    log.warn({ err, port }, 'SSDP discovery not started');
    return undefined;
  }
}

/**
 * The first administrator exists from the first start on. Its password is the
 * one given, or a generated one written once to <data-dir>/initial-admin-password.
 * A password given on a later start resets that account's password.
 */
async function ensureAdministrator(
  accounts: Accounts,
  config: Config,
  dataDir: string,
  fleet?: ControllerSeat['admin'],
): Promise<string | undefined> {
  const existing = accounts.findByUserName(config.adminUser);
  if (existing) {
    if (fleet?.reset) {
      if (existing.PasswordHash !== fleet.hash) accounts.save({ ...existing, PasswordHash: fleet.hash, PasswordChangeRequired: false });
    } else if (config.adminPassword) await accounts.setPassword(existing, config.adminPassword);
    return undefined;
  }
  // A fleet's controllers share one hash of one password: scrypt runs once, not once per controller.
  if (fleet) {
    await accounts.create({ UserName: config.adminUser, Password: fleet.password, RoleId: 'Administrator' }, undefined, fleet.hash);
    return undefined;
  }
  const password = config.adminPassword ?? generatePassword();
  await accounts.create({ UserName: config.adminUser, Password: password, RoleId: 'Administrator' });
  if (config.adminPassword) return undefined;
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  if (!existsSync(file)) writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * The web console (console/): its scripts as `npm run build` compiles them into
 * dist/console/, its page and styles from console/. Both paths are the same from
 * src/app.ts (tsx) and dist/app.js.
 */
function consoleSite(): StaticSite {
  const root = new URL('../', import.meta.url);
  const dirs = [fileURLToPath(new URL('dist/console/', root)), fileURLToPath(new URL('console/', root))];
  return new StaticSite({ prefix: '/console/', dirs, index: 'index.html' });
}
