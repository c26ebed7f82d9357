// The yardstick for bench/http.ts: a bare node:https server that answers
// fixed paths with the bytes and headers the real service sent for them.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const [certFile, keyFile, cannedFile, port] = process.argv.slice(2);
const canned = JSON.parse(readFileSync(cannedFile as string, 'utf8')) as Record<string, Canned>;
const server = createServer({ cert: readFileSync(certFile as string), key: readFileSync(keyFile as string) }, (req, res) => {
  const c = canned[`${req.method} ${req.url ?? ''}`];
  if (!c) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(c.status, c.headers).end(c.body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
