// The connection options the tools that talk to a running service share:
// --url, --user, --password (or BMC_URL, BMC_USER, BMC_PASSWORD) and --insecure
// for a self-signed certificate; requests authenticate with Basic.
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import type { Tool } from './tool.js';

export class UsageError extends Error {}

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  insecure: { type: 'boolean', default: false },
} as const;

export const CONNECTION_USAGE = '--url https://<host>:<port> --user <name> --password <password> [--insecure]';

export interface Connection {
  base: string;
  authorization: string;
  agent: Agent;
}

export function connect(values: { url?: string; user?: string; password?: string; insecure?: boolean }): Connection {
  const url = values.url ?? process.env.BMC_URL;
  const user = values.user ?? process.env.BMC_USER;
  const password = values.password ?? process.env.BMC_PASSWORD;
  if (!url || !/^https:\/\//i.test(url)) throw new UsageError('--url https://<host>:<port> (or BMC_URL) is needed');
  if (!user || password === undefined) throw new UsageError('--user and --password (or BMC_USER and BMC_PASSWORD) are needed');
  return {
    base: url.replace(/\/+$/, ''),
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    // --insecure: the controller's own self-signed certificate is accepted.
    agent: new Agent({ connect: { rejectUnauthorized: !values.insecure } }),
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** One request; the answer's JSON body parsed (or its text when it is not JSON). */
export async function call(
  c: Connection,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  raw?: { stream: Readable; contentType: string; length: number },
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: c.authorization, accept: 'application/json' };
  let payload: string | Readable | undefined;
  if (raw) {
    headers['content-type'] = raw.contentType;
    headers['content-length'] = String(raw.length);
    payload = raw.stream;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await request(`${c.base}${path}`, { method, headers, body: payload, dispatcher: c.agent });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return { status: res.statusCode, headers: res.headers, body: parsed };
}

/** The first message of a Redfish error body, for a one-line failure report. */
export function errorText(a: Answer): string {
  const e = (a.body as { error?: { '@Message.ExtendedInfo'?: { MessageId?: string; Message?: string }[]; message?: string } })?.error;
  const info = e?.['@Message.ExtendedInfo']?.[0];
  return `HTTP ${a.status}${info ? `: ${info.MessageId} ${info.Message ?? ''}` : e?.message ? `: ${e.message}` : ''}`;
}

/** An answer printed as JSON, or, when the service refused, its registry message (exit code 1). */
export function printAnswer(label: string, answer: Answer): void {
  if (answer.status >= 300) {
    process.stderr.write(`${label}: ${errorText(answer)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify(answer.body, null, 2)}\n`);
}

/** A usage error printed with the usage (exit code 2); anything else is thrown on. */
export function usageFailure(e: unknown, usage: string): void {
  if (!(e instanceof UsageError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) throw e;
  process.stderr.write(`${(e as Error).message}\n\n${usage}`);
  process.exitCode = 2;
}

/** A tool of commands against a running service: `<name> <command> [args] --url ...`. */
export function apiTool(
  name: string,
  summary: string,
  usage: string,
  command: (c: Connection, cmd: string, args: string[]) => Promise<Answer>,
): Tool {
  return {
    summary,
    async run(argv) {
      try {
        const { values, positionals } = parseArgs({ args: argv, options: CONNECTION_OPTIONS, allowPositionals: true, strict: true });
        const [cmd, ...args] = positionals;
        if (!cmd) throw new UsageError('a command is needed');
        printAnswer(`${name} ${cmd}`, await command(connect(values), cmd, args));
      } catch (e) {
        usageFailure(e, usage);
      }
    },
  };
}
