// Fleet mode (--fleet, --fleet-manifest): one process serves many independent
// controllers. Each has its own data dir, database, listener, clock and
// identity; the fleet makes once what they can share (the first
// administrator's hash, the CA that signs their certificates, the vendor keys,
// hardware profiles, one SSDP socket, one log) and hands it to each start.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import {
  INITIAL_PASSWORD_FILE,
  missingVendorKeys,
  startDiscovery,
  startService,
  warnOfNewKeys,
  writeDatabaseTemplate,
  type ControllerSeat,
  type RunningService,
} from '../app.js';
import { ipv4ToNumber, numberToIpv4, type Config } from '../config.js';
import { generatePassword, hashPassword, verifyPassword } from '../domain/accounts/passwords.js';
import { VendorSigningKey } from '../domain/firmware/signing.js';
import { OutboundConnections } from '../domain/events/delivery.js';
import type { FleetMemberState, FleetView } from '../domain/fleet/fleet-view.js';
import { ensureVendorLicenseKey } from '../domain/licensing/license-keys.js';
import { readDataFile } from '../lib/data-file-error.js';
import { baseRefusal } from '../messages/refusal.js';
import { checkKeyPairFiles } from '../lib/key-file.js';
import { createLog, type ServiceLog } from '../logging.js';
import { SystemClock, type Clock } from '../platform/clock.js';
import { loadHardwareProfile, type HardwareProfile } from '../platform/hardware/profile.js';
import {
  fastIssuer,
  issueCertificate,
  issueServerCertificate,
  loadIssuer,
  type FastIssuer,
  type IssuedCertificate,
} from '../platform/x509.js';
import type { Ssdp } from '../discovery/ssdp.js';
import { ConnectionBudget, SharedPorts } from '../http/shared-ports.js';
import { DatabasePool } from '../store/database-pool.js';
import { prepareDataDir } from '../store/data-dir.js';
import { Secrets } from '../store/secrets.js';
import { descriptorLimit, planDescriptors, type DescriptorBudget } from './descriptors.js';
import { loadFleetManifest, FleetManifestError, type FleetGroup } from './manifest.js';

export const FLEET_CA_CERT = 'fleet-ca.pem';
export const FLEET_CA_KEY = 'fleet-ca-key.pem';
const FLEET_ADMIN_HASH = 'fleet-admin-hash';
const DATABASE_TEMPLATE = 'controller-template.sqlite';
/** Controllers started at once: their starts wait on files and key generation, so a few overlap well. */
const START_CONCURRENCY = 8;

export interface FleetMember {
  /** Global index (shards included). */
  index: number;
  /** Position in the manifest (0 without one). */
  group: number;
  hardware: string;
  host: string;
  port: number;
  dataDir: string;
  factory: FleetGroup;
}

export interface RunningFleet {
  members: readonly FleetMember[];
  /** The running controllers, in member order. */
  controllers: readonly RunningService[];
  /** Service root URL of a member (by position in this process). */
  url(position: number): string;
  /** The fleet's first administrator password, when generated on this start. */
  generatedPassword?: string;
  /** PEM of the CA every controller's certificate is signed by. */
  caPem: string;
  view: FleetView;
  /** How the descriptor limit is shared: listening sockets, connections, databases open at once. */
  descriptors: DescriptorBudget;
  databases: DatabasePool;
  /** The fleet's own log (each controller logs through a child of it). */
  log: Logger;
  flushLog(): void;
  close(): Promise<void>;
}

export interface FleetOptions {
  /** The clock of each controller (tests: a ManualClock each); default the wall clock, movable with --enable-control. */
  clock?: (index: number) => Clock | undefined;
  logger?: Logger;
  /** The descriptor limit to share (tests); default the process's (ulimit -n). */
  descriptorLimit?: number;
}

/** The members this process serves: indexes, addresses, ports, data dirs, and what each is made of. */
export function planFleet(config: Config): FleetMember[] {
  const groups: FleetGroup[] = config.fleetManifest
    ? loadFleetManifest(config.fleetManifest, config.hardware)
    : [{ count: config.fleetIndexOffset + (config.fleet ?? 1), hardware: config.hardware }];
  const total = groups.reduce((n, g) => n + g.count, 0);
  const first = config.fleetIndexOffset;
  const count = config.fleet ?? total - first;
  if (count < 1 || first + count > total) {
    throw new FleetManifestError(
      `the manifest describes ${total} controllers; indexes ${first}..${first + Math.max(count, 1) - 1} are not all in it`,
    );
  }
  const root = resolve(config.dataDir);
  const firstAddress = config.fleetAddresses === undefined ? undefined : ipv4ToNumber(config.fleetAddresses);
  const members: FleetMember[] = [];
  let start = 0;
  groups.forEach((g, groupIndex) => {
    for (let index = Math.max(start, first); index < Math.min(start + g.count, first + count); index++) {
      members.push({
        index,
        group: groupIndex,
        hardware: g.hardware,
        host: firstAddress === undefined ? config.host : numberToIpv4(firstAddress + index),
        port: firstAddress === undefined ? config.port + index : config.port,
        dataDir: join(root, 'controllers', String(index)),
        factory: g,
      });
    }
    start += g.count;
  });
  return members;
}

/** The UUID of the controller with this global index: the same on every start and in every shard. */
export function fleetUuid(index: number): string {
  const h = createHash('sha256').update(`bmc-redfish fleet controller ${index}`).digest('hex');
  // RFC 9562 layout: version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function startFleet(config: Config, opts: FleetOptions = {}): Promise<RunningFleet> {
  const members = planFleet(config);
  const root = resolve(config.dataDir);
  prepareDataDir(root);
  const wall = new SystemClock();
  let ownLog: ServiceLog | undefined;
  const log = opts.logger ?? (ownLog = createLog(config.logLevel, wall)).log;
  // Controllers with addresses of their own share one listening socket per port; on ports of their own, one each.
  const listeners = config.fleetAddresses === undefined ? undefined : new SharedPorts();
  const ports = listeners ? 1 : members.length;
  const descriptors = planDescriptors(
    opts.descriptorLimit ?? descriptorLimit(),
    members.length,
    ports + (config.ssdpPort ? 1 : 0),
    config.maxConnections,
  );
  const databases = new DatabasePool(descriptors.databases);
  const connections = new ConnectionBudget(descriptors.connections);
  const outbound = new OutboundConnections(descriptors.outbound);
  log.info(
    descriptors,
    `file descriptor limit ${descriptors.limit ?? 'unbounded'}: ${ports} socket(s) to accept on, ${descriptors.connections} connections, ` +
      `${outbound.maxConnections} for event deliveries (${descriptors.outbound.perOrigin} per destination), ` +
      `${descriptors.databases} of ${members.length} databases open at once (the others are opened when used)`,
  );

  // One password for every controller: given, or generated once into the fleet's data dir.
  const passwordFile = join(root, INITIAL_PASSWORD_FILE);
  let generatedPassword: string | undefined;
  let password = config.adminPassword;
  if (password === undefined && existsSync(passwordFile)) password = readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
  if (password === undefined) {
    password = generatedPassword = generatePassword();
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const admin = { password, hash: await fleetPasswordHash(root, password, config.scryptLogN), reset: config.adminPassword !== undefined };

  const ca = await fleetCa(root, wall);
  const signer = fastIssuer(ca);
  // A fleet that ran before (it has controllers) and lost a vendor key gets a new one, and says so.
  const lostKeys = existsSync(join(root, 'controllers')) ? missingVendorKeys(root) : [];
  const licenseKey = ensureVendorLicenseKey(root);
  const firmwareKey = VendorSigningKey.loadOrCreate(root);
  warnOfNewKeys(log, root, lostKeys);
  const secrets = Secrets.loadOrCreate(root);
  // Made again at every start, so it always has this version's migrations.
  const databaseTemplate = join(root, DATABASE_TEMPLATE);
  writeDatabaseTemplate(databaseTemplate, () => wall.now());
  const profiles = new Map<string, HardwareProfile>();
  const profile = (name: string) => {
    let p = profiles.get(name);
    if (!p) profiles.set(name, (p = loadHardwareProfile(name)));
    return p;
  };
  for (const m of members) profile(m.hardware);

  const running: (RunningService | undefined)[] = members.map(() => undefined);
  const view: FleetView = {
    members: () => members.map((m, i) => memberState(m, running[i])),
    summary: () => ({
      Controllers: members.length,
      FirstIndex: members[0]!.index,
      Started: running.filter(Boolean).length,
      Descriptors: {
        Limit: descriptors.limit ?? null,
        ListeningSockets: ports,
        Connections: descriptors.connections,
        EventDeliveryConnections: outbound.maxConnections ?? 0,
        ConnectionsOpen: connections.held,
        DatabasesOpenAtOnce: databases.maxOpen,
        DatabasesOpen: databases.openCount,
        DatabasesReopened: databases.reopened,
      },
    }),
    addFaultRule: (targets, input, by) => {
      const positions = targets === 'All' ? members.map((_, i) => i) : targets.map((g) => members.findIndex((m) => m.index === g));
      const missing = targets === 'All' ? undefined : targets.find((_, i) => !running[positions[i]!]?.services.faultRules);
      if (missing !== undefined) throw baseRefusal('PropertyValueNotInList', String(missing), 'Controllers').about('Controllers');
      const made = positions.map((p) => running[p]?.services.faultRules).filter((r) => r !== undefined);
      const first = made[0]!.add(input, by);
      for (const r of made.slice(1)) r.add(input, by, first.Id);
      return first;
    },
  };
  const seatOf = (m: FleetMember): ControllerSeat => ({
    serviceUuid: fleetUuid(m.index),
    hardware: profile(m.hardware),
    admin,
    issueTls: () => issueControllerCertificate(ca, signer, m, wall),
    licenseKey,
    firmwareKey,
    secrets,
    databaseTemplate,
    factory: { firmware: m.factory.firmware, power: m.factory.power, license: m.factory.license },
    fleet: view,
    listeners,
    connections,
    databases,
    outbound,
  });

  let next = 0;
  const startOne = async (position: number) => {
    const m = members[position]!;
    const own: Config = {
      ...config,
      dataDir: m.dataDir,
      host: m.host,
      port: m.port,
      hardware: m.hardware,
      adminPassword: password,
      adminPasswordFile: undefined,
      ssdpPort: 0,
      fleet: undefined,
      fleetManifest: undefined,
      fleetAddresses: undefined,
      fleetIndexOffset: 0,
    };
    running[position] = await startService(own, {
      seat: seatOf(m),
      logger: log.child({ controller: m.index }),
      clock: opts.clock?.(m.index),
    });
  };
  const closeAll = async () => {
    await Promise.all(running.map((r) => r?.close()));
    await outbound.close();
  };
  // A start that fails stops the others from taking more, and waits for those under way: each is
  // closed with the rest (one still starting when the first failed was left serving before).
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(START_CONCURRENCY, members.length) }, async () => {
      while (next < members.length && !failure) {
        try {
          await startOne(next++);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) {
    await closeAll();
    await ownLog?.close();
    throw failure.error;
  }
  const controllers = running as RunningService[];
  const ssdp: Ssdp | undefined = config.ssdpPort
    ? await startDiscovery(
        config.ssdpPort,
        controllers.map((c) => c.discovery),
        wall,
        log,
      )
    : undefined;
  return {
    members,
    controllers,
    url: (position) => controllers[position]!.url,
    generatedPassword,
    caPem: ca.certPem,
    view,
    descriptors,
    databases,
    log,
    flushLog: () => ownLog?.flush(),
    close: async () => {
      await ssdp?.close();
      await closeAll();
      await ownLog?.close();
    },
  };
}

function memberState(m: FleetMember, r: RunningService | undefined): FleetMemberState {
  const host = m.host.includes(':') ? `[${m.host}]` : m.host;
  // Port 0 (tests) is the port the system picked.
  const port = r?.port ?? m.port;
  const state: FleetMemberState = {
    Index: m.index,
    ServiceRoot: `https://${host}:${port}/redfish/v1/`,
    Address: m.host,
    Port: port,
    Hardware: m.hardware,
    Group: m.group,
  };
  if (!r) return state;
  const s = r.services;
  return {
    ...state,
    PowerState: s.server.powerState(),
    Health: s.health.rollupPrefix(''),
    FirmwareVersion: s.firmware.controllerVersion(),
  };
}

/**
 * The hash every controller stores for the first administrator. Kept in the fleet's data dir and
 * reused while the password is the same, so a restart rewrites no account of any controller.
 */
async function fleetPasswordHash(root: string, password: string, logN: number): Promise<string> {
  const file = join(root, FLEET_ADMIN_HASH);
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  if (kept && kept.startsWith(`scrypt$${logN}$`) && (await verifyPassword(password, kept))) return kept;
  const hash = await hashPassword(password, logN);
  writeFileSync(file, `${hash}\n`, { mode: 0o600 });
  return hash;
}

/** The fleet's CA, made on the first start into the fleet's data dir. */
async function fleetCa(root: string, clock: Clock): Promise<IssuedCertificate> {
  const certFile = join(root, FLEET_CA_CERT);
  const keyFile = join(root, FLEET_CA_KEY);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const certPem = readDataFile(certFile).toString('utf8');
    const keyPem = readDataFile(keyFile).toString('utf8');
    checkKeyPairFiles(certFile, certPem, keyFile, keyPem, 'every controller gets a certificate from the new CA, which clients must trust');
    return loadIssuer(certPem, keyPem);
  }
  const ca = await issueCertificate({
    subject: 'CN=bmc-redfish fleet CA, O=Vendor',
    notBefore: new Date(clock.now() - 60_000),
    days: 3650,
    ca: true,
  });
  writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
  writeFileSync(certFile, ca.certPem, { mode: 0o644 });
  return ca;
}

/** A controller's HTTPS certificate: its own key, its address in the names, signed by the fleet CA. */
async function issueControllerCertificate(ca: IssuedCertificate, signer: FastIssuer | undefined, m: FleetMember, clock: Clock) {
  const wildcard = m.host === '0.0.0.0' || m.host === '::';
  const isIp = ipv4ToNumber(m.host) !== undefined || m.host.includes(':');
  const ips = new Set(['127.0.0.1', '::1', ...(isIp && !wildcard ? [m.host] : [])]);
  const dns = new Set(['localhost', hostname(), ...(!isIp ? [m.host] : [])]);
  const o = {
    subject: `CN=bmc-${m.index}, O=Vendor, OU=Management Controller`,
    dnsNames: [...dns],
    ipAddresses: [...ips],
    notBefore: new Date(clock.now() - 60_000),
    days: 3650,
  };
  // The fleet's own EC CA signs natively (a fraction of a millisecond); any other through the generic path.
  return signer ? issueServerCertificate(signer, o) : issueCertificate({ ...o, usage: ['server'], issuer: ca });
}
