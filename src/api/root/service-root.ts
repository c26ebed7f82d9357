// The service root, the version document, $metadata and the OData service document.
import { Priv } from '../../lib/privileges.js';
import { DIRECTORY_KINDS } from '../../domain/accounts/directory-settings.js';
import { readNetworkProtocol } from '../../domain/manager/network-protocol.js';
import { isoNow } from '../../platform/clock.js';
import { defineType, oem, ro, t } from '../../protocol/description.js';
import { controllerType, OEM } from '../../protocol/naming.js';
import { metadataXml, serviceDocument } from '../../protocol/metadata.js';
import { openApiYaml } from '../../protocol/openapi.js';
import { MAX_EXPAND_LEVELS } from '../../protocol/query.js';
import { Representations } from '../../lib/memo.js';
import { RawReply, json } from '../../protocol/reply.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

const link = () => t.link({ readOnly: true });

/**
 * Top-level links of the root, in the order they are shown, each by the type of the resource it
 * names: the URI is that of the route serving the type directly (no path parameters), so the root
 * lists what the route table serves, in the dialect's spelling (JsonSchemas).
 */
const ROOT_LINKS = {
  Systems: 'ComputerSystemCollection',
  Chassis: 'ChassisCollection',
  Managers: 'ManagerCollection',
  SessionService: 'SessionService',
  AccountService: 'AccountService',
  EventService: 'EventService',
  UpdateService: 'UpdateService',
  Tasks: 'TaskService',
  TelemetryService: 'TelemetryService',
  CertificateService: 'CertificateService',
  Registries: 'MessageRegistryFileCollection',
  JsonSchemas: 'JsonSchemaFileCollection',
} as const;
const ROOT_LINK_NAMES = Object.keys(ROOT_LINKS) as (keyof typeof ROOT_LINKS)[];

/** The root's links that the route table serves, in the order they are shown. */
function rootLinks(routes: RouteTable): [string, string][] {
  const byType = new Map<string, string>();
  for (const r of routes.routes()) if (r.type && !r.path.includes('{')) byType.set(r.type.name, r.path);
  return ROOT_LINK_NAMES.flatMap((n) => {
    const uri = byType.get(ROOT_LINKS[n]);
    return uri ? [[n, uri]] : [];
  });
}

/** Where iLO's clients find every resource's URI, type and ETag at once. */
export const RESOURCE_DIRECTORY_URI = '/redfish/v1/ResourceDirectory/';

const health = () => t.object({ Health: ro(t.enum(['OK', 'Warning', 'Critical'])) }, { readOnly: true, typeName: 'Status' });

/** The product names a Moniker may carry (iLO 5 and 6 show all of them, another vendor a few). */
const MONIKER_KEYS = [
  'ADVLIC',
  'BMC',
  'BSYS',
  'CLASS',
  'FEDGRP',
  'IPROV',
  'PRODABR',
  'PRODFAM',
  'PRODGEN',
  'PRODNAM',
  'PRODTAG',
  'STDLIC',
  'SUMABR',
  'SUMGR',
  'SYSFAM',
  'SYSMGMT',
  'VENDABR',
  'VENDNAM',
  'VNIC',
  'WWW',
  'WWWAHSV',
  'WWWBMC',
  'WWWDOC',
  'WWWERS',
  'WWWGLIS',
  'WWWINFOSIGHT',
  'WWWIOL',
  'WWWLIC',
  'WWWLML',
  'WWWPASS',
  'WWWPRV',
  'WWWQSPEC',
  'WWWRESTDOC',
  'WWWSUP',
  'WWWSWLIC',
] as const;

/** What iLO's clients read first (ilorest: the controller's generation and firmware for its version gates). */
const RootOemType = defineType({
  name: controllerType('ServiceExt'),
  version: '1.0.0',
  owner: OEM,
  description: "The controller's identity, product names, login settings and clock, as its vendor's clients read them from the root.",
  properties: {
    Manager: ro(
      t.array(
        t.object(
          {
            ManagerType: ro(t.string({ description: 'The controller generation ("iLO 5").' })),
            ManagerFirmwareVersion: ro(t.string({ description: 'The running controller firmware, as the firmware inventory shows it.' })),
            DefaultLanguage: ro(t.string()),
            Languages: ro(
              t.array(
                t.object({ Language: ro(t.string()), TranslationName: ro(t.string()), Version: ro(t.string()) }, { typeName: 'Language' }),
              ),
            ),
            HostName: ro(t.string()),
            FQDN: ro(t.string({ nullable: true })),
            Status: health(),
          },
          { typeName: 'ManagerInfo' },
        ),
      ),
    ),
    Moniker: ro(
      t.object(Object.fromEntries(MONIKER_KEYS.map((k) => [k, ro(t.string())])), {
        typeName: 'Moniker',
        description: "The vendor's product names.",
      }),
    ),
    Sessions: ro(
      t.object(
        {
          LocalLoginEnabled: ro(t.boolean()),
          LDAPEnabled: ro(t.boolean()),
          LDAPAuthLicenced: ro(t.boolean()),
          KerberosEnabled: ro(t.boolean()),
          CertificateLoginEnabled: ro(t.boolean()),
          CertCommonName: ro(t.string()),
          LoginFailureDelay: ro(t.integer({ units: 's' })),
          SecurityOverride: ro(t.boolean()),
          LoginHint: ro(
            t.object(
              {
                Hint: ro(t.string()),
                HintPOSTData: ro(t.object({ UserName: ro(t.string()), Password: ro(t.string()) }, { typeName: 'HintPOSTData' })),
              },
              { typeName: 'LoginHint' },
            ),
          ),
        },
        { typeName: 'SessionsInfo' },
      ),
    ),
    System: ro(t.array(t.object({ Status: health() }, { typeName: 'SystemInfo' }))),
    Time: ro(t.dateTime({ volatile: true, description: "The controller's clock." })),
    // iLO's directory is served in iLO's dialect: DMTF's reads an Instance's @odata.type as its own type.
    Links: ro(t.object({ ResourceDirectory: t.link({ readOnly: true, onlyIn: 'spec' }) }, { typeName: 'Links' })),
  },
});

export const ServiceRootType = defineType({
  name: 'ServiceRoot',
  version: '1.20.0',
  owner: 'DMTF',
  description: 'The entry point of the Redfish service.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    RedfishVersion: ro(t.string()),
    UUID: ro(t.string()),
    Product: ro(t.string()),
    Vendor: ro(t.string()),
    ...Object.fromEntries(ROOT_LINK_NAMES.map((n) => [n, link()])),
    Links: t.object({ Sessions: link() }, { readOnly: true, typeName: 'Links' }),
    ProtocolFeaturesSupported: t.object(
      {
        ExpandQuery: t.object(
          {
            ExpandAll: ro(t.boolean()),
            Levels: ro(t.boolean()),
            Links: ro(t.boolean()),
            NoLinks: ro(t.boolean()),
            MaxLevels: ro(t.integer()),
          },
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
    Oem: oem(RootOemType, { readOnly: true }),
  },
});

export const REDFISH_VERSION = '1.23.1';

/** What the service root uses. */
export type ServiceRootDeps = Pick<
  Services,
  | 'serviceUuid'
  | 'dialect'
  | 'routes'
  | 'naming'
  | 'store'
  | 'clock'
  | 'firmware'
  | 'hardware'
  | 'health'
  | 'directories'
  | 'certificateLogin'
>;

const SESSIONS_URI = '/redfish/v1/SessionService/Sessions/';

function handlers(d: ServiceRootDeps) {
  const root = new Representations();
  // Built on first use: by then every area has registered its routes.
  let metadata: string | undefined;
  let openapi: string | undefined;
  let linked: [string, string][] | undefined;
  const links = () => (linked ??= rootLinks(d.routes));
  return { getVersions, getServiceRoot, getMetadata, getOpenApi, getServiceDocument };

  function getVersions() {
    return json(200, { v1: '/redfish/v1/' });
  }

  function getServiceRoot() {
    // The root changes with what is stored (firmware, host name, login settings), the health and the clock's second;
    // its links are fixed once the routes are.
    const now = isoNow(d.clock);
    const rollup = d.health.rollupPrefix('');
    return root.get('', [d.serviceUuid, d.store.generation, rollup, now], () => ({
      Id: 'RootService',
      Name: 'Root Service',
      RedfishVersion: REDFISH_VERSION,
      UUID: d.serviceUuid,
      Product: 'bmc-redfish simulated server',
      Vendor: d.naming.label,
      ...Object.fromEntries(links().map(([n, uri]) => [n, { '@odata.id': uri }])),
      Links: { Sessions: { '@odata.id': SESSIONS_URI } },
      ProtocolFeaturesSupported: {
        ExpandQuery: { ExpandAll: true, Levels: true, Links: true, NoLinks: true, MaxLevels: MAX_EXPAND_LEVELS },
        SelectQuery: true,
        FilterQuery: false,
        OnlyMemberQuery: true,
        ExcerptQuery: false,
        DeepOperations: { DeepPATCH: false, DeepPOST: false },
      },
      Oem: { [OEM]: rootOem(d, now, rollup) },
    }));
  }

  function getMetadata() {
    metadata ??= metadataXml(d.routes.types(), ServiceRootType);
    return new RawReply(200, 'application/xml; charset=utf-8', metadata);
  }

  function getOpenApi() {
    openapi ??= openApiYaml(
      d.routes,
      {
        title: 'bmc-redfish',
        version: REDFISH_VERSION,
        description: 'Redfish service of a management controller with a simulated server behind it.',
      },
      d.dialect.name,
    );
    return new RawReply(200, 'application/yaml; charset=utf-8', openapi);
  }

  function getServiceDocument() {
    return json(200, serviceDocument({ Service: '/redfish/v1/', ...Object.fromEntries(links()), Sessions: SESSIONS_URI }));
  }
}

function rootOem(d: ServiceRootDeps, now: string, rollup: string) {
  const product = d.naming.controller(d.hardware.system.model);
  const version = d.firmware.controllerVersion();
  const host = readNetworkProtocol(d.store).HostName;
  return {
    Manager: [
      {
        ManagerType: product.type,
        ManagerFirmwareVersion: version,
        DefaultLanguage: 'en',
        Languages: [{ Language: 'en', TranslationName: 'English', Version: version }],
        HostName: host,
        // No DNS domain is configured (as on the manager's interfaces): the FQDN is the host name.
        FQDN: host,
        Status: { Health: 'OK' },
      },
    ],
    Moniker: product.moniker,
    Sessions: {
      LocalLoginEnabled: true,
      LDAPEnabled: DIRECTORY_KINDS.some((k) => d.directories.get(k).ServiceEnabled),
      LDAPAuthLicenced: true,
      KerberosEnabled: false,
      CertificateLoginEnabled: d.certificateLogin.settings().CertificateLoginEnabled,
      CertCommonName: host,
      LoginFailureDelay: 0,
      SecurityOverride: false,
      LoginHint: {
        Hint: 'POST to /Sessions to login using the following JSON object:',
        HintPOSTData: { UserName: 'username', Password: 'password' },
      },
    },
    System: [{ Status: { Health: rollup } }],
    Time: now,
    Links: { ResourceDirectory: { '@odata.id': RESOURCE_DIRECTORY_URI } },
  };
}

export function registerServiceRootRoutes(routes: RouteTable, d: ServiceRootDeps): void {
  const h = handlers(d);
  // The entry points and service documents: reachable without credentials.
  routes.add({ path: '/redfish', file: true, verbatim: true, open: true, get: { privilege: Priv.none, handler: h.getVersions } });
  routes.add({ path: '/redfish/v1/', type: ServiceRootType, open: true, get: { privilege: Priv.none, handler: h.getServiceRoot } });
  routes.add({ path: '/redfish/v1/$metadata', file: true, open: true, get: { privilege: Priv.none, handler: h.getMetadata } });
  routes.add({ path: '/redfish/v1/openapi.yaml', file: true, open: true, get: { privilege: Priv.none, handler: h.getOpenApi } });
  routes.add({ path: '/redfish/v1/odata', file: true, open: true, get: { privilege: Priv.none, handler: h.getServiceDocument } });
}
