import { parseConfig } from './dist/config.js';
import { startFleet } from './dist/fleet/fleet.js';
import pino from 'pino';
const t = Date.now();
const f = await startFleet(parseConfig(process.argv.slice(2), {}), { logger: pino({ level: 'warn' }) });
console.log('start ms', Date.now() - t);
await f.close();
process.exit(0);
