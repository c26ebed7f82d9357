// Runs the real command line (`tsx src/cli.ts`) as a child process, for tests
// of start-up, logging and durability across kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Child {
  proc: ChildProcess;
  url: string;
  stdout(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

export interface ChildOptions {
  /** Run under this descriptor limit (soft and hard, through prlimit). */
  nofile?: number;
  /** How long the start may take (30 s). */
  startMs?: number;
  /** Flags for node itself (before the script), as `npm run fleet` gives them. */
  nodeFlags?: string[];
}

function spawnCli(args: string[], env: Record<string, string>, o: ChildOptions = {}): ChildProcess {
  const cli = [process.execPath, ...(o.nodeFlags ?? []), '--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args];
  const [cmd, ...argv] = o.nofile === undefined ? cli : ['prlimit', `--nofile=${o.nofile}:${o.nofile}`, ...cli];
  return spawn(cmd!, argv, {
    cwd: ROOT,
    // No SSDP announcements from test runs unless a test asks for them.
    env: { ...process.env, BMC_SCRYPT_LOG_N: '10', BMC_SSDP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the command line until it exits (a start that must fail): its exit code and what it wrote. */
export async function runToExit(
  args: string[],
  env: Record<string, string> = {},
  ms = 30_000,
  o: ChildOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawnCli(args, env, o);
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (d) => (stdout += d));
  proc.stderr?.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      resolve(null);
    }, ms);
    proc.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, stdout, stderr };
}

export async function startChild(args: string[], env: Record<string, string> = {}, o: ChildOptions = {}): Promise<Child> {
  const proc = spawnCli(args, env, o);
  let out = '';
  proc.stdout?.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), o.startMs ?? 30_000);
    const check = () => {
      const m = /"url":"(https:\/\/[^"]+)\/redfish\/v1\/"/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout?.on('data', check);
    proc.on('exit', () => reject(new Error(`service exited:\n${out}`)));
  });
  return { proc, url, stdout: () => out, exited };
}
