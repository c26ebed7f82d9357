// Service configuration: command-line flags, each also readable from an
// environment variable, with the embedded defaults.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isOemName } from './lib/oem-token.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminUser: string;
  /** Given explicitly (or read from adminPasswordFile); otherwise one is generated on first start. */
  adminPassword?: string;
  /** File holding adminPassword, so it need not show in the process list. */
  adminPasswordFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Simultaneous sessions plus Basic-authenticated connections. */
  maxSessions: number;
  /** Event subscriptions (EventDestination, SSE streams included) allowed at once. */
  maxSubscriptions: number;
  /** Sessions plus connections one account may hold (at most maxSessions). */
  maxSessionsPerAccount: number;
  /** Open SSE streams one account may hold. */
  maxSsePerAccount: number;
  /** User accounts that may exist. */
  maxAccounts: number;
  /** Large $expand requests one account may have in progress at once. */
  maxExpansionsPerAccount: number;
  /** Largest JSON request body accepted, in bytes. */
  bodyLimit: number;
  logLevel: string;
  /** log2 of the scrypt cost used for password hashes. */
  scryptLogN: number;
  systemId: string;
  chassisId: string;
  managerId: string;
  /** Size of the firmware component repository, bytes. */
  repositoryBytes: number;
  /** Time limit of an image download (SimpleUpdate, AddFromUri, virtual media), seconds. */
  downloadTimeout: number;
  /** PEM file of extra CAs trusted for HTTPS image downloads. */
  downloadCa?: string;
  /** Largest image virtual media accepts, bytes. */
  virtualMediaBytes: number;
  /** Power and POST durations of the simulated server: fast (seconds) or realistic (minutes). */
  timing: string;
  /** Overrides of the timing profile, seconds. */
  powerOnSeconds?: number;
  postSeconds?: number;
  shutdownSeconds?: number;
  /** TPM of the simulated server: absent, installed or in-use. */
  tpm: string;
  /** Hardware profile of the simulated server: a shipped profile's name or a YAML/JSON file. */
  hardware: string;
  /** Host-side update manager of the simulated server, set at start: installed or absent (unset: as stored, first start absent). */
  runtimeAgent?: string;
  /** UDP port of SSDP discovery; 0 offers no SSDP. */
  ssdpPort: number;
  /** Seconds a new connection has to complete its TLS handshake. */
  tlsHandshakeTimeout: number;
  /** Seconds a request has to send its complete headers. */
  headersTimeout: number;
  /** Seconds an idle kept-alive connection stays open. */
  keepAliveTimeout: number;
  /** Seconds a request body may go without progress before it is cut. */
  bodyTimeout: number;
  /** Bytes per second a request body must average once it has had bodyTimeout seconds. */
  bodyMinRate: number;
  /** Open connections accepted at once; more are closed at once. */
  maxConnections: number;
  /** Open connections one client address may hold; more from it are closed at once. */
  maxConnectionsPerSource: number;
  /** Conventions served: spec (the product's, iLO's) or dmtf (DMTF's, strictly). */
  dialect: string;
  /** Serve deprecated properties the dialect leaves out (dmtf hides them). */
  showDeprecated: boolean;
  /** The vendor namespace: the Oem key and the prefix of vendor types and registries (Hpe for iLO's clients). */
  oemName: string;
  /** What an acknowledged write survives: crash (kill -9) or power-loss (a sync per commit). */
  durability: string;
  /** Serve the scenario control API under /control/ (clock, power events, faults, held sensors). */
  enableControl: boolean;
  /** Requests the control API's request inspector keeps (/control/activity/). */
  activitySize: number;
  /** Seconds a controller reset takes it away: two thirds unreachable, then booting (503); 0: back at once. */
  controllerRebootSeconds: number;
  /** Fleet mode: controllers served by this process (unset: one controller, no fleet). */
  fleet?: number;
  /** Fleet mode: first IPv4 address of one-address-per-controller addressing, all on --port. */
  fleetAddresses?: string;
  /** Fleet mode: YAML/JSON list of controller groups (count, hardware, firmware, power, license). */
  fleetManifest?: string;
  /** Fleet mode: global index of this process's first controller (a shard of a larger fleet). */
  fleetIndexOffset: number;
  /** Where the vendor BIOS resources live: oem (Bios/Oem/<name>/…, iLO 6 and iLO 5 v2) or bios (Bios/…, the service's earlier one and iLO 5 v3's). */
  vendorBiosPlace: string;
}

interface Option {
  flag: string;
  env: string;
  /** A boolean is a flag without a value; its environment variable reads 1/true or 0/false. */
  type: 'string' | 'integer' | 'boolean';
  default?: string | number | boolean;
  help: string;
  key: keyof Config;
}

/** The one table that defines flags, environment variables, defaults and help. */
export const OPTIONS: readonly Option[] = [
  { key: 'port', flag: 'port', env: 'BMC_PORT', type: 'integer', default: 8443, help: 'HTTPS port to listen on' },
  { key: 'host', flag: 'host', env: 'BMC_HOST', type: 'string', default: '127.0.0.1', help: 'address to listen on' },
  {
    key: 'dataDir',
    flag: 'data-dir',
    env: 'BMC_DATA_DIR',
    type: 'string',
    default: './data',
    help: 'where the database, keys and certificates live',
  },
  {
    key: 'adminUser',
    flag: 'admin-user',
    env: 'BMC_ADMIN_USER',
    type: 'string',
    default: 'Administrator',
    help: 'user name of the first administrator',
  },
  {
    key: 'adminPassword',
    flag: 'admin-password',
    env: 'BMC_ADMIN_PASSWORD',
    type: 'string',
    help: "password of the first administrator (default: generated on first start, written to <data-dir>/initial-admin-password); given on a later start it resets that account's password",
  },
  {
    key: 'adminPasswordFile',
    flag: 'admin-password-file',
    env: 'BMC_ADMIN_PASSWORD_FILE',
    type: 'string',
    help: "file holding the first administrator's password (trailing newline ignored), instead of --admin-password: it does not show in the process list",
  },
  {
    key: 'tlsCert',
    flag: 'tls-cert',
    env: 'BMC_TLS_CERT',
    type: 'string',
    help: 'PEM certificate (chain) for HTTPS (default: self-signed, generated into the data dir)',
  },
  { key: 'tlsKey', flag: 'tls-key', env: 'BMC_TLS_KEY', type: 'string', help: 'PEM private key for --tls-cert' },
  {
    key: 'maxSessions',
    flag: 'max-sessions',
    env: 'BMC_MAX_SESSIONS',
    type: 'integer',
    default: 16,
    help: 'simultaneous sessions and Basic connections',
  },
  {
    key: 'maxSubscriptions',
    flag: 'max-subscriptions',
    env: 'BMC_MAX_SUBSCRIPTIONS',
    type: 'integer',
    default: 20,
    help: 'event subscriptions (SSE streams included) allowed at once',
  },
  {
    key: 'maxSessionsPerAccount',
    flag: 'max-sessions-per-account',
    env: 'BMC_MAX_SESSIONS_PER_ACCOUNT',
    type: 'integer',
    default: 8,
    help: 'sessions and Basic connections one account may hold (capped by --max-sessions)',
  },
  {
    key: 'maxSsePerAccount',
    flag: 'max-sse-per-account',
    env: 'BMC_MAX_SSE_PER_ACCOUNT',
    type: 'integer',
    default: 4,
    help: 'open SSE event streams one account may hold',
  },
  { key: 'maxAccounts', flag: 'max-accounts', env: 'BMC_MAX_ACCOUNTS', type: 'integer', default: 64, help: 'user accounts that may exist' },
  {
    key: 'maxExpansionsPerAccount',
    flag: 'max-expansions-per-account',
    env: 'BMC_MAX_EXPANSIONS_PER_ACCOUNT',
    type: 'integer',
    default: 2,
    help: 'large $expand requests (over 64 links) one account may have in progress at once; more get 503 ServiceTemporarilyUnavailable with Retry-After',
  },
  {
    key: 'bodyLimit',
    flag: 'body-limit',
    env: 'BMC_BODY_LIMIT',
    type: 'integer',
    default: 1048576,
    help: 'largest JSON request body, bytes',
  },
  {
    key: 'logLevel',
    flag: 'log-level',
    env: 'BMC_LOG_LEVEL',
    type: 'string',
    default: 'info',
    help: 'fatal, error, warn, info, debug or silent',
  },
  {
    key: 'scryptLogN',
    flag: 'scrypt-log-n',
    env: 'BMC_SCRYPT_LOG_N',
    type: 'integer',
    default: 15,
    help: 'log2 of the scrypt cost for password hashes',
  },
  { key: 'systemId', flag: 'system-id', env: 'BMC_SYSTEM_ID', type: 'string', default: '1', help: 'Id of the computer system' },
  { key: 'chassisId', flag: 'chassis-id', env: 'BMC_CHASSIS_ID', type: 'string', default: '1', help: 'Id of the chassis' },
  { key: 'managerId', flag: 'manager-id', env: 'BMC_MANAGER_ID', type: 'string', default: '1', help: 'Id of the manager' },
  {
    key: 'repositoryBytes',
    flag: 'repository-bytes',
    env: 'BMC_REPOSITORY_BYTES',
    type: 'integer',
    default: 1073741824,
    help: 'size of the firmware component repository, bytes',
  },
  {
    key: 'downloadTimeout',
    flag: 'download-timeout',
    env: 'BMC_DOWNLOAD_TIMEOUT',
    type: 'integer',
    default: 600,
    help: 'time limit of an image download (SimpleUpdate, AddFromUri, virtual media), seconds',
  },
  {
    key: 'downloadCa',
    flag: 'download-ca',
    env: 'BMC_DOWNLOAD_CA',
    type: 'string',
    help: 'PEM file of extra CAs trusted for HTTPS image downloads (added to the system roots)',
  },
  {
    key: 'virtualMediaBytes',
    flag: 'virtual-media-bytes',
    env: 'BMC_VIRTUAL_MEDIA_BYTES',
    type: 'integer',
    default: 8589934592,
    help: 'largest image virtual media accepts (read through at insert, not kept), bytes',
  },
  {
    key: 'timing',
    flag: 'timing',
    env: 'BMC_TIMING',
    type: 'string',
    default: 'fast',
    help: 'simulated server durations: fast (a few seconds) or realistic (minute-long POST)',
  },
  {
    key: 'powerOnSeconds',
    flag: 'power-on-seconds',
    env: 'BMC_POWER_ON_SECONDS',
    type: 'integer',
    help: 'seconds from power on to the start of POST (overrides --timing)',
  },
  {
    key: 'postSeconds',
    flag: 'post-seconds',
    env: 'BMC_POST_SECONDS',
    type: 'integer',
    help: 'seconds POST takes until the OS runs (overrides --timing)',
  },
  {
    key: 'shutdownSeconds',
    flag: 'shutdown-seconds',
    env: 'BMC_SHUTDOWN_SECONDS',
    type: 'integer',
    help: 'seconds a graceful OS shutdown takes (overrides --timing)',
  },
  {
    key: 'durability',
    flag: 'durability',
    env: 'BMC_DURABILITY',
    type: 'string',
    default: 'crash',
    help: 'What an acknowledged write survives: crash (the process killed, kill -9) or power-loss (an fsync per commit, slower writes)',
  },
  {
    key: 'dialect',
    flag: 'dialect',
    env: 'BMC_DIALECT',
    type: 'string',
    default: 'spec',
    help: "Conventions served: spec (iLO's: trailing slashes, /redfish/v1/schemas, vendor actions under Oem/Vendor) or dmtf (DMTF's, strictly)",
  },
  {
    key: 'showDeprecated',
    flag: 'show-deprecated',
    env: 'BMC_SHOW_DEPRECATED',
    type: 'boolean',
    default: false,
    help: "Serve the deprecated properties --dialect dmtf leaves out (Chassis Thermal and Power, IndicatorLED…), for profiles that still require them (OCP Server 1.1.0); DMTF's Service Validator then warns about each",
  },
  {
    key: 'oemName',
    flag: 'oem-name',
    env: 'BMC_OEM_NAME',
    type: 'string',
    default: 'Vendor',
    help: "The vendor namespace: Oem key, vendor types (VendorMC… becomes <name>MC…, or HpeiLO… for Hpe) and registry prefixes; Hpe for iLO's own clients (ilorest)",
  },
  {
    key: 'tpm',
    flag: 'tpm',
    env: 'BMC_TPM',
    type: 'string',
    default: 'installed',
    help: 'TPM of the simulated server: absent, installed or in-use',
  },
  {
    key: 'hardware',
    flag: 'hardware',
    env: 'BMC_HARDWARE',
    type: 'string',
    default: 'default',
    help: 'hardware profile of the simulated server: a shipped profile (default, vs360-gen10, vs380-gen10-nvme) or a YAML/JSON file',
  },
  {
    key: 'ssdpPort',
    flag: 'ssdp-port',
    env: 'BMC_SSDP_PORT',
    type: 'integer',
    default: 1900,
    help: 'UDP port of SSDP discovery (0: no SSDP); ManagerNetworkProtocol SSDP switches it on and off',
  },
  {
    key: 'tlsHandshakeTimeout',
    flag: 'tls-handshake-timeout',
    env: 'BMC_TLS_HANDSHAKE_TIMEOUT',
    type: 'integer',
    default: 10,
    help: 'seconds a new connection has to complete its TLS handshake before it is closed',
  },
  {
    key: 'headersTimeout',
    flag: 'headers-timeout',
    env: 'BMC_HEADERS_TIMEOUT',
    type: 'integer',
    default: 20,
    help: 'seconds a request has to send its complete headers (408, then closed)',
  },
  {
    key: 'keepAliveTimeout',
    flag: 'keep-alive-timeout',
    env: 'BMC_KEEP_ALIVE_TIMEOUT',
    type: 'integer',
    default: 72,
    help: 'seconds an idle kept-alive connection stays open',
  },
  {
    key: 'bodyTimeout',
    flag: 'body-timeout',
    env: 'BMC_BODY_TIMEOUT',
    type: 'integer',
    default: 30,
    help: 'seconds a request body (uploads included) may send nothing before it is cut (408, then closed)',
  },
  {
    key: 'bodyMinRate',
    flag: 'body-min-rate',
    env: 'BMC_BODY_MIN_RATE',
    type: 'integer',
    default: 16384,
    help: 'bytes per second a request body (uploads included) must average from its start once it has had --body-timeout seconds; slower ones are cut (408, then closed)',
  },
  {
    key: 'maxConnections',
    flag: 'max-connections',
    env: 'BMC_MAX_CONNECTIONS',
    type: 'integer',
    default: 4096,
    help: 'open connections accepted at once; more are closed at once (keep it below the descriptor limit, ulimit -n)',
  },
  {
    key: 'maxConnectionsPerSource',
    flag: 'max-connections-per-source',
    env: 'BMC_MAX_CONNECTIONS_PER_SOURCE',
    type: 'integer',
    default: 256,
    help: 'open connections one client address may hold; more from it are closed at once, so one flooding source leaves the others room',
  },
  {
    key: 'runtimeAgent',
    flag: 'runtime-agent',
    env: 'BMC_RUNTIME_AGENT',
    type: 'string',
    help: 'host-side update manager (RuntimeAgent updater) of the simulated server at start: installed or absent (default: as last set, absent at first start)',
  },
  {
    key: 'controllerRebootSeconds',
    flag: 'controller-reboot-seconds',
    env: 'BMC_CONTROLLER_REBOOT_SECONDS',
    type: 'integer',
    default: 30,
    help: 'seconds a controller reset (Manager.Reset, a flash of its firmware) takes it away: the first two thirds nothing listens (connections refused), the rest every Redfish request is 503 with Retry-After; sessions are gone after it; 0: back at once',
  },
  {
    key: 'enableControl',
    flag: 'enable-control',
    env: 'BMC_ENABLE_CONTROL',
    type: 'boolean',
    default: false,
    help: 'serve the scenario control API under /control/ (move the clock, power events, faults, held sensors; administrators only); off: /control/ is 404',
  },
  {
    key: 'activitySize',
    flag: 'activity-size',
    env: 'BMC_ACTIVITY_SIZE',
    type: 'integer',
    default: 500,
    help: 'with --enable-control: requests the request inspector keeps (/control/activity/), each body cut at 16 KiB, 8 MiB in all',
  },
  {
    key: 'fleet',
    flag: 'fleet',
    env: 'BMC_FLEET',
    type: 'integer',
    help: 'fleet mode: serve this many independent controllers; controller i listens on --port + i (or see --fleet-addresses), its state in <data-dir>/controllers/<i>/',
  },
  {
    key: 'fleetAddresses',
    flag: 'fleet-addresses',
    env: 'BMC_FLEET_ADDRESSES',
    type: 'string',
    help: 'fleet mode: give controller i the IPv4 address FIRST + i, all on --port (e.g. 127.0.1.1: 127.0.1.1, 127.0.1.2, …), instead of one port each',
  },
  {
    key: 'fleetManifest',
    flag: 'fleet-manifest',
    env: 'BMC_FLEET_MANIFEST',
    type: 'string',
    help: 'fleet mode: YAML/JSON file of controller groups (count, hardware, firmware, power, license); its counts give the fleet size',
  },
  {
    key: 'fleetIndexOffset',
    flag: 'fleet-index-offset',
    env: 'BMC_FLEET_INDEX_OFFSET',
    type: 'integer',
    default: 0,
    help: 'fleet mode: global index of the first controller of this process, for shards of one fleet (indexes, ports, addresses and identities then never overlap)',
  },
  {
    key: 'vendorBiosPlace',
    flag: 'vendor-bios-place',
    env: 'BMC_VENDOR_BIOS_PLACE',
    type: 'string',
    default: 'oem',
    help: "where the vendor BIOS resources (Boot, iScsi, ServerConfigLock, KmsConfig, TlsConfig) live: oem (Bios/Oem/<name>/, iLO 6's and iLO 5 v2's) or bios (directly under Bios/, the service's earlier one and iLO 5 v3's)",
  },
];

export class ConfigError extends Error {}

export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const o of OPTIONS) if (o.default !== undefined) out[o.key] = o.default;
  return { ...(out as unknown as Config), ...overrides };
}

/** Flags win over environment variables, which win over defaults. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const { values } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(OPTIONS.map((o) => [o.flag, { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const) }])),
    strict: true,
    allowPositionals: false,
  });
  const out: Record<string, unknown> = {};
  for (const o of OPTIONS) {
    const given = (values as Record<string, string | boolean | undefined>)[o.flag];
    if (o.type === 'boolean') {
      out[o.key] = given === true || (given === undefined && booleanEnv(o, env[o.env]));
      continue;
    }
    const raw = (given as string | undefined) ?? env[o.env];
    if (raw === undefined || raw === '') {
      if (o.default !== undefined) out[o.key] = o.default;
      continue;
    }
    if (o.type === 'integer') {
      if (!/^\d+$/.test(raw)) throw new ConfigError(`--${o.flag} (${o.env}) must be a whole number, got "${raw}"`);
      out[o.key] = Number(raw);
    } else {
      out[o.key] = raw;
    }
  }
  const config = out as unknown as Config;
  if (config.adminPasswordFile !== undefined) {
    if (config.adminPassword !== undefined) {
      throw new ConfigError('--admin-password (BMC_ADMIN_PASSWORD) and --admin-password-file (BMC_ADMIN_PASSWORD_FILE) exclude each other');
    }
    config.adminPassword = readPasswordFile(config.adminPasswordFile);
  }
  if (config.port > 65535) throw new ConfigError(`--port must be 0-65535 (0: any free port), got ${config.port}`);
  if (config.ssdpPort > 65535) throw new ConfigError(`--ssdp-port must be 0-65535 (0: no SSDP), got ${config.ssdpPort}`);
  if (Boolean(config.tlsCert) !== Boolean(config.tlsKey)) throw new ConfigError('--tls-cert and --tls-key go together');
  if (config.maxSessions < 1) throw new ConfigError('--max-sessions must be at least 1');
  for (const o of OPTIONS.filter((x) =>
    [
      'tlsHandshakeTimeout',
      'headersTimeout',
      'keepAliveTimeout',
      'bodyTimeout',
      'bodyMinRate',
      'maxConnections',
      'maxConnectionsPerSource',
      'activitySize',
    ].includes(x.key),
  )) {
    if ((config[o.key] as number) < 1) throw new ConfigError(`--${o.flag} must be at least 1`);
  }
  if (config.maxSessionsPerAccount < 1) throw new ConfigError('--max-sessions-per-account must be at least 1');
  if (config.maxSsePerAccount < 1) throw new ConfigError('--max-sse-per-account must be at least 1');
  if (config.maxAccounts < 1) throw new ConfigError('--max-accounts must be at least 1');
  if (config.maxExpansionsPerAccount < 1) throw new ConfigError('--max-expansions-per-account must be at least 1');
  if (!['fast', 'realistic'].includes(config.timing)) throw new ConfigError(`--timing must be fast or realistic, got ${config.timing}`);
  if (!['oem', 'bios'].includes(config.vendorBiosPlace))
    throw new ConfigError(`--vendor-bios-place must be oem or bios, got ${config.vendorBiosPlace}`);
  if (!['crash', 'power-loss'].includes(config.durability)) {
    throw new ConfigError(`--durability must be crash or power-loss, got ${config.durability}`);
  }
  if (!['spec', 'dmtf'].includes(config.dialect)) throw new ConfigError(`--dialect must be spec or dmtf, got ${config.dialect}`);
  if (!isOemName(config.oemName))
    throw new ConfigError(`--oem-name must be a letter followed by letters and digits (at most 32), got '${config.oemName}'`);
  if (!['absent', 'installed', 'in-use'].includes(config.tpm))
    throw new ConfigError(`--tpm must be absent, installed or in-use, got ${config.tpm}`);
  if (config.runtimeAgent !== undefined && !['absent', 'installed'].includes(config.runtimeAgent)) {
    throw new ConfigError(`--runtime-agent must be installed or absent, got ${config.runtimeAgent}`);
  }
  checkResourceIds(config);
  checkFleet(config);
  return config;
}

/** The longest --system-id, --chassis-id or --manager-id. */
const MAX_RESOURCE_ID_LENGTH = 64;
/** URI-unreserved characters (RFC 3986): an id made of them is its own URI segment, with no percent-encoding. */
const RESOURCE_ID_CHARACTER = /[A-Za-z0-9._~-]/;

/**
 * The system, chassis and manager ids: each is a segment of every URI under it, and an @odata.id
 * may hold neither RFC 1738 unsafe characters nor percent-encoding, so only URI-unreserved
 * characters are allowed (not only dots, which are path steps), 1 to 64 of them.
 */
export function checkResourceIds(config: Pick<Config, 'systemId' | 'chassisId' | 'managerId'>): void {
  for (const o of OPTIONS) {
    if (o.key !== 'systemId' && o.key !== 'chassisId' && o.key !== 'managerId') continue;
    const id = config[o.key];
    const bad = [...id].find((c) => !RESOURCE_ID_CHARACTER.test(c));
    const why =
      id.length === 0
        ? 'it is empty'
        : id.length > MAX_RESOURCE_ID_LENGTH
          ? `it is longer than ${MAX_RESOURCE_ID_LENGTH} characters`
          : bad !== undefined
            ? `${JSON.stringify(bad)} would need percent-encoding in its URIs`
            : /^\.+$/.test(id)
              ? 'it is only dots'
              : undefined;
    if (why) {
      throw new ConfigError(
        `--${o.flag} (${o.env}) must be 1 to ${MAX_RESOURCE_ID_LENGTH} of the characters A-Z a-z 0-9 . _ ~ - and not only dots, got ${JSON.stringify(id)}: ${why}`,
      );
    }
  }
}

/** The fleet flags agree with each other and leave every controller a port and an address. */
function checkFleet(config: Config): void {
  const fleetMode = config.fleet !== undefined || config.fleetManifest !== undefined;
  if (!fleetMode) {
    if (config.fleetAddresses !== undefined || config.fleetIndexOffset !== 0) {
      throw new ConfigError('--fleet-addresses and --fleet-index-offset need --fleet or --fleet-manifest');
    }
    return;
  }
  if (config.fleet !== undefined && config.fleet < 1) throw new ConfigError('--fleet must be at least 1');
  if (config.tlsCert) throw new ConfigError('--tls-cert cannot be used with a fleet: each controller gets a certificate from the fleet CA');
  if (config.fleetAddresses !== undefined) {
    const first = ipv4ToNumber(config.fleetAddresses);
    if (first === undefined) throw new ConfigError(`--fleet-addresses must be an IPv4 address, got "${config.fleetAddresses}"`);
    const last = first + config.fleetIndexOffset + (config.fleet ?? 1) - 1;
    if (last > 0xffffffff) throw new ConfigError('--fleet-addresses: the fleet runs past 255.255.255.255');
  } else if (config.port === 0) {
    throw new ConfigError('--port 0 cannot be used with a fleet: controller i listens on --port + i');
  } else if (config.port + config.fleetIndexOffset + (config.fleet ?? 1) - 1 > 65535) {
    throw new ConfigError(`--port ${config.port} + ${config.fleetIndexOffset + (config.fleet ?? 1) - 1} runs past port 65535`);
  }
}

/** A dotted IPv4 address as a number, or undefined when it is not one. */
export function ipv4ToNumber(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

export function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** A boolean option's environment variable: 1/true or 0/false (unset or empty: the default). */
function booleanEnv(o: Option, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return o.default === true;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`${o.env} must be 1/true or 0/false, got "${raw}"`);
}

/** The password a file holds: one line, its line ending dropped. */
function readPasswordFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--admin-password-file: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const password = text.replace(/\r?\n$/, '');
  if (password === '') throw new ConfigError(`--admin-password-file: ${file} is empty`);
  if (/[\r\n]/.test(password)) throw new ConfigError(`--admin-password-file: ${file} holds more than one line`);
  return password;
}

export function usage(): string {
  const lines = OPTIONS.map((o) => {
    const def = o.default !== undefined && o.type !== 'boolean' ? ` (default ${o.default})` : '';
    return `  --${o.flag.padEnd(16)} ${o.env.padEnd(20)} ${o.help}${def}`;
  });
  return `Usage: npm start -- [options]\n\nOptions (flag, environment variable, meaning):\n${lines.join('\n')}\n`;
}
