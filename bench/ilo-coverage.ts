// iLO coverage: how much of a real iLO's Redfish tree a running service serves.
//
// A reference is a captured tree of a real controller: a DMTF mockup directory (short form,
// `<dir>/index.json` is /redfish/v1/, or tall form with `<dir>/redfish/v1/index.json`), or a
// template spec JSON ({ "templates": { "/redfish/v1/systems/{id}": { "properties": [...] } } },
// as made from HPE's published resource maps). The service is crawled over HTTPS from
// /redfish/v1/ by following every @odata.id (Members, Links, Oem links, settings objects...).
// Both sides are reduced to URI templates (collection member ids become {id}, segments are
// lower-cased, trailing slashes dropped, `Oem/<name>` becomes `Oem/Hpe`) and, per template, to
// the set of leaf property paths (array indexes collapsed to [], @odata.* left out, BIOS
// attribute names and other open maps cut at the map, the service's OEM name mapped to Hpe).
// A reference template is served by the service URIs it matches segment by segment: its {id}
// matches a collection member, its literal segment a URI segment equal to it (so HPE's
// `logservices/iml` matches the member `iml`, not the member `event`).
//
//   npm run bench:ilo-coverage -- --ref DIR [--ref DIR2 ...] --url https://127.0.0.1:18600 \
//       --user Administrator --password PASS [--oem-name Vendor] [--top 25] [--json out.json]
//   npm run bench:ilo-coverage -- --ref DIR --svc-dir OTHER_MOCKUP_DIR    (compare two trees offline)
//   --save-crawl FILE / --load-crawl FILE: keep one crawl and score it against several trees.
//
// No dependency beyond Node (node:https, node:zlib); runs with `npx tsx` or, stripped of types, node.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join, relative, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Tree = Map<string, Json>; // URI (as served, no trailing slash) → body

interface Options {
  refs: string[];
  url?: string;
  user: string;
  password: string;
  oemName?: string;
  top: number;
  json?: string;
  svcDir?: string;
  saveCrawl?: string;
  loadCrawl?: string;
  maxResources: number;
  concurrency: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { refs: [], user: 'Administrator', password: '', top: 25, maxResources: 20000, concurrency: 4 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = (): string => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    if (a === '--ref') o.refs.push(v());
    else if (a === '--url') o.url = v().replace(/\/+$/, '');
    else if (a === '--user' || a === '-u') o.user = v();
    else if (a === '--password' || a === '-p') o.password = v();
    else if (a === '--oem-name') o.oemName = v();
    else if (a === '--top') o.top = Number(v());
    else if (a === '--json') o.json = v();
    else if (a === '--svc-dir') o.svcDir = v();
    else if (a === '--save-crawl') o.saveCrawl = v();
    else if (a === '--load-crawl') o.loadCrawl = v();
    else if (a === '--max-resources') o.maxResources = Number(v());
    else if (a === '--concurrency') o.concurrency = Number(v());
    else if (a === '--help' || a === '-h') {
      console.log(
        readFileSync(new URL(import.meta.url), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('//'))
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (o.refs.length === 0) throw new Error('give at least one --ref');
  if (!o.url && !o.svcDir && !o.loadCrawl) throw new Error('give --url (with --user/--password), --svc-dir or --load-crawl');
  return o;
}

// ---------- URIs ----------

/** Path part of an @odata.id: no host, no query, no fragment, no trailing slash. */
function cleanUri(raw: string): string | undefined {
  let u = raw.trim();
  if (!u) return undefined;
  const scheme = /^https?:\/\/[^/]+/i.exec(u);
  if (scheme) u = u.slice(scheme[0].length);
  u = u.replace(/[?#].*$/, '');
  if (!u.startsWith('/')) return undefined;
  u = u.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return u || '/';
}

const key = (uri: string): string => decodeURIComponentSafe(uri).toLowerCase();
function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---------- loading trees ----------

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (name === 'index.json') out.push(p);
  }
  return out;
}

/** A DMTF mockup directory (short or tall form) as a tree. */
function loadMockup(dir: string): Tree {
  const base = existsSync(join(dir, 'redfish', 'v1', 'index.json')) ? join(dir, 'redfish', 'v1') : dir;
  const tree: Tree = new Map();
  for (const file of walk(base)) {
    const rel = relative(base, file).split(sep).slice(0, -1);
    if (rel[0] === '$metadata' || rel[0] === 'odata') continue;
    let body: Json;
    try {
      body = JSON.parse(readFileSync(file, 'utf8')) as Json;
    } catch {
      continue;
    }
    if (isObj(body) && 'error' in body && !('@odata.id' in body)) continue; // a captured error (404 and the like)
    const fromPath = cleanUri('/redfish/v1/' + rel.join('/'))!;
    const id = isObj(body) && typeof body['@odata.id'] === 'string' ? cleanUri(body['@odata.id']) : undefined;
    // Trust the path the file sits at (Mockup Creator's layout); the body's @odata.id may differ in case.
    tree.set(id && key(id) === key(fromPath) ? id : fromPath, body);
  }
  return tree;
}

interface SpecTemplate {
  type?: string;
  properties?: string[];
}
interface Spec {
  source?: string;
  templates: Record<string, SpecTemplate>;
}

const isObj = (v: Json | undefined): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------- templates ----------

/** Collections of a tree: the URIs whose body has a Members array, and the member URIs each lists. */
function collections(tree: Tree): Set<string> {
  const cols = new Set<string>();
  const typeOf = new Map<string, string>();
  for (const [uri, body] of tree) {
    if (isObj(body) && Array.isArray(body.Members)) cols.add(key(uri));
    if (isObj(body) && typeof body['@odata.type'] === 'string') typeOf.set(key(uri), body['@odata.type']);
    // iLO's ResourceDirectory types every URI, those the capture got no body for included.
    if (isObj(body) && Array.isArray(body.Instances)) {
      for (const i of body.Instances) {
        if (!isObj(i) || typeof i['@odata.id'] !== 'string' || typeof i['@odata.type'] !== 'string') continue;
        const u = cleanUri(i['@odata.id']);
        if (!u) continue;
        if (/Collection\./.test(i['@odata.type'])) cols.add(key(u));
        if (!typeOf.has(key(u))) typeOf.set(key(u), i['@odata.type']);
      }
    }
  }
  // A parent the capture lacks is a collection when two or more of its children share one type.
  const kids = new Map<string, Map<string, number>>();
  for (const [k, t] of typeOf) {
    const parent = k.slice(0, k.lastIndexOf('/'));
    if (typeOf.has(parent) || /Collection\./.test(t)) continue;
    const m = kids.get(parent) ?? new Map<string, number>();
    m.set(t, (m.get(t) ?? 0) + 1);
    kids.set(parent, m);
  }
  for (const [parent, m] of kids) if ([...m.values()].some((n) => n >= 2)) cols.add(parent);
  return cols;
}

/** Maps every URI of a tree to its template: a segment below a collection becomes {id}. */
function templater(tree: Tree, oem: string, extraCollectionTemplates: Set<string>): (uri: string) => string {
  const cols = collections(tree);
  const memo = new Map<string, string>();
  const oemLc = oem.toLowerCase();
  const of = (uri: string): string => {
    const k = key(uri);
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    let t: string;
    if (k === '/redfish/v1' || k === '/redfish' || k === '/') t = k;
    else {
      const cut = k.lastIndexOf('/');
      const parent = k.slice(0, cut) || '/';
      let seg = k.slice(cut + 1);
      const pt = of(parent);
      if (seg === oemLc && pt.endsWith('/oem')) seg = 'hpe';
      // Files (schemas, registries: `Base.v1_4_0.json`) are members of their folder too.
      const isMember =
        cols.has(parent) ||
        extraCollectionTemplates.has(pt) ||
        /\.(json|gz|xml)$/.test(seg) ||
        /\/(registrystore\/registries|schemastore)\/[a-z]{2}(-[a-z]+)?$/.test(parent);
      t = `${pt === '/' ? '' : pt}/${isMember ? '{id}' : seg}`;
    }
    memo.set(k, t);
    return t;
  };
  return of;
}

// ---------- properties ----------

/** Open maps: their keys are data (BIOS attribute names, message keys, ...), not properties. */
function isOpenMap(path: string, bodyType: string): boolean {
  const last = path.split('/').pop()!;
  if (last === 'Attributes' && !path.includes('[]')) return true; // Bios, Bios/Settings, iLO BIOS resources
  if (last === 'Messages' && /MessageRegistry\./.test(bodyType)) return true;
  if (/^BaseConfigs\[\]\/[^/]+$/.test(path)) return true; // HpeBaseConfigs: BaseConfigs[]/default/<attribute>
  if (/AttributeRegistry\./.test(bodyType) && path === 'RegistryEntries') return true;
  return false;
}

function mapOemKey(k: string, oem: string): string {
  if (oem === 'Hpe') return k;
  if (k === oem) return 'Hpe';
  if (k.startsWith(`#${oem}MC`)) return `#HpeiLO${k.slice(oem.length + 3)}`;
  if (k.startsWith(`#${oem}`)) return `#Hpe${k.slice(oem.length + 1)}`;
  return k;
}

function leafPaths(body: Json, oem: string): Set<string> {
  const out = new Set<string>();
  const type = isObj(body) && typeof body['@odata.type'] === 'string' ? body['@odata.type'] : '';
  const visit = (v: Json, path: string): void => {
    if (path && isOpenMap(path, type)) {
      out.add(path);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) out.add(`${path}[]`);
      for (const x of v) visit(x, `${path}[]`);
      return;
    }
    if (isObj(v)) {
      const keys = Object.keys(v).filter((k) => !k.startsWith('@odata.') && !k.includes('@odata.'));
      if (keys.length === 0 && path) out.add(path);
      for (const k of keys) {
        const mk = mapOemKey(k, oem);
        visit(v[k]!, path ? `${path}/${mk}` : mk);
      }
      return;
    }
    if (path) out.add(path);
  };
  visit(body, '');
  return out;
}

/** A reference path counts as shown if the service has it, or has it as a prefix of deeper data. */
function shown(p: string, svc: Set<string>, svcPrefixes: Set<string>): boolean {
  if (svc.has(p)) return true;
  const bare = p.endsWith('[]') ? p.slice(0, -2) : p;
  return svcPrefixes.has(bare) || svc.has(bare) || svc.has(`${bare}[]`);
}

function prefixesOf(paths: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const pre = parts.slice(0, i).join('/');
      out.add(pre);
      if (pre.endsWith('[]')) out.add(pre.slice(0, -2));
    }
  }
  return out;
}

interface Reduced {
  templates: Map<string, { uris: string[]; props: Set<string>; type: string }>;
}

/** One served URI: its template's segments, its own segments (lower-cased, OEM name mapped), its properties. */
interface ServedUri {
  template: string[];
  segments: string[];
  props: Set<string>;
}

function reduceTree(tree: Tree, oem: string, extraCols: Set<string>, served?: ServedUri[]): Reduced {
  const of = templater(tree, oem, extraCols);
  const templates: Reduced['templates'] = new Map();
  for (const [uri, body] of tree) {
    if (!key(uri).startsWith('/redfish/v1')) continue;
    const t = of(uri);
    let e = templates.get(t);
    if (!e) templates.set(t, (e = { uris: [], props: new Set(), type: '' }));
    e.uris.push(uri);
    if (!e.type && isObj(body) && typeof body['@odata.type'] === 'string')
      e.type = body['@odata.type'].replace(/^#/, '').replace(/\.v\d+_\d+_\d+/, '');
    const fileContents = key(uri).includes('/schemastore/') || key(uri).includes('/registrystore/'); // not resources
    const props = fileContents ? new Set<string>() : leafPaths(body, oem);
    for (const p of props) e.props.add(p);
    if (served) {
      const template = t.split('/');
      const segments = key(uri).split('/');
      // `Oem/<name>` is `Oem/Hpe` in the URI's own segments too.
      for (let i = 1; i < segments.length; i++) if (segments[i - 1] === 'oem' && template[i] === 'hpe') segments[i] = 'hpe';
      served.push({ template, segments, props });
    }
  }
  return { templates };
}

/**
 * The service's side of one reference template: the union of the properties of every served URI
 * it matches (its {id} a member, its literal segment the URI's own segment), or undefined.
 */
function matcher(served: ServedUri[]): (refTemplate: string) => Set<string> | undefined {
  const byLength = new Map<number, ServedUri[]>();
  for (const s of served) {
    const list = byLength.get(s.segments.length) ?? [];
    list.push(s);
    byLength.set(s.segments.length, list);
  }
  return (refTemplate) => {
    const ref = refTemplate.split('/');
    let props: Set<string> | undefined;
    for (const s of byLength.get(ref.length) ?? []) {
      const hit = ref.every((r, i) => (r === '{id}' ? s.template[i] === '{id}' : s.segments[i] === r));
      if (!hit) continue;
      props ??= new Set();
      for (const p of s.props) props.add(p);
    }
    return props;
  };
}

function reduceSpec(spec: Spec): Reduced {
  const templates: Reduced['templates'] = new Map();
  for (const [t, s] of Object.entries(spec.templates)) {
    const tk = (cleanUri(t) ?? t).toLowerCase().replace(/\{[^}]*\}/g, '{id}');
    const e = templates.get(tk) ?? { uris: [t], props: new Set<string>(), type: s.type ?? '' };
    for (const p of s.properties ?? []) e.props.add(p);
    templates.set(tk, e);
  }
  return { templates };
}

// ---------- crawling the service ----------

interface Http {
  get(path: string): Promise<{ status: number; body?: Json }>;
  close(): void;
}

function client(base: string, auth: Record<string, string>, concurrency: number): Http {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, rejectUnauthorized: false });
  const u = new URL(base);
  const call = (method: string, path: string, payload?: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = request(
        {
          agent,
          method,
          host: u.hostname,
          port: u.port || 443,
          path,
          headers: { Accept: 'application/json', 'Accept-Encoding': 'gzip', ...auth, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let buf = Buffer.concat(chunks);
            if (/gzip/i.test(String(res.headers['content-encoding'] ?? '')) || (buf[0] === 0x1f && buf[1] === 0x8b)) {
              try {
                buf = gunzipSync(buf);
              } catch {
                /* keep the bytes */
              }
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: buf.toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    async get(path) {
      const r = await call('GET', path);
      let body: Json | undefined;
      try {
        body = JSON.parse(r.text) as Json;
      } catch {
        body = undefined;
      }
      return { status: r.status, body };
    },
    close: () => agent.destroy(),
  };
}

async function login(base: string, user: string, password: string): Promise<{ auth: Record<string, string>; logout: () => Promise<void> }> {
  const u = new URL(base);
  const agent = new Agent({ rejectUnauthorized: false });
  const payload = JSON.stringify({ UserName: user, Password: password });
  const res = await new Promise<{ status: number; token?: string; location?: string }>((resolve, reject) => {
    const req = request(
      {
        agent,
        method: 'POST',
        host: u.hostname,
        port: u.port || 443,
        path: '/redfish/v1/SessionService/Sessions/',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
      },
      (r) => {
        r.resume();
        r.on('end', () =>
          resolve({ status: r.statusCode ?? 0, token: r.headers['x-auth-token'] as string | undefined, location: r.headers.location }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
  if (res.status !== 201 || !res.token) {
    // Fall back to Basic on every request.
    const basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    return { auth: { Authorization: basic }, logout: async () => agent.destroy() };
  }
  const token = res.token;
  return {
    auth: { 'X-Auth-Token': token },
    logout: async () => {
      if (res.location) {
        const path = cleanUri(res.location) ?? res.location;
        await new Promise<void>((resolve) => {
          const req = request(
            { agent, method: 'DELETE', host: u.hostname, port: u.port || 443, path, headers: { 'X-Auth-Token': token } },
            (r) => {
              r.resume();
              r.on('end', () => resolve());
            },
          );
          req.on('error', () => resolve());
          req.end();
        });
      }
      agent.destroy();
    },
  };
}

function linksOf(body: Json, out: string[]): void {
  if (Array.isArray(body)) for (const x of body) linksOf(x, out);
  else if (isObj(body)) {
    for (const [k, v] of Object.entries(body)) {
      if ((k === '@odata.id' || k.endsWith('@odata.id') || k === 'Uri') && typeof v === 'string') out.push(v);
      else if (k === 'extref' && typeof v === 'string') out.push(v);
      else linksOf(v, out);
    }
  }
}

async function crawl(o: Options): Promise<{ tree: Tree; errors: Map<string, number> }> {
  const session = await login(o.url!, o.user, o.password);
  const http = client(o.url!, session.auth, o.concurrency);
  const tree: Tree = new Map();
  const errors = new Map<string, number>();
  const seen = new Set<string>();
  const queue: string[] = ['/redfish/v1/'];
  seen.add(key('/redfish/v1'));
  const enqueue = (raw: string) => {
    const u = cleanUri(raw);
    if (!u || !key(u).startsWith('/redfish/v1')) return;
    const k = key(u);
    if (seen.has(k) || seen.size >= o.maxResources) return;
    seen.add(k);
    queue.push(u);
  };
  const worker = async () => {
    while (queue.length) {
      const path = queue.shift()!;
      let r: { status: number; body?: Json };
      try {
        r = await http.get(path.endsWith('/') ? path : `${path}/`);
      } catch {
        errors.set(path, -1);
        continue;
      }
      if (r.status !== 200 || r.body === undefined) {
        errors.set(path, r.status);
        continue;
      }
      tree.set(cleanUri(path)!, r.body);
      const links: string[] = [];
      linksOf(r.body, links);
      for (const l of links) enqueue(l);
    }
  };
  // Workers wait for each other's discoveries: rerun until the queue stays empty.
  while (queue.length) await Promise.all(Array.from({ length: o.concurrency }, worker));
  http.close();
  await session.logout();
  return { tree, errors };
}

// ---------- scoring ----------

interface Score {
  ref: string;
  refTemplates: number;
  servedTemplates: number;
  templateShare: number;
  refPropsMatched: number;
  shownPropsMatched: number;
  propShareMatched: number;
  refPropsAll: number;
  propShareAll: number;
  missingTemplates: { template: string; type: string; properties: number }[];
  missingProps: { template: string; missing: number; of: number; examples: string[] }[];
  byArea: { area: string; templates: number; served: number; props: number; shown: number }[];
}

function area(t: string): string {
  const parts = t.split('/').filter(Boolean); // redfish, v1, X, ...
  if (parts.length <= 2) return '(root)';
  const a = parts[2]!;
  if ((a === 'systems' || a === 'chassis' || a === 'managers') && parts.length > 4) return `${a}/{id}/${parts[4]}`;
  return a;
}

function score(refName: string, ref: Reduced, svcProps: (refTemplate: string) => Set<string> | undefined, top: number): Score {
  const missingTemplates: Score['missingTemplates'] = [];
  const missingProps: Score['missingProps'] = [];
  const areas = new Map<string, { templates: number; served: number; props: number; shown: number }>();
  let served = 0;
  let refPropsMatched = 0;
  let shownMatched = 0;
  let refPropsAll = 0;
  for (const [t, e] of ref.templates) {
    const a = areas.get(area(t)) ?? { templates: 0, served: 0, props: 0, shown: 0 };
    areas.set(area(t), a);
    a.templates++;
    a.props += e.props.size;
    refPropsAll += e.props.size;
    const s = svcProps(t);
    if (!s) {
      missingTemplates.push({ template: t, type: e.type, properties: e.props.size });
      continue;
    }
    served++;
    a.served++;
    const pre = prefixesOf(s);
    const miss: string[] = [];
    let ok = 0;
    for (const p of e.props) {
      if (shown(p, s, pre)) ok++;
      else miss.push(p);
    }
    refPropsMatched += e.props.size;
    shownMatched += ok;
    a.shown += ok;
    if (miss.length) missingProps.push({ template: t, missing: miss.length, of: e.props.size, examples: miss.sort() });
  }
  missingTemplates.sort((x, y) => y.properties - x.properties || x.template.localeCompare(y.template));
  missingProps.sort((x, y) => y.missing - x.missing);
  return {
    ref: refName,
    refTemplates: ref.templates.size,
    servedTemplates: served,
    templateShare: served / Math.max(1, ref.templates.size),
    refPropsMatched,
    shownPropsMatched: shownMatched,
    propShareMatched: shownMatched / Math.max(1, refPropsMatched),
    refPropsAll,
    propShareAll: shownMatched / Math.max(1, refPropsAll),
    missingTemplates: missingTemplates.slice(0, Math.max(top, 0) || undefined),
    missingProps: missingProps.slice(0, Math.max(top, 0) || undefined),
    byArea: [...areas.entries()].map(([area, v]) => ({ area, ...v })).sort((x, y) => y.templates - x.templates),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function print(s: Score, top: number): void {
  console.log(`\n=== ${s.ref}`);
  console.log(`templates: ${s.servedTemplates}/${s.refTemplates} served (${pct(s.templateShare)})`);
  console.log(
    `properties: ${s.shownPropsMatched}/${s.refPropsMatched} shown on matched templates (${pct(s.propShareMatched)}); ` +
      `${pct(s.propShareAll)} of all ${s.refPropsAll} reference properties`,
  );
  console.log('\nby area (templates served/ref, properties shown/ref):');
  for (const a of s.byArea)
    console.log(
      `  ${a.area.padEnd(34)} ${String(a.served).padStart(4)}/${String(a.templates).padEnd(4)} ${String(a.shown).padStart(5)}/${a.props}`,
    );
  console.log(`\nbiggest missing templates (by reference property count), top ${top}:`);
  for (const m of s.missingTemplates.slice(0, top)) console.log(`  ${String(m.properties).padStart(4)}  ${m.template}  ${m.type}`);
  console.log(`\nmatched templates missing most properties, top ${top}:`);
  for (const m of s.missingProps.slice(0, top))
    console.log(
      `  ${String(m.missing).padStart(4)}/${String(m.of).padEnd(4)} ${m.template}: ${m.examples.slice(0, 8).join(', ')}${m.examples.length > 8 ? ', ...' : ''}`,
    );
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  let svcTree: Tree;
  if (o.svcDir) svcTree = loadMockup(o.svcDir);
  else if (o.loadCrawl) svcTree = new Map(Object.entries(JSON.parse(readFileSync(o.loadCrawl, 'utf8')) as Record<string, Json>));
  else {
    const { tree, errors } = await crawl(o);
    svcTree = tree;
    console.log(
      `crawled ${tree.size} resources from ${o.url} (${errors.size} links not served: ${[...errors]
        .slice(0, 10)
        .map(([u, s]) => `${u} ${s}`)
        .join('; ')}${errors.size > 10 ? '; ...' : ''})`,
    );
  }
  if (o.saveCrawl) writeFileSync(o.saveCrawl, JSON.stringify(Object.fromEntries(svcTree)));
  let oem = o.oemName;
  if (!oem) {
    const root = svcTree.get('/redfish/v1') ?? [...svcTree].find(([u]) => key(u) === '/redfish/v1')?.[1];
    const oemKeys =
      isObj(root ?? null) && isObj((root as Record<string, Json>).Oem) ? Object.keys((root as Record<string, Json>).Oem as object) : [];
    oem = oemKeys[0] ?? 'Vendor';
  }
  const scores: Score[] = [];
  for (const refPath of o.refs) {
    const isSpec = refPath.endsWith('.json') && statSync(refPath).isFile();
    const ref = isSpec ? reduceSpec(JSON.parse(readFileSync(refPath, 'utf8')) as Spec) : reduceTree(loadMockup(refPath), 'Hpe', new Set());
    // Collections the reference knows are collections on the service side too (a fresh service may list no
    // member; a member may sit in an array, as StorageControllers/0/ does): every parent of an {id}.
    const refCols = new Set<string>();
    for (const t of ref.templates.keys())
      for (let i = t.indexOf('/{id}'); i >= 0; i = t.indexOf('/{id}', i + 1)) refCols.add(t.slice(0, i));
    const served: ServedUri[] = [];
    reduceTree(svcTree, oem, refCols, served);
    const s = score(refPath, ref, matcher(served), 1e9);
    scores.push(s);
    print(s, o.top);
  }
  if (o.json) writeFileSync(o.json, JSON.stringify({ oemName: oem, scores }, null, 1));
  console.log('\nsummary:');
  for (const s of scores)
    console.log(
      `  ${pct(s.templateShare).padStart(6)} templates  ${pct(s.propShareMatched).padStart(6)} properties (matched)  ${pct(s.propShareAll).padStart(6)} (all)  ${s.ref}`,
    );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
