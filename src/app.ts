// The composition root: builds the store, platform, domain and API, and
// starts the HTTPS listener. Tests call startService() with a ManualClock.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import type { ServiceSettings, Services } from './api/context.js';
import { registerAllRoutes } from './api/index.js';
import type { Config } from './config.js';
import { Accounts } from './domain/accounts.js';
import { EventBus } from './domain/events.js';
import { generatePassword } from './domain/passwords.js';
import { RegistryFiles } from './domain/registry-files.js';
import { Sessions } from './domain/sessions.js';
import { Logs } from './domain/logs.js';
import { NO_SENSORS } from './platform/sensors.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { ensureTlsMaterial } from './http/tls.js';
import { BASE_REGISTRY } from './messages/registries/base.js';
import { RESOURCE_EVENT_REGISTRY } from './messages/registries/resource-event.js';
import { TASK_EVENT_REGISTRY } from './messages/registries/task-event.js';
import { VENDOR_REGISTRY } from './messages/registries/vendor.js';
import { SystemClock, type Clock } from './platform/clock.js';
import { ControllerLifecycle, HostLifecycle } from './platform/lifecycle.js';
import { Authentication } from './protocol/auth.js';
import { Dispatcher } from './protocol/dispatch.js';
import { RouteTable } from './protocol/routes.js';
import { openDatabase, type Migration } from './store/database.js';
import { DocumentStore } from './store/documents.js';

export const INITIAL_PASSWORD_FILE = 'initial-admin-password';
export const DATABASE_FILE = 'bmc.sqlite';

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Extra migrations (areas with tables of their own). */
  migrations?: readonly Migration[];
}

export interface RunningService {
  services: Services;
  http: HttpServer;
  port: number;
  url: string;
  /** The generated first administrator password, when one was made on this start. */
  generatedPassword?: string;
  close(): Promise<void>;
}

const DEFAULT_SETTINGS: ServiceSettings = { sessionTimeout: 1800 };

export async function startService(config: Config, opts: StartOptions = {}): Promise<RunningService> {
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = opts.logger ?? pino({ level: config.logLevel, base: undefined });
  const clock = opts.clock ?? new SystemClock();
  const db = openDatabase(join(dataDir, DATABASE_FILE), opts.migrations);
  const store = new DocumentStore(db);

  const uuidSetting = store.setting<string | null>('service.uuid', null);
  const serviceUuid = uuidSetting.get() ?? randomUUID();
  uuidSetting.set(serviceUuid);
  const settings = store.setting<ServiceSettings>('service.settings', DEFAULT_SETTINGS);

  const accounts = new Accounts(store, config.scryptLogN);
  const generatedPassword = await ensureAdministrator(accounts, config, dataDir);
  const sessions = new Sessions(clock, {
    timeoutSeconds: () => settings.get().sessionTimeout,
    limit: () => config.maxSessions,
  });
  const controller = new ControllerLifecycle();
  // A controller reset ends every session, as on a real controller.
  controller.onReset(() => sessions.clear('reset'));
  accounts.onChange((id) => {
    if (!accounts.get(id)) sessions.deleteForAccount(id);
  });
  const auth = new Authentication(accounts, sessions, clock, log);
  const registries = new RegistryFiles();
  registries.addMessageRegistry(BASE_REGISTRY);
  registries.addMessageRegistry(VENDOR_REGISTRY);
  registries.addMessageRegistry(RESOURCE_EVENT_REGISTRY);
  registries.addMessageRegistry(TASK_EVENT_REGISTRY);

  const tls = await ensureTlsMaterial(dataDir, config.tlsCert, config.tlsKey);
  let http: HttpServer | undefined;
  let clientCAs: string[] | undefined;
  const https: Services['https'] = {
    cert: tls.cert,
    key: tls.key,
    selfSigned: tls.generated,
    replace(cert, key) {
      https.cert = cert;
      https.key = key;
      https.selfSigned = false;
      http?.setCertificate(cert, key, clientCAs);
    },
    setClientCAs(pems) {
      clientCAs = pems.length ? pems : undefined;
      http?.setCertificate(https.cert, https.key, clientCAs);
    },
  };

  const services: Services = {
    config,
    clock,
    store,
    log,
    accounts,
    sessions,
    auth,
    events: new EventBus(clock),
    host: new HostLifecycle(),
    controller,
    registries,
    routes: new RouteTable(),
    serviceUuid,
    settings,
    rootLinks: {},
    logs: new Logs(store, clock),
    licenses: { tier: () => 'None' },
    sensors: NO_SENSORS,
    firmware: { controllerVersion: () => '1.40' },
    https,
  };
  registerAllRoutes(services);

  http = await startHttpServer({
    host: config.host,
    port: config.port,
    cert: https.cert,
    key: https.key,
    bodyLimit: config.bodyLimit,
    dispatcher: new Dispatcher(services.routes, auth, log),
    log,
  });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = http;
  return {
    services,
    http: listening,
    port: listening.port,
    url: `https://${host}:${listening.port}`,
    generatedPassword,
    close: async () => {
      await listening.close();
      db.close();
    },
  };
}

/**
 * The first administrator exists from the first start on. Its password is the
 * one given, or a generated one written once to <data-dir>/initial-admin-password.
 * A password given on a later start resets that account's password.
 */
async function ensureAdministrator(accounts: Accounts, config: Config, dataDir: string): Promise<string | undefined> {
  const existing = accounts.findByUserName(config.adminUser);
  if (existing) {
    if (config.adminPassword) await accounts.setPassword(existing, config.adminPassword);
    return undefined;
  }
  const password = config.adminPassword ?? generatePassword();
  await accounts.create({ UserName: config.adminUser, Password: password, RoleId: 'Administrator' });
  if (config.adminPassword) return undefined;
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  if (!existsSync(file)) writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}
