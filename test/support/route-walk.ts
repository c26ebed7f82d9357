// Walking the route table over HTTPS: one URI that exists for every route,
// found by crawling from the service root (after members.ts made a member of
// every collection). The walks of wrong ids and of privileges start here, and
// the crawls that must reach every GET route (crawl, response contract).
import type { AnyRoute, Match } from '../../src/protocol/routes.js';
import type { Response, TestService } from './service.js';

function links(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) return v.forEach((x) => links(x, out));
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    if (
      ['@odata.id', 'target', 'Uri', 'ComponentUri', 'TaskMonitor', '@Redfish.ActionInfo'].includes(k) &&
      typeof x === 'string' &&
      x.startsWith('/redfish/v1/')
    )
      out.add(x.split('#')[0] as string);
    // The vendor's links to files beside the tree (the AHS log, a backup file): the file, without its query.
    else if (k === 'extref' && typeof x === 'string' && x.startsWith('/')) out.add(`${(x.split('?')[0] as string).replace(/\/?$/, '/')}`);
    else links(x, out);
  }
}

/** Resources a dialect serves without linking them (the spec dialect, as the vendor's controllers, links virtual media from the manager only). */
const UNLINKED = ['/redfish/v1/Systems/1/VirtualMedia/'];

/** The URIs that exist of each route the crawl from the service root reaches, as the administrator sees them. */
export async function crawlRoutes(svc: TestService): Promise<Map<AnyRoute, Match[]>> {
  const routes = svc.running.services.routes;
  const known = new Map<AnyRoute, Match[]>();
  const seen = new Set<string>();
  const queue = ['/redfish/v1/', ...UNLINKED];
  while (queue.length && seen.size < 3000) {
    const uri = queue.shift() as string;
    if (seen.has(uri)) continue;
    seen.add(uri);
    const m = routes.match(uri);
    if (m) known.set(m.route, [...(known.get(m.route) ?? []), m]);
    const r = await svc.get(uri);
    if (r.status !== 200 || !r.body) continue;
    const found = new Set<string>();
    links(r.body, found);
    for (const l of found) if (!seen.has(l) && !l.includes('/Actions/')) queue.push(l);
  }
  return known;
}

/** Where a walk of every GET route starts: the tree, and the files beside it. */
export const WALK_STARTS = [
  '/redfish',
  '/redfish/v1/',
  '/redfish/v1/$metadata',
  '/redfish/v1/odata',
  '/redfish/v1/openapi.yaml',
  ...UNLINKED,
];

/** Every link to something served: resources, files (Location Uri), component binaries, task monitors, CSDL references. */
export function servedLinks(r: { text: string; body: unknown; headers: Record<string, string> }): Set<string> {
  const out = new Set<string>();
  if (r.headers['content-type']?.includes('xml')) {
    for (const m of r.text.matchAll(/Uri="(\/redfish\/[^"#]+)"/g)) out.add(m[1] as string);
    return out;
  }
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (
        ['@odata.id', 'Uri', 'ComponentUri', 'TaskMonitor', 'Members@odata.nextLink', '@Redfish.ActionInfo'].includes(k) &&
        typeof x === 'string'
      ) {
        if (x.startsWith('/redfish')) out.add(x.split('#')[0] as string);
      } else if (k !== 'target') walk(x);
    }
  };
  walk(r.body);
  return out;
}

/**
 * GET breadth-first from `starts`: `each` sees every answer and returns the links to follow from it.
 * Returns how many URIs have been fetched.
 */
export async function walk(
  svc: TestService,
  starts: string[],
  each: (uri: string, r: Response) => Iterable<string>,
  /** URIs fetched already (by an earlier walk), not fetched again. */
  seen: Set<string> = new Set(),
): Promise<number> {
  const queue = [...starts];
  while (queue.length && seen.size < 5000) {
    const uri = queue.shift() as string;
    if (seen.has(uri)) continue;
    seen.add(uri);
    for (const l of each(uri, await svc.get(uri))) if (!seen.has(l)) queue.push(l);
  }
  return seen.size;
}

/** The GET routes of the Redfish tree that no answer of a walk matched. */
export function unreachedGetRoutes(svc: TestService, reached: ReadonlySet<object>): string[] {
  return svc.running.services.routes
    .routes()
    .filter((r) => r.get && !r.outside && !reached.has(r))
    .map((r) => r.path);
}
