// A fleet's configuration for tests run in-process (startFleet): quiet, fast password hashing.
import { readFileSync } from 'node:fs';
import { defaultConfig, type Config } from '../../src/config.js';
import { ADMIN_PASSWORD } from './service.js';

export function fleetConfig(dataDir: string, over: Partial<Config>): Config {
  return defaultConfig({
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    scryptLogN: 10,
    ssdpPort: 0,
    logLevel: 'silent',
    controllerRebootSeconds: 0,
    ...over,
  });
}

const packageConfig = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { config: Record<string, string> }
).config;

/** The glibc tunables `npm run fleet` starts a fleet with (package.json config.fleet_glibc_tunables). */
export const FLEET_GLIBC_TUNABLES: string = packageConfig.fleet_glibc_tunables!;

/** The node flags `npm run fleet` starts a fleet with (package.json config.fleet_node_flags). */
export const FLEET_NODE_FLAGS: readonly string[] = packageConfig.fleet_node_flags!.split(/\s+/);
