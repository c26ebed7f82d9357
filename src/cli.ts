#!/usr/bin/env node
// Command line: `npm start -- [options]` runs the service.
import { join, resolve } from 'node:path';
import { INITIAL_PASSWORD_FILE, startService } from './app.js';
import type { Logger } from 'pino';
import { ConfigError, parseConfig, usage, type Config } from './config.js';
import { FLEET_CA_CERT, startFleet } from './fleet/fleet.js';
import { FleetManifestError } from './fleet/manifest.js';
import { TlsIdentityError } from './http/tls.js';
import { HardwareProfileError } from './platform/hardware/profile.js';
import { SystemClock } from './platform/clock.js';
import { asDataFileError, type DataFileProblem } from './lib/data-file-error.js';
import { SecretsError } from './store/secrets.js';
import { TOOLS } from './tools/index.js';

async function fullUsage(): Promise<string> {
  const tools = await Promise.all(
    Object.entries(TOOLS).map(async ([name, load]) => `  npm run cli -- ${name.padEnd(10)} ${(await load()).summary}`),
  );
  return usage() + (tools.length ? `\nTools:\n${tools.join('\n')}\n` : '');
}

async function main(argv: string[]): Promise<void> {
  const tool = argv[0] !== undefined && Object.hasOwn(TOOLS, argv[0]) ? TOOLS[argv[0]] : undefined;
  if (tool) return (await tool()).run(argv.slice(1));
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(await fullUsage());
    return;
  }
  let config;
  try {
    config = parseConfig(argv, process.env);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n\n${await fullUsage()}`);
    process.exit(EXIT.usage);
  }
  if (config.fleet !== undefined || config.fleetManifest !== undefined) return runFleet(config);
  const service = await startService(config);
  if (service.generatedPassword) {
    process.stdout.write(
      `\nFirst start: user "${config.adminUser}" has the generated password\n\n    ${service.generatedPassword}\n\n` +
        `It is also in ${join(resolve(config.dataDir), INITIAL_PASSWORD_FILE)}. It is not shown again.\n\n`,
    );
  }
  // Causes are fixed where they arise; this only keeps one from ending the service.
  keepServing(service.services.log, () => service.flushLog());
  // Before "listening": a stop asked for as soon as that is read closes the service properly.
  stopOnSignal(
    service.services.log,
    () => service.flushLog(),
    () => service.close(),
  );
  service.services.log.info({ url: `${service.url}/redfish/v1/` }, 'Redfish service listening');
  service.flushLog();
}

/** Fleet mode: many controllers in this process (src/fleet/). */
async function runFleet(config: Config): Promise<void> {
  const started = Date.now();
  const fleet = await startFleet(config);
  const log = fleet.log;
  if (fleet.generatedPassword) {
    process.stdout.write(
      `\nFirst start: user "${config.adminUser}" has the generated password\n\n    ${fleet.generatedPassword}\n\n` +
        `on every controller. It is also in ${join(resolve(config.dataDir), INITIAL_PASSWORD_FILE)}. It is not shown again.\n\n`,
    );
  }
  keepServing(log, () => fleet.flushLog());
  stopOnSignal(
    log,
    () => fleet.flushLog(),
    () => fleet.close(),
  );
  const young = { min: semiSpaceFlag('min') ?? 0, max: semiSpaceFlag('max') ?? NODE_MAX_SEMI_SPACE_MIB };
  if (young.min < FLEET_SEMI_SPACE_MIB || young.max < FLEET_SEMI_SPACE_MIB) {
    log.warn(
      { minSemiSpaceMiB: young.min, maxSemiSpaceMiB: young.max },
      `a fleet runs best with node ${FLEET_YOUNG_GENERATION} (npm run fleet): each scavenge walks every page of the old generation, so a smaller young generation, scavenged more often, costs throughput and latency`,
    );
  }
  const tcache = tcacheCount();
  if (tcache < FLEET_TCACHE_COUNT) {
    log.warn(
      { tcacheCount: tcache },
      `a fleet runs best with GLIBC_TUNABLES=${FLEET_GLIBC_TUNABLES} (npm run fleet): in a heap its controllers fragmented, glibc's malloc searches its bins on every request that its per-thread cache of 7 chunks a size cannot answer`,
    );
  }
  const m = fleet.members;
  log.info(
    {
      controllers: m.length,
      url: `${fleet.url(0)}/redfish/v1/`,
      last: `${fleet.url(m.length - 1)}/redfish/v1/`,
      ca: join(resolve(config.dataDir), FLEET_CA_CERT),
      startMs: Date.now() - started,
    },
    'Redfish fleet listening',
  );
  fleet.flushLog();
}

/**
 * How long a stop (SIGTERM, SIGINT) may take. Deliveries in flight are aborted at once and stay owed
 * in the outbox; whatever still holds the close after this (a client that never lets go) is cut by
 * exiting: every acknowledged write is committed already, as after kill -9.
 */
const SHUTDOWN_GRACE_MS = 10_000;

function stopOnSignal(log: Logger, flush: () => void, close: () => Promise<void>): void {
  const stop = async (signal: NodeJS.Signals) => {
    log.info({ signal }, 'stopping');
    new SystemClock().setTimer(SHUTDOWN_GRACE_MS, () => {
      log.warn({ graceSeconds: SHUTDOWN_GRACE_MS / 1000 }, 'the stop did not finish within its grace period; exiting now');
      flush();
      process.exit(0);
    });
    try {
      await close();
    } catch (err) {
      log.error({ err }, 'the stop failed; exiting');
      flush();
    }
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The young generation a fleet wants, at all times: each scavenge walks every page of the old
 * generation (gigabytes at ten thousand controllers, milliseconds a scavenge), so the fewer the
 * better, and the requests' objects die young at any size. Without the floor V8 shrinks the young
 * generation to a megabyte whenever the fleet idles and grows it back only slowly under load.
 */
const FLEET_SEMI_SPACE_MIB = 256;
const FLEET_YOUNG_GENERATION = `--min-semi-space-size=${FLEET_SEMI_SPACE_MIB} --max-semi-space-size=${FLEET_SEMI_SPACE_MIB}`;
/** node's --max-semi-space-size when none is given (64-bit). */
const NODE_MAX_SEMI_SPACE_MIB = 16;

/** --min- or --max-semi-space-size as node was started with it (NODE_OPTIONS, then its flags); undefined when not given. */
function semiSpaceFlag(which: 'min' | 'max'): number | undefined {
  const flag = new RegExp(`^--${which}-semi-space-size=(\\d+)$`);
  const given = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv]
    .map((a) => flag.exec(a)?.[1])
    .filter((v) => v !== undefined);
  return given.length ? Number(given[given.length - 1]) : undefined;
}

/**
 * glibc's per-thread cache of freed chunks a fleet wants (package.json config.fleet_glibc_tunables):
 * with the default 7 a size, a fleet's requests reach malloc's bins, which 10,000 controllers'
 * allocations have made long (its bin search took 1.1 µs of a GET at 10,000, 0.2 for a single controller).
 */
const FLEET_TCACHE_COUNT = 1024;
const FLEET_GLIBC_TUNABLES = `glibc.malloc.tcache_count=${FLEET_TCACHE_COUNT}`;
/** glibc's default tcache_count. */
const GLIBC_TCACHE_COUNT = 7;

/** glibc.malloc.tcache_count as GLIBC_TUNABLES gave it at start (read by glibc then, so the environment is what it read). */
function tcacheCount(): number {
  const given = /(?:^|:)glibc\.malloc\.tcache_count=(\d+)/.exec(process.env.GLIBC_TUNABLES ?? '');
  return given ? Number(given[1]) : GLIBC_TCACHE_COUNT;
}

/** The last line of defence: a fault that escaped its handler is logged and the service keeps serving. */
function keepServing(log: Logger, flush: () => void): void {
  process.on('uncaughtException', (err) => {
    log.error({ err }, 'uncaught exception; the service keeps running');
    flush();
  });
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection; the service keeps running');
    flush();
  });
}

/** Exit codes, one per kind of failure (docs/durability.md, "Exit codes"). */
const EXIT = {
  /** A fault of the service itself: printed with its stack. */
  fault: 1,
  /** The command line or the configuration it names (flags, --tls-cert, hardware profile, fleet manifest). */
  usage: 2,
  damaged: 3,
  unwritable: 4,
  notAFile: 5,
  noSpace: 6,
  /** The address to listen on is taken or not this machine's. */
  address: 7,
} as const;

const PROBLEM_EXIT: Record<DataFileProblem, number> = {
  damaged: EXIT.damaged,
  unwritable: EXIT.unwritable,
  'not-a-file': EXIT.notAFile,
  'no-space': EXIT.noSpace,
};

/** What a failed start prints (one line, no stack unless it is a fault of the service) and its exit code. */
function startFailure(e: unknown): { line: string; code: number } {
  if (e instanceof ConfigError || e instanceof TlsIdentityError || e instanceof HardwareProfileError || e instanceof FleetManifestError)
    return { line: e.message, code: EXIT.usage };
  const file = asDataFileError(e);
  if (file) return { line: `cannot start: ${file.message}`, code: PROBLEM_EXIT[file.problem] };
  if (e instanceof SecretsError) return { line: `cannot start: ${e.message}`, code: EXIT.damaged };
  const net = e as Partial<NodeJS.ErrnoException> & { address?: string; port?: number };
  if (net.syscall === 'listen' || net.syscall === 'bind') {
    return {
      line: `cannot start: cannot listen on ${net.address ?? ''}:${net.port ?? ''} (${net.code}). Choose another --host or --port, or stop what uses it`,
      code: EXIT.address,
    };
  }
  return { line: e instanceof Error ? (e.stack ?? e.message) : String(e), code: EXIT.fault };
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const { line, code } = startFailure(e);
  process.stderr.write(`${line}\n`);
  process.exit(code);
});
