// Walking the route table over HTTPS: one URI that exists for every route,
// found by crawling from the service root (after members.ts made a member of
// every collection). The walks of wrong ids and of privileges start here.
import type { AnyRoute, Match } from '../../src/protocol/routes.js';
import type { TestService } from './service.js';

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
    else links(x, out);
  }
}

/** The URIs that exist of each route the crawl from the service root reaches, as the administrator sees them. */
export async function crawlRoutes(svc: TestService): Promise<Map<AnyRoute, Match[]>> {
  const routes = svc.running.services.routes;
  const known = new Map<AnyRoute, Match[]>();
  const seen = new Set<string>();
  const queue = ['/redfish/v1/'];
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
