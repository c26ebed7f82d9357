// The service root, the version document, $metadata and the OData service document.
import { Priv } from '../../lib/privileges.js';
import { defineType, ro, t, type Props } from '../../protocol/description.js';
import { metadataXml, serviceDocument } from '../../protocol/metadata.js';
import { openApiYaml } from '../../protocol/openapi.js';
import { Representations } from '../../lib/memo.js';
import { RawReply, json } from '../../protocol/reply.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

const link = () => t.link({ readOnly: true });

/** Top-level links of the root, in the order they are shown. */
const ROOT_LINK_NAMES = [
  'Systems',
  'Chassis',
  'Managers',
  'SessionService',
  'AccountService',
  'EventService',
  'UpdateService',
  'Tasks',
  'TelemetryService',
  'CertificateService',
  'Registries',
  'JsonSchemas',
] as const;

export const ServiceRootType = defineType({
  name: 'ServiceRoot',
  version: '1.16.0',
  owner: 'DMTF',
  description: 'The entry point of the Redfish service.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    RedfishVersion: ro(t.string()),
    UUID: ro(t.string()),
    Product: ro(t.string()),
    Vendor: ro(t.string()),
    ...(Object.fromEntries(ROOT_LINK_NAMES.map((n) => [n, link()])) as Props),
    Links: t.object({ Sessions: link() }, { readOnly: true, typeName: 'Links' }),
    ProtocolFeaturesSupported: t.object(
      {
        ExpandQuery: t.object(
          { ExpandAll: ro(t.boolean()), Levels: ro(t.boolean()), Links: ro(t.boolean()), NoLinks: ro(t.boolean()), MaxLevels: ro(t.integer()) },
          { readOnly: true, typeName: 'Expand' },
        ),
        SelectQuery: ro(t.boolean()),
        FilterQuery: ro(t.boolean()),
        OnlyMemberQuery: ro(t.boolean()),
        ExcerptQuery: ro(t.boolean()),
        DeepOperations: t.object({ DeepPATCH: ro(t.boolean()), DeepPOST: ro(t.boolean()) }, { readOnly: true, typeName: 'DeepOperations' }),
      },
      { readOnly: true, typeName: 'ProtocolFeaturesSupported' },
    ),
    Oem: t.object({}, { readOnly: true, additionalProperties: true }),
  },
});

export const REDFISH_VERSION = '1.20.0';

export function registerServiceRootRoutes(routes: RouteTable, s: Services): void {
  const root = new Representations();
  routes.add({
    path: '/redfish',
    file: true,
    open: true,
    get: { privilege: Priv.none, handler: () => json(200, { v1: '/redfish/v1/' }) },
  });

  routes.add({
    path: '/redfish/v1/',
    type: ServiceRootType,
    open: true,
    get: {
      privilege: Priv.none,
      // The root changes only with the service's identity; its links are fixed once the areas are registered.
      handler: () => root.get('', [s.serviceUuid], () => ({
        Id: 'RootService',
        Name: 'Root Service',
        RedfishVersion: REDFISH_VERSION,
        UUID: s.serviceUuid,
        Product: 'bmc-redfish simulated server',
        Vendor: 'Vendor',
        ...Object.fromEntries(
          ROOT_LINK_NAMES.filter((n) => s.rootLinks[n]).map((n) => [n, { '@odata.id': s.rootLinks[n] }]),
        ),
        Links: { Sessions: { '@odata.id': '/redfish/v1/SessionService/Sessions/' } },
        ProtocolFeaturesSupported: {
          ExpandQuery: { ExpandAll: true, Levels: true, Links: true, NoLinks: true, MaxLevels: 6 },
          SelectQuery: true,
          FilterQuery: false,
          OnlyMemberQuery: true,
          ExcerptQuery: false,
          DeepOperations: { DeepPATCH: false, DeepPOST: false },
        },
      })),
    },
  });

  let metadata: string | undefined;
  routes.add({
    path: '/redfish/v1/$metadata',
    file: true,
    open: true,
    get: {
      privilege: Priv.none,
      handler: () => {
        metadata ??= metadataXml(routes.types(), ServiceRootType);
        return new RawReply(200, 'application/xml; charset=utf-8', metadata);
      },
    },
  });

  let openapi: string | undefined;
  routes.add({
    path: '/redfish/v1/openapi.yaml',
    file: true,
    open: true,
    get: {
      privilege: Priv.none,
      handler: () => {
        openapi ??= openApiYaml(routes, {
          title: 'bmc-redfish',
          version: REDFISH_VERSION,
          description: 'Redfish service of a management controller with a simulated server behind it.',
        });
        return new RawReply(200, 'application/yaml; charset=utf-8', openapi);
      },
    },
  });

  routes.add({
    path: '/redfish/v1/odata',
    file: true,
    open: true,
    get: {
      privilege: Priv.none,
      handler: () => {
        const top: Record<string, string> = { Service: '/redfish/v1/' };
        for (const n of ROOT_LINK_NAMES) if (s.rootLinks[n]) top[n] = s.rootLinks[n] as string;
        top.Sessions = '/redfish/v1/SessionService/Sessions/';
        return json(200, serviceDocument(top));
      },
    },
  });
}
