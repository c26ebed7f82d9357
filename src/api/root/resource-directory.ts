// iLO's ResourceDirectory: every resource the service serves, each with its URI, type, ETag and
// methods, in one answer. iLO's clients (ilorest) read it instead of crawling, look resources up
// by type in it, and find the pending settings objects (`…/settings`) through it.
import { Priv } from '../../lib/privileges.js';
import { commonProps, defineType, ro, t } from '../../protocol/description.js';
import { controllerType, OEM } from '../../protocol/naming.js';
import type { Principal } from '../../protocol/principal.js';
import { allowedMethods, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { RESOURCE_DIRECTORY_URI } from './service-root.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

export const ResourceDirectoryType = defineType({
  name: controllerType('ResourceDirectory'),
  version: '1.0.0',
  owner: OEM,
  description: 'Every resource the service serves, with its type, ETag and methods.',
  properties: {
    ...commonProps,
    Instances: ro(
      t.array(
        t.object(
          {
            ETag: ro(t.string({ description: 'The ETag a GET of the resource answers now.' })),
            HttpMethods: ro(t.array(t.enum(METHODS))),
          },
          { typeName: 'Instance', description: 'A resource: its @odata.id and @odata.type, ETag and methods.' },
        ),
      ),
    ),
  },
});

/**
 * What the directory leaves out, as iLO does: the schema and registry collections and their files
 * (ilorest fetches those collections itself when the directory does not name them, and only then
 * trusts the controller's version), log entries, task monitors.
 */
const NOT_LISTED =
  /^\/redfish\/v1\/(?:JsonSchemas|schemas|SchemaStore|Registries|RegistryStore)\/|\/Entries\/.|\/TaskMonitors\/|\/SSE\/?$|ActionInfo\/$/i;

export type ResourceDirectoryDeps = Pick<Services, 'routes' | 'resources' | 'naming' | 'hardware' | 'dialect'>;

function handlers(d: ResourceDirectoryDeps) {
  return { getResourceDirectory };

  async function getResourceDirectory(ctx: Context<typeof RESOURCE_DIRECTORY_URI>) {
    const product = d.naming.controller(d.hardware.system.model).moniker.PRODABR ?? '';
    return {
      Id: 'ResourceDirectory',
      Name: `${product} Directory Service`.trim(),
      Instances: await instances(ctx.principal),
    };
  }

  /** One walk from the root over every link, each resource read as the client would GET it. */
  async function instances(principal: Principal) {
    const listed: Record<string, unknown>[] = [];
    const seen = new Set<string>([RESOURCE_DIRECTORY_URI]);
    const queue = ['/redfish/v1/'];
    for (let uri = queue.shift(); uri !== undefined; uri = queue.shift()) {
      const match = d.routes.match(uri);
      const body = match?.route.type ? await d.resources.read(uri, principal) : undefined;
      if (!match || !body) continue;
      listed.push({
        // As the vendor spells it (iLO's clients look for settings objects by "/settings").
        '@odata.id': d.naming.listedUri(uri),
        '@odata.type': body['@odata.type'],
        ETag: body['@odata.etag'],
        HttpMethods: allowedMethods(match),
      });
      for (const link of links(body)) {
        const next = d.routes.match(link)?.uri;
        if (next && !seen.has(next) && !NOT_LISTED.test(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return listed;
  }
}

/** Every resource a body links, its own URI aside. */
function links(body: unknown, own = true): string[] {
  if (Array.isArray(body)) return body.flatMap((x) => links(x, false));
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body).flatMap(([k, v]) => {
    if (k === '@odata.id') return own || typeof v !== 'string' || v.includes('#') ? [] : [v];
    return typeof v === 'object' ? links(v, false) : [];
  });
}

export function registerResourceDirectoryRoutes(routes: RouteTable, d: ResourceDirectoryDeps): void {
  // iLO's dialect only: DMTF's validator reads an Instance's @odata.type as the Instance's own type.
  if (d.dialect.name !== 'spec') return;
  const h = handlers(d);
  routes.add({
    path: RESOURCE_DIRECTORY_URI,
    type: ResourceDirectoryType,
    get: { privilege: Priv.login, handler: h.getResourceDirectory },
  });
}
