// A fleet's configuration for tests run in-process (startFleet): quiet, fast password hashing.
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
