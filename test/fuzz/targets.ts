// What the fuzz suite aims at: every write and action the route table declares,
// each at a concrete URI (found by crawling the running service, or made from
// the template with a stand-in id), with the property names its description
// accepts, so generated bodies hit real validation paths and not only "unknown".
import { gunzipSync } from 'node:zlib';
import type { Props } from '../../src/protocol/description.js';
import type { Match, RouteTable } from '../../src/protocol/routes.js';
import type { TestService } from '../support/service.js';

export interface Target {
  method: 'POST' | 'PATCH' | 'PUT';
  uri: string;
  /** Property or parameter names the description declares for this write. */
  names: string[];
}

function propNames(props: Props | undefined, prefix = '', out: string[] = [], depth = 0): string[] {
  if (!props || depth > 3) return out;
  for (const [k, p] of Object.entries(props)) {
    out.push(prefix + k);
    if (p.type === 'object') propNames(p.properties, `${prefix}${k}/`, out, depth + 1);
  }
  return out;
}

function writeProps(m: Match, method: Target['method']): Props | undefined {
  if (m.action) return m.action.def.parameters;
  const r = m.route;
  if (method === 'PATCH') return r.patch?.body ?? r.type?.properties;
  if (method === 'PUT') return r.put?.body ?? r.type?.properties;
  return r.post?.body ?? r.type?.memberType?.properties ?? r.type?.properties;
}

function collect(v: unknown, links: Set<string>, targets: Set<string>): void {
  if (Array.isArray(v)) return v.forEach((x) => collect(x, links, targets));
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (k === '@odata.id' && typeof x === 'string' && x.startsWith('/redfish/v1/')) links.add(x.split('#')[0] as string);
    else if (k === 'target' && typeof x === 'string') targets.add(x);
    else collect(x, links, targets);
  }
}

/** URIs a fuzzer must not write: the account it authenticates with, and the switch that takes the controller off the network. */
const SPARED = [/^\/redfish\/v1\/AccountService\/Accounts\/1\/$/i, /\.DisableiLOFunctionality\/$/];

/** Every declared write, at a concrete URI; also every URI the crawl found (for reads). */
export async function findTargets(
  svc: TestService,
  routes: RouteTable,
): Promise<{ targets: Target[]; readable: string[]; uncovered: string[] }> {
  const seen = new Set<string>();
  const queue = ['/redfish/v1/'];
  const actionUris = new Set<string>();
  while (queue.length && seen.size < 3000) {
    const uri = queue.shift() as string;
    if (seen.has(uri)) continue;
    seen.add(uri);
    const r = await svc.get(uri, { auth: 'basic' });
    if (r.status !== 200 || !r.body) continue;
    const links = new Set<string>();
    collect(r.body, links, actionUris);
    for (const l of links) if (!seen.has(l)) queue.push(l);
  }
  const concrete = new Map<object, string[]>();
  for (const uri of [...seen, ...actionUris]) {
    const m = routes.match(uri.split('?')[0] as string);
    if (!m) continue;
    const key = m.action ?? m.route;
    concrete.set(key, [...(concrete.get(key) ?? []), m.uri]);
  }
  const targets: Target[] = [];
  const uncovered: string[] = [];
  const add = (m: Match, method: Target['method']) => {
    if (SPARED.some((re) => re.test(m.uri))) return;
    targets.push({ method, uri: m.uri, names: propNames(writeProps(m, method)) });
  };
  for (const route of routes.routes()) {
    const uris = concrete.get(route) ?? [route.path.replace(/\{[^}]+\}/g, '1')];
    if (!concrete.has(route)) uncovered.push(route.path);
    for (const uri of uris.slice(0, 3)) {
      const m = routes.match(uri);
      if (!m) continue;
      if (route.post) add(m, 'POST');
      if (route.patch) add(m, 'PATCH');
      if (route.put) add(m, 'PUT');
    }
    for (const action of route.actions ?? []) {
      const uris = concrete.get(action) ?? [];
      const uri =
        uris[0] ??
        `${concrete.get(route)?.[0] ?? route.path.replace(/\{[^}]+\}/g, '1')}Actions/${action.def.oem ? 'Oem/Vendor/' : ''}${action.def.name}/`;
      const m = routes.match(uri);
      if (m) add(m, 'POST');
    }
  }
  return { targets, readable: [...seen], uncovered };
}

/** Message keys of every registry the service serves, as "Prefix.Key" (versions vary). */
export async function servedMessages(svc: TestService): Promise<Set<string>> {
  const out = new Set<string>();
  const list = await svc.get('/redfish/v1/Registries/', { auth: 'basic' });
  for (const member of list.body.Members as { '@odata.id': string }[]) {
    const file = await svc.get(member['@odata.id'], { auth: 'basic' });
    for (const loc of file.body.Location ?? []) {
      const uri = loc.Uri as string;
      const r = await fetchRaw(svc, uri);
      const doc = JSON.parse(r) as { RegistryPrefix?: string; Messages?: Record<string, unknown> };
      if (!doc.RegistryPrefix || !doc.Messages) continue;
      for (const key of Object.keys(doc.Messages)) out.add(`${doc.RegistryPrefix}.${key}`);
    }
  }
  return out;
}

async function fetchRaw(svc: TestService, uri: string): Promise<string> {
  const { request } = await import('undici');
  const { insecureAgent, basic, ADMIN_USER, ADMIN_PASSWORD } = await import('../support/service.js');
  const r = await request(svc.url + uri, { headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD) }, dispatcher: insecureAgent });
  const buf = Buffer.from(await r.body.arrayBuffer());
  return (r.headers['content-encoding'] === 'gzip' ? gunzipSync(buf) : buf).toString('utf8');
}
