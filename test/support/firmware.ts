// Firmware test helpers: packages signed with the service's key, multipart
// bodies for the HttpPushUri, and a local HTTPS image server.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { issueCertificate } from '../../src/platform/x509.js';
import type { Activation, ComponentType } from '../../src/domain/firmware/package.js';
import { buildPackage } from '../../src/tools/fwpkg.js';
import type { TestService, Response, Auth } from './service.js';

export const UPLOAD_URI = '/redfish/v1/UpdateService/upload/';

export interface BuiltPackage {
  path: string;
  name: string;
  data: Buffer;
  compsig: string;
}

let counter = 0;

/** Builds a package (or raw .bin when `file` ends in .bin) signed with the service's vendor key. */
export async function makePackage(
  svc: TestService,
  o: {
    targets: string[];
    version: string;
    file?: string;
    type?: ComponentType;
    activation?: Activation;
    image?: Buffer;
    layout?: 'vendor' | 'ilo';
    criticality?: 'Recommended' | 'Optional' | 'Critical';
  },
): Promise<BuiltPackage> {
  const name = o.file ?? `pkg-${++counter}.fwpkg`;
  const path = join(svc.dataDir, name);
  const sigPath = await buildPackage({
    dataDir: svc.dataDir,
    targets: o.targets,
    version: o.version,
    out: path,
    type: o.type,
    activation: o.activation,
    image: o.image,
    layout: o.layout,
    criticality: o.criticality,
  });
  return { path, name, data: readFileSync(path), compsig: readFileSync(sigPath, 'utf8') };
}

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----bmcTest${Date.now().toString(16)}${++counter}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Upload a package over the HttpPushUri with the given parameters. */
export async function upload(
  svc: TestService,
  pkg: Pick<BuiltPackage, 'name' | 'data'> & { compsig?: string },
  o: { params?: Record<string, unknown>; auth?: Auth; sessionKey?: string; cookie?: string; withCompsig?: boolean } = {},
): Promise<Response> {
  const parts: Part[] = [];
  if (o.sessionKey) parts.push({ name: 'sessionKey', data: o.sessionKey });
  if (o.params) parts.push({ name: 'parameters', contentType: 'application/json', data: JSON.stringify(o.params) });
  if (o.withCompsig !== false && pkg.compsig !== undefined)
    parts.push({ name: 'compsig', filename: `${pkg.name}.compsig`, contentType: 'application/octet-stream', data: pkg.compsig });
  parts.push({ name: 'file', filename: pkg.name, contentType: 'application/octet-stream', data: pkg.data });
  const { body, contentType } = multipart(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (o.cookie) headers.cookie = o.cookie;
  return svc.req('POST', UPLOAD_URI, { rawBody: body, headers, auth: o.auth });
}

export interface ImageServer {
  url: string;
  caFile: string;
  requests: string[];
  /** The Authorization header of each request (undefined without one), in the order of `requests`. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** An HTTPS server with a certificate from its own CA; files maps paths to bodies. */
export async function startImageServer(dir: string, files: Map<string, Buffer>): Promise<ImageServer> {
  // The service checks this server's certificate against real time (TLS), so it starts a minute ago.
  const notBefore = new Date(Date.now() - 60_000);
  const ca = await issueCertificate({ subject: 'CN=Test Image CA', ca: true, days: 30, notBefore });
  const leaf = await issueCertificate({
    subject: 'CN=localhost',
    issuer: ca,
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    usage: ['server'],
    days: 30,
    notBefore,
  });
  const caFile = join(dir, `image-ca-${++counter}.pem`);
  writeFileSync(caFile, ca.certPem);
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server: Server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    requests.push(req.url ?? '');
    authorizations.push(req.headers.authorization);
    const body = files.get(req.url ?? '');
    if (req.url === '/slow') return; // never answers: the download time limit must end it
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caFile,
    requests,
    authorizations,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
