// `npm run cli -- license issue --data-dir <dir> --tier Advanced [--licensee ...] [--days N | --expires ISO]`
// prints a license key signed by the vendor license key of that data dir.
// `license show <key> --data-dir <dir>` verifies a key and prints its payload.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ISSUABLE_TIERS,
  LicenseKeyError,
  ensureVendorLicenseKey,
  issueLicenseKey,
  newSerial,
  verifyLicenseKey,
  type IssuableTier,
} from '../domain/licensing/license-keys.js';
import { SystemClock } from '../platform/clock.js';

const USAGE = `Usage:
  npm run cli -- license issue --data-dir <dir> --tier <${ISSUABLE_TIERS.join('|')}> [--licensee <name>] [--days <n> | --expires <ISO time>]
  npm run cli -- license show --data-dir <dir> <key>
`;

class UsageError extends Error {}

function issue(argv: string[]): string {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string', default: process.env.BMC_DATA_DIR ?? './data' },
      tier: { type: 'string' },
      licensee: { type: 'string', default: 'Test Licensee' },
      days: { type: 'string' },
      expires: { type: 'string' },
    },
    strict: true,
  });
  const tier = values.tier as IssuableTier | undefined;
  if (!tier || !ISSUABLE_TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${ISSUABLE_TIERS.join(', ')}`);
  if (values.days !== undefined && values.expires !== undefined) throw new UsageError('give --days or --expires, not both');
  // A command-line tool runs outside the service: the system clock gives the issue date.
  const issued = new Date(new SystemClock().now());
  let expires: string | undefined;
  if (values.days !== undefined) {
    if (!/^\d+$/.test(values.days)) throw new UsageError('--days must be a whole number');
    expires = new Date(issued.getTime() + Number(values.days) * 86_400_000).toISOString();
  } else if (values.expires !== undefined) {
    if (Number.isNaN(Date.parse(values.expires))) throw new UsageError('--expires must be an ISO 8601 time');
    expires = new Date(values.expires).toISOString();
  }
  const dataDir = resolve(values['data-dir']);
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = ensureVendorLicenseKey(dataDir);
  return issueLicenseKey(privateKey, { tier, licensee: values.licensee, serial: newSerial(), issued: issued.toISOString(), expires });
}

function show(argv: string[]): string {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string', default: process.env.BMC_DATA_DIR ?? './data' } },
    allowPositionals: true,
    strict: true,
  });
  const key = positionals[0];
  if (!key) throw new UsageError('give the key to show');
  const { publicKey } = ensureVendorLicenseKey(resolve(values['data-dir']));
  return JSON.stringify(verifyLicenseKey(publicKey, key), null, 2);
}

export const licenseTool = {
  summary: 'issue or check license keys (license issue --tier Advanced --data-dir <dir>)',
  async run(argv: string[]): Promise<void> {
    const [command, ...rest] = argv;
    try {
      if (command === 'issue') process.stdout.write(`${issue(rest)}\n`);
      else if (command === 'show') process.stdout.write(`${show(rest)}\n`);
      else throw new UsageError(command ? `unknown license command "${command}"` : 'give a license command');
    } catch (e) {
      if (!(
        e instanceof UsageError ||
        e instanceof LicenseKeyError ||
        (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))
      ))
        throw e;
      process.stderr.write(`${e.message}\n\n${USAGE}`);
      process.exitCode = 2;
    }
  },
};
